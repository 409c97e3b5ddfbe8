/**
 * One page event, start to end: the direct-call id made a string, the data elements resolved on
 * the event's snapshot and sent to the page for `getVar`, `setVar` / `getVar` / facade calls
 * answered, the container's click hook, and the rules that listen, in their order, on the rule
 * queue.
 *
 * The rule queue is turbine's (Adobe's Launch runtime with rule component sequencing): one queue
 * for the whole page, so a rule an event triggers starts only once every rule triggered before it,
 * by any event, has completed. A Library Loaded rule whose action waits (for the network, a
 * promise) holds the Page Bottom and DOM Ready rules behind it, as under turbine. Work queued
 * behind a wait for the world does not hold the dispatch (engine.ts): it runs in the dispatch of
 * the input that ends the wait.
 */
import type { EngineEvent, Snapshot } from '../../protocol.ts';
import { createResolver, type Resolver } from './data-elements.ts';
import { inputFailed } from './failures.ts';
import { safeJson } from './safe-json.ts';
import { withEventTokens } from './event-tokens.ts';
import { DEFAULT_RULE_ORDER, rulesFor, runRule } from './rules.ts';
import { replaceTokens } from './tokens.ts';
import { watchedElements } from './triggers.ts';
import type { Container, ContainerHooks, DataElement, EngineContext, RuleContext } from './types.ts';
import { createValueWatch } from './value-watch.ts';

/** `_satellite.track` with a name no rule listens to (docs/spec-coverage.md D4). */
export const unmatchedDirectCall = (id: string): string => `"${id}" does not match any direct call identifiers.`;

export interface EventDeps<N extends string, S> {
  container: Container<N, S>;
  ctx: EngineContext;
  /** What a site must see whatever the debug switch (an event that could not be processed). */
  alert(message: string): void;
  services(): S;
  hooks(): ContainerHooks;
}

/** Whether structured clone (postMessage) takes `value`. */
function cloneable(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'function' && typeof value !== 'symbol';
  try {
    structuredClone(value);
    return true;
  } catch {
    return false;
  }
}

export interface EventHandler {
  /** Handles one page event; resolves once its rules have completed (they may wait on the queue). */
  handle(event: EngineEvent): Promise<void>;
  /** Events whose rules are queued or running: their beacons are not made yet (the acknowledgements wait for them). */
  pending(): number;
}

export function createEventHandler<N extends string, S>({ container, ctx, services, hooks, alert }: EventDeps<N, S>): EventHandler {
  const { settings, page, cookies, session, emit } = ctx;
  /** The rules' and data elements' messages: only in debug mode unless the container always logs (engine.ts), as turbine's logger prints them. */
  const log = ctx.log;
  const customVars = new Map<string, unknown>();
  const watched = watchedElements(container.rules);
  const watch = watched.length ? createValueWatch(watched) : undefined;
  /** The page's one rule queue, and how many events' rules are on it. */
  let queue: Promise<void> = Promise.resolve();
  let queued = 0;
  /** The pure values sent with the events so far (objects as JSON: `publishPureValues`). */
  const published = new Map<string, unknown>();
  /** Page Bottom fired (by `_satellite.pageBottom()`, else just before DOM Ready): it fires once. */
  let pageBottom = false;

  /** `work` once every rule queued before it has completed; a failure is said and the queue goes on. */
  const enqueue = (event: EngineEvent, work: () => Promise<void>): Promise<void> => {
    queued++;
    const snapshot = ctx.snapshot();
    const run = queue
      .then(work)
      .catch((err: unknown) => alert(inputFailed({ type: 'event', event, snapshot }, err)))
      .finally(() => void queued--);
    queue = run;
    return run;
  };

  const normalise = (event: EngineEvent): EngineEvent => {
    if (event.type !== 'direct-call') return event;
    let id: unknown = event.id;
    if (typeof id !== 'string') {
      log('error', `_satellite.track() expects a string identifier; got ${id === null ? 'null' : typeof id}. Using "${String(id)}".`);
      id = String(id);
    }
    return { ...event, id: (id as string).trim() };
  };

  /** `snapshot`: the event's (its rules may run later, on the queue, when the page has sent newer ones). */
  const ruleContext = (event: EngineEvent, resolver: Resolver<N>, ruleName: string, snapshot: Snapshot): RuleContext<N, S> => ({
    settings,
    event,
    snapshot,
    page,
    rule: { name: ruleName },
    get: (name) => resolver.get(name),
    replaceTokens: (text) => replaceTokens(text, withEventTokens(resolver as Resolver<string>, event)),
    services: services(),
    cookies,
    session,
    emit,
    log,
  });

  /**
   * What `_satellite.getVar` answers: every data element without side effects evaluated on the
   * event's snapshot and its value sent to the page, before the event's rules run (they may wait on
   * the queue) — with the first Library Loaded, so getVar has values right after the script tag,
   * and, for a container that asks (`getVarValues: 'every-event'`, an imported Launch container),
   * with each page event, so the page holds the latest value of each, as turbine's getVar computes
   * one when it is called. Quietly: a value missing or a read that fails logs nothing here (the
   * rules that read the element log it). Elements whose reading writes (`sideEffects`) are sent
   * once a rule has read them.
   */
  const all = container.dataElements as Record<string, DataElement<N>>;
  /** The data elements as the values sent with each event read them: one whose reading writes reads as undefined. */
  const pure = Object.fromEntries(
    Object.entries(all).map(([name, de]) => [name, de.sideEffects ? ({ type: 'constant', value: undefined } as DataElement<N>) : de]),
  ) as Record<N, DataElement<N>>;
  const publishPureValues = (event: EngineEvent) => {
    const early = createResolver(pure, { settings, page, snapshot: ctx.snapshot(), event, cookies, session, log: () => {}, customVars, pageCall: true });
    // Only what changed since the last event's: most events change few values, and an unchanged batch is not sent at all.
    const values: Record<string, unknown> = {};
    let changed = false;
    for (const name of Object.keys(all)) {
      if (all[name]!.sideEffects) continue;
      const value = early.get(name as N);
      // Most values are text or numbers, compared as they are; objects as JSON.
      const seen = typeof value === 'object' && value !== null ? safeJson(value) : value;
      if (published.has(name) && Object.is(published.get(name), seen)) continue;
      published.set(name, seen);
      // A value the page cannot receive (a function) goes only when a rule read it, and is then named.
      if (!cloneable(value)) continue;
      values[name] = value;
      changed = true;
    }
    if (changed) emit({ type: 'vars', values });
  };

  /**
   * The rules `event` triggers, one after another in their order; with Library Loaded, also those
   * of the direct calls pulled while the library set its events up, each with its own event, all in
   * rule order (ties in the container's order), as turbine runs the triggers of its start. It
   * answers how many rules it ran.
   */
  const runRules = async (event: EngineEvent, resolver: Resolver<N>, snapshot: Snapshot): Promise<number> => {
    const pairs = rulesFor(container.rules, event).map((rule) => ({ rule, event, resolver }));
    if (event.type === 'library-loaded' && event.setup?.length) {
      for (const call of event.setup) {
        const e = normalise({ type: 'direct-call', id: call.id, detail: call.detail });
        ctx.monitor('event', { type: e.type, id: call.id, seq: snapshot.seq });
        const rules = rulesFor(container.rules, e);
        if (!rules.length) log('log', unmatchedDirectCall(call.id));
        const r = resolverFor(e);
        pairs.push(...rules.map((rule) => ({ rule, event: e, resolver: r })));
      }
      const at = new Map(container.rules.map((r, i) => [r, i]));
      pairs.sort((a, b) => (a.rule.order ?? DEFAULT_RULE_ORDER) - (b.rule.order ?? DEFAULT_RULE_ORDER) || at.get(a.rule)! - at.get(b.rule)!);
    }
    for (const { rule, event, resolver } of pairs) {
      // The devtools' rule table names a page trigger by its kind (`trigger scroll-depth`).
      ctx.monitor('rule-triggered', { rule: rule.name, event: event.type === 'trigger' ? `trigger ${event.on}` : event.type, seq: snapshot.seq });
      const outcome = await runRule(rule, ruleContext(event, resolver, rule.name, snapshot), ctx.sleep);
      // As turbine's monitors: an action that failed stops the rule, which does not complete.
      ctx.monitor(!outcome.fired ? 'rule-condition-failed' : outcome.stoppedAt ? 'rule-action-failed' : 'rule-completed', { ...outcome, seq: snapshot.seq });
    }
    return pairs.length;
  };

  /** After each page event: the watched data elements read on its snapshot, and the rules of each that changed. */
  const checkChanges = async (resolver: Resolver<N>, snapshot: Snapshot, publish: (values: Record<string, unknown>) => void) => {
    if (!watch) return;
    const changes = watch.check((name) => (resolver.has(name) ? resolver.get(name as N) : undefined));
    for (const change of changes) {
      ctx.monitor('event', { type: change.type, id: change.name, seq: snapshot.seq });
      await runRules(change, resolver, snapshot);
    }
    // What the change rules read, for `getVar` (the shell sends only values that changed).
    if (changes.length) publish(resolver.values());
  };

  const resolverFor = (event: EngineEvent) =>
    createResolver(container.dataElements, { settings, page, snapshot: ctx.snapshot(), event, cookies, session, log, customVars, random: () => ctx.env.random() });

  return {
    pending: () => queued,
    async handle(raw) {
      const event = normalise(raw);
      const snapshot = ctx.snapshot();
      const resolver = resolverFor(event);
      // Page Bottom fires before DOM Ready when the page did not call `_satellite.pageBottom()`
      // (Launch's Core extension fires it at DOMContentLoaded then), on DOM Ready's snapshot;
      // its rules are queued first, and neither waits for the other's here.
      const bottom = (event.type === 'dom-ready' || event.type === 'window-loaded') && !pageBottom ? handle({ type: 'page-bottom' }, resolver, snapshot) : undefined;
      if (event.type === 'page-bottom' || bottom) {
        if (pageBottom && !bottom) return;
        pageBottom = true;
      }
      await Promise.all([bottom, handle(event, resolver, snapshot)]);
    },
  };

  async function handle(event: EngineEvent, resolver: Resolver<N>, snapshot: Snapshot): Promise<void> {
    ctx.monitor('event', { type: event.type, id: event.type === 'direct-call' ? event.id : event.type === 'trigger' ? event.key : undefined, seq: snapshot.seq });
    /**
     * What the rules read, for getVar. A container whose getVar answers as turbine's on every event:
     * the values again as the page's call computes them (without the event, after what the rules
     * changed), and a rule's read only for an element whose reading writes.
     */
    const publishValues = (values = resolver.values(), again = true) => {
      if (container.getVarValues === 'every-event') {
        if (again) publishPureValues(event);
        for (const k of Object.keys(values)) if (!(all as Record<string, DataElement<N> | undefined>)[k]?.sideEffects) delete values[k];
      }
      if (Object.keys(values).length) emit({ type: 'vars', values });
    };

    /** The pure values went out for this event before its rules were queued (most events). */
    let publishedBefore = false;
    if (event.type === 'set-var') {
      for (const [k, v] of Object.entries(event.values ?? {})) customVars.set(k, v);
      // A data element of that name still answers getVar, as in turbine: only the others are sent.
      const values = Object.fromEntries(Object.entries(event.values ?? {}).filter(([k]) => !Object.prototype.hasOwnProperty.call(container.dataElements, k)));
      if (Object.keys(values).length) emit({ type: 'vars', values });
    } else if (event.type === 'service-call') {
      const seq = snapshot.seq;
      const answer = hooks().serviceCall?.(event.service, event.method, event.args ?? []);
      if (!answer) emit({ type: 'reply', seq, error: `Unknown service "${event.service}".` });
      // The answer may wait for the network; it travels in whichever batch it is ready in.
      else
        void answer.then(
          (r) => emit({ type: 'reply', seq, ...r }),
          (err: unknown) => emit({ type: 'reply', seq, error: err instanceof Error ? err.message : String(err) }),
        );
    } else {
      if (container.getVarValues === 'every-event' || (event.type === 'library-loaded' && !published.size)) {
        publishPureValues(event);
        publishedBefore = true;
      }
      if (event.type === 'get-var') emit({ type: 'reply', seq: snapshot.seq, value: resolver.has(event.name) ? resolver.get(event.name as N) : undefined });
      if (event.type === 'direct-call' && !rulesFor(container.rules, event).length) log('log', unmatchedDirectCall(event.id));
    }
    // Automatic link tracking starts now, as AppMeasurement's own click handler does; the click
    // rules run after it, in their place on the queue (taken now, so a later event's rules do not
    // overtake them while it works).
    const linkTracking = event.type === 'click' ? hooks().onClick?.(event.link) : undefined;
    await enqueue(event, async () => {
      await linkTracking;
      // An event that ran no rule and no link tracking changed nothing the values read since they
      // went out for it before its rules were queued (an earlier event's rules publish again as they
      // complete; anything else that changed goes with the next event's values): computing every
      // value a second time would find nothing to send. A `get-var` call is such an event.
      const ran = await runRules(event, resolver, snapshot);
      publishValues(undefined, ran > 0 || !publishedBefore || linkTracking !== undefined);
      await checkChanges(resolver, snapshot, publishValues);
    });
  }
}

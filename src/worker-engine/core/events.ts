/**
 * One page event, start to end: the direct-call id made a string, the data elements resolved on
 * the event's snapshot, `setVar` / `getVar` / facade calls answered, the container's click hook,
 * the rules that listen in their order, and the values sent to the page for `getVar`.
 */
import type { EngineEvent } from '../../protocol.ts';
import { createResolver, type Resolver } from './data-elements.ts';
import { withEventTokens } from './event-tokens.ts';
import { rulesFor, runRule } from './rules.ts';
import { replaceTokens } from './tokens.ts';
import { watchedElements } from './triggers.ts';
import type { Container, ContainerHooks, DataElement, EngineContext, RuleContext } from './types.ts';
import { createValueWatch } from './value-watch.ts';

/** `_satellite.track` with a name no rule listens to (docs/spec-coverage.md D4). */
export const unmatchedDirectCall = (id: string): string => `"${id}" does not match any direct call identifiers.`;

export interface EventDeps<N extends string, S> {
  container: Container<N, S>;
  ctx: EngineContext;
  services(): S;
  hooks(): ContainerHooks;
}

export function createEventHandler<N extends string, S>({ container, ctx, services, hooks }: EventDeps<N, S>): (event: EngineEvent) => Promise<void> {
  const { settings, page, cookies, session, emit, log } = ctx;
  const customVars = new Map<string, unknown>();
  let earlyValuesSent = false;
  const watched = watchedElements(container.rules);
  const watch = watched.length ? createValueWatch(watched) : undefined;

  const normalise = (event: EngineEvent): EngineEvent => {
    if (event.type !== 'direct-call') return event;
    let id: unknown = event.id;
    if (typeof id !== 'string') {
      log('error', `_satellite.track() expects a string identifier; got ${id === null ? 'null' : typeof id}. Using "${String(id)}".`);
      id = String(id);
    }
    return { ...event, id: (id as string).trim() };
  };

  const ruleContext = (event: EngineEvent, resolver: Resolver<N>, ruleName: string): RuleContext<N, S> => ({
    settings,
    event,
    snapshot: ctx.snapshot(),
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
   * `_satellite.getVar` right after the script tag: with the first lifecycle event, every data
   * element without side effects is evaluated on that event's snapshot and its value sent to the
   * page. Quietly: a value missing this early logs nothing (the rules that read it later do).
   * Elements whose reading writes (`sideEffects`) wait for the rules that read them.
   */
  const publishEarlyValues = (event: EngineEvent) => {
    const all = container.dataElements as Record<string, DataElement<N>>;
    const pure = Object.fromEntries(
      Object.entries(all).map(([name, de]) => [name, de.sideEffects ? ({ type: 'constant', value: undefined } as DataElement<N>) : de]),
    ) as Record<N, DataElement<N>>;
    const early = createResolver(pure, { settings, page, snapshot: ctx.snapshot(), event, cookies, session, log: () => {}, customVars });
    const values: Record<string, unknown> = {};
    for (const [name, de] of Object.entries(all)) if (!de.sideEffects) values[name] = early.get(name as N);
    if (Object.keys(values).length) emit({ type: 'vars', values });
  };

  /** The rules `event` triggers, one after another in their order. */
  const runRules = async (event: EngineEvent, resolver: Resolver<N>) => {
    for (const rule of rulesFor(container.rules, event)) {
      // The devtools' rule table names a page trigger by its kind (`trigger scroll-depth`).
      ctx.monitor('rule-triggered', { rule: rule.name, event: event.type === 'trigger' ? `trigger ${event.on}` : event.type, seq: ctx.snapshot().seq });
      const outcome = await runRule(rule, ruleContext(event, resolver, rule.name), ctx.sleep);
      ctx.monitor(outcome.fired ? 'rule-completed' : 'rule-condition-failed', { ...outcome, seq: ctx.snapshot().seq });
    }
  };

  /** After each page event: the watched data elements read on its snapshot, and the rules of each that changed. */
  const checkChanges = async (resolver: Resolver<N>) => {
    if (!watch) return;
    const changes = watch.check((name) => (resolver.has(name) ? resolver.get(name as N) : undefined));
    for (const change of changes) {
      ctx.monitor('event', { type: change.type, id: change.name, seq: ctx.snapshot().seq });
      await runRules(change, resolver);
    }
    // What the change rules read, for `getVar` (the shell sends only values that changed).
    if (changes.length) emit({ type: 'vars', values: resolver.values() });
  };

  return async (raw) => {
    const event = normalise(raw);
    const snapshot = ctx.snapshot();
    const resolver = createResolver(container.dataElements, { settings, page, snapshot, event, cookies, session, log, customVars, random: () => ctx.env.random() });
    await handle(event, resolver);
    await checkChanges(resolver);
  };

  async function handle(event: EngineEvent, resolver: Resolver<N>): Promise<void> {
    const snapshot = ctx.snapshot();
    ctx.monitor('event', { type: event.type, id: event.type === 'direct-call' ? event.id : event.type === 'trigger' ? event.key : undefined, seq: snapshot.seq });
    const publishValues = () => {
      const values = resolver.values();
      if (Object.keys(values).length) emit({ type: 'vars', values });
    };

    switch (event.type) {
      case 'set-var':
        for (const [k, v] of Object.entries(event.values ?? {})) customVars.set(k, v);
        emit({ type: 'vars', values: event.values ?? {} });
        return;
      case 'get-var': {
        const value = resolver.has(event.name) ? resolver.get(event.name as N) : undefined;
        publishValues();
        emit({ type: 'reply', seq: snapshot.seq, value });
        return;
      }
      case 'service-call': {
        const seq = snapshot.seq;
        const answer = hooks().serviceCall?.(event.service, event.method, event.args ?? []);
        if (!answer) {
          emit({ type: 'reply', seq, error: `Unknown service "${event.service}".` });
          return;
        }
        // The answer may wait for the network; it travels in whichever batch it is ready in.
        void answer.then(
          (r) => emit({ type: 'reply', seq, ...r }),
          (err: unknown) => emit({ type: 'reply', seq, error: err instanceof Error ? err.message : String(err) }),
        );
        return;
      }
    }

    if (event.type === 'direct-call' && !rulesFor(container.rules, event).length) log('log', unmatchedDirectCall(event.id));
    if (event.type === 'click') await hooks().onClick?.(event.link);
    await runRules(event, resolver);
    publishValues();
    if (event.type === 'library-loaded' && !earlyValuesSent) {
      earlyValuesSent = true;
      publishEarlyValues(event);
    }
  }
}

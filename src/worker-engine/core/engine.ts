/**
 * The engine: an I/O-free core. Given inputs (page events with their snapshot, network answers,
 * timers) it returns effects (cookie and storage writes, console messages, requests, iframes,
 * scripts). The worker shell, the Node replay and the tests bind it to the world.
 *
 * Work that waits for the world (an ID-service answer, a timer) is a promise that the matching
 * later input resolves; each dispatch returns once the work it set going has nothing left to do
 * but wait for the world, so every effect lands in the batch of the input that caused it. Nothing
 * a dispatch awaits can wait on an effect of that same dispatch (docs/errors.md, "Robustness").
 */
import type {
  Effect,
  EffectBatch,
  EngineEvent,
  EngineInput,
  LogLevel,
  NetResponse,
  PageInfo,
  Snapshot,
  SnapshotProblem,
} from '../../protocol.ts';
import { createCookieJar } from './cookies.ts';
import { dropCycles } from './data-layer.ts';
import { createResolver, type Resolver } from './data-elements.ts';
import { rulesFor, runRule } from './rules.ts';
import { resolveSettings, type Settings } from './settings.ts';
import { replaceTokens } from './tokens.ts';
import type { Container, ContainerHooks, DataElement, EngineContext, EngineEnv, RuleContext, SessionStore } from './types.ts';

export interface EngineOptions<N extends string, S> {
  container: Container<N, S>;
  services: (ctx: EngineContext) => S;
  env: EngineEnv;
  /** The page's `window.offtagConfig`, validated here. */
  config: unknown;
  page: PageInfo;
  /** Receives effects produced outside any dispatch (rare: late asynchronous work). */
  onLateEffects?: (batch: EffectBatch) => void;
  /** Print debug-level messages from the start (the page's debug switch); `settings.debug` also turns them on. */
  debug?: boolean;
  /** Waits until pending microtasks have run; defaults to the next macrotask (`nextMacrotask`). */
  settle?: () => Promise<void>;
}

export interface Engine {
  readonly settings: Settings;
  dispatch(input: EngineInput): Promise<EffectBatch>;
  /** The container's `pendingHits` hook (0 without one): work whose effects are not emitted yet. */
  pendingHits(): number;
}

/** Effects the bridge applies; the rest (requests, timers, the devtools feed) stay in the worker. */
export function isBridgeEffect(e: Effect): boolean {
  return e.type !== 'request' && e.type !== 'timer' && e.type !== 'monitor';
}

/** `_satellite.track` with a name no rule listens to (DECISIONS.md §4). */
export const unmatchedDirectCall = (id: string): string => `"${id}" does not match any direct call identifiers.`;

/** What is said when one input could not be processed; the next input is processed as usual. */
export function inputFailed(input: EngineInput, err: unknown): string {
  const name =
    input?.type === 'event'
      ? `"${input.event?.type}"${input.event?.type === 'direct-call' ? ` ("${String(input.event.id)}")` : ''}`
      : `"${String(input?.type)}"`;
  let why: string;
  try {
    why = err instanceof Error ? err.message : String(err);
  } catch {
    why = 'unknown error';
  }
  return `Offtag could not process ${name}: ${why}. Later events are processed as usual.`;
}

/** The words for what the bridge could not read (it sends only codes). */
export function describeProblem(p: SnapshotProblem, dataLayerName: string): string {
  switch (p.kind) {
    case 'session-unreadable':
      return `sessionStorage is not readable (${p.detail}); the event goes on without it.`;
    case 'data-layer-unreadable':
      return `window.${dataLayerName} is not readable (${p.detail}); the event goes on without it.`;
    case 'uncloneable': {
      const paths = p.paths.map((x) => x.replace(/^snapshot\.dataLayer/, dataLayerName).replace(/^event\./, 'the event\'s '));
      return `The data layer could not be copied as it is (${p.detail}). Left out: ${paths.join(', ') || '(nothing)'}.`;
    }
  }
}

/**
 * A wait until every microtask queued so far has run: the next macrotask. Not `setTimeout(0)`,
 * which browsers clamp to 4 ms once nested, and which capped the worker near 100 events/s.
 */
export function nextMacrotask(): () => Promise<void> {
  if (typeof setImmediate === 'function') return () => new Promise<void>((r) => setImmediate(r));
  if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel();
    const waiting: Array<() => void> = [];
    channel.port1.onmessage = () => waiting.shift()?.();
    return () =>
      new Promise<void>((r) => {
        waiting.push(r);
        channel.port2.postMessage(0);
      });
  }
  return () => new Promise<void>((r) => setTimeout(r, 0));
}

export function emptySnapshot(): Snapshot {
  return {
    seq: 0,
    applied: 0,
    time: 0,
    tz: 0,
    url: '',
    referrer: '',
    cookie: '',
    session: {},
    dataLayer: undefined,
    viewport: { width: 0, height: 0 },
    gpc: false,
  };
}

export function createEngine<N extends string, S extends object>(opts: EngineOptions<N, S>): Engine {
  const { settings, problems } = resolveSettings(opts.config);
  const settle = opts.settle ?? nextMacrotask();
  let buffer: Effect[] = [];
  let lastBatch = 0;
  let dispatching = false;
  let lateScheduled = false;
  let idCounter = 0;
  let snapshot = emptySnapshot();
  const waiting = new Map<string, (value: NetResponse | undefined) => void>();
  const tracked = new Set<Promise<unknown>>();
  /** Set while a dispatch waits on tracked work: called when that work starts to wait for the world. */
  let onWorldWait: (() => void) | undefined;
  const wait = (id: string, resolve: (value: NetResponse | undefined) => void) => {
    waiting.set(id, resolve);
    onWorldWait?.();
  };
  const customVars = new Map<string, unknown>();

  const finalize = (): EffectBatch => {
    const effects = buffer;
    buffer = [];
    const n = effects.some(isBridgeEffect) ? ++lastBatch : 0;
    return { n, effects };
  };

  const emit = (effect: Effect) => {
    buffer.push(effect);
    if (!dispatching && !lateScheduled && opts.onLateEffects) {
      lateScheduled = true;
      queueMicrotask(() => {
        lateScheduled = false;
        if (!dispatching && buffer.length) opts.onLateEffects!(finalize());
      });
    }
  };

  // Debug-level messages (rule fired, condition not met) exist only in debug mode, so a large
  // container does not send the page a message per rule on every event.
  let debug = opts.debug || settings.debug;
  const log = (level: LogLevel, message: string) => {
    if (level !== 'debug' || debug) emit({ type: 'log', level, message });
  };

  const cookies = createCookieJar(emit, () => lastBatch + 1, () => opts.env.now());

  const sessionOverlay = new Map<string, { value: string | null; batch: number }>();
  const session: SessionStore = {
    get(key) {
      const w = sessionOverlay.get(key);
      if (w) return w.value;
      return snapshot.session[key] ?? null;
    },
    set(key, value) {
      sessionOverlay.set(key, { value, batch: lastBatch + 1 });
      emit({ type: 'storage', key, value });
    },
  };

  const nextId = (prefix: string) => `${prefix}-${++idCounter}`;

  const ctx: EngineContext = {
    settings,
    env: opts.env,
    page: opts.page,
    snapshot: () => snapshot,
    cookies,
    session,
    emit,
    log,
    monitor: (name, data) => emit({ type: 'monitor', name, data }),
    nextId,
    fetch(request) {
      const id = nextId(request.kind);
      emit({ type: 'request', id, ...request });
      if (request.fireAndForget) return Promise.resolve({ status: 0, body: '' });
      return new Promise<NetResponse>((resolve) => {
        wait(id, (r) => resolve(r ?? { status: 0, body: '', error: 'network' }));
      });
    },
    sleep(ms) {
      const id = nextId('timer');
      emit({ type: 'timer', id, delay: ms });
      return new Promise<void>((resolve) => wait(id, () => resolve()));
    },
    track(p) {
      tracked.add(p);
      const done = () => tracked.delete(p);
      p.then(done, done);
      return p;
    },
  };

  for (const p of problems) log('error', p);

  let services: S | undefined;
  const getServices = () => (services ??= opts.services(ctx));
  let hooks: ContainerHooks | undefined;
  const getHooks = () => (hooks ??= opts.container.hooks?.(getServices()) ?? {});

  const ruleContext = (event: EngineEvent, resolver: Resolver<N>, ruleName: string): RuleContext<N, S> => ({
    settings,
    event,
    snapshot,
    rule: { name: ruleName },
    get: (name) => resolver.get(name),
    replaceTokens: (text) => replaceTokens(text, resolver as Resolver<string>),
    services: getServices(),
    cookies,
    session,
    emit,
    log,
  });

  const takeSnapshot = (s: Snapshot) => {
    snapshot = s;
    cookies.rebase(s.cookie, s.applied);
    for (const [key, w] of sessionOverlay) if (w.batch <= s.applied) sessionOverlay.delete(key);
    for (const p of s.problems ?? []) log('warn', describeProblem(p, settings.dataLayer));
    if (s.dataLayer !== undefined && typeof s.dataLayer === 'object') {
      const { cycles } = dropCycles(s.dataLayer);
      if (cycles.length) {
        log('warn', `The data layer refers back to itself at ${cycles.join(', ')}; those references were dropped.`);
      }
    }
  };

  const normaliseEvent = (event: EngineEvent): EngineEvent => {
    if (event.type !== 'direct-call') return event;
    let id: unknown = event.id;
    if (typeof id !== 'string') {
      log('error', `_satellite.track() expects a string identifier; got ${id === null ? 'null' : typeof id}. Using "${String(id)}".`);
      id = String(id);
    }
    return { ...event, id: (id as string).trim() };
  };

  const handleEvent = async (raw: EngineEvent) => {
    const event = normaliseEvent(raw);
    ctx.monitor('event', { type: event.type, id: event.type === 'direct-call' ? event.id : undefined, seq: snapshot.seq });
    const resolver = createResolver(opts.container.dataElements, {
      settings,
      page: opts.page,
      snapshot,
      event,
      cookies,
      session,
      log,
      customVars,
    });
    const publishValues = () => {
      const values = resolver.values();
      if (Object.keys(values).length) {
        emit({ type: 'vars', values });
      }
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
        const answer = getHooks().serviceCall?.(event.service, event.method, event.args ?? []);
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
      default:
        break;
    }

    const rules = rulesFor(opts.container.rules, event);
    if (!rules.length && event.type === 'direct-call') log('log', unmatchedDirectCall(event.id));
    if (event.type === 'click') await getHooks().onClick?.(event.link);
    for (const rule of rules) {
      ctx.monitor('rule-triggered', { rule: rule.name, event: event.type, seq: snapshot.seq });
      const outcome = await runRule(rule, ruleContext(event, resolver, rule.name), ctx.sleep);
      ctx.monitor(outcome.fired ? 'rule-completed' : 'rule-condition-failed', { ...outcome, seq: snapshot.seq });
    }
    publishValues();
    if (event.type === 'library-loaded' && !earlyValuesSent) {
      earlyValuesSent = true;
      publishEarlyValues(event);
    }
  };

  /**
   * `_satellite.getVar` right after the script tag: with the first lifecycle event, every data
   * element without side effects is evaluated on that event's snapshot and its value sent to the
   * page. Quietly: a value missing this early logs nothing (the rules that read it later do).
   * Elements whose reading writes (`sideEffects`) wait for the rules that read them.
   */
  let earlyValuesSent = false;
  const publishEarlyValues = (event: EngineEvent) => {
    const all = opts.container.dataElements as Record<string, DataElement<N>>;
    const pure = Object.fromEntries(
      Object.entries(all).map(([name, de]) => [name, de.sideEffects ? ({ type: 'constant', value: undefined } as DataElement<N>) : de]),
    ) as Record<N, DataElement<N>>;
    const early = createResolver(pure, { settings, page: opts.page, snapshot, event, cookies, session, log: () => {}, customVars });
    const values: Record<string, unknown> = {};
    for (const [name, de] of Object.entries(all)) if (!de.sideEffects) values[name] = early.get(name as N);
    if (Object.keys(values).length) emit({ type: 'vars', values });
  };

  const handle = (input: EngineInput): Promise<void> | void => {
    switch (input.type) {
      case 'event':
        takeSnapshot(input.snapshot);
        return handleEvent(input.event).catch((err: unknown) => log('error', inputFailed(input, err)));
      case 'response':
      case 'timer': {
        const resolve = waiting.get(input.id);
        waiting.delete(input.id);
        resolve?.(input.type === 'response' ? input.response : undefined);
        return;
      }
      case 'debug':
        debug = input.on;
        return;
      case 'beacon-delivered':
        getHooks().onBeaconDelivered?.(input.rttMs);
        return;
      case 'frame-message':
        getHooks().onFrameMessage?.(input.frameId, input.origin, input.data);
        return;
    }
  };

  let queue: Promise<unknown> = Promise.resolve();
  return {
    settings,
    pendingHits: () => getHooks().pendingHits?.() ?? 0,
    dispatch(input) {
      const run = async (): Promise<EffectBatch> => {
        dispatching = true;
        try {
          // Not tracked: event work may wait for a later input (a network answer) and must not
          // hold this dispatch; settling lets every microtask it can run now run.
          try {
            void handle(input);
          } catch (err) {
            log('error', inputFailed(input, err));
          }
          for (;;) {
            await settle();
            // Tracked work (hashing) holds the batch only while nothing waits for the world. Once
            // a request or a timer is outstanding, that work may be waiting for its answer: an
            // input queued behind this very dispatch. The batch leaves now, with the request in
            // it; what the work does after the answer leaves in a later batch.
            if (!tracked.size || waiting.size) break;
            await new Promise<void>((resolve) => {
              onWorldWait = resolve;
              void Promise.allSettled([...tracked]).then(() => resolve());
            });
            onWorldWait = undefined;
          }
        } finally {
          dispatching = false;
        }
        return finalize();
      };
      const result = queue.then(run, run);
      queue = result;
      return result;
    },
  };
}

/**
 * The engine: an I/O-free core. Given inputs (page events with their snapshot, network answers,
 * timers) it returns effects (cookie and storage writes, console messages, requests, iframes,
 * scripts). The worker shell, the Node replay and the tests bind it to the world.
 *
 * Work that waits for the world (an ID-service answer, a timer) is a promise that the matching
 * later input resolves; each dispatch returns once the work it set going has nothing left to do
 * but wait for the world, so every effect lands in the batch of the input that caused it. Nothing
 * a dispatch awaits can wait on an effect of that same dispatch (docs/errors.md, "Robustness").
 *
 * Its parts: the effects buffer (`effects.ts`), waiting on the world and on tracked work
 * (`waiting.ts`), the page state (`page-state.ts`) and one event's handling (`events.ts`). The
 * engine reaches the container's services only through the container's hooks (`ContainerHooks`).
 */
import type { EffectBatch, EngineInput, LogLevel, NetResponse, PageInfo } from '../../protocol.ts';
import { createCookieJar } from './cookies.ts';
import { createEffectBuffer } from './effects.ts';
import { createEventHandler } from './events.ts';
import { inputFailed } from './failures.ts';
import { createPageState } from './page-state.ts';
import { resolveSettings, type Settings } from './settings.ts';
import type { Container, ContainerHooks, EngineContext, EngineEnv } from './types.ts';
import { createWaiting, nextMacrotask } from './waiting.ts';

// The host filters batches with it.
export { isBridgeEffect } from './effects.ts';

export interface EngineOptions<N extends string, S, X = unknown> {
  container: Container<N, S, X>;
  /** The container's services; absent: the container's own `services`, else none. */
  services?: (ctx: EngineContext) => S;
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
  /** Work whose effects are not emitted yet: the container's `pendingHits` hook, and the events whose rules are still queued. */
  pendingHits(): number;
}

export { inputFailed } from './failures.ts';

export function createEngine<N extends string, S extends object, X = unknown>(opts: EngineOptions<N, S, X>): Engine {
  // The container's settings are merged over the engine's here, so its code gets `Settings & X`.
  const container = opts.container as unknown as Container<N, S>;
  const makeServices = opts.services ?? container.services ?? (() => ({}) as S);
  const { settings, problems } = resolveSettings(opts.config, container);
  const effects = createEffectBuffer(opts.onLateEffects);
  const waiting = createWaiting(opts.settle ?? nextMacrotask());
  const { emit } = effects;

  // Messages reach the page's console only in debug mode (as Launch's), or for a container that
  // says `alwaysLog`; debug-level ones (rule fired, condition not met) only in debug mode, so a
  // large container does not send the page a message per rule on every event.
  let debug = opts.debug || settings.debug;
  const log = (level: LogLevel, message: string) => {
    if (debug || (level !== 'debug' && settings.alwaysLog === true)) emit({ type: 'log', level, message });
  };
  /** What a site must see whatever the debug switch: its own configuration's problems, the engine's failures. */
  const alert = (message: string) => emit({ type: 'log', level: 'error', message });

  const cookies = createCookieJar(emit, effects.nextBatch, () => opts.env.now());
  const page = createPageState({ cookies, emit, warn: (m) => log('warn', m), nextBatch: effects.nextBatch, dataLayerName: settings.dataLayer });
  let idCounter = 0;
  const nextId = (prefix: string) => `${prefix}-${++idCounter}`;

  const ctx: EngineContext = {
    settings,
    env: opts.env,
    page: opts.page,
    snapshot: page.snapshot,
    cookies,
    session: page.session,
    emit,
    log,
    monitor: (name, data) => emit({ type: 'monitor', name, data }),
    nextId,
    fetch(request) {
      const id = nextId(request.kind);
      emit({ type: 'request', id, ...request });
      if (request.fireAndForget) return Promise.resolve({ status: 0, body: '' });
      return new Promise<NetResponse>((resolve) => {
        waiting.wait(id, (r) => resolve(r ?? { status: 0, body: '', error: 'network' }));
      });
    },
    sleep(ms) {
      const id = nextId('timer');
      emit({ type: 'timer', id, delayMs: ms });
      return new Promise<void>((resolve) => waiting.wait(id, () => resolve()));
    },
    answer: (id) => new Promise((resolve) => waiting.wait(id, resolve)),
    track: waiting.track,
  };

  for (const p of problems) alert(p);

  let services: S | undefined;
  const getServices = () => (services ??= makeServices(ctx));
  let hooks: ContainerHooks | undefined;
  const getHooks = () => (hooks ??= container.hooks?.(getServices()) ?? {});
  const events = createEventHandler({ container, ctx, services: getServices, hooks: getHooks, alert });

  const handle = (input: EngineInput): Promise<void> | void => {
    switch (input.type) {
      case 'event':
        page.take(input.snapshot);
        return events.handle(input.event).catch((err: unknown) => alert(inputFailed(input, err)));
      case 'response':
        return waiting.answer(input.id, input.response);
      case 'timer':
        return waiting.answer(input.id, undefined);
      case 'debug':
        debug = input.on;
        return;
      case 'beacon-delivered':
        return getHooks().onBeaconDelivered?.(input.rttMs);
      case 'frame-message':
        return getHooks().onFrameMessage?.(input.frameId, input.origin, input.data);
    }
  };

  let queue: Promise<unknown> = Promise.resolve();
  return {
    settings,
    // Queued rules have not made their beacons yet either.
    pendingHits: () => (getHooks().pendingHits?.() ?? 0) + events.pending(),
    dispatch(input) {
      const run = () =>
        effects.during(async () => {
          // Not tracked: event work may wait for a later input (a network answer) and must not
          // hold this dispatch; settling lets every microtask it can run now run.
          try {
            void handle(input);
          } catch (err) {
            alert(inputFailed(input, err));
          }
          await waiting.settled();
        });
      const result = queue.then(run, run);
      queue = result;
      return result;
    },
  };
}

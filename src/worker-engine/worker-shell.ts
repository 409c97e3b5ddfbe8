/**
 * The worker shell: binds the engine to the two ports the bridge hands over (the hot path, and
 * the Comlink API), `fetch`, timers and the durable beacon queue.
 *
 * Its parts (shell/): the page's side of the hot path (`page-link.ts`), whose parts send the
 * page only what changes it (`page-effects.ts`: writes that leave the page as it is skipped,
 * `page-writes.ts`; the `getVar` values cached, `var-cache.ts`), hold page effects during a
 * burst and renumber the posted batches (`batches.ts`, `post-batch.ts`) and complete snapshots
 * (`snapshots.ts`); engines booted (`boot.ts`), events acknowledged
 * (`acknowledgements.ts`), orphaned inputs replayed (`orphans.ts`) and the API served
 * (`api.ts`). This file puts them together per page.
 */
import type { Effect, EngineInput, InitMessage } from '../protocol.ts';
import { inputFailed } from './core/engine.ts';
import { readSetOf } from './core/data-layer.ts';
import { listenersOf } from './core/triggers.ts';
import { completePageInfo } from './core/page-info.ts';
import { sha256Hex } from './core/sha256.ts';
import type { Container, EngineContext, EngineEnv } from './core/types.ts';
import { createSessionRecorder } from './session-recorder.ts';
import { createAcknowledger } from './shell/acknowledgements.ts';
import { createFeed, serveApi } from './shell/api.ts';
import { bootEngine, type BootOptions } from './shell/boot.ts';
import { finishOrphans } from './shell/orphans.ts';
import { createPageLink } from './shell/page-link.ts';
import { withStartupFacts, withTimeZone } from './shell/snapshots.ts';
import type { BeaconSink } from './shell/types.ts';
import { servePreview } from './shell/preview.ts';
import { PAGE_SETTINGS } from '../page-settings.ts';

export type { BeaconSink } from './shell/types.ts';

/**
 * How long page effects may wait while a burst's inputs are handled (`createOutbox`): a frame.
 * A lone event's effects go out as soon as it is handled.
 */
export const BATCH_HOLD_MS = 16;
/**
 * How long page effects may wait once a backlog outlasted `BATCH_HOLD_MS` (its first batch went
 * out on the timer while inputs still waited): a long burst's cookie writes then reach the page
 * a few times a second, each batch one task of its main thread, instead of once a frame.
 */
export const BACKLOG_HOLD_MS = 100;

export const browserEnv: EngineEnv = {
  now: () => Date.now(),
  random: () => Math.random(),
  sha256: sha256Hex,
  userAgentHints: (names) => {
    const ua = (navigator as { userAgentData?: { getHighEntropyValues(n: string[]): Promise<Record<string, unknown>> } }).userAgentData;
    return ua ? ua.getHighEntropyValues(names) : Promise.resolve({});
  },
};

export interface WorkerOptions<N extends string, S extends object, X = unknown> {
  container: Container<N, S, X>;
  /** Absent: the container's own `services`. */
  services?: (ctx: EngineContext) => S;
  /**
   * `sender`: the port of the origin's SharedWorker sender, when the page handed one over at init
   * (protocol.ts InitMessage); `askSender` asks the page to start it (its port then comes to `BeaconSink.sender`).
   */
  beacons: (log: (message: string) => void, monitor: (name: string, data: unknown) => void, sender?: MessagePort, askSender?: () => void) => BeaconSink;
  /** How long page effects may be held while inputs wait (default `BATCH_HOLD_MS`, then `BACKLOG_HOLD_MS`; tests set it long, to be independent of the machine's speed: both holds then last that long). */
  batchHoldMs?: number;
}

/** Starts the engine for one page; `scope` is the worker's global (a parameter for tests). */
export function startWorker<N extends string, S extends object, X = unknown>(
  opts: WorkerOptions<N, S, X>,
  scope: Pick<DedicatedWorkerGlobalScope, 'addEventListener' | 'removeEventListener'> & { postMessage?(m: unknown): void } = self as DedicatedWorkerGlobalScope,
): void {
  const onInit = (ev: MessageEvent<InitMessage>) => {
    if (ev.data?.type !== 'init') return;
    scope.removeEventListener('message', onInit as EventListener);
    // offtag.js transfers the ports without naming them in the message (protocol.ts InitMessage).
    const { events = ev.ports[0]!, api = ev.ports[1]!, sender = ev.ports[2] } = ev.data;
    // A browser previewing another environment hands the page over to it (docs/publishing.md, "Preview").
    servePreview(ev.data, events, PAGE_SETTINGS.environment, () => servePage(opts, ev.data, events, api, sender));
  };
  scope.addEventListener('message', onInit as EventListener);
  // Hello: the bridge hands over its ports only to a worker that is running (a CSP may block one way).
  scope.postMessage?.('offtag:up');
}

/** Runs the engine for the page that sent `init`, on its ports. */
function servePage<N extends string, S extends object, X>(opts: WorkerOptions<N, S, X>, init: InitMessage, events: MessagePort, api: MessagePort, sender?: MessagePort): void {
  const { config, page, configDropped, debug, pid = '', orphans = [], now } = init;
  const say = (level: 'warn' | 'error', message: string) => events.postMessage({ n: 0, effects: [{ type: 'log', level, message }] });
  const feed = createFeed();
  const beacons = opts.beacons(
    (message) => say('warn', message),
    (name, data) => feed.push({ name, data }),
    sender,
    // offtag-effects.js starts the sender and hands its port over (main-bridge/rare-effects.ts `sender`).
    () => events.postMessage({ n: 0, effects: [{ type: 'sender' }] }),
  );
  const pageInfo = completePageInfo(page, navigator);
  /** The session so far, for the devtools' "export session as replay fixture". */
  const recorder = createSessionRecorder(config, pageInfo);
  // An acknowledgement and the page effects that wait for it go in one message (`acking`, `Outbox.ack`).
  const link = createPageLink({ port: events, holdMs: opts.batchHoldMs ?? BATCH_HOLD_MS, backlogHoldMs: opts.batchHoldMs ?? BACKLOG_HOLD_MS, now, started: () => acks.acknowledge(), acking: () => acks.busy() });
  const acks = createAcknowledger({
    beacons,
    pid,
    // A beacon built in an answer's dispatch is routed when that dispatch ends (host.ts `busy`):
    // an acknowledgement in between would cover its event while the beacon is in no queue yet.
    pendingHits: () => main.pendingHits() + (main.host.busy() ? 1 : 0),
    orphansDone: () => replayed,
    post: (seq) => link.ack(seq),
    settled: () => link.ack(0),
    ready: () => !link.starting(),
  });
  const boot: BootOptions<N, S, X> = {
    container: opts.container,
    services: opts.services,
    env: browserEnv,
    config,
    debug,
    page: pageInfo,
    pid,
    beacons,
    recorder,
    acks,
    feed: feed.push,
  };
  const main = bootEngine(boot, link.toBridge);
  const replayed = finishOrphans({
    orphans,
    beacons,
    feed: feed.push,
    boot: (tag) => {
      const r = bootEngine(boot, () => {}, tag);
      return { input: r.host.input, pendingHits: r.pendingHits, busy: r.host.busy };
    },
    prepare: (input) => withTimeZone(withStartupFacts(input, now)),
    locks: (navigator as { locks?: { request(name: string, f: () => Promise<void>): Promise<void> } }).locks,
  });

  // Inputs are handled one at a time, in the order the page sent them.
  let chain: Promise<void> = Promise.resolve();
  events.onmessage = (e: MessageEvent<EngineInput | { type: 'sender' }>) => {
    // The sender the page started when the beacon sink asked: not an input.
    if (e.data?.type === 'sender') return void (e.ports[0] && beacons.sender?.(e.ports[0]));
    const input = link.arrived(e.data);
    recorder.input(input);
    // One input that fails is said once, with its name; the inputs after it go on as usual
    // (and it is acknowledged: it will not succeed on another page either).
    chain = chain
      .then(() => main.host.input(link.fromBridge(input)))
      .catch((err: unknown) => say('error', inputFailed(input, err)))
      .then(() => {
        // The acknowledgement's commit starts first, so that the page effects the input made wait for it (`acking`).
        acks.handled(input);
        acks.acknowledge();
        link.handled();
      });
  };
  serveApi({ settings: main.settings, values: link.values, beacons, feed, session: () => recorder.fixture() }, api);
  // The shell's own effects for the page go with the first batch (one message at start-up, not one each).
  const start: Effect[] = [];
  if (configDropped?.length) {
    const message = `offtagConfig values that cannot be sent to the worker were ignored: ${configDropped.join(', ')}.`;
    start.push({ type: 'log', level: 'error', message });
  }
  // The paths the container reads, once: from the next event on, the bridge copies only those.
  const readSet = readSetOf(opts.container.dataElements as Record<string, { type: string }>);
  if (readSet) start.push({ type: 'read-set', tree: readSet });
  // The page triggers the rules use, once (docs/triggers.md): only then does the bridge load offtag-triggers.js.
  const triggers = listenersOf(opts.container.rules);
  for (const message of triggers.problems) start.push({ type: 'log', level: 'error', message });
  if (triggers.listeners.length) start.push({ type: 'listen', triggers: triggers.listeners });
  link.extra(start);
  beacons.resume?.();
}

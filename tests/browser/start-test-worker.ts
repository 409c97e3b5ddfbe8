/**
 * Starts the browser tests' worker (tests/browser/test-worker.ts) the way the bridge does: the
 * init message with the page's facts and the two ports, then one message per event with the
 * page's snapshot. Every batch the worker sends back is kept.
 */
import { wrap } from 'comlink';
import type { Effect, EffectBatch, EngineEvent, InitMessage, Snapshot, WorkerApi } from '../../src/protocol.ts';
import { takeSnapshot } from '../../src/main-bridge/snapshot.ts';
import { readPageInfo } from '../../src/main-bridge/page-info.ts';

export interface TestWorkerOptions {
  /** The page's `offtagConfig`. */
  config?: Record<string, unknown>;
  /** Called with each batch as it arrives, after it is kept (the bridge applies it). */
  onBatch?(batch: EffectBatch): void;
  /** The `applied` count the snapshots carry (default 0: nothing applied). */
  applied?(): number;
  /** Changes a snapshot before it is posted (the bridge narrows the data layer). */
  prepare?(snapshot: Snapshot): void;
  /** The init's snapshot taken at hello (offtag.js sends one; the worker fills the early snapshots in from it). */
  now?: Snapshot;
}

export function startTestWorker({ config = {}, onBatch, applied = () => 0, prepare, now }: TestWorkerOptions = {}) {
  const worker = new Worker(new URL('./test-worker.ts', import.meta.url), { type: 'module' });
  const { port1, port2 } = new MessageChannel();
  const apiChannel = new MessageChannel();
  const batches: EffectBatch[] = [];
  port1.onmessage = (e: MessageEvent<EffectBatch>) => {
    batches.push(e.data);
    onBatch?.(e.data);
  };
  const init: InitMessage = {
    type: 'init',
    config,
    configDropped: [],
    debug: false,
    page: readPageInfo(),
    events: port2,
    api: apiChannel.port2,
    now,
  };
  worker.postMessage(init, [port2, apiChannel.port2]);
  let seq = 0;
  const effects = () => batches.flatMap((b) => b.effects);
  return {
    worker,
    /** Every batch so far; the numbered ones carry what the page applies (batch 0: the read set, worker logs). */
    batches,
    api: wrap<WorkerApi>(apiChannel.port1),
    /** One event, with a snapshot of the page now (`window.digitalData`, `acmeUserData`); `early`: as offtag.js takes it before the worker said hello. */
    send(event: EngineEvent, early?: boolean) {
      const snapshot = takeSnapshot(++seq, applied(), 'digitalData', ['acmeUserData'], null, early);
      prepare?.(snapshot);
      port1.postMessage({ type: 'event', event, snapshot });
    },
    effects,
    messages: () => effects().flatMap((e: Effect) => (e.type === 'log' ? [e.message] : [])),
  };
}

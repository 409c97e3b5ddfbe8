/**
 * What a beacon queue holds in memory: its beacons (the truth: the store is never read back for
 * them), the line they are sent in, the ones set aside or waiting for their page's marker, and
 * who waits for it to be idle. The queue's parts (queue-*.ts) share it.
 */
import { CLAIM_MARGIN_MS, timingOf, type QueueTiming } from './queue-policy.ts';
import type { BeaconQueueOptions } from './queue-types.ts';
import { createStoreWriter, type StoreWriter } from './queue-writer.ts';
import type { StoredBeacon } from './store.ts';

export interface QueueState {
  readonly opts: BeaconQueueOptions;
  readonly timing: QueueTiming;
  /** Names this queue (page) in the store. */
  readonly owner: string;
  readonly writer: StoreWriter;
  /** Keys in line, oldest first; the head is the one being sent or waited for. */
  readonly work: string[];
  /** Beacons that stepped aside: retried on their own. */
  readonly aside: Set<string>;
  /** Beacons waiting for their page's `commit` (in creation order), by page. */
  readonly parked: Map<string, string[]>;
  /** Beacons parked, or released by a `commit` whose transaction is not over yet. */
  parkedCount: number;
  /** The queue's copy of every beacon it holds: the truth (the store is never read back for them). */
  readonly held: Map<string, StoredBeacon>;
  /** Who wants to hear a beacon's round trip (this page's own beacons only). */
  readonly onDelivered: Map<string, (rttMs: number) => void>;
  /** Whether the send loop (`pump`) runs. */
  running: boolean;
  /** Beacons another live page holds, to be looked at again when its claim runs out (`later`). */
  deferred: number;
  /** Ends the send loop's back-off wait early (`retryNow`). */
  wake?: () => void;
  /** While a run is out: hands the sender the beacons that joined the line since (`pump` calls it). */
  extendRun?: () => void;
  idleWaiters: Array<() => void>;
  /** Starts the send loop, or extends the run that is out (set by `createBeaconQueue`). */
  pump(): Promise<void>;
  /** A `pump` is asked for after the current microtasks (`pumpSoon`). */
  pumpAsked: boolean;
}

export function createQueueState(opts: BeaconQueueOptions): QueueState {
  const timing = timingOf(opts);
  const held = new Map<string, StoredBeacon>();
  return {
    opts,
    timing,
    owner: opts.owner ?? `q${opts.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`,
    writer: createStoreWriter({ store: opts.store, durable: opts.durable !== false, timeoutMs: timing.storeTimeoutMs, log: opts.log, holding: () => held.size }),
    work: [],
    aside: new Set(),
    parked: new Map(),
    parkedCount: 0,
    held,
    onDelivered: new Map(),
    running: false,
    deferred: 0,
    idleWaiters: [],
    pump: () => Promise.resolve(),
    pumpAsked: false,
  };
}

/**
 * `pump` once the microtasks queued so far ran: the commits that one transaction covered each put
 * their beacons in line in a reaction of their own, and their beacons then reach the sender in one
 * message, not one per commit (docs/delivery.md, "The sender").
 */
export function pumpSoon(q: QueueState): void {
  if (q.pumpAsked) return;
  q.pumpAsked = true;
  queueMicrotask(() => {
    q.pumpAsked = false;
    void q.pump();
  });
}

/** Puts a beacon in line: never ahead of the beacon in progress; otherwise in key (= creation) order. */
export function insert(q: QueueState, key: string): void {
  const { work } = q;
  if (work.includes(key)) return;
  let i = q.running ? 1 : 0;
  while (i < work.length && work[i]! < key) i++;
  work.splice(i, 0, key);
}

/** Takes a beacon off the line (wherever it is now: beacons may have been inserted meanwhile). */
export function drop(q: QueueState, key: string): void {
  const i = q.work.indexOf(key);
  if (i >= 0) q.work.splice(i, 1);
}

/** The queue no longer holds the beacon (delivered, given up, or another page's now). */
export function forget(q: QueueState, key: string): void {
  q.held.delete(key);
  q.onDelivered.delete(key);
}

/** Whether the beacon's claim is too short for a send now (`attempt` renews it first). */
export const claimRunsOut = (q: QueueState, b: StoredBeacon): boolean =>
  q.writer.durable && b.leaseUntil - q.opts.now() < q.timing.requestTimeoutMs + CLAIM_MARGIN_MS;

/** Tells those waiting for `idle` once nothing is left to send or wait for. */
export function settleIdle(q: QueueState): void {
  if (q.running || q.work.length > 0 || q.aside.size > 0 || q.deferred > 0 || q.parkedCount > 0) return;
  const waiters = q.idleWaiters;
  q.idleWaiters = [];
  for (const w of waiters) w();
}

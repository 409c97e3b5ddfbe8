/**
 * The beacon queue's public shapes (queue.ts): what it is asked to send, how it sends (one request,
 * or a run through the sender), its options and its interface.
 */
import type { BeaconStore } from './store.ts';

export interface BeaconRequest {
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  headers?: Record<string, string>;
}

export interface BeaconFetchInit {
  method: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
  credentials: 'include';
  /** Lets the request outlive the page that made it. */
  keepalive: true;
  signal?: AbortSignal;
}

export type BeaconFetch = (url: string, init: BeaconFetchInit) => Promise<{ status: number }>;

/** One request of a run (`ChainFetch`). */
export interface ChainRequest {
  url: string;
  init: Omit<BeaconFetchInit, 'signal'>;
  /** Not started by then (ms from when the run was handed over): skipped, with the rest (its claim would be too short). */
  startWithinMs: number;
  /** A request that has not answered by then counts as failed. */
  timeoutMs: number;
}
/** What became of a request of a run; `ms`: its round trip. */
export type ChainResult = { status: number; ms?: number } | { error: string } | { skipped: true };
/**
 * Sends a run of requests strictly one after another, each once the one before it settled
 * (`settles`): after one that did not, or one not started in time, the rest are not sent
 * (`{ skipped }`). One promise per request, settling in order. The sender (sender.ts) runs the
 * run on its own thread, so the next beacon leaves without waiting for the worker's.
 * `continues`: these requests extend the run handed before them (each waits for the one before
 * it, and is skipped if that one did not settle), instead of starting a new one.
 */
export type ChainFetch = (requests: ChainRequest[], continues?: boolean) => Array<Promise<ChainResult>>;

export interface BeaconQueueOptions {
  store: BeaconStore;
  /** false: the store is memory (no IndexedDB); beacons are safe only once delivered. */
  durable?: boolean;
  fetch: BeaconFetch;
  /** Runs of beacons handed over at once, sent one after another by the sender (docs/delivery.md, "Throughput"). */
  chain?: ChainFetch;
  now(): number;
  sleep(ms: number): Promise<void>;
  log(message: string): void;
  /** The devtools feed: `beacon-set-aside`, `beacon-given-up`. */
  monitor?(name: string, data: unknown): void;
  /** Names this queue (page) in the store; random by default. */
  owner?: string;
  /** First retry delay; doubles with each failure up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A request that has not answered by then counts as failed (AppMeasurement waits 5 s). */
  requestTimeoutMs?: number;
  /** How long an owner's claim keeps other pages off a beacon beyond its own timers. */
  leaseMs?: number;
  /** A store call that has not answered by then counts as a store failure. */
  storeTimeoutMs?: number;
}

export interface BeaconQueue {
  /**
   * Queues the beacon and resolves with its id once the store write was tried; `delivered` gets
   * the round trip of a 2xx answer. With a `page`, the beacon waits — neither stored nor sent —
   * for that page's next `commit`, which stores it with the page's marker in one transaction:
   * the store never holds a beacon of an event its marker does not cover, and nothing leaves
   * before that transaction committed (so the next page cannot make the same event's beacon again).
   */
  enqueue(request: BeaconRequest, delivered?: (rttMs: number) => void, page?: string): Promise<string>;
  /**
   * Resolves once every beacon queued so far is safe — written to the store together with the
   * marker `ack:<page>` = `seq` (one transaction), or, when the store does not work, delivered.
   * Releases the beacons queued for `page` to be sent once that transaction is over.
   */
  commit(page: string, seq: number): Promise<void>;
  /** The marker `commit` wrote for `page`, if any. */
  committed(page: string): Promise<number>;
  /** Takes over the beacons earlier pages left in the store; resolves with how many. */
  resumePending(): Promise<number>;
  /** Cuts the current back-off short (the shell calls this when the network comes back). */
  retryNow(): void;
  /** Resolves when this queue has nothing left to send or wait for, and the store is up to date. */
  idle(): Promise<void>;
  /** Beacons this queue is working on (in line and set aside). */
  readonly size: number;
  /** Whether the store still works. */
  readonly durable: boolean;
}

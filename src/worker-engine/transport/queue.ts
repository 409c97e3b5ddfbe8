/**
 * The durable beacon queue (DECISIONS.md §7, docs/delivery.md). A beacon is written to the store
 * before it is sent and removed only once its request settled; failures are retried with capped
 * exponential back-off; `resumePending()` sends what a page that died left behind.
 * Beacons go out one at a time, in the order they were made, as AppMeasurement sends them.
 */
import type { BeaconStore, StoredBeacon } from './store.ts';

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

export interface BeaconQueueOptions {
  store: BeaconStore;
  fetch: BeaconFetch;
  now(): number;
  sleep(ms: number): Promise<void>;
  log(message: string): void;
  /** Names this queue (page) in the store; random by default. */
  owner?: string;
  /** First retry delay; doubles with each failure up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** A request that has not answered by then counts as failed (AppMeasurement waits 5 s). */
  requestTimeoutMs?: number;
  /** How long an owner's claim keeps other pages off a beacon beyond its own timers. */
  leaseMs?: number;
}

export interface BeaconQueue {
  /** Stores the beacon (resolves then, with its id) and sends it in turn; `delivered` gets the round trip of a 2xx answer. */
  enqueue(request: BeaconRequest, delivered?: (rttMs: number) => void): Promise<string>;
  /** Takes over the beacons earlier pages left in the store; resolves with how many. */
  resumePending(): Promise<number>;
  /** Cuts the current back-off short (the shell calls this when the network comes back). */
  retryNow(): void;
  /** Resolves when this queue has nothing left to send or wait for. */
  idle(): Promise<void>;
  /** Beacons this queue is working on. */
  readonly size: number;
}

export const BASE_RETRY_DELAY_MS = 1_000;
export const MAX_RETRY_DELAY_MS = 30_000;
export const REQUEST_TIMEOUT_MS = 5_000;
export const LEASE_MS = 5_000;
const KEY_PREFIX = 'beacon:';

/** Whether an answer ends the beacon's life: any answer but 408, 429 and 5xx (network errors never do). */
export function settles(status: number): boolean {
  if (status === 408 || status === 429) return false;
  return status < 500;
}

export function retryDelay(attempts: number, base = BASE_RETRY_DELAY_MS, max = MAX_RETRY_DELAY_MS): number {
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

type Outcome = { kind: 'done' } | { kind: 'retry'; delay: number };

export function createBeaconQueue(opts: BeaconQueueOptions): BeaconQueue {
  const { store, now, sleep, log } = opts;
  const base = opts.baseDelayMs ?? BASE_RETRY_DELAY_MS;
  const max = opts.maxDelayMs ?? MAX_RETRY_DELAY_MS;
  const timeout = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const lease = opts.leaseMs ?? LEASE_MS;
  const owner = opts.owner ?? `q${now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  /** Keys to work on, oldest first; the head is the one being sent or waited for. */
  const work: string[] = [];
  /** Our own copy of each beacon we hold, in case the store loses it. */
  const held = new Map<string, StoredBeacon>();
  let seq = 0;
  let running = false;
  let deferred = 0;
  let wake: (() => void) | undefined;
  let idleWaiters: (() => void)[] = [];
  const storeProblems = new Set<string>();
  /** Who wants to hear a beacon's round trip (this page's own beacons only). */
  const onDelivered = new Map<string, (rttMs: number) => void>();

  const storeFailed = (op: string, e: unknown) => {
    if (storeProblems.has(op)) return;
    storeProblems.add(op);
    log(`Beacon queue: the store failed to ${op} (${e instanceof Error ? e.message : String(e)}); delivery goes on from memory.`);
  };
  const safe = async <T>(op: string, f: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await f();
    } catch (e) {
      storeFailed(op, e);
      return undefined;
    }
  };

  function insert(key: string): void {
    if (work.includes(key)) return;
    // Never ahead of the beacon in progress; otherwise in key (= creation) order.
    let i = running ? 1 : 0;
    while (i < work.length && work[i]! < key) i++;
    work.splice(i, 0, key);
  }

  function settleIdle(): void {
    if (running || work.length > 0 || deferred > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  }

  async function send(b: StoredBeacon): Promise<{ status: number } | { error: string }> {
    const ctl = typeof AbortController === 'undefined' ? undefined : new AbortController();
    let timer = false;
    const request = opts
      .fetch(b.url, { method: b.method, body: b.body, headers: b.headers, credentials: 'include', keepalive: true, signal: ctl?.signal })
      .then((r) => ({ status: r.status }))
      .catch((e: unknown) => ({ error: timer ? 'timeout' : e instanceof Error ? e.message : String(e) }));
    const timedOut = sleep(timeout).then(() => {
      timer = true;
      return { error: 'timeout' } as const;
    });
    const result = await Promise.race([request, timedOut]);
    if ('error' in result && result.error === 'timeout') ctl?.abort();
    return result;
  }

  async function attempt(key: string): Promise<Outcome> {
    const t = now();
    const mine = held.get(key);
    let entry = await safe('read', () => store.get(key));
    if (!entry) {
      // Gone from the store: another page sent it, unless we still hold a live claim (the store lost it).
      if (mine && mine.leaseUntil > t) entry = mine;
      else {
        held.delete(key);
        onDelivered.delete(key);
        return { kind: 'done' };
      }
    }
    if (entry.owner !== owner && entry.leaseUntil > t) {
      // A live page is on it; look again when its claim runs out, in case that page dies.
      held.delete(key);
      deferred++;
      void sleep(entry.leaseUntil - t + 1).then(() => {
        deferred--;
        insert(key);
        void pump();
      });
      return { kind: 'done' };
    }
    const claimed: StoredBeacon = { ...entry, owner, leaseUntil: t + timeout + lease };
    held.set(key, claimed);
    await safe('write', () => store.set(key, claimed));
    const sentAt = now();
    const result = await send(claimed);
    if ('status' in result && settles(result.status)) {
      if (result.status >= 200 && result.status < 300) onDelivered.get(key)?.(now() - sentAt);
      onDelivered.delete(key);
      await safe('delete', () => store.del(key));
      held.delete(key);
      if (claimed.attempts > 0) log(`Analytics beacon delivered after ${claimed.attempts + 1} attempts.`);
      return { kind: 'done' };
    }
    const attempts = claimed.attempts + 1;
    const delay = retryDelay(attempts, base, max);
    const retry: StoredBeacon = { ...claimed, attempts, leaseUntil: now() + delay + timeout + lease };
    held.set(key, retry);
    await safe('write', () => store.set(key, retry));
    // Said once per beacon: a long offline spell should not fill the console.
    if (attempts === 1) {
      const why = 'status' in result ? `HTTP ${result.status}` : result.error;
      log(`Analytics beacon not delivered (${why}); it stays queued and is retried with back-off.`);
    }
    return { kind: 'retry', delay };
  }

  async function pump(): Promise<void> {
    if (running) return;
    running = true;
    try {
      while (work.length > 0) {
        const outcome = await attempt(work[0]!);
        if (outcome.kind === 'done') {
          work.shift();
          continue;
        }
        await Promise.race([sleep(outcome.delay), new Promise<void>((r) => (wake = r))]);
        wake = undefined;
      }
    } finally {
      running = false;
      settleIdle();
    }
  }

  return {
    async enqueue(request: BeaconRequest, delivered?: (rttMs: number) => void): Promise<string> {
      const t = now();
      // Sortable: creation time, then a counter, then the owner for uniqueness across pages.
      const id = `${KEY_PREFIX}${t.toString(36).padStart(10, '0')}:${(seq++).toString(36).padStart(6, '0')}:${owner}`;
      const entry: StoredBeacon = { id, ...request, createdAt: t, attempts: 0, owner, leaseUntil: t + timeout + lease };
      held.set(id, entry);
      if (delivered) onDelivered.set(id, delivered);
      await safe('write', () => store.set(id, entry));
      insert(id);
      void pump();
      return id;
    },
    async resumePending(): Promise<number> {
      const keys = (await safe('list', () => store.keys())) ?? [];
      let n = 0;
      for (const key of keys.filter((k) => k.startsWith(KEY_PREFIX)).sort()) {
        if (held.has(key) || work.includes(key)) continue;
        insert(key);
        n++;
      }
      void pump();
      return n;
    },
    retryNow(): void {
      wake?.();
    },
    idle(): Promise<void> {
      return new Promise<void>((r) => {
        idleWaiters.push(r);
        settleIdle();
      });
    },
    get size() {
      return work.length;
    },
  };
}

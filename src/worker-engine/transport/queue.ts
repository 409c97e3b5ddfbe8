/**
 * The durable beacon queue (DECISIONS.md §7, docs/delivery.md). A beacon is written to the store
 * before it is sent and removed once its request settled; failures are retried with capped
 * exponential back-off; `resumePending()` sends what a page that died left behind.
 *
 * Beacons go out one at a time, in the order they were made (Analytics pathing depends on it).
 * The queue's own memory is the truth for the beacons it holds: the store is written (one
 * transaction per batch of beacons, deletes coalesced) but never read back for them, so a store
 * that fails mid-life loses nothing while the page lives. A beacon the server keeps refusing
 * steps aside (`STEP_ASIDE_AFTER`) once a later beacon went through, and is given up after
 * `GIVE_UP_AFTER` refusals, said in the console and the devtools.
 */
import type { AckRecord, BeaconStore, ClaimResult, StoredBeacon } from './store.ts';

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

export const BASE_RETRY_DELAY_MS = 1_000;
export const MAX_RETRY_DELAY_MS = 30_000;
export const REQUEST_TIMEOUT_MS = 5_000;
export const LEASE_MS = 5_000;
export const STORE_TIMEOUT_MS = 3_000;
/** Server refusals (5xx, 408, 429) after which a beacon lets the next one try (it steps aside if that one goes through). */
export const STEP_ASIDE_AFTER = 3;
/** Server refusals after which a beacon that stepped aside is given up. Network failures never count. */
export const GIVE_UP_AFTER = 10;
/** A renewal also renews the claims in line that would run out within this much more (one transaction for a long line). */
export const RENEW_AHEAD_MS = 10_000;
/** At most this many claims in one renewal. */
export const RENEW_BATCH = 200;
/** At most this many beacons handed to the sender (`ChainFetch`) and not yet answered. */
export const RUN_MAX = 64;
/** Store transactions start at most this often (ms): a burst's writes and deletes share them. */
export const STORE_GROUP_MS = 8;
/** Ack markers older than this are pruned at start. */
export const ACK_MAX_AGE_MS = 7 * 864e5;
const KEY_PREFIX = 'beacon:';
const ACK_PREFIX = 'ack:';

/** Whether an answer ends the beacon's life: any answer but 408, 429 and 5xx (network errors never do). */
export function settles(status: number): boolean {
  if (status === 408 || status === 429) return false;
  return status < 500;
}

export function retryDelay(attempts: number, base = BASE_RETRY_DELAY_MS, max = MAX_RETRY_DELAY_MS): number {
  return Math.min(max, base * 2 ** Math.max(0, attempts - 1));
}

type SendResult = { status: number; ms?: number } | { error: string };
const ok = (r: SendResult): r is { status: number } => 'status' in r && settles(r.status);
const why = (r: SendResult) => ('status' in r ? `HTTP ${r.status}` : r.error);

export function createBeaconQueue(opts: BeaconQueueOptions): BeaconQueue {
  const { store, now, sleep, log } = opts;
  const base = opts.baseDelayMs ?? BASE_RETRY_DELAY_MS;
  const max = opts.maxDelayMs ?? MAX_RETRY_DELAY_MS;
  const timeout = opts.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
  const lease = opts.leaseMs ?? LEASE_MS;
  const storeTimeout = opts.storeTimeoutMs ?? STORE_TIMEOUT_MS;
  const owner = opts.owner ?? `q${now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
  let durable = opts.durable !== false;
  /** Keys in line, oldest first; the head is the one being sent or waited for. */
  const work: string[] = [];
  /** Beacons that stepped aside: retried on their own. */
  const aside = new Set<string>();
  /** Beacons waiting for their page's `commit` (in creation order), by page. */
  const parked = new Map<string, string[]>();
  let parkedCount = 0;
  /** The queue's copy of every beacon it holds: the truth (the store is never read back for them). */
  const held = new Map<string, StoredBeacon>();
  let seq = 0;
  let running = false;
  let deferred = 0;
  let wake: (() => void) | undefined;
  let idleWaiters: (() => void)[] = [];
  /** Who wants to hear a beacon's round trip (this page's own beacons only). */
  const onDelivered = new Map<string, (rttMs: number) => void>();

  // ── The store: writes and deletes are batched, one transaction per batch, in order.
  let storeChain: Promise<unknown> = Promise.resolve();
  let puts: Array<[string, unknown]> = [];
  let dels: string[] = [];
  let flushing: Promise<boolean> | undefined;
  let lastFlush = -Infinity;

  function storeFailed(e: unknown): void {
    if (!durable) return;
    durable = false;
    const n = held.size;
    log(
      `Beacon queue: IndexedDB failed (${e instanceof Error ? e.message : String(e)}). ` +
        `${n} analytics beacon${n === 1 ? ' is' : 's are'} now kept in memory only, with every later one: ` +
        `they are still sent while this page stays open, and lost if it closes before they are.`,
    );
  }
  /** Runs `f` after the store calls before it; false when the store is not working (or fails now). */
  function storeOp(f: () => Promise<unknown>): Promise<boolean> {
    const run = storeChain.then(async () => {
      if (!durable) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await Promise.race([
          f(),
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${storeTimeout / 1000} s`)), storeTimeout))),
        ]);
        return true;
      } catch (e) {
        storeFailed(e);
        return false;
      } finally {
        clearTimeout(timer);
      }
    });
    storeChain = run;
    return run;
  }
  /**
   * Everything written or deleted until the next task goes in one transaction (a dispatch's
   * beacons and the page's acknowledgement marker land together: a microtask would split them, the
   * shell acknowledges a few microtasks after routing), deletes with it. Group commit: while one
   * transaction runs, what is asked for meanwhile waits and goes in the next one, so a burst
   * costs a transaction per few events instead of two per beacon (docs/delivery.md, "Throughput").
   * And at most one every `STORE_GROUP_MS`: a lone event is written at once, a burst's events
   * (each dispatch a few tasks of its own) wait a few ms for the ones behind them.
   */
  function flush(): Promise<boolean> {
    // (A scheduling detail on the monotonic clock; `now` is the queue's time for claims and back-off.)
    flushing ??= new Promise<void>((r) => setTimeout(r, Math.max(0, lastFlush + STORE_GROUP_MS - performance.now())))
      .then(() => storeChain)
      .then(() => {
        flushing = undefined;
        lastFlush = performance.now();
        const p = puts;
        const d = dels;
        puts = [];
        dels = [];
        return p.length || d.length ? storeOp(() => store.setMany(p, d)) : durable;
      });
    return flushing;
  }
  const write = (key: string, value: unknown) => (puts.push([key, value]), flush());
  const remove = (key: string) => (dels.push(key), void flush());

  function insert(key: string): void {
    if (work.includes(key)) return;
    // Never ahead of the beacon in progress; otherwise in key (= creation) order.
    let i = running ? 1 : 0;
    while (i < work.length && work[i]! < key) i++;
    work.splice(i, 0, key);
  }

  function settleIdle(): void {
    if (running || work.length > 0 || aside.size > 0 || deferred > 0 || parkedCount > 0) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const w of waiters) w();
  }

  async function send(b: StoredBeacon): Promise<SendResult> {
    const ctl = typeof AbortController === 'undefined' ? undefined : new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const request = opts
      .fetch(b.url, { method: b.method, body: b.body, headers: b.headers, credentials: 'include', keepalive: true, signal: ctl?.signal })
      .then((r) => ({ status: r.status }))
      .catch((e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }));
    const timedOut = new Promise<SendResult>((r) => (timer = setTimeout(() => r({ error: 'timeout' }), timeout)));
    const result = await Promise.race([request, timedOut]);
    clearTimeout(timer);
    if ('error' in result && result.error === 'timeout') ctl?.abort();
    return result;
  }

  /** Whether the beacon's claim is too short for a send now (attempt renews it first). */
  const claimRunsOut = (b: StoredBeacon) => durable && b.leaseUntil - now() < timeout + 1_000;

  /** Sends one held beacon: true when it is done with (settled), false when it failed and waits. */
  async function attempt(key: string): Promise<boolean> {
    const b = held.get(key)!;
    // A claim about to run out (a long line, a long back-off) is renewed, atomically, before the
    // send — with the claims of the beacons in line after it that run out as soon, in the same
    // transaction: if another page took a beacon over meanwhile, it is that page's to send now.
    if (claimRunsOut(b)) {
      const t = now();
      const soon = t + timeout + 1_000 + RENEW_AHEAD_MS;
      const keys = [key, ...work.filter((k) => k !== key && held.get(k)!.leaseUntil < soon).slice(0, RENEW_BATCH - 1)];
      let rs: ClaimResult[] | undefined;
      try {
        rs = await store.claimMany(keys, owner, t, t + timeout + lease);
      } catch (e) {
        storeFailed(e);
      }
      let headGone = false;
      rs?.forEach((r, i) => {
        const k = keys[i]!;
        const mine = held.get(k);
        if (!mine) return;
        if ('claimed' in r) return void (mine.leaseUntil = r.claimed.leaseUntil);
        held.delete(k);
        onDelivered.delete(k);
        if (k === key) headGone = true;
        else drop(k);
        if ('busyUntil' in r) later(k, r.busyUntil - t + 1);
      });
      if (headGone) return true;
    }
    const sentAt = now();
    const result = await send(b);
    return settle(key, result, now() - sentAt);
  }

  /** What a send's answer means for the beacon: true when it is done with, false when it failed and waits. */
  function settle(key: string, result: SendResult, rttMs: number): boolean {
    const b = held.get(key)!;
    if (ok(result)) {
      if (result.status >= 200 && result.status < 300) onDelivered.get(key)?.(result.ms ?? rttMs);
      onDelivered.delete(key);
      held.delete(key);
      remove(key);
      if (b.attempts > 0) log(`Analytics beacon delivered after ${b.attempts + 1} attempts.`);
      return true;
    }
    b.attempts++;
    if ('status' in result) b.answered = (b.answered ?? 0) + 1;
    b.leaseUntil = now() + retryDelay(b.attempts, base, max) + timeout + lease;
    void write(key, { ...b });
    // Said once per beacon: a long offline spell should not fill the console.
    if (b.attempts === 1) log(`Analytics beacon not delivered (${why(result)}); it stays queued and is retried with back-off.`);
    (b as StoredBeacon & { last?: string }).last = why(result);
    return false;
  }

  /** A beacon the server keeps refusing while others go through: retried on its own until `GIVE_UP_AFTER`. */
  async function stepAside(key: string): Promise<void> {
    const b = held.get(key)!;
    aside.add(key);
    const last = (b as { last?: string }).last;
    log(
      `Analytics beacon set aside after ${b.answered} refusals (${last}) while the next one went through: ` +
        `the beacons after it go on; it is retried on its own and given up after ${GIVE_UP_AFTER} refusals. ${b.url}`,
    );
    opts.monitor?.('beacon-set-aside', { url: b.url, attempts: b.attempts, answered: b.answered, last });
    try {
      for (;;) {
        await sleep(retryDelay(b.attempts, base, max));
        if (await attempt(key)) return;
        if ((b.answered ?? 0) >= GIVE_UP_AFTER) {
          const lastNow = (b as { last?: string }).last;
          log(`Analytics beacon given up after ${b.answered} refusals (${lastNow}); the server accepted the beacons after it. ${b.url}`);
          opts.monitor?.('beacon-given-up', { url: b.url, attempts: b.attempts, answered: b.answered, last: lastNow });
          held.delete(key);
          onDelivered.delete(key);
          remove(key);
          return;
        }
      }
    } finally {
      aside.delete(key);
      settleIdle();
    }
  }

  /** Takes a beacon off the line (wherever it is now: beacons may have been inserted meanwhile). */
  function drop(key: string): void {
    const i = work.indexOf(key);
    if (i >= 0) work.splice(i, 1);
  }

  /** While a run is out: hands the sender the beacons that joined the line since (`pump` calls it). */
  let extendRun: (() => void) | undefined;

  /**
   * Hands the beacons at the head of the line to the sender as one run (`ChainFetch`): each leaves
   * once the one before it settled, without a round trip through this thread in between. While the
   * run is out, beacons that join the line extend it (up to `RUN_MAX` handed and not yet answered),
   * so the sender is not left waiting for this thread, busy with a burst's events. Resolves with
   * the key of the beacon that failed (it waits, as after `attempt`), or undefined.
   */
  async function sendRun(): Promise<string | undefined> {
    const keys: string[] = [];
    const handed = new Set<string>();
    const results: Array<Promise<ChainResult>> = [];
    let answered = 0;
    const hand = (continues: boolean) => {
      const t = now();
      const more: string[] = [];
      // In line order, up to the first beacon whose claim is too short (`attempt` renews it, in its turn).
      for (const k of work) {
        if (keys.length - answered + more.length >= RUN_MAX) break;
        if (handed.has(k)) continue;
        if (claimRunsOut(held.get(k)!)) break;
        more.push(k);
      }
      if (!more.length) return;
      const rs = opts.chain!(
        more.map((k) => {
          const b = held.get(k)!;
          handed.add(k);
          return {
            url: b.url,
            init: { method: b.method, body: b.body, headers: b.headers, credentials: 'include', keepalive: true },
            // Started only while its claim still covers a whole request (as `attempt` demands).
            startWithinMs: durable ? b.leaseUntil - t - timeout - 1_000 : RUN_MAX * timeout,
            timeoutMs: timeout,
          };
        }),
        continues,
      );
      keys.push(...more);
      results.push(...rs);
    };
    hand(false);
    extendRun = () => hand(true);
    try {
      for (let i = 0; i < keys.length; i++) {
        const r = await results[i]!;
        answered++;
        // Not sent (its claim ran short): it is the head now, and `attempt` renews it.
        if ('skipped' in r) return undefined;
        if (!held.has(keys[i]!)) continue;
        // The round trip is the sender's own timing (`ms`), which `settle` prefers.
        if (!settle(keys[i]!, r, 0)) return keys[i];
        drop(keys[i]!);
        hand(true);
      }
      return undefined;
    } finally {
      extendRun = undefined;
    }
  }

  async function pump(): Promise<void> {
    if (running) return extendRun?.();
    running = true;
    try {
      while (work.length > 0) {
        let key = work[0]!;
        if (opts.chain && work.length > 1 && !claimRunsOut(held.get(key)!)) {
          const failed = await sendRun();
          if (failed === undefined) continue;
          key = failed;
        } else if (await attempt(key)) {
          drop(key);
          continue;
        }
        const b = held.get(key)!;
        // Refused often enough: does the next beacon go through? Then this one is the problem.
        const next = work[work.indexOf(key) + 1];
        if ((b.answered ?? 0) >= STEP_ASIDE_AFTER && next !== undefined && (await attempt(next))) {
          drop(key);
          drop(next);
          void stepAside(key);
          continue;
        }
        await Promise.race([sleep(retryDelay(b.attempts, base, max)), new Promise<void>((r) => (wake = r))]);
        wake = undefined;
      }
    } finally {
      running = false;
      settleIdle();
    }
  }

  /** Takes an orphan over if no live page holds it; looks again when a live claim runs out. */
  async function adopt(key: string): Promise<boolean> {
    const t = now();
    let r;
    try {
      r = await store.claim(key, owner, t, t + timeout + lease);
    } catch (e) {
      storeFailed(e);
      return false;
    }
    if ('claimed' in r) {
      held.set(key, r.claimed);
      insert(key);
      return true;
    }
    if ('busyUntil' in r) later(key, r.busyUntil - t + 1);
    return false;
  }
  /** Looks at a beacon another live page holds again when its claim runs out, in case that page died. */
  function later(key: string, ms: number): void {
    deferred++;
    void sleep(ms).then(async () => {
      if (await adopt(key)) void pump();
      deferred--;
      settleIdle();
    });
  }

  return {
    enqueue(request, delivered, page) {
      const t = now();
      // Sortable: creation time, then a counter, then the owner for uniqueness across pages.
      const id = `${KEY_PREFIX}${t.toString(36).padStart(10, '0')}:${(seq++).toString(36).padStart(6, '0')}:${owner}`;
      const entry: StoredBeacon = { id, ...request, createdAt: t, attempts: 0, owner, leaseUntil: t + timeout + lease };
      held.set(id, entry);
      if (delivered) onDelivered.set(id, delivered);
      if (page !== undefined) {
        const list = parked.get(page);
        if (list) list.push(id);
        else parked.set(page, [id]);
        parkedCount++;
        return Promise.resolve(id);
      }
      const written = write(id, { ...entry });
      insert(id);
      // Sent after the write was started: the transaction is queued before the request leaves.
      void written.then(() => pump());
      return written.then(() => id);
    },
    async commit(page, n) {
      const t = now();
      const mine = parked.get(page) ?? [];
      parked.delete(page);
      for (const k of mine) {
        const b = held.get(k)!;
        b.leaseUntil = t + timeout + lease;
        puts.push([k, { ...b }]);
      }
      const record: AckRecord = { seq: n, at: t };
      const stored = write(`${ACK_PREFIX}${page}`, record);
      // Sent once the transaction that holds them and the marker is over (or failed: then from memory).
      void stored.then(() => {
        parkedCount -= mine.length;
        for (const k of mine) insert(k);
        void pump();
      });
      if (await stored) return;
      const waiting = new Set([...parked.values()].flat());
      const unsent = [...held.keys()].filter((k) => !waiting.has(k));
      await new Promise<void>((resolve) => {
        const check = () => (unsent.some((k) => held.has(k)) ? setTimeout(check, 20) : resolve());
        check();
      });
    },
    async committed(page) {
      if (!durable) return 0;
      try {
        const r = (await store.get(`${ACK_PREFIX}${page}`)) as AckRecord | undefined;
        return r?.seq ?? 0;
      } catch {
        return 0;
      }
    },
    async resumePending() {
      let keys: string[] = [];
      try {
        keys = durable ? await store.keys() : [];
      } catch (e) {
        storeFailed(e);
      }
      const t = now();
      const stale: string[] = [];
      for (const k of keys.filter((x) => x.startsWith(ACK_PREFIX))) {
        const r = (await store.get(k).catch(() => undefined)) as AckRecord | undefined;
        if (!r || t - r.at > ACK_MAX_AGE_MS) stale.push(k);
      }
      if (stale.length) void storeOp(() => store.delMany(stale));
      let n = 0;
      for (const key of keys.filter((k) => k.startsWith(KEY_PREFIX)).sort()) {
        if (held.has(key)) continue;
        if (await adopt(key)) n++;
      }
      void pump();
      return n;
    },
    retryNow() {
      wake?.();
    },
    idle() {
      return new Promise<void>((r) => {
        idleWaiters.push(r);
        settleIdle();
      })
        // ...and the store has caught up with the deletes.
        .then(() => flushing)
        .then(() => storeChain)
        .then(() => undefined);
    },
    get size() {
      return work.length + aside.size + parkedCount;
    },
    get durable() {
      return durable;
    },
  };
}

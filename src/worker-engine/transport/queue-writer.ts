/**
 * The beacon queue's writes to its store: batched, one transaction per batch, in order, and
 * the store's failure noticed once (the queue then keeps its beacons in memory only).
 */
import { DELETES_WAIT_MAX, STORE_GROUP_MS } from './queue-policy.ts';
import type { BeaconStore } from './store.ts';

export interface StoreWriter {
  /** Whether the store still works. */
  readonly durable: boolean;
  /** The store failed: says so once (with how many beacons are now at risk); later calls skip it. */
  failed(e: unknown): void;
  /** Runs `f` after the store calls before it; false when the store is not working (or fails now). */
  run(f: () => Promise<unknown>): Promise<boolean>;
  /** Writes `value` in the next transaction; resolves with whether that transaction committed. */
  write(key: string, value: unknown): Promise<boolean>;
  /** Deletes `key` in the next transaction. */
  remove(key: string): void;
  /**
   * Deletes `key` once `release` is called (the line has nothing more to send), or once
   * `DELETES_WAIT_MAX` wait: a delivered beacon's delete, which costs the store per key, does not
   * compete with the sends of a burst (docs/delivery.md, "The path of a beacon", step 4).
   */
  removeLater(key: string): void;
  /** The deletes `removeLater` holds go in the next transaction. */
  release(): void;
  /** Puts `value` in the next transaction without starting one (a `write` right after takes it along). */
  stage(key: string, value: unknown): void;
  /** Resolves once the transactions asked for so far are over. */
  caughtUp(): Promise<unknown>;
}

export interface StoreWriterOptions {
  store: BeaconStore;
  durable: boolean;
  timeoutMs: number;
  log(message: string): void;
  /** How many beacons the queue holds (said when the store fails). */
  holding(): number;
}

export function createStoreWriter({ store, timeoutMs, log, holding, ...o }: StoreWriterOptions): StoreWriter {
  let durable = o.durable;
  let storeChain: Promise<unknown> = Promise.resolve();
  /** By key: a key written again before its transaction (a page's marker, event after event) is put once, with its last value. */
  let puts = new Map<string, unknown>();
  let dels: string[] = [];
  /** Deletes held by `removeLater`. */
  let later: string[] = [];
  let flushing: Promise<boolean> | undefined;
  let lastFlush = -Infinity;

  function failed(e: unknown): void {
    if (!durable) return;
    durable = false;
    const n = holding();
    log(
      `Beacon queue: IndexedDB failed (${e instanceof Error ? e.message : String(e)}). ` +
        `${n} analytics beacon${n === 1 ? ' is' : 's are'} now kept in memory only, with every later one: ` +
        `they are still sent while this page stays open, and lost if it closes before they are.`,
    );
  }
  function run(f: () => Promise<unknown>): Promise<boolean> {
    const op = storeChain.then(async () => {
      if (!durable) return false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      try {
        await Promise.race([
          f(),
          new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs))),
        ]);
        return true;
      } catch (e) {
        failed(e);
        return false;
      } finally {
        clearTimeout(timer);
      }
    });
    storeChain = op;
    return op;
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
    // (A scheduling detail on the monotonic clock; the queue's `now` is its time for claims and back-off.)
    flushing ??= new Promise<void>((r) => setTimeout(r, Math.max(0, lastFlush + STORE_GROUP_MS - performance.now())))
      .then(() => storeChain)
      .then(() => {
        flushing = undefined;
        lastFlush = performance.now();
        const p = [...puts];
        const d = dels;
        puts = new Map();
        dels = [];
        return p.length || d.length ? run(() => store.setMany(p, d)) : durable;
      });
    return flushing;
  }
  return {
    get durable() {
      return durable;
    },
    failed,
    run,
    write: (key, value) => (puts.set(key, value), flush()),
    remove: (key) => (dels.push(key), void flush()),
    removeLater(key) {
      if (later.push(key) >= DELETES_WAIT_MAX) this.release();
    },
    release() {
      if (!later.length) return;
      dels.push(...later);
      later = [];
      void flush();
    },
    stage: (key, value) => void puts.set(key, value),
    caughtUp: () => Promise.resolve(flushing).then(() => storeChain),
  };
}

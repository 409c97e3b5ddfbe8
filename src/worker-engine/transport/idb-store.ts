/**
 * The durable beacon store: its own IndexedDB database (idb-keyval), so beacons outlive the page
 * that made them (the next page load sends them, queue.ts `resumePending`).
 */
import { createStore, delMany, get, getMany, keys, promisifyRequest } from 'idb-keyval';
import { claimDecision, memoryStore, MEMORY_FALLBACK_MESSAGE, type BeaconStore, type ClaimResult, type StoredBeacon } from './store.ts';

export const BEACON_DB = 'offtag-beacons';
export const BEACON_OBJECT_STORE = 'beacons';
/** `indexedDB.open` (or any later transaction) that has not answered by then counts as failed. */
export const STORE_TIMEOUT_MS = 3_000;

export function idbStore(dbName = BEACON_DB, storeName = BEACON_OBJECT_STORE): BeaconStore {
  const db = createStore(dbName, storeName);
  /** Reads and claims every key in one read-write transaction: pages never both claim a beacon. */
  const claimAll = (ks: string[], owner: string, now: number, leaseUntil: number): Promise<ClaimResult[]> =>
    db('readwrite', async (s) => {
      const found = await Promise.all(ks.map((k) => promisifyRequest(s.get(k)) as Promise<StoredBeacon | undefined>));
      const results = found.map((entry, i) => {
        const r = claimDecision(entry, owner, now, leaseUntil);
        if ('claimed' in r) s.put(r.claimed, ks[i]!);
        return r;
      });
      return promisifyRequest(s.transaction).then(() => results);
    });
  return {
    get: (k) => get(k, db),
    getMany: (ks) => getMany(ks, db),
    setMany: (entries, deletes = []) =>
      db('readwrite', (s) => {
        for (const [k, v] of entries) s.put(v, k);
        for (const k of deletes) s.delete(k);
        return promisifyRequest(s.transaction);
      }),
    delMany: (ks) => delMany(ks, db),
    keys: async () => (await keys(db)).map(String),
    claim: (k, owner, now, leaseUntil) => claimAll([k], owner, now, leaseUntil).then((r) => r[0]!),
    claimMany: claimAll,
  };
}

/** Rejects when `p` has not settled within `ms`. */
export function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e: unknown) => (clearTimeout(t), reject(e)),
    );
  });
}

/**
 * The store the worker uses: IndexedDB when it exists and answers within `STORE_TIMEOUT_MS`, else
 * memory (said once through `log`). `durable` tells the queue which one it got.
 */
export async function openBeaconStore(
  log: (message: string) => void,
  dbName = BEACON_DB,
  timeoutMs = STORE_TIMEOUT_MS,
): Promise<{ store: BeaconStore; durable: boolean }> {
  if (typeof indexedDB === 'undefined' || !indexedDB) {
    log(`${MEMORY_FALLBACK_MESSAGE} (no indexedDB in this context).`);
    return { store: memoryStore(), durable: false };
  }
  try {
    const primary = idbStore(dbName);
    // The keys read to see the database answer are the ones the queue's resume reads next, at the
    // worker's start: its first `keys()` gets them, one read-only transaction fewer at load.
    let opened: string[] | undefined = await within(primary.keys(), timeoutMs, 'indexedDB.open');
    const later = primary.keys;
    primary.keys = () => {
      const k = opened;
      opened = undefined;
      return k ? Promise.resolve(k) : later();
    };
    return { store: primary, durable: true };
  } catch (e) {
    log(`${MEMORY_FALLBACK_MESSAGE} (${e instanceof Error ? e.message : String(e)}).`);
    return { store: memoryStore(), durable: false };
  }
}

/**
 * The durable beacon store: idb-keyval over its own IndexedDB database, so beacons outlive the page
 * that made them (the next page load sends them, queue.ts `resumePending`).
 */
import { createStore, del, get, keys, set } from 'idb-keyval';
import { memoryStore, MEMORY_FALLBACK_MESSAGE, withMemoryFallback, type BeaconStore, type StoredBeacon } from './store.ts';

export const BEACON_DB = 'offtag-beacons';
export const BEACON_OBJECT_STORE = 'beacons';

export function idbStore(dbName = BEACON_DB, storeName = BEACON_OBJECT_STORE): BeaconStore {
  const db = createStore(dbName, storeName);
  return {
    get: (k) => get<StoredBeacon>(k, db),
    set: (k, v) => set(k, v, db),
    del: (k) => del(k, db),
    keys: async () => (await keys(db)).map(String),
  };
}

/**
 * The store the worker uses: IndexedDB when it exists and answers, else memory (said once through
 * `log`); it also falls back to memory if IndexedDB fails later.
 */
export async function openBeaconStore(log: (message: string) => void, dbName = BEACON_DB): Promise<BeaconStore> {
  if (typeof indexedDB === 'undefined') {
    log(`${MEMORY_FALLBACK_MESSAGE} (no indexedDB in this context)`);
    return memoryStore();
  }
  const primary = idbStore(dbName);
  try {
    await primary.keys();
  } catch (e) {
    log(`${MEMORY_FALLBACK_MESSAGE} (${e instanceof Error ? e.message : String(e)})`);
    return memoryStore();
  }
  return withMemoryFallback(primary, log);
}

/**
 * Where queued beacons wait until their request settles. IndexedDB in the worker (idb-store.ts);
 * memory where IndexedDB is missing, and in tests.
 */

/** One beacon in the queue, as stored. */
export interface StoredBeacon {
  /** Also the store key; keys sort in the order the beacons were made. */
  id: string;
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  headers?: Record<string, string>;
  /** Epoch ms when it was queued. */
  createdAt: number;
  /** Failed attempts so far. */
  attempts: number;
  /** The queue (page) working on it. */
  owner: string;
  /** Until then no other page touches it: its owner is sending it or waiting to retry. */
  leaseUntil: number;
}

export interface BeaconStore {
  get(key: string): Promise<StoredBeacon | undefined>;
  set(key: string, value: StoredBeacon): Promise<void>;
  del(key: string): Promise<void>;
  keys(): Promise<string[]>;
}

export function memoryStore(): BeaconStore {
  const map = new Map<string, StoredBeacon>();
  return {
    get: async (k) => {
      const v = map.get(k);
      return v && structuredClone(v);
    },
    set: async (k, v) => {
      map.set(k, structuredClone(v));
    },
    del: async (k) => {
      map.delete(k);
    },
    keys: async () => [...map.keys()],
  };
}

/**
 * A store that moves to memory for good the first time the primary one throws (a private mode
 * that lets IndexedDB open but not write, a quota), and says so once.
 */
export function withMemoryFallback(primary: BeaconStore, log: (message: string) => void): BeaconStore {
  let current = primary;
  let fellBack = false;
  const fallback = memoryStore();
  const guard = async <T>(op: (s: BeaconStore) => Promise<T>): Promise<T> => {
    if (fellBack) return op(current);
    try {
      return await op(current);
    } catch (e) {
      fellBack = true;
      current = fallback;
      log(`${MEMORY_FALLBACK_MESSAGE} (${e instanceof Error ? e.message : String(e)})`);
      return op(current);
    }
  };
  return {
    get: (k) => guard((s) => s.get(k)),
    set: (k, v) => guard((s) => s.set(k, v)),
    del: (k) => guard((s) => s.del(k)),
    keys: () => guard((s) => s.keys()),
  };
}

export const MEMORY_FALLBACK_MESSAGE =
  'IndexedDB is not available: analytics beacons are queued in memory only, and a page that closes loses those it had not sent';

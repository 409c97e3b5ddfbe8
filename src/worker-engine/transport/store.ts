/**
 * Where queued beacons wait until their request settles. IndexedDB in the worker (idb-store.ts);
 * memory where IndexedDB is missing, and in tests. Every call is one transaction.
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
  /** Failed attempts so far (any failure). */
  attempts: number;
  /** Failed attempts the server answered (5xx, 408, 429): these count towards giving up. */
  answered?: number;
  /** The queue (page) working on it. */
  owner: string;
  /** Until then no other page touches it: its owner is sending it or waiting to retry. */
  leaseUntil: number;
}

/** `ack:<page>`: the page's events up to `seq` have their beacons stored (queue-commit.ts `commit`). */
export interface AckRecord {
  seq: number;
  at: number;
}

export type ClaimResult = { claimed: StoredBeacon } | { busyUntil: number } | { gone: true };

export interface BeaconStore {
  get(key: string): Promise<unknown>;
  /** Reads several keys in one transaction (absent: one `get` each). */
  getMany?(keys: string[]): Promise<unknown[]>;
  /** Writes all entries, and deletes `deletes` (if given), in one transaction. */
  setMany(entries: Array<[string, unknown]>, deletes?: string[]): Promise<void>;
  /** Deletes all keys in one transaction. */
  delMany(keys: string[]): Promise<void>;
  keys(): Promise<string[]>;
  /**
   * Reads and, when nobody else holds a live claim, claims a beacon for `owner` until `leaseUntil`,
   * in one read-write transaction: two pages can never both claim it.
   */
  claim(key: string, owner: string, now: number, leaseUntil: number): Promise<ClaimResult>;
  /** `claim` for several beacons in one read-write transaction (a queue renewing its line at once). */
  claimMany(keys: string[], owner: string, now: number, leaseUntil: number): Promise<ClaimResult[]>;
}

export function claimDecision(entry: StoredBeacon | undefined, owner: string, now: number, leaseUntil: number): ClaimResult {
  if (!entry) return { gone: true };
  if (entry.owner !== owner && entry.leaseUntil > now) return { busyUntil: entry.leaseUntil };
  return { claimed: { ...entry, owner, leaseUntil } };
}

export function memoryStore(): BeaconStore {
  const map = new Map<string, unknown>();
  const claimOne = (k: string, owner: string, now: number, leaseUntil: number): ClaimResult => {
    const r = claimDecision(map.get(k) as StoredBeacon | undefined, owner, now, leaseUntil);
    if ('claimed' in r) map.set(k, structuredClone(r.claimed));
    return r;
  };
  return {
    get: async (k) => {
      const v = map.get(k);
      return v && structuredClone(v);
    },
    getMany: async (ks) => ks.map((k) => {
      const v = map.get(k);
      return v && structuredClone(v);
    }),
    setMany: async (entries, deletes = []) => {
      for (const [k, v] of entries) map.set(k, structuredClone(v));
      for (const k of deletes) map.delete(k);
    },
    delMany: async (keys) => {
      for (const k of keys) map.delete(k);
    },
    keys: async () => [...map.keys()].sort(),
    claim: async (k, owner, now, leaseUntil) => claimOne(k, owner, now, leaseUntil),
    claimMany: async (keys, owner, now, leaseUntil) => keys.map((k) => claimOne(k, owner, now, leaseUntil)),
  };
}

/** Said when the worker starts without a working IndexedDB (missing, refused, or not answering). */
export const MEMORY_FALLBACK_MESSAGE =
  'IndexedDB is not available: analytics beacons are queued in memory only, and a page that closes loses those it had not sent';

/**
 * A page's beacons and its acknowledgement marker (docs/delivery.md): a beacon queued for a page
 * waits (`park`) for that page's `commit`, which stores it with the marker `ack:<page>` in one
 * transaction and only then lets it be sent; markers older than `ACK_MAX_AGE_MS` are pruned.
 */
import { ACK_MAX_AGE_MS } from './queue-policy.ts';
import { insert, pumpSoon, type QueueState } from './queue-state.ts';
import type { AckRecord } from './store.ts';

export const ACK_PREFIX = 'ack:';

/** The beacon waits, neither stored nor sent, for `page`'s next `commit`. */
export function park(q: QueueState, page: string, key: string): void {
  const list = q.parked.get(page);
  if (list) list.push(key);
  else q.parked.set(page, [key]);
  q.parkedCount++;
}

/**
 * Stores `page`'s parked beacons with its marker `seq` in one transaction, then puts them in line.
 * Resolves once every beacon queued so far is safe: stored, or, without a working store, delivered.
 */
export async function commit(q: QueueState, page: string, seq: number): Promise<void> {
  const { held, writer } = q;
  const t = q.opts.now();
  const mine = q.parked.get(page) ?? [];
  q.parked.delete(page);
  for (const k of mine) {
    const b = held.get(k)!;
    b.leaseUntil = t + q.timing.requestTimeoutMs + q.timing.leaseMs;
    writer.stage(k, { ...b });
  }
  const record: AckRecord = { seq, at: t };
  const stored = writer.write(`${ACK_PREFIX}${page}`, record);
  // Sent once the transaction that holds them and the marker is over (or failed: then from memory).
  void stored.then(() => {
    q.parkedCount -= mine.length;
    for (const k of mine) insert(q, k);
    pumpSoon(q);
  });
  if (await stored) return;
  const waiting = new Set([...q.parked.values()].flat());
  const unsent = [...held.keys()].filter((k) => !waiting.has(k));
  await new Promise<void>((resolve) => {
    const check = () => (unsent.some((k) => held.has(k)) ? setTimeout(check, 20) : resolve());
    check();
  });
}

/** The marker `commit` wrote for `page` (0: none, or no working store). */
export async function committed(q: QueueState, page: string): Promise<number> {
  if (!q.writer.durable) return 0;
  try {
    const r = (await q.opts.store.get(`${ACK_PREFIX}${page}`)) as AckRecord | undefined;
    return r?.seq ?? 0;
  } catch {
    return 0;
  }
}

/**
 * Deletes the markers among `keys` older than `ACK_MAX_AGE_MS` (or unreadable). A returning visitor
 * has one marker per page of the last week: they are read in one transaction, not one each.
 */
export async function pruneMarkers(q: QueueState, keys: string[]): Promise<void> {
  const t = q.opts.now();
  const stale: string[] = [];
  const markers = keys.filter((x) => x.startsWith(ACK_PREFIX));
  if (!markers.length) return;
  const { store } = q.opts;
  const records = (await (store.getMany ? store.getMany(markers) : Promise.all(markers.map((k) => store.get(k)))).catch(() => markers.map(() => undefined))) as Array<AckRecord | undefined>;
  markers.forEach((k, i) => {
    const r = records[i];
    if (!r || t - r.at > ACK_MAX_AGE_MS) stale.push(k);
  });
  if (stale.length) void q.writer.run(() => q.opts.store.delMany(stale));
}

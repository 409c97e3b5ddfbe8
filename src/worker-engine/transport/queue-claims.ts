/**
 * The beacon queue's claims on its beacons in the store (store.ts `claim`): renewed before a
 * send once they run short, taken on the beacons dead pages left, and looked at again when a
 * live page's claim runs out.
 */
import { CLAIM_MARGIN_MS, RENEW_AHEAD_MS, RENEW_BATCH } from './queue-policy.ts';
import { drop, forget, insert, settleIdle, type QueueState } from './queue-state.ts';
import type { ClaimResult } from './store.ts';

/**
 * Renews the claim of the beacon `key`, atomically — with the claims of the beacons in line after
 * it that run out as soon, in the same transaction. A beacon another page took over meanwhile is
 * that page's to send now: it leaves the line. Resolves with whether `key` itself left.
 */
export async function renewClaims(q: QueueState, key: string): Promise<boolean> {
  const { held, timing } = q;
  const t = q.opts.now();
  const soon = t + timing.requestTimeoutMs + CLAIM_MARGIN_MS + RENEW_AHEAD_MS;
  const keys = [key, ...q.work.filter((k) => k !== key && held.get(k)!.leaseUntil < soon).slice(0, RENEW_BATCH - 1)];
  let rs: ClaimResult[] | undefined;
  try {
    rs = await q.opts.store.claimMany(keys, q.owner, t, t + timing.requestTimeoutMs + timing.leaseMs);
  } catch (e) {
    q.writer.failed(e);
  }
  let headGone = false;
  rs?.forEach((r, i) => {
    const k = keys[i]!;
    const mine = held.get(k);
    if (!mine) return;
    if ('claimed' in r) return void (mine.leaseUntil = r.claimed.leaseUntil);
    forget(q, k);
    if (k === key) headGone = true;
    else drop(q, k);
    if ('busyUntil' in r) later(q, k, r.busyUntil - t + 1);
  });
  return headGone;
}

/** Takes an orphan over if no live page holds it; looks again when a live claim runs out. */
export async function adopt(q: QueueState, key: string): Promise<boolean> {
  const t = q.opts.now();
  let r;
  try {
    r = await q.opts.store.claim(key, q.owner, t, t + q.timing.requestTimeoutMs + q.timing.leaseMs);
  } catch (e) {
    q.writer.failed(e);
    return false;
  }
  if ('claimed' in r) {
    q.held.set(key, r.claimed);
    insert(q, key);
    return true;
  }
  if ('busyUntil' in r) later(q, key, r.busyUntil - t + 1);
  return false;
}

/** Looks at a beacon another live page holds again when its claim runs out, in case that page died. */
export function later(q: QueueState, key: string, ms: number): void {
  q.deferred++;
  void q.opts.sleep(ms).then(async () => {
    if (await adopt(q, key)) void q.pump();
    q.deferred--;
    settleIdle(q);
  });
}

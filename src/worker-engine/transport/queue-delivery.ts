/**
 * Sending one beacon the queue holds, and what its answer means for it: delivered (it leaves the
 * queue and the store) or failed (it waits, with its back-off stored).
 */
import { renewClaims } from './queue-claims.ts';
import { backOff, failureOf, isSettled, type SendResult } from './queue-policy.ts';
import { claimRunsOut, forget, type QueueState } from './queue-state.ts';
import type { BeaconFetch } from './queue-types.ts';
import type { StoredBeacon } from './store.ts';

/** A beacon that failed, with the failure it last met (said when it is set aside or given up). */
export type TriedBeacon = StoredBeacon & { last?: string };

/** One request for the beacon; one that has not answered within `timeoutMs` is aborted and counts as failed. */
export async function sendOnce(fetch: BeaconFetch, b: StoredBeacon, timeoutMs: number): Promise<SendResult> {
  const ctl = typeof AbortController === 'undefined' ? undefined : new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const request = fetch(b.url, { method: b.method, body: b.body, headers: b.headers, credentials: 'include', keepalive: true, signal: ctl?.signal })
    .then((r) => ({ status: r.status }))
    .catch((e: unknown) => ({ error: e instanceof Error ? e.message : String(e) }));
  const timedOut = new Promise<SendResult>((r) => (timer = setTimeout(() => r({ error: 'timeout' }), timeoutMs)));
  const result = await Promise.race([request, timedOut]);
  clearTimeout(timer);
  if ('error' in result && result.error === 'timeout') ctl?.abort();
  return result;
}

/** Sends one held beacon: true when it is done with (settled), false when it failed and waits. */
export async function attempt(q: QueueState, key: string): Promise<boolean> {
  const b = q.held.get(key)!;
  // A claim about to run out (a long line, a long back-off) is renewed before the send: if
  // another page took the beacon over meanwhile, it is that page's to send now.
  if (claimRunsOut(q, b) && (await renewClaims(q, key))) return true;
  const sentAt = q.opts.now();
  const result = await sendOnce(q.opts.fetch, b, q.timing.requestTimeoutMs);
  return settle(q, key, result, q.opts.now() - sentAt);
}

/** What a send's answer means for the beacon: true when it is done with, false when it failed and waits. */
export function settle(q: QueueState, key: string, result: SendResult, rttMs: number): boolean {
  const b = q.held.get(key)! as TriedBeacon;
  if (isSettled(result)) {
    if (result.status >= 200 && result.status < 300) q.onDelivered.get(key)?.(result.ms ?? rttMs);
    forget(q, key);
    // More to send now (the line holds others): its delete waits until the line is empty (`pump`).
    if (q.running && q.work.some((k) => k !== key)) q.writer.removeLater(key);
    else (q.writer.remove(key), q.writer.release());
    if (b.attempts > 0) q.opts.log(`Analytics beacon delivered after ${b.attempts + 1} attempts.`);
    return true;
  }
  b.attempts++;
  if ('status' in result) b.answered = (b.answered ?? 0) + 1;
  b.leaseUntil = q.opts.now() + backOff(q.timing, b.attempts) + q.timing.requestTimeoutMs + q.timing.leaseMs;
  void q.writer.write(key, { ...b });
  // Said once per beacon: a long offline spell should not fill the console.
  if (b.attempts === 1) q.opts.log(`Analytics beacon not delivered (${failureOf(result)}); it stays queued and is retried with back-off.`);
  b.last = failureOf(result);
  return false;
}

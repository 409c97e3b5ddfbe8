/**
 * Runs: the beacons at the head of the line handed to the sender at once (`ChainFetch`), each
 * leaving once the one before it settled, without a round trip through this thread in between
 * (docs/delivery.md, "Throughput").
 */
import { settle } from './queue-delivery.ts';
import { CLAIM_MARGIN_MS, RUN_MAX } from './queue-policy.ts';
import { claimRunsOut, drop, type QueueState } from './queue-state.ts';
import type { ChainResult } from './queue-types.ts';

/**
 * Hands the beacons at the head of the line to the sender as one run. While the run is out,
 * beacons that join the line extend it (up to `RUN_MAX` handed and not yet answered), so the
 * sender is not left waiting for this thread, busy with a burst's events; a line longer than
 * that is handed on as answers come back, once half a run is left (a message to the sender per
 * half run, not per answer: messages take the sender's thread between its requests). Resolves
 * with the key of the beacon that failed (it waits, as after `attempt`), or undefined.
 */
export async function sendRun(q: QueueState): Promise<string | undefined> {
  const { held, work } = q;
  const timeoutMs = q.timing.requestTimeoutMs;
  const keys: string[] = [];
  const handed = new Set<string>();
  const results: Array<Promise<ChainResult>> = [];
  let answered = 0;
  const hand = (continues: boolean) => {
    const t = q.opts.now();
    const more: string[] = [];
    // In line order, up to the first beacon whose claim is too short (`attempt` renews it, in its turn).
    for (const k of work) {
      if (keys.length - answered + more.length >= RUN_MAX) break;
      if (handed.has(k)) continue;
      if (claimRunsOut(q, held.get(k)!)) break;
      more.push(k);
    }
    if (!more.length) return;
    const rs = q.opts.chain!(
      more.map((k) => {
        const b = held.get(k)!;
        handed.add(k);
        return {
          url: b.url,
          init: { method: b.method, body: b.body, headers: b.headers, credentials: 'include', keepalive: true },
          // Started only while its claim still covers a whole request (as `attempt` demands).
          startWithinMs: q.writer.durable ? b.leaseUntil - t - timeoutMs - CLAIM_MARGIN_MS : RUN_MAX * timeoutMs,
          timeoutMs,
        };
      }),
      continues,
    );
    keys.push(...more);
    results.push(...rs);
  };
  hand(false);
  q.extendRun = () => hand(true);
  try {
    for (let i = 0; i < keys.length; i++) {
      const r = await results[i]!;
      answered++;
      // Not sent (its claim ran short): it is the head now, and `attempt` renews it.
      if ('skipped' in r) return undefined;
      if (!held.has(keys[i]!)) continue;
      // The round trip is the sender's own timing (`ms`), which `settle` prefers.
      if (!settle(q, keys[i]!, r, 0)) return keys[i];
      drop(q, keys[i]!);
      if (keys.length - answered <= RUN_MAX / 2) hand(true);
    }
    return undefined;
  } finally {
    q.extendRun = undefined;
  }
}

/**
 * The send loop: beacons go out one at a time, in the order they were made (Analytics pathing
 * depends on it), in runs when there is a sender; a failed one waits out its back-off at the head
 * of the line, or steps aside when the next one goes through.
 */
import { attempt } from './queue-delivery.ts';
import { backOff, STEP_ASIDE_AFTER } from './queue-policy.ts';
import { sendRun } from './queue-run.ts';
import { claimRunsOut, drop, settleIdle, type QueueState } from './queue-state.ts';
import { stepAside } from './queue-step-aside.ts';

/** Sends the line until it is empty; while it runs, a call extends the run that is out instead. */
export async function pump(q: QueueState): Promise<void> {
  if (q.running) return q.extendRun?.();
  const { work } = q;
  q.running = true;
  try {
    while (work.length > 0) {
      let key = work[0]!;
      if (q.opts.chain && work.length > 1 && !claimRunsOut(q, q.held.get(key)!)) {
        const failed = await sendRun(q);
        if (failed === undefined) continue;
        key = failed;
      } else if (await attempt(q, key)) {
        drop(q, key);
        continue;
      }
      const b = q.held.get(key)!;
      // Refused often enough: does the next beacon go through? Then this one is the problem.
      const next = work[work.indexOf(key) + 1];
      if ((b.answered ?? 0) >= STEP_ASIDE_AFTER && next !== undefined && (await attempt(q, next))) {
        drop(q, key);
        drop(q, next);
        void stepAside(q, key);
        continue;
      }
      await Promise.race([q.opts.sleep(backOff(q.timing, b.attempts)), new Promise<void>((r) => (q.wake = r))]);
      q.wake = undefined;
    }
  } finally {
    q.running = false;
    // The line is empty: the deletes of the beacons it delivered go now (`removeLater`).
    q.writer.release();
    settleIdle(q);
  }
}

/**
 * A poisoned beacon: one the server keeps refusing while the beacons after it go through. It
 * steps out of the line (`STEP_ASIDE_AFTER`), is retried on its own, and is given up after
 * `GIVE_UP_AFTER` refusals, said in the console and the devtools feed.
 */
import { attempt, type TriedBeacon } from './queue-delivery.ts';
import { backOff, GIVE_UP_AFTER } from './queue-policy.ts';
import { forget, settleIdle, type QueueState } from './queue-state.ts';

/** A beacon the server keeps refusing while others go through: retried on its own until `GIVE_UP_AFTER`. */
export async function stepAside(q: QueueState, key: string): Promise<void> {
  const { log, monitor } = q.opts;
  const b = q.held.get(key)! as TriedBeacon;
  q.aside.add(key);
  log(
    `Analytics beacon set aside after ${b.answered} refusals (${b.last}) while the next one went through: ` +
      `the beacons after it go on; it is retried on its own and given up after ${GIVE_UP_AFTER} refusals. ${b.url}`,
  );
  monitor?.('beacon-set-aside', { url: b.url, attempts: b.attempts, answered: b.answered, last: b.last });
  try {
    for (;;) {
      await q.opts.sleep(backOff(q.timing, b.attempts));
      if (await attempt(q, key)) return;
      if ((b.answered ?? 0) >= GIVE_UP_AFTER) {
        log(`Analytics beacon given up after ${b.answered} refusals (${b.last}); the server accepted the beacons after it. ${b.url}`);
        monitor?.('beacon-given-up', { url: b.url, attempts: b.attempts, answered: b.answered, last: b.last });
        forget(q, key);
        q.writer.remove(key);
        return;
      }
    }
  } finally {
    q.aside.delete(key);
    settleIdle(q);
  }
}

/**
 * The durable beacon queue (docs/spec-coverage.md D7, docs/delivery.md). A beacon is written to the store
 * before it is sent and removed once its request settled; failures are retried with capped
 * exponential back-off; `resumePending()` sends what a page that died left behind.
 *
 * Beacons go out one at a time, in the order they were made (Analytics pathing depends on it).
 * The queue's own memory is the truth for the beacons it holds: the store is written (one
 * transaction per batch of beacons, deletes coalesced) but never read back for them, so a store
 * that fails mid-life loses nothing while the page lives. A beacon the server keeps refusing
 * steps aside (`STEP_ASIDE_AFTER`) once a later beacon went through, and is given up after
 * `GIVE_UP_AFTER` refusals, said in the console and the devtools.
 *
 * Its parts: the rules and timings (`queue-policy.ts`), what it holds (`queue-state.ts`), its
 * store writes (`queue-writer.ts`), its claims on stored beacons (`queue-claims.ts`), one send
 * (`queue-delivery.ts`), runs through the sender (`queue-run.ts`), the send loop
 * (`queue-pump.ts`), poisoned beacons (`queue-step-aside.ts`) and the pages' markers
 * (`queue-commit.ts`). This file puts them together behind `BeaconQueue`.
 */
import { adopt } from './queue-claims.ts';
import { commit, committed, park, pruneMarkers } from './queue-commit.ts';
import { pump } from './queue-pump.ts';
import { createQueueState, insert, pumpSoon, settleIdle } from './queue-state.ts';
import type { BeaconQueue, BeaconQueueOptions } from './queue-types.ts';
import type { StoredBeacon } from './store.ts';

export type { BeaconFetch, BeaconFetchInit, BeaconQueue, BeaconQueueOptions, BeaconRequest, ChainFetch, ChainRequest, ChainResult } from './queue-types.ts';

const KEY_PREFIX = 'beacon:';

/** A beacon's key, sortable: creation time, then a counter, then the owner for uniqueness across pages. */
export const beaconKey = (t: number, n: number, owner: string): string =>
  `${KEY_PREFIX}${t.toString(36).padStart(10, '0')}:${n.toString(36).padStart(6, '0')}:${owner}`;

export function createBeaconQueue(opts: BeaconQueueOptions): BeaconQueue {
  const q = createQueueState(opts);
  q.pump = () => pump(q);
  const { held, owner, writer } = q;
  let seq = 0;
  return {
    enqueue(request, delivered, page) {
      const t = opts.now();
      const id = beaconKey(t, seq++, owner);
      const entry: StoredBeacon = { id, ...request, createdAt: t, attempts: 0, owner, leaseUntil: t + q.timing.requestTimeoutMs + q.timing.leaseMs };
      held.set(id, entry);
      if (delivered) q.onDelivered.set(id, delivered);
      if (page !== undefined) {
        park(q, page, id);
        return Promise.resolve(id);
      }
      const written = writer.write(id, { ...entry });
      insert(q, id);
      // Sent after the write was started: the transaction is queued before the request leaves.
      void written.then(() => pumpSoon(q));
      return written.then(() => id);
    },
    commit: (page, n) => commit(q, page, n),
    committed: (page) => committed(q, page),
    async resumePending() {
      let keys: string[] = [];
      try {
        keys = writer.durable ? await opts.store.keys() : [];
      } catch (e) {
        writer.failed(e);
      }
      await pruneMarkers(q, keys);
      let n = 0;
      for (const key of keys.filter((k) => k.startsWith(KEY_PREFIX)).sort()) {
        if (held.has(key)) continue;
        if (await adopt(q, key)) n++;
      }
      void q.pump();
      return n;
    },
    retryNow() {
      q.wake?.();
    },
    idle() {
      return new Promise<void>((r) => {
        q.idleWaiters.push(r);
        settleIdle(q);
      })
        // ...and the store has caught up with the deletes.
        .then(() => writer.caughtUp())
        .then(() => undefined);
    },
    get size() {
      return q.work.length + q.aside.size + q.parkedCount;
    },
    get durable() {
      return writer.durable;
    },
  };
}

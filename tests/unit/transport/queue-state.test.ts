import { describe, expect, it } from 'vitest';
import { beaconKey } from '../../../src/worker-engine/transport/queue.ts';
import { claimRunsOut, createQueueState, drop, insert, settleIdle } from '../../../src/worker-engine/transport/queue-state.ts';
import { memoryStore, type StoredBeacon } from '../../../src/worker-engine/transport/store.ts';
import { pruneMarkers } from '../../../src/worker-engine/transport/queue-commit.ts';
import { ACK_MAX_AGE_MS } from '../../../src/worker-engine/transport/queue-policy.ts';

const state = (now = 1_000_000) =>
  createQueueState({ store: memoryStore(), fetch: async () => ({ status: 204 }), now: () => now, sleep: async () => {}, log: () => {}, requestTimeoutMs: 5_000 });

describe('the line', () => {
  it('keeps beacons in the order they were made (key order), whoever queued them and when', () => {
    const q = state();
    const [a, b, c] = [beaconKey(1, 0, 'p1'), beaconKey(2, 0, 'p2'), beaconKey(2, 1, 'p1')];
    insert(q, c);
    insert(q, a);
    insert(q, b);
    insert(q, a);
    expect(q.work).toEqual([a, b, c]);
    drop(q, b);
    expect(q.work).toEqual([a, c]);
    // One no longer in line: the line stays as it is.
    drop(q, b);
    expect(q.work).toEqual([a, c]);
    drop(q, a);
    expect(q.work).toEqual([c]);
  });

  it('never puts a beacon ahead of the one being sent (an older orphan adopted meanwhile goes second)', () => {
    const q = state();
    const [old, head] = [beaconKey(1, 0, 'dead'), beaconKey(5, 0, 'p1')];
    insert(q, head);
    q.running = true;
    insert(q, old);
    expect(q.work).toEqual([head, old]);
  });
});

describe('claims and idleness', () => {
  it('a claim runs out when it no longer covers a request and a second, only while the store works', () => {
    const q = state(1_000_000);
    const b = (leaseUntil: number) => ({ leaseUntil }) as StoredBeacon;
    expect(claimRunsOut(q, b(1_000_000 + 6_001))).toBe(false);
    expect(claimRunsOut(q, b(1_000_000 + 6_000))).toBe(false);
    expect(claimRunsOut(q, b(1_000_000 + 5_999))).toBe(true);
    q.writer.failed(new Error('gone'));
    expect(claimRunsOut(q, b(0))).toBe(false);
  });

  it('tells those waiting for idle only once nothing is in line, set aside, looked at later or parked', () => {
    const q = state();
    let told = 0;
    q.idleWaiters.push(() => told++);
    q.parkedCount = 1;
    settleIdle(q);
    q.parkedCount = 0;
    q.deferred = 1;
    settleIdle(q);
    q.deferred = 0;
    q.aside.add('x');
    settleIdle(q);
    q.aside.clear();
    q.running = true;
    settleIdle(q);
    q.running = false;
    insert(q, 'beacon:1');
    settleIdle(q);
    expect(told).toBe(0);
    drop(q, 'beacon:1');
    settleIdle(q);
    settleIdle(q);
    expect(told).toBe(1);
  });
});

describe('markers pruned at start', () => {
  it('reads every marker in one call, and deletes those older than a week (and the unreadable)', async () => {
    const now = 30 * 24 * 3600_000;
    const store = memoryStore();
    await store.setMany([
      ['ack:old', { seq: 3, at: now - ACK_MAX_AGE_MS - 1 }],
      ['ack:fresh', { seq: 4, at: now - 1000 }],
      ['ack:broken', undefined],
      ['beacon:x', { id: 'beacon:x' }],
    ]);
    const calls = { get: 0, getMany: 0 };
    const counted = { ...store, get: (k: string) => (calls.get++, store.get(k)), getMany: (ks: string[]) => (calls.getMany++, store.getMany!(ks)) };
    const q = createQueueState({ store: counted, fetch: async () => ({ status: 204 }), now: () => now, sleep: async () => {}, log: () => {}, requestTimeoutMs: 5_000 });
    await pruneMarkers(q, await store.keys());
    await q.writer.caughtUp();
    expect(calls).toEqual({ get: 0, getMany: 1 });
    expect(await store.keys()).toEqual(['ack:fresh', 'beacon:x']);
  });
});

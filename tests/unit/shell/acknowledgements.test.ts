import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineInput, Snapshot } from '../../../src/protocol.ts';
import { ACK_RECHECK_MS, createAcknowledger } from '../../../src/worker-engine/shell/acknowledgements.ts';

/** Timers are the fake clock's: the tests step it, they never wait for it. */
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const event = (seq: number) => ({ type: 'event', event: { type: 'direct-call', id: 'x' }, snapshot: { seq } as Snapshot }) as EngineInput;

function setup(o: { pending?: () => number; orphans?: Promise<void>; commit?: (seq: number) => Promise<void> } = {}) {
  const commits: number[] = [];
  const posted: number[] = [];
  const acks = createAcknowledger({
    beacons: { send: () => {}, commit: (_page, seq) => (commits.push(seq), o.commit ? o.commit(seq) : Promise.resolve()) },
    pid: 'p1',
    pendingHits: o.pending ?? (() => 0),
    orphansDone: () => o.orphans ?? Promise.resolve(),
    post: (seq) => posted.push(seq),
  });
  return { acks, commits, posted };
}

describe('acknowledgements', () => {
  it('commits the handled events and says so once their commit is over; nothing new, nothing said', async () => {
    const { acks, commits, posted } = setup();
    acks.acknowledge();
    acks.handled(event(1));
    acks.handled(event(3));
    acks.acknowledge();
    await vi.advanceTimersByTimeAsync(0);
    expect(commits).toEqual([3]);
    expect(posted).toEqual([3]);
    acks.acknowledge();
    await vi.advanceTimersByTimeAsync(0);
    expect(commits).toEqual([3]);
  });

  it('are cumulative: one that a newer one follows before its commit is over is not said', async () => {
    const gates: Array<() => void> = [];
    const { acks, commits, posted } = setup({ commit: () => new Promise<void>((r) => gates.push(r)) });
    acks.handled(event(1));
    acks.acknowledge();
    acks.handled(event(2));
    acks.acknowledge();
    for (const open of gates) open();
    await vi.advanceTimersByTimeAsync(0);
    expect(commits).toEqual([1, 2]);
    expect(posted).toEqual([2]);
  });

  it(`wait while a hit is pending: look again in the next task, then every ${ACK_RECHECK_MS} ms`, async () => {
    let pending = 1;
    let looks = 0;
    const { acks, commits, posted } = setup({ pending: () => (looks++, pending) });
    acks.handled(event(1));
    acks.acknowledge();
    await vi.advanceTimersByTimeAsync(0);
    expect(looks).toBe(2);
    await vi.advanceTimersByTimeAsync(ACK_RECHECK_MS - 1);
    expect(looks).toBe(2);
    expect(commits).toEqual([]);
    pending = 0;
    await vi.advanceTimersByTimeAsync(1);
    expect(commits).toEqual([1]);
    expect(posted).toEqual([1]);
  });

  it('a beacon made after the last acknowledgement (a late batch) is committed in the next task, with no new event; the page, told already, is not told again', async () => {
    const { acks, commits, posted } = setup();
    acks.handled(event(1));
    acks.acknowledge();
    await vi.advanceTimersByTimeAsync(0);
    acks.beaconMade();
    expect(commits).toEqual([1]);
    await vi.advanceTimersByTimeAsync(0);
    expect(commits).toEqual([1, 1]);
    expect(posted).toEqual([1]);
    acks.handled(event(2));
    acks.acknowledge();
    await vi.advanceTimersByTimeAsync(0);
    expect(posted).toEqual([1, 2]);
  });

  it('are said only once the orphans handed over at init are finished', async () => {
    let finish!: () => void;
    const { acks, posted } = setup({ orphans: new Promise<void>((r) => (finish = r)) });
    acks.handled(event(1));
    acks.acknowledge();
    await vi.advanceTimersByTimeAsync(0);
    expect(posted).toEqual([]);
    finish();
    await vi.advanceTimersByTimeAsync(0);
    expect(posted).toEqual([1]);
  });
});

describe('acknowledgements at start-up', () => {
  it('wait while the events the page posted before the worker started are handled: one commit, one message, for all of them', async () => {
    const commits: number[] = [];
    const posted: number[] = [];
    let ready = false;
    const acks = createAcknowledger({
      beacons: { send: () => {}, commit: (_page, seq) => (commits.push(seq), Promise.resolve()) },
      pid: 'p1',
      pendingHits: () => 0,
      orphansDone: () => Promise.resolve(),
      post: (seq) => posted.push(seq),
      ready: () => ready,
    });
    acks.handled(event(1));
    acks.acknowledge();
    acks.beaconMade();
    await vi.advanceTimersByTimeAsync(1000);
    expect(commits).toEqual([]);
    acks.handled(event(2));
    ready = true;
    acks.acknowledge();
    await vi.advanceTimersByTimeAsync(0);
    expect(commits).toEqual([2]);
    expect(posted).toEqual([2]);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Effect, EffectBatch, EngineInput, Snapshot } from '../../../src/protocol.ts';
import { createPageLink, STARTUP_WAIT_MAX_MS } from '../../../src/worker-engine/shell/page-link.ts';

/** Timers are the fake clock's: the tests step it, they never wait for it. */
beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const event = (seq: number) => ({ type: 'event', event: { type: 'direct-call', id: 'x' }, snapshot: { seq, applied: 0 } as Snapshot }) as EngineInput;
const storage = (key: string, value: string): Effect => ({ type: 'storage', key, value });
const readSet: Effect = { type: 'read-set', tree: { page: 0 } };

/** A page link with a long hold (only the start-up rule posts), as the worker shell feeds it: arrived, engine batch, handled. */
function setup(nowSeq: number, holdMs = 60_000) {
  const posted: EffectBatch[] = [];
  let started = 0;
  const link = createPageLink({ port: { postMessage: (m) => posted.push(m as EffectBatch) }, holdMs, now: { seq: nowSeq } as Snapshot, started: () => started++ });
  const handle = (seq: number, effects: Effect[]) => {
    link.arrived(event(seq));
    link.toBridge({ n: seq, effects });
    link.handled();
  };
  return { link, posted, handle, started: () => started };
}

describe('page link: the events the page posted before the worker started are answered together', () => {
  it('holds every page effect, the read set with them, until the last of them (the init\'s now.seq) is handled: one batch', () => {
    const { link, posted, handle, started } = setup(3);
    link.extra([readSet]);
    handle(1, [storage('a', '1')]);
    handle(2, [storage('b', '1')]);
    expect(posted).toEqual([]);
    expect(link.starting()).toBe(true);
    expect(started()).toBe(0);
    handle(3, [storage('a', '2')]);
    expect(link.starting()).toBe(false);
    expect(started()).toBe(1);
    expect(posted).toEqual([{ n: 1, effects: [readSet, storage('b', '1'), storage('a', '2')] }]);
    // After start-up, a lone event's effects go at once.
    handle(4, [storage('c', '1')]);
    expect(posted[1]).toEqual({ n: 2, effects: [storage('c', '1')] });
  });

  it('the start-up events are one batch even when handling them takes longer than a burst\'s hold (a worker\'s first run is slow)', async () => {
    const { link, posted, handle } = setup(2, 16);
    link.extra([readSet]);
    handle(1, [storage('a', '1')]);
    await vi.advanceTimersByTimeAsync(200);
    expect(posted).toEqual([]);
    // An event after start-up arrives before the last start-up one is handled: the batch then waits for it, a burst's hold at most.
    link.arrived(event(3));
    handle(2, [storage('b', '1')]);
    expect(posted).toEqual([]);
    await vi.advanceTimersByTimeAsync(16);
    expect(posted).toEqual([{ n: 1, effects: [readSet, storage('a', '1'), storage('b', '1')] }]);
  });

  it(`a start-up event that never comes is waited for at most ${STARTUP_WAIT_MAX_MS} ms`, async () => {
    const { link, posted, handle, started } = setup(3);
    link.extra([readSet]);
    handle(1, [storage('a', '1')]);
    await vi.advanceTimersByTimeAsync(STARTUP_WAIT_MAX_MS - 1);
    expect(posted).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(posted).toEqual([{ n: 1, effects: [readSet, storage('a', '1')] }]);
    expect(link.starting()).toBe(false);
    expect(started()).toBe(1);
  });

  it('with nothing posted before the worker started, the shell\'s own effects go at once, unnumbered', () => {
    const { link, posted } = setup(0);
    link.extra([readSet]);
    expect(posted).toEqual([{ n: 0, effects: [readSet] }]);
  });
});

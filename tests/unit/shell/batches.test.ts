import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Effect } from '../../../src/protocol.ts';
import { createBatchNumbers, createOutbox, holdEffects, type HeldEffects } from '../../../src/worker-engine/shell/batches.ts';

const held = (): HeldEffects => ({ first: 1, effects: [], last: new Map() });
const storage = (key: string, value: string): Effect => ({ type: 'storage', key, value });
const kept = (h: HeldEffects) => h.effects.filter((e) => e !== undefined);

describe('holdEffects: what waits for the page during a burst', () => {
  it('a write that a later write of the same key replaces is left out; other keys stay, in order', () => {
    const h = held();
    holdEffects(h, [storage('a', '1'), storage('b', '1')], ['sa', 'sb']);
    holdEffects(h, [storage('a', '2'), { type: 'vars', values: { x: 1 } }, { type: 'log', level: 'log', message: 'm' }], ['sa', undefined, undefined]);
    expect(kept(h)).toEqual([storage('b', '1'), storage('a', '2'), { type: 'vars', values: { x: 1 } }, { type: 'log', level: 'log', message: 'm' }]);
  });

  it('an effect that may look at the page (a script, a pixel, a frame, a reply) keeps the writes before it', () => {
    const h = held();
    const pixel: Effect = { type: 'image', src: 'https://x.test/p.gif' };
    holdEffects(h, [storage('a', '1'), pixel, storage('a', '2')], ['sa', undefined, 'sa']);
    expect(kept(h)).toEqual([storage('a', '1'), pixel, storage('a', '2')]);
  });
});

describe('createBatchNumbers: the bridge numbers posted batches, the engine all of its own', () => {
  it('maps the page\'s applied count to the engine\'s: unposted batches count as applied up to the next posted one', () => {
    const b = createBatchNumbers();
    // Engine batches 1 and 2 had nothing for the page; 3 and 4 go out as bridge batch 1; 5 as 2.
    b.made(1);
    b.made(2);
    b.made(4);
    expect(b.posted(3)).toBe(1);
    b.made(5);
    expect(b.posted(5)).toBe(2);
    b.made(6);
    expect(b.applied(0)).toBe(2);
    expect(b.applied(1)).toBe(4);
    // All posted batches applied: every engine batch so far, or up to the first one still held.
    expect(b.applied(2)).toBe(6);
    expect(b.applied(2, 6)).toBe(5);
  });
});

describe('createOutbox', () => {
  it('posts at once when no input waits; while inputs wait, holds and posts once, numbered from 1', () => {
    const sent: Array<[number, Effect[]]> = [];
    let waiting = false;
    const box = createOutbox({ holdMs: 60_000, waiting: () => waiting, send: (n, e) => sent.push([n, e]) });
    box.add(1, [storage('a', '1')], ['sa']);
    expect(sent).toEqual([[1, [storage('a', '1')]]]);
    waiting = true;
    box.add(2, [], []);
    box.add(3, [storage('a', '2')], ['sa']);
    box.add(4, [storage('a', '3')], ['sa']);
    expect(sent.length).toBe(1);
    // The page applied batch 1: engine batch 2 (nothing for the page) counts as applied, not the held 3.
    expect(box.applied(1)).toBe(2);
    waiting = false;
    box.post();
    expect(sent[1]).toEqual([2, [storage('a', '3')]]);
    box.post();
    expect(sent.length).toBe(2);
  });

  describe('a backlog that outlasts the hold', () => {
    afterEach(() => void vi.useRealTimers());

    it('goes out after holdMs, then every backlogHoldMs while inputs still wait; once none waits, the next backlog starts at holdMs again', () => {
      vi.useFakeTimers();
      const sent: Array<[number, Effect[]]> = [];
      let waiting = true;
      const box = createOutbox({ holdMs: 16, backlogHoldMs: 100, waiting: () => waiting, send: (n, e) => sent.push([n, e]) });
      box.add(1, [storage('a', '1')], ['sa']);
      vi.advanceTimersByTime(15);
      expect(sent.length).toBe(0);
      vi.advanceTimersByTime(1);
      expect(sent).toEqual([[1, [storage('a', '1')]]]);
      // The backlog goes on: the next batch waits backlogHoldMs, and holds every write made meanwhile.
      box.add(2, [storage('a', '2')], ['sa']);
      vi.advanceTimersByTime(99);
      box.add(3, [storage('a', '3')], ['sa']);
      expect(sent.length).toBe(1);
      vi.advanceTimersByTime(1);
      expect(sent[1]).toEqual([2, [storage('a', '3')]]);
      // Still waiting: the extras and the acknowledgement also wait backlogHoldMs.
      box.ack(7);
      vi.advanceTimersByTime(99);
      expect(sent.length).toBe(2);
      vi.advanceTimersByTime(1);
      expect(sent.length).toBe(3);
      // No input waits: the next effects go at once, and a new backlog holds holdMs first.
      waiting = false;
      box.add(4, [storage('a', '4')], ['sa']);
      expect(sent.length).toBe(4);
      waiting = true;
      box.add(5, [storage('a', '5')], ['sa']);
      vi.advanceTimersByTime(16);
      expect(sent[4]).toEqual([4, [storage('a', '5')]]);
    });

    it('without backlogHoldMs, every hold lasts holdMs', () => {
      vi.useFakeTimers();
      const sent: Array<[number, Effect[]]> = [];
      const box = createOutbox({ holdMs: 16, waiting: () => true, send: (n, e) => sent.push([n, e]) });
      box.add(1, [storage('a', '1')], ['sa']);
      vi.advanceTimersByTime(16);
      box.add(2, [storage('a', '2')], ['sa']);
      vi.advanceTimersByTime(16);
      expect(sent.length).toBe(2);
    });
  });
});

import { describe, expect, it } from 'vitest';
import type { EngineInput, Snapshot } from '../../../src/protocol.ts';
import { withStartupFacts, withTimeZone } from '../../../src/worker-engine/shell/snapshots.ts';

const early = { seq: 1, applied: 0, time: Date.UTC(2026, 0, 15, 12), url: 'https://shop.test/', problems: [{ kind: 'data-layer', detail: 'a' }] } as unknown as Snapshot;
const hello = { viewport: { width: 390, height: 844 }, cookie: 'a=1', session: { k: 'v' }, problems: [{ kind: 'session', detail: 'SecurityError' }] } as unknown as Snapshot;
const input = (snapshot: Snapshot): EngineInput => ({ type: 'event', event: { type: 'library-loaded' }, snapshot });

describe('snapshots', () => {
  it('a start-up snapshot (no viewport) gets the viewport, cookies and session keys read at hello, and its problems too', () => {
    const out = withStartupFacts(input(early), hello) as Extract<EngineInput, { type: 'event' }>;
    expect(out.snapshot).toMatchObject({ seq: 1, url: 'https://shop.test/', viewport: { width: 390, height: 844 }, cookie: 'a=1', session: { k: 'v' } });
    expect(out.snapshot.problems).toEqual([...early.problems!, ...hello.problems!]);
  });

  it('a snapshot with its own viewport is left as it is', () => {
    const own = input({ ...early, viewport: { width: 1, height: 1 }, cookie: 'b=2', session: {} });
    expect(withStartupFacts(own, hello)).toBe(own);
  });

  it('the time zone is the worker\'s offset at the snapshot\'s time (same clock and zone as the page)', () => {
    const tz = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      const winter = withTimeZone(input(early)) as Extract<EngineInput, { type: 'event' }>;
      const summer = withTimeZone(input({ ...early, time: Date.UTC(2026, 6, 15, 12) })) as Extract<EngineInput, { type: 'event' }>;
      expect([winter.snapshot.tz, summer.snapshot.tz]).toEqual([300, 240]);
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });
});

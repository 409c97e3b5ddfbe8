import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { EngineInput, Snapshot } from '../../../src/protocol.ts';
import { withStartupFacts } from '../../../src/worker-engine/shell/snapshots.ts';

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
    // In a child process started in New York's zone: setting process.env.TZ changes the zone of the
    // main thread only, and Stryker runs the unit tests in worker threads.
    const script = `
      import { withTimeZone } from ${JSON.stringify(pathToFileURL(join(import.meta.dirname, '../../../src/worker-engine/shell/snapshots.ts')).href)};
      const tzAt = (time) => withTimeZone({ type: 'event', event: { type: 'library-loaded' }, snapshot: { seq: 1, time } }).snapshot.tz;
      console.log(JSON.stringify([tzAt(${Date.UTC(2026, 0, 15, 12)}), tzAt(${Date.UTC(2026, 6, 15, 12)})]));`;
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, TZ: 'America/New_York' }, encoding: 'utf8' });
    expect(JSON.parse(out)).toEqual([300, 240]);
  });
});

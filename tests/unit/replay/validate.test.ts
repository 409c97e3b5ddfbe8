import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../tools/cli.ts';
import { fixtureProblem } from '../../../tools/replay/validate.ts';

/** `offtag replay` checks a fixture before it runs it (docs/replay.md, "Checks"), and prints the container's messages. */
const dir = mkdtempSync(join(tmpdir(), 'offtag-replay-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

async function replayOf(fixture: unknown): Promise<{ code: number; out: string; err: string }> {
  const file = join(dir, `f${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(fixture));
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((t) => ((out += String(t)), true));
  vi.spyOn(console, 'error').mockImplementation((t) => void (err += `${t}\n`));
  const code = await main(['replay', file]);
  vi.restoreAllMocks();
  return { code, out, err: err.replace(file, '<file>') };
}

describe('offtag replay checks the fixture', () => {
  it('an unknown event type is one line naming the event and the field, and exit code 2; nothing is replayed', async () => {
    const { code, out, err } = await replayOf({ events: [{ type: 'pageview' }] });
    expect(code).toBe(2);
    expect(out).toBe('');
    expect(err).toBe(
      'offtag replay: <file>: event #1 (pageview): "type" must be one of library-loaded, page-bottom, dom-ready, window-loaded, direct-call, click, get-var, set-var, service-call, trigger; got "pageview"\n',
    );
  });

  it.for([
    [{ events: [] as unknown[], cookie: { sat_track: 'true' } }, 'the fixture: "cookie" is not a field here (known: name, settings, page, cookies, session, dataLayer, clock, seed, events, responses)'],
    [{ cookies: {} }, 'the fixture: "events" is missing'],
    [{ events: {} }, 'the fixture: "events" must be an array; got an object'],
    [{ cookies: { sat_track: true }, events: [] }, 'the fixture: "cookies.sat_track" must be a string; got boolean true'],
    [{ page: { viewport: { width: '1280', height: 720 } }, events: [] }, 'the fixture: "page.viewport.width" must be a number; got "1280"'],
    [{ clock: { start: 'yesterday' }, events: [] }, 'the fixture: "clock.start" must be a date ("2026-01-15T10:30:00Z") or milliseconds; got "yesterday"'],
    [{ events: ['Page View', { type: 'direct-call' }] }, 'event #2 (direct-call): "id" is missing'],
    [{ events: [{ type: 'direct-call', id: 'Page View', advance: -5 }] }, 'event #1 (direct-call): "advance" must be a number ≥ 0; got number -5'],
    [{ events: [{ type: 'click', link: { text: 'Sheet' } }] }, 'event #1 (click): "link.href" is missing'],
    [{ events: [{ type: 'direct-call', id: 'Page View', set: { cookie: {} } }] }, 'event #1 (direct-call): "set.cookie" is not a field here (known: cookies, session, url, gpc)'],
    [{ events: [{ type: 'library-loaded', id: 'Page View' }] }, 'event #1 (library-loaded): "id" is not a field here (known: type, advance, dataLayer, set)'],
    [{ events: [42] }, 'event #1 (number 42): must be a direct-call identifier (a string) or an object with "type"; got number 42'],
    [{ events: [{ id: 'Page View' }] }, 'event #1 (an object): "type" is missing (one of library-loaded, page-bottom, dom-ready, window-loaded, direct-call, click, get-var, set-var, service-call, trigger)'],
    [{ events: [], responses: [{ match: '/id?', error: 'dns' }] }, 'response #1: "error" must be "network" or "timeout"; got "dns"'],
    [[], 'a fixture is an object with "events"; got an array'],
    [{ events: [{ type: 'trigger', on: 'click' }] }, 'event #1 (trigger): "key" is missing'],
  ] as const)('%j: %s', ([fixture, problem]) => {
    expect(fixtureProblem(fixture)).toBe(problem);
  });

  it('every fixture in tests/fixtures passes, as does an exported-session shape', () => {
    const base = new URL('../../fixtures/storefront/', import.meta.url);
    const files = readdirSync(base).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) expect(fixtureProblem(JSON.parse(readFileSync(new URL(f, base), 'utf8'))), f).toBeUndefined();
    const exported = {
      name: 'session exported from https://www.example.com/',
      settings: { environment: 'development' },
      page: { userAgent: 'UA', language: 'en', screen: { width: 1, height: 1, colorDepth: 24 }, cookieDomain: '', origin: 'https://www.example.com', secure: true, cookiesEnabled: true, url: 'https://www.example.com/', referrer: '', viewport: { width: 1, height: 1 }, gpc: false },
      cookies: {},
      session: {},
      dataLayer: undefined,
      clock: { start: 1, tz: 0 },
      seed: 1,
      events: [
        { type: 'library-loaded' },
        { type: 'direct-call', id: 'Page View', detail: { a: 1 }, advance: 3, dataLayer: null, set: { cookies: { x: null }, session: { y: 'z' }, url: 'https://www.example.com/b', gpc: true } },
        { type: 'click', link: { href: 'https://x/a.pdf', text: 'a', region: 'BODY', hasTlCall: false, tag: 'A', objectId: 'undefined' } },
        { type: 'service-call', service: 'visitor', method: 'getMarketingCloudVisitorID', args: [] },
        { type: 'get-var', name: 'page name' },
        { type: 'set-var', values: { a: 1 } },
        { type: 'trigger', key: '{"type":"scroll-depth","percent":50}', on: 'scroll-depth', percent: 50 },
      ],
      responses: [{ match: '/id?', status: 200, body: '{}', times: 1 }],
    };
    expect(fixtureProblem(exported)).toBeUndefined();
  });
});

describe("offtag replay prints the container's messages", () => {
  it('a direct call no rule matches prints the page\'s own message, not "nothing"', async () => {
    const { code, out } = await replayOf({ cookies: { sat_track: 'true' }, events: ['Page Vew'] });
    expect(code).toBe(0);
    expect(out).toBe('#1 direct-call "Page Vew": log: "Page Vew" does not match any direct call identifiers.\n');
  });
});

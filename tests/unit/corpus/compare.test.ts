/**
 * The corpus runner's comparisons (bench/corpus/compare.ts): beacons paired in order and compared
 * field by field with only the values that must differ between two runs normalised; rule
 * completions and their order; data element values; console errors; the devtools feed's reads
 * joined (bench/corpus/sides.ts `mergeFeed`).
 */
import { describe, expect, test } from 'vitest';
import { compareBeacons, compareRules, compareValues, diffBeacon, errorKey, extraErrors, launchRuleName, pairBeacons, turbineVariation } from '../../../bench/corpus/compare.ts';
import { beaconLines } from '../../../bench/corpus/report.ts';
import { mergeFeed } from '../../../bench/corpus/sides.ts';
import type { RecordedBeacon } from '../../../bench/corpus/world.ts';

const beacon = (params: Record<string, string>, o: Partial<RecordedBeacon> = {}): RecordedBeacon => ({
  host: 'smetrics.example.com',
  path: '/b/ss/shopprod/1/JS-2.27.0-LDQM',
  rsid: 'shopprod',
  sid: `s${Math.floor(Math.random() * 1e13)}`,
  method: 'GET',
  params: { AQB: '1', ndh: '1', t: '27/10/2026 12:0:1 5 0', mid: '4128', ce: 'UTF-8', ...params, AQE: '1' },
  at: 0,
  ...o,
});
const view = (pageName: string, more: Record<string, string> = {}, o: Partial<RecordedBeacon> = {}) => beacon({ pageName, g: 'https://www.shop.example/', ...more }, o);
const link = (name: string, more: Record<string, string> = {}) => beacon({ pe: 'lnk_o', pev2: name, ...more });

describe('beacons', () => {
  test('the time, the round trip, random ids and the path’s request id are compared for presence only', () => {
    const a = view('home', { lrt: '12', sdid: 'AAA-1' });
    const b = view('home', { lrt: '80', sdid: 'BBB-2', t: '27/10/2026 12:0:3 5 0' });
    expect(a.sid).not.toBe(b.sid);
    expect(diffBeacon(a, b)).toEqual({ equal: Object.keys(a.params).length + 2, total: Object.keys(a.params).length + 2, diffs: [] });
    // Present on one side only: a difference.
    const c = view('home', { sdid: 'AAA-1' });
    expect(diffBeacon(a, c).diffs).toEqual([{ name: 'lrt', turbine: '12' }]);
  });

  test('every other field is compared by value, the host and the path among them, with both values named', () => {
    const d = diffBeacon(view('home', { v1: 'x', c5: 'same' }), view('Home', { c5: 'same', v2: 'y' }, { host: 'metrics.example.com', path: '/b/ss/shopprod/1/JS-2.27.0-LDHG' }));
    expect(d.diffs).toEqual([
      { name: '[host]', turbine: 'smetrics.example.com', offtag: 'metrics.example.com' },
      { name: '[path]', turbine: '/b/ss/shopprod/1/JS-2.27.0-LDQM', offtag: '/b/ss/shopprod/1/JS-2.27.0-LDHG' },
      { name: 'pageName', turbine: 'home', offtag: 'Home' },
      { name: 'v1', turbine: 'x' },
      { name: 'v2', offtag: 'y' },
    ]);
  });

  test('pairs in order, a beacon only one side sent left unpaired, link hits never paired with page views', () => {
    // Offtag did not send the `nav` link and sent a `promo` link turbine did not: the others pair with their like.
    const t = [view('home'), link('nav'), link('footer'), view('search')];
    const o = [view('home'), link('footer'), view('search'), link('promo', { v9: 'p' })];
    expect(pairBeacons(t, o)).toEqual([
      [0, 0],
      [1, undefined],
      [2, 1],
      [3, 2],
      [undefined, 3],
    ]);
    // Two beacons of a kind on each side: paired, the differing field named.
    expect(pairBeacons([link('nav'), link('footer')], [link('nav'), link('promo')])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    // Kinds decide before fields: a page view with the same page name is not a link hit's pair.
    expect(pairBeacons([link('home', { pageName: 'home' })], [view('home')])).toEqual([
      [0, undefined],
      [undefined, 0],
    ]);
  });

  test("a click's two hits in the other order on one side still pair, when they are the same hit; a different one stays unpaired", () => {
    // Turbine sent the rule's link hit, then the exit-link hit; Offtag the exit-link hit first.
    const exit = (url: string) => beacon({ pe: 'lnk_e', pev1: url });
    const t = [view('home'), link('promo'), exit('https://elsewhere.example/'), link('next')];
    const o = [view('home'), exit('https://elsewhere.example/'), link('promo'), link('next')];
    expect(pairBeacons(t, o)).toEqual([
      [0, 0],
      [1, 2],
      [2, 1],
      [3, 3],
    ]);
    const c = compareBeacons(t, o);
    expect(c.equal).toBe(c.total);
    // An exit-link hit that is not the same (another URL) is not moved into a pair.
    expect(pairBeacons(t, [view('home'), exit('https://other.example/'), link('promo'), link('next')])).toEqual([
      [0, 0],
      [undefined, 1],
      [1, 2],
      [2, undefined],
      [3, 3],
    ]);
  });

  test('the fields of unpaired beacons count as different; the report names each field that differs once per group', () => {
    const t = [view('home', { v1: 'a' }), link('nav')];
    const o = [view('home', { v1: 'b' })];
    const c = compareBeacons(t, o);
    const fields = (b: RecordedBeacon) => Object.keys(b.params).length + 2;
    expect(c).toMatchObject({ turbine: 2, offtag: 1, equal: fields(t[0]!) - 1, total: fields(t[0]!) + fields(t[1]!) });
    const lines = beaconLines(c).join('\n');
    expect(lines).toContain('`v1`: `a` → `b`');
    expect(lines).toContain('turbine #2 (lnk_o): Offtag sent none like it');
  });

  test("a field turbine itself gives otherwise in another run is marked where Offtag differs on it, and counted apart", () => {
    // Two turbine runs of one page: the second link hit's events come in another order (the page's own race).
    const first = [view('home'), link('form', { events: 'event39,event26,event46', v43: 'x' })];
    const again = [view('home'), link('form', { events: 'event39,event46,event26', v43: 'x' })];
    const varies = turbineVariation([first, again]);
    expect([...varies].map(([i, names]) => [i, [...names]])).toEqual([[1, ['events']]]);
    const offtag = [view('home'), link('form', { events: 'event39,event46,event26', v43: 'y' })];
    const c = compareBeacons(first, offtag, varies);
    expect(c.varies).toBe(1);
    expect(c.pairs[1]!.diffs).toEqual([
      { name: 'events', turbine: 'event39,event26,event46', offtag: 'event39,event46,event26', varies: true },
      { name: 'v43', turbine: 'x', offtag: 'y' },
    ]);
    expect(beaconLines(c).join('\n')).toContain('`events`: `event39,event26,event46` → `event39,event46,event26` (turbine varies)');
    // One run alone, or runs that agree: nothing is marked.
    expect(turbineVariation([first]).size).toBe(0);
    expect(turbineVariation([first, first]).size).toBe(0);
    expect(compareBeacons(first, offtag).varies).toBeUndefined();
  });
});

describe('rules, values and errors', () => {
  test('completions compared as multisets and in order', () => {
    expect(compareRules(['a', 'b', 'c'], ['a', 'b', 'c'])).toMatchObject({ same: 3, orderSame: true, sharedOrderSame: true, missing: [], extra: [] });
    const r = compareRules(['a', 'b', 'b', 'c'], ['a', 'x', 'b', 'c']);
    expect(r).toMatchObject({ same: 3, missing: ['b'], extra: ['x'], orderSame: false, sharedOrderSame: true, firstDifference: 1 });
    expect(compareRules(['a', 'b'], ['b', 'a'])).toMatchObject({ same: 2, sharedOrderSame: false, firstDifference: 0 });
  });

  test("Offtag's parts of a rule with several orders carry the Launch rule's name", () => {
    expect(launchRuleName('Page View (rule order 10)')).toBe('Page View');
    expect(launchRuleName('Page View (page bottom, rule order -1)')).toBe('Page View');
    expect(launchRuleName('Page View (beta)')).toBe('Page View (beta)');
  });

  test('values turbine resolves, compared as JSON', () => {
    expect(compareValues({ a: '"x"', b: null, c: '{"k":1}', d: '"y"' }, { a: '"x"', b: '"z"', c: '{"k":2}' })).toEqual({
      resolved: 3,
      equal: 1,
      differ: [
        { name: 'c', turbine: '{"k":1}', offtag: '{"k":2}' },
        { name: 'd', turbine: '"y"', offtag: null },
      ],
    });
  });

  test("Offtag's console errors turbine does not also produce, each of turbine's excusing one", () => {
    expect(extraErrors(['e1', 'e2'], ['e2', 'e2', 'e3'])).toEqual(['e2', 'e3']);
  });

  test("a failed load's random query values (a session id, a timestamp) and an unhandled rejection's wording do not make two errors different", () => {
    const failed = 'Failed to load resource: the server responded with a status of 404 (Not Found)';
    const t = [errorKey(failed, 'https://x.tt.omtrdc.net/rest/v1/delivery?client=x&sessionId=269a9f5f79194b97b59c42f3ebe0a053&version=2.10.3'), errorKey('uncaught Uncaught (in promise) Error: Failed to load script https://a.example/t.js')];
    const o = [errorKey(failed, 'https://x.tt.omtrdc.net/rest/v1/delivery?client=x&sessionId=be0b5aa92c8c4238ad6b50b124182b96&version=2.10.3'), errorKey('uncaught Error: Failed to load script https://a.example/t.js\n    at s.onerror')];
    expect(extraErrors(t, o)).toEqual([]);
    expect(extraErrors([errorKey(failed, 'https://sync.example/segment?token=6Sxp&callback=TDWrapper.tdw_4os7up.onReceive')], [errorKey(failed, 'https://sync.example/segment?token=6Sxp&callback=TDWrapper.tdw_z6xk9.onReceive')])).toEqual([]);
    // A short value, the page's own, still tells two loads apart.
    expect(extraErrors([errorKey(failed, 'https://a.example/p?id=42')], [errorKey(failed, 'https://a.example/p?id=43')])).toEqual([`${failed} https://a.example/p?id=43`]);
  });
});

describe("the worker's devtools feed, read after each step", () => {
  const e = (n: number) => ({ name: 'rule-completed', data: { rule: `r${n}`, seq: n } });
  const range = (a: number, b: number) => Array.from({ length: b - a }, (_, i) => e(a + i));

  test('a read below the limit is the whole feed; a full one continues the entries read before', () => {
    expect(mergeFeed(range(0, 3), range(0, 5), 10)).toEqual({ merged: range(0, 5), lost: false });
    expect(mergeFeed(range(0, 8), range(4, 14), 10)).toEqual({ merged: range(0, 14), lost: false });
    // Nothing in common: entries were dropped between the reads.
    expect(mergeFeed(range(0, 3), range(5, 15), 10)).toEqual({ merged: [...range(0, 3), ...range(5, 15)], lost: true });
  });
});

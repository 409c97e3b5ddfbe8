/**
 * The Common Analytics Plugins the worker implements, on the edges of the published plugins'
 * code (common-analytics-plugins/src/lib/plugins/{apl,inList,getValOnce}.js as deployed Launch
 * libraries carry it): each expected value is what that code returns for the same arguments,
 * run in Node outside the repository.
 *
 * Mutants of plugins.ts no input can tell apart (left Survived on purpose):
 * - inList: `exact == 1 && value === item` → false, `exact == 1` → true / `!= 1`: the case-insensitive
 *   comparison after it matches whatever the exact one matches (the published plugin's flag never narrows).
 * - apl: `cs ||= 1` → `&&=`: the flag only matters to inList, which ignores it (above), and to the joiner 2
 *   test, which the joiner 1 branch has already left.
 * - getValOnce: `host.s() ?? this` → `&&`: called as s.getValOnce, `this` is the tracker host.s() gives.
 */
import { describe, expect, it } from 'vitest';
import { installPlugins } from '../../../src/launch/appmeasurement/plugins.ts';
import { createAppMeasurement, type TrackerHost } from '../../../src/launch/appmeasurement/tracker.ts';

const NOW = Date.UTC(2026, 10, 27, 17, 5);

function plugins(o: { noTracker?: boolean } = {}) {
  const jar = new Map<string, { value: string; expires?: number }>();
  const h: TrackerHost = {
    cookie: (n) => jar.get(n)?.value,
    setCookie: (n, value, c) => void jar.set(n, { value, ...c }),
    url: () => 'https://www.example.com/',
    hostname: () => 'www.example.com',
    cookieDomain: () => '.example.com',
    now: () => NOW,
    send: () => {},
    log: () => {},
  };
  const s = createAppMeasurement('rs1', h);
  const w: Record<string, any> = {};
  installPlugins(
    (['apl', 'inList', 'getValOnce', 'getTimeParting', 'getPercentPageViewed'] as const).map((name) => ({ name, on: name === 'getTimeParting' ? 'window' : 'analytics' })),
    s,
    w,
    { now: () => NOW, s: () => (o.noTracker ? undefined : s) },
  );
  return { s, w, jar };
}

describe('inList as the published plugin answers', () => {
  it('a text list split on the delimiter (a comma by default), an array as it is, anything else no list', () => {
    const { s } = plugins();
    expect(s.inList('ab,c', 'AB')).toBe(true);
    expect(s.inList('ab,c', 'a')).toBe(false);
    expect(s.inList('a;b', 'b', '')).toBe(false);
    expect(s.inList(['A', 'b'], 'a')).toBe(true);
    expect(s.inList(5, 'a')).toBe(false);
    expect(s.inList('a,5', 5)).toBe(false);
  });
});

describe('apl as the published plugin answers', () => {
  it('a list that is no text, and values that are no text or empty, give the list back', () => {
    const { s } = plugins();
    const list = ['x'];
    expect(s.apl(list, 'a')).toBe(list);
    expect(s.apl(5, 'b')).toBe(5);
    expect(s.apl('a', 5)).toBe('a');
    expect(s.apl('a', '')).toBe('a');
  });
  it('joiner 1 is the delimiter (the legacy case-sensitive form); joiner 2 is the delimiter unless the case-sensitive flag is 1, then it is "2"', () => {
    const { s } = plugins();
    expect(s.apl('a', 'b', ',', 1)).toBe('a,b');
    expect(s.apl('a', 'b', ',', 2)).toBe('a,b');
    expect(s.apl('a', 'b', ',', 2, 1)).toBe('a2b');
    expect(s.apl('a', 'b,c', '|', '-')).toBe('a-b-c');
  });
});

describe('getValOnce as the published plugin writes its cookie', () => {
  it('s_gvo by default; for the session with no expiry; otherwise for 60000 times the period in ms, whatever the number of days or minutes', () => {
    const { s, jar } = plugins();
    expect(s.getValOnce('v')).toBe('v');
    expect(jar.get('s_gvo')).toStrictEqual({ value: 'v', domain: '.example.com' });
    expect(s.getValOnce('v')).toBe('');
    s.getValOnce('d', 'days', 7);
    s.getValOnce('d', 'one', 1);
    s.getValOnce('m', 'minutes', 30, 'm');
    expect([jar.get('days')?.expires, jar.get('one')?.expires, jar.get('minutes')?.expires]).toEqual([NOW + 60_000 * 86_400_000, NOW + 60_000 * 86_400_000, NOW + 60_000 * 60_000]);
    expect(s.getValOnce('', 'x')).toBe('');
  });
});

describe('each plugin marks its version in contextData on every call', () => {
  it('apl 4.0, inList 3.0, getValOnce 3.0.1, getTimeParting 6.3; a plugin the worker lacks is not installed; no tracker, no mark', () => {
    const { s, w } = plugins();
    s.contextData = {};
    s.apl('a', 'b');
    s.inList('a', 'a');
    s.getValOnce('v', 'c');
    w.getTimeParting();
    expect(s.contextData).toStrictEqual({ apl: '4.0', inList: '3.0', getValOnce: '3.0.1', getTimeParting: '6.3' });
    expect('getPercentPageViewed' in s || 'getPercentPageViewed' in w).toBe(false);
    const none = plugins({ noTracker: true });
    none.s.contextData = {};
    expect(none.w.getTimeParting('Etc/GMT')).toBe('year=2026 | month=November | date=27 | day=Friday | time=5:05 PM');
    expect(none.s.contextData).toStrictEqual({});
  });
});

describe("the plugins' mark in contextData", () => {
  it('each plugin called marks its version in contextData; a contextData that is no object is left as it is, and the plugin still answers', () => {
    const { s } = plugins();
    s.contextData = {};
    expect(s.inList('a,b', 'b')).toBe(true);
    expect(Object.keys(s.contextData)).toEqual(['inList']);
    s.contextData = 'not an object' as never;
    expect(s.inList('a,b', 'b')).toBe(true);
    expect(s.contextData).toBe('not an object');
  });
});

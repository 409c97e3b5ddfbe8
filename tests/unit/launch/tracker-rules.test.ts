/**
 * The worker's `s` on the edges of AppMeasurement 2.27.0's own rules: Util.getQueryParam on
 * queries with empty values, hashes and other delimiters; the cookie domain for IP hosts, names
 * that only look like one, and the periods settings; c_w's answer; call overrides; link URLs; the
 * defaults a fresh `s` has. Each expected value is what AppMeasurement 2.27.0 itself answers
 * (dist/AppMeasurement.js of adobe/appmeasurement run with a stub window in Node, outside the
 * repository, for the same input).
 *
 * Mutants of tracker.ts that no input can tell apart (left Survived on purpose):
 * - amUnescape: `s.includes('+')` → true (and its '' literal): splitting on a '+' that is not there changes nothing.
 * - getQueryParam: `end >= 0` → true, `u.length > 0` → true / `>= 0`: the text left always ends with the
 *   delimiter, so `end` is never -1; amUnescape('') is '' already.
 * - cookieDomainFor: the IPv6 pattern's mutants: a hostname holds a ':' only inside the brackets of an
 *   IPv6 address (`[::1]`), which neither pattern matches, and a name without a dot gets no domain anyway;
 *   the IPv4 pattern without `^`: a hostname ending in a number is not a valid URL host; `periods > 2` → `>= 2`
 *   (2 either way); `d >= 0` → true / `> 0` in the loop and `d > 0` → true / `>= 0` at the end: substring(-1)
 *   and substring(0) are the whole name, as is the other branch.
 * - plainValues: `v !== null` → true (null is an object, left out by the next test).
 * - cookieRead: `raw === undefined` → false and its `?? ''` (amUnescape(undefined) is undefined, then '').
 * - cookieWrite: the `''` and `'0'` fallbacks of the lifetime (parseInt of either is falsy, as 0 is); the
 *   periods count's `/^\./`, its '' and `.filter(Boolean)`: the found domain is '' or starts with its one dot.
 * - track: `typeof link === 'object'` → true (a primitive has no href); `url.indexOf('?') >= 0` → `> 0`
 *   (an href is absolute); the link-field pattern without an anchor (no AppMeasurement variable starts or
 *   ends with linkType/Name/URL/Object and is longer); `own` → true (AppMeasurement too leaves a variable
 *   an override added present and empty after the call).
 * - replace: `indexOf < 0` → false: splitting on what is not there and joining gives the same text.
 * - overrides: `typeof overrides === 'object'` → true and its `&&` → `||`: a text's indexes are no variable.
 *
 * Values that are no text (an object goes as its text, a function is left out: its source in the worker
 * is not the page's), s.escape of unset values and the queued first call's copy (opt-in) are tested in
 * tracker-calls.test.ts, each against what AppMeasurement 2.27.0 sends or leaves on `s`; a call that
 * adds no variable of its own there too.
 */
import { describe, expect, it } from 'vitest';
import { amUnescape, cookieDomainFor, createAppMeasurement, getQueryParam, plainValues, setPath, type TrackerHost } from '../../../src/launch/appmeasurement/tracker.ts';
import type { AnalyticsHit } from '../../../src/worker-engine/services.ts';

function host(o: { cookieDomain?: string; hostname?: string; keeps?: boolean } = {}) {
  const jar = new Map<string, { value: string; expires?: number; domain?: string; secure?: boolean }>();
  const hits: AnalyticsHit[] = [];
  const logs: string[] = [];
  const hostname = o.hostname ?? 'www.shop.example.com';
  const h: TrackerHost = {
    cookie: (n) => jar.get(n)?.value,
    // A browser that refuses the cookie (too long, blocked) keeps nothing.
    setCookie: (n, value, c) => void (o.keeps !== false && jar.set(n, { value, ...c })),
    url: () => `https://${hostname}/p?q=1`,
    hostname: () => hostname,
    cookieDomain: () => o.cookieDomain ?? '.example.com',
    now: () => 1_700_000_000_000,
    send: (hit) => void hits.push(hit),
    log: (_l, m) => void logs.push(m),
  };
  return { h, jar, hits, logs };
}

describe('Util.getQueryParam as AppMeasurement answers it', () => {
  const q = (key: unknown, url: unknown, d?: unknown, flag?: unknown) => getQueryParam(key, url, d, flag);
  it('a key with an empty value is empty, not the rest of the query', () => {
    expect(q('a', 'https://x.test/?a=&b=2')).toBe('');
    expect(q('a', 'https://x.test/?a=')).toBe('');
    expect(q('a', 'https://x.test/?a==1')).toBe('=1');
  });
  it('no query, no key: empty; a query at the start of the text counts', () => {
    expect(q('a', 'https://x.test/a=1')).toBe('');
    expect(q('a', 'https://x.test/p&a=1')).toBe('');
    expect(q('', 'https://x.test/?=1')).toBe('');
    expect(q('a', '?a=1')).toBe('1');
    expect(q('a', 'https://x.test/?a=1?b')).toBe('1?b');
  });
  it('a key is matched whole, the first one wins, the hash ends the query', () => {
    expect(q('a', 'https://x.test/?ba=1&a=2')).toBe('2');
    expect(q('a', 'https://x.test/?a=1&a=2')).toBe('1');
    expect(q('a', 'https://x.test/?b=1#a=2')).toBe('');
    expect(q('a', 'https://x.test/?a=1#&a=2')).toBe('1');
  });
  it('another delimiter, of one or more characters; a delimiter starting with # empties the query', () => {
    expect(q('a', 'https://x.test/?b=1;a=2&c=3', ';')).toBe('2&c=3');
    expect(q('a', 'https://x.test/?b=1::a=2::c', '::')).toBe('2');
    expect(q('a', 'https://x.test/?a=1', '#')).toBe('');
  });
  it('with the flag, a bare key (with or without =) is undefined; a key with a value is that value', () => {
    expect(q('a', 'https://x.test/?a&b', undefined, true)).toBeUndefined();
    expect(q('a', 'https://x.test/?b&a=', undefined, true)).toBeUndefined();
    expect(q('a', 'https://x.test/?a=1', undefined, true)).toBe('1');
  });
  it("s.Util.getQueryParam without a URL reads s.pageURL, else the page's URL", () => {
    const s = createAppMeasurement('rs1', host().h);
    expect(s.Util.getQueryParam('q')).toBe('1');
    s.pageURL = 'https://x.test/?q=2';
    expect(s.Util.getQueryParam('q')).toBe('2');
  });
  it('unescape gives back what is not text as it is', () => {
    expect(amUnescape(undefined)).toBeUndefined();
    expect(amUnescape(null)).toBeNull();
    expect(amUnescape(0)).toBe(0);
  });
});

describe("the cookie domain as AppMeasurement's rule makes it", () => {
  it('an IPv4 host gets none, whatever its octets; a name that only starts with one gets its own', () => {
    expect(cookieDomainFor('192.168.1.10', 2)).toBeUndefined();
    expect(cookieDomainFor('127.0.0.1', 3)).toBeUndefined();
    expect(cookieDomainFor('10.0.0.1.nip.io', 2)).toBe('.nip.io');
    expect(cookieDomainFor('[::1]', 2)).toBeUndefined();
  });
  it('periods: at least two labels; more when asked; a host with fewer labels than asked is itself', () => {
    expect(cookieDomainFor('a.b.co.uk', 3)).toBe('.b.co.uk');
    expect(cookieDomainFor('a.b.co.uk', 0)).toBe('.co.uk');
    expect(cookieDomainFor('b.co.uk', 5)).toBe('b.co.uk');
    expect(cookieDomainFor('.example', 2)).toBe('.example');
  });
  it('c_w: fpCookieDomainPeriods first, then cookieDomainPeriods, else as many labels as the domain found', () => {
    const domainWith = (fp?: string, cdp?: string) => {
      const { h, jar } = host({ hostname: 'www.shop.example.com' });
      const s = createAppMeasurement('rs1', h);
      Object.assign(s, { fpCookieDomainPeriods: fp, cookieDomainPeriods: cdp });
      s.c_w('x', '1');
      return jar.get('x')?.domain;
    };
    expect([domainWith(), domainWith('3'), domainWith('3', '4'), domainWith(undefined, '4')]).toEqual(['.example.com', '.shop.example.com', '.shop.example.com', 'www.shop.example.com']);
  });
  it('c_w: a session cookie has no expiry; writeSecureCookies makes it secure; the answer is whether the browser kept it', () => {
    const { h, jar } = host();
    const s = createAppMeasurement('rs1', h);
    expect(s.c_w('a', '1')).toBe(true);
    expect(jar.get('a')).toStrictEqual({ value: '1', domain: '.example.com' });
    s.writeSecureCookies = true;
    s.c_w('b', '1');
    expect(jar.get('b')).toStrictEqual({ value: '1', domain: '.example.com', secure: true });
    const refused = createAppMeasurement('rs1', host({ keeps: false }).h);
    expect(refused.c_w('a', '1')).toBe(false);
    expect(refused.c_r('a')).toBe('');
  });
});

describe('call overrides, links and plugins as AppMeasurement runs them', () => {
  it("an override's contextData replaces s.contextData for that call; an empty override changes nothing, !name empties; only AppMeasurement's variables", () => {
    const { h, hits } = host();
    const s = createAppMeasurement('rs1', h);
    s.pageName = 'Home';
    s.eVar2 = 'kept';
    s.contextData = { a: '1' };
    s.t({ contextData: { b: '2' }, pageName: '', '!eVar2': 1, foo: 'x', 0: 'y' } as Record<string, unknown>);
    expect(hits[0]).toMatchObject({ type: 't', contextData: { b: '2' } });
    expect(hits[0]!.vars.pageName).toBe('Home');
    expect(hits[0]!.vars.eVar2).toBeUndefined();
    expect([s.contextData, s.pageName, s.eVar2, 'foo' in s, '0' in s]).toEqual([{ a: '1' }, 'Home', 'kept', false, false]);
    s.t({ pageName: 'Once' });
    s.t();
    expect(hits.slice(1).map((x) => x.vars.pageName)).toEqual(['Once', 'Home']);
    s.t('eVar1' as never);
    expect('0' in s).toBe(false);
    // doPlugins sees only AppMeasurement's variables overridden; track is t.
    const seen: unknown[] = [];
    s.usePlugins = true;
    s.doPlugins = (t: typeof s) => void seen.push([t.foo, t.prop3]);
    s.track({ foo: 'x', prop3: 'p' });
    expect(seen).toEqual([[undefined, 'p']]);
    expect(hits.at(-1)!.vars.prop3).toBe('p');
  });
  it('a linkURL of its own wins over the anchor; an anchor without query is its href; linkLeaveQueryString keeps the query', () => {
    const { h, hits } = host();
    const s = createAppMeasurement('rs1', h);
    s.tl({ tagName: 'A', href: 'https://x.test/a?q=1' }, 'o', 'nm', { linkURL: 'https://custom.test/' });
    s.tl({ tagName: 'area', href: 'https://x.test/map' }, 'o', 'nm');
    s.linkLeaveQueryString = true;
    s.tl({ tagName: 'A', href: 'https://x.test/a?q=1' }, 'e', 'nm');
    s.tl({ tagName: 'DIV', href: 'https://x.test/div' }, 'o', 'nm');
    s.tl({ tagName: 'ARTICLE', href: 'https://x.test/article' }, 'o', 'nm');
    s.tl({ tagName: 'DATA', href: 'https://x.test/data' }, 'o', 'nm');
    s.tl(true, 'o');
    expect(hits.map((x) => (x.type === 'tl' ? x.linkUrl ?? null : 'page view'))).toEqual(['https://custom.test/', 'https://x.test/map', 'https://x.test/a?q=1', null, null, null, 'page view']);
  });
  it('a link name without a link type is a page view; a link call without linkTrackVars has none', () => {
    const { h, hits } = host();
    const s = createAppMeasurement('rs1', h);
    s.linkName = 'n';
    s.t();
    s.tl(true, 'o', 'n');
    expect(hits.map((x) => x.type)).toEqual(['t', 'tl']);
    expect(hits[1]).toMatchObject({ linkTrackVars: '', linkTrackEvents: '' });
  });
  it('doPlugins runs only with usePlugins, and usePlugins without doPlugins still sends; a pageURL set is sent as set', () => {
    const { h, hits } = host();
    const s = createAppMeasurement('rs1', h);
    s.doPlugins = (t: typeof s) => void (t.eVar9 = 'dp');
    s.t();
    s.doPlugins = undefined;
    s.usePlugins = true;
    s.pageURL = 'https://set.test/page';
    s.t();
    expect(hits.map((x) => [x.vars.eVar9, x.vars.pageURL])).toEqual([
      [undefined, h.url()],
      [undefined, 'https://set.test/page'],
    ]);
  });
  it('callbacks get the request URL first (the worker builds it later: empty); what is not a function is never called', () => {
    const { h, logs } = host();
    const s = createAppMeasurement('rs1', h);
    const got: unknown[][] = [];
    s.registerPreTrackCallback((...a: unknown[]) => got.push(a), 'x');
    s.registerPostTrackCallback('not a function');
    s.registerPreTrackCallback({});
    s.t();
    expect(got).toEqual([['', 'x']]);
    expect(logs).toEqual([]);
  });
});

describe('a fresh s and its helpers, as AppMeasurement 2.27.0 makes them', () => {
  it('the defaults', () => {
    const s = createAppMeasurement('rs1', host().h);
    expect([s.version, s.linkDownloadFileTypes, s.storageFilename, s._c, s.charSet, s.writeSecureCookies, s.offlineThrottleDelay, s.Util.getIeVersion()]).toStrictEqual([
      '2.27.0',
      'exe,zip,wav,mp3,mov,mpg,avi,wmv,pdf,doc,docx,xls,xlsx,ppt,pptx',
      'AppMeasurement.requests',
      's_c',
      'UTF-8',
      false,
      0,
      null,
    ]);
    expect([s.ActivityMap.link({}), s.ActivityMap.region({})]).toEqual([undefined, undefined]);
  });
  it('replace at the start of the text; setAccount adds sorted and once to a list it has, and starts a missing one as given', () => {
    const s = createAppMeasurement('rs1', host().h);
    expect(s.replace('abc', 'a', 'x')).toBe('xbc');
    expect([s.replace(undefined, 'u', 'y'), s.replace('', 'a', 'x')]).toEqual([undefined, '']);
    s.setAccount('rs2,a,rs1');
    expect(s.allAccounts).toEqual(['a', 'rs1', 'rs2']);
    s.allAccounts = undefined;
    s.setAccount('b,a');
    expect(s.allAccounts).toEqual(['b', 'a']);
  });
  it('callbackWhenReadyToTrack calls at once, with no arguments when given none; an absent cookie reads empty', () => {
    const s = createAppMeasurement('rs1', host().h);
    const got: unknown[][] = [];
    s.callbackWhenReadyToTrack(null, (...a: unknown[]) => got.push(a));
    expect(got).toEqual([[]]);
    expect(s.c_r('absent')).toBe('');
  });
  it('setPath removes an undefined contextData entry; plainValues leaves out undefined values', () => {
    const s = createAppMeasurement('rs1', host().h) as Record<string, any>;
    setPath(s, 'contextData.k', 'v');
    setPath(s, 'contextData.k', undefined);
    expect(Object.keys(s.contextData)).toEqual([]);
    s.eVar1 = undefined;
    s.contextData.u = undefined;
    s.contextData.n = null;
    const p = plainValues(s);
    expect(Object.keys(p).filter((k) => k === 'eVar1' || k.startsWith('contextData.'))).toEqual([]);
  });
});

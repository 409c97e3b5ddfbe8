/**
 * The worker's AppMeasurement-compatible `s` against AppMeasurement 2.27.0's documented
 * behaviour: its escape, cookie helpers and their domain, Util.getQueryParam, clearVars, the
 * variables a call sends, linkTrackVars for link calls, doPlugins, abort and call overrides.
 */
import { describe, expect, it } from 'vitest';
import { amEscape, amUnescape, cookieDomainFor, createAppMeasurement, getQueryParam, type TrackerHost } from '../../../src/launch/appmeasurement/tracker.ts';
import type { AnalyticsHit } from '../../../src/worker-engine/services.ts';
import { installPlugins } from '../../../src/launch/appmeasurement/plugins.ts';

function host(o: { cookieDomain?: string; hostname?: string } = {}) {
  const jar = new Map<string, { value: string; expires?: number; domain?: string }>();
  const hits: AnalyticsHit[] = [];
  const h: TrackerHost = {
    cookie: (n) => jar.get(n)?.value,
    setCookie: (n, value, c) => void jar.set(n, { value, ...c }),
    url: () => `https://${o.hostname ?? 'www.shop.example.co.uk'}/p?a=1&cid=x%20y&b=+z#h`,
    hostname: () => o.hostname ?? 'www.shop.example.co.uk',
    cookieDomain: () => o.cookieDomain ?? '.example.co.uk',
    now: () => 1_700_000_000_000,
    send: (hit) => void hits.push(hit),
    log: () => {},
  };
  return { h, jar, hits };
}

describe('AppMeasurement helpers', () => {
  it('escape percent-encodes what encodeURIComponent leaves, unescape reads + as a space', () => {
    expect(amEscape("a b+c~!*()'é")).toBe('a%20b%2Bc%7E%21%2A%28%29%27%C3%A9');
    expect(amUnescape('a+b%20c')).toBe('a b c');
    expect(amUnescape('%E0%A4%A')).toBe(unescape('%E0%A4%A'));
    expect(amEscape('')).toBe('');
  });
  it('getQueryParam: the first value of the key, decoded; the hash ignored; other delimiters', () => {
    const url = 'https://x.example/p?a=1&cid=x%20y&b=+z#cid=no';
    expect(getQueryParam('cid', url, undefined, undefined)).toBe('x y');
    expect(getQueryParam('b', url, undefined, undefined)).toBe(' z');
    expect(getQueryParam('missing', url, undefined, undefined)).toBe('');
    expect(getQueryParam('a', 'https://x.example/p', undefined, undefined)).toBe('');
    expect(getQueryParam('k', 'https://x.example/p?j=1;k=2', ';', undefined)).toBe('2');
  });
  it('the cookie domain: the last cookieDomainPeriods labels, at least two; none for an IP or a one-label host', () => {
    expect(cookieDomainFor('www.shop.example.com', 2)).toBe('.example.com');
    expect(cookieDomainFor('www.shop.example.co.uk', 3)).toBe('.example.co.uk');
    expect(cookieDomainFor('www.shop.example.co.uk', 1)).toBe('.co.uk');
    expect(cookieDomainFor('10.0.0.1', 2)).toBeUndefined();
    expect(cookieDomainFor('localhost', 2)).toBeUndefined();
  });
});

describe('the tracker object', () => {
  it('c_w writes escaped, for the found domain, empty as [[B]] and expiring at once; c_r reads it back unescaped', () => {
    const { h, jar } = host();
    const s = createAppMeasurement('rs1', h);
    expect(s.c_w('s_v o', 'a b;c', new Date(1_700_000_100_000))).toBe(true);
    expect(jar.get('s_v%20o')).toEqual({ value: 'a%20b%3Bc', expires: 1_700_000_100_000, domain: '.example.co.uk' });
    expect(s.c_r('s_v o')).toBe('a b;c');
    expect(s.Util.cookieRead('s_v o')).toBe('a b;c');
    s.c_w('gone', '', 1);
    expect(jar.get('gone')).toMatchObject({ value: '%5B%5BB%5D%5D', expires: 1_700_000_000_000 - 60_000 });
    expect(s.c_r('gone')).toBe('');
    s.cookieLifetime = 'NONE';
    expect(s.c_w('x', '1')).toBe(false);
  });
  it('a host-only page (no domain found) writes host-only cookies unless cookieDomainPeriods says otherwise', () => {
    const { h, jar } = host({ cookieDomain: '', hostname: 'shop.test' });
    const s = createAppMeasurement('rs1', h);
    s.c_w('a', '1');
    expect(jar.get('a')?.domain).toBeUndefined();
    s.cookieDomainPeriods = '2';
    s.c_w('b', '1');
    expect(jar.get('b')?.domain).toBe('shop.test');
  });
  it('t(): the variables set (numbers as text, empty and objects left out), contextData, pageURL set once and kept', () => {
    const { h, hits } = host();
    const s = createAppMeasurement('rs1', h);
    Object.assign(s, { pageName: 'Home', eVar1: 7, prop2: '', products: ';sku;1;9.99', events: 'purchase,event3:x', zip: undefined, campaign: 'c', notAVar: 'x' });
    s.contextData['a.b'] = 'v';
    s.contextData.flag = true;
    s.contextData.zero = 0;
    s.t();
    expect(hits[0]).toEqual({ type: 't', vars: { charSet: 'UTF-8', pageName: 'Home', eVar1: '7', products: ';sku;1;9.99', events: 'purchase,event3:x', campaign: 'c', pageURL: h.url() }, contextData: { 'a.b': 'v', flag: 'true' } });
    expect(s.pageURL).toBe(h.url());
  });
  it('tl(): a link hit with linkTrackVars/Events; an anchor element gives the URL without its query; link fields reset after the call', () => {
    const { h, hits } = host();
    const s = createAppMeasurement('rs1', h);
    s.eVar1 = 'a';
    s.linkTrackVars = 'eVar1';
    s.tl({ tagName: 'A', href: 'https://x.example/f.pdf?x=1' }, 'd', 'file');
    s.tl('true', 'x', 'named');
    expect(hits).toEqual([
      { type: 'tl', linkType: 'd', linkName: 'file', linkUrl: 'https://x.example/f.pdf', vars: { charSet: 'UTF-8', eVar1: 'a', pageURL: h.url() }, linkTrackVars: 'eVar1', linkTrackEvents: '' },
      { type: 'tl', linkType: 'o', linkName: 'named', vars: { charSet: 'UTF-8', eVar1: 'a', pageURL: h.url() }, linkTrackVars: 'eVar1', linkTrackEvents: '' },
    ]);
    expect([s.linkType, s.linkName, s.linkURL, s.linkObject]).toEqual([undefined, undefined, undefined, undefined]);
  });
  it('clearVars clears props, eVars, hierarchies, lists, channel, events, products, purchaseID, transactionID, state, zip, campaign — not pageName, server or linkTrackVars', () => {
    const { h } = host();
    const s = createAppMeasurement('rs1', h);
    Object.assign(s, { prop1: 'a', eVar250: 'b', hier1: 'c', list3: 'd', channel: 'e', events: 'f', products: 'g', purchaseID: 'h', transactionID: 'i', state: 'j', zip: 'k', campaign: 'l', pageName: 'm', server: 'n', linkTrackVars: 'o' });
    s.clearVars();
    expect(Object.fromEntries(Object.entries(s).filter(([k, v]) => typeof v === 'string' && /^(prop|eVar|hier|list|channel|events|products|purchaseID|transactionID|state|zip|campaign|pageName|server|linkTrackVars)/.test(k)))).toEqual({ pageName: 'm', server: 'n', linkTrackVars: 'o' });
  });
  it('doPlugins runs on every call with usePlugins, sees the link fields, and its abort cancels that call only; overrides last one call', () => {
    const { h, hits } = host();
    const s = createAppMeasurement('rs1', h);
    const seen: unknown[] = [];
    s.usePlugins = true;
    s.doPlugins = (t: typeof s) => {
      seen.push(t.linkType);
      if (t.eVar9 === 'stop') t.abort = true;
    };
    s.t({ eVar9: 'stop' });
    s.t({ eVar9: 'go', contextData: { k: 'v' } });
    s.tl(true, 'o', 'n');
    expect(seen).toEqual([undefined, undefined, 'o']);
    expect(hits.map((x) => [x.type, x.vars.eVar9, x.contextData])).toEqual([
      ['t', 'go', { k: 'v' }],
      ['tl', undefined, undefined],
    ]);
    expect(s.abort).toBe(false);
  });
  it("with Adobe's opt-in service, the first call waits in AppMeasurement's queue: what doPlugins changed among the variables is undone after its hit; its own flags stay, and later calls keep their changes", () => {
    const { h, hits } = host();
    const s = createAppMeasurement('rs1', { ...h, optIn: () => true });
    s.usePlugins = true;
    s.doPlugins = (t: typeof s) => {
      if (!t.loaded) {
        t.prop66 = 'first';
        t.events = t.events ? `${t.events},event27` : 'event27';
        t.linkTrackVars = t.linkTrackVars ? `${t.linkTrackVars},prop66` : 'prop66';
      }
      t.eVar8 = 'set by doPlugins';
      t.contextData.seen = 'yes';
      t.loaded = true;
    };
    s.events = 'event39';
    s.eVar1 = 'kept';
    s.tl(true, 'o', 'first');
    expect(hits[0]!.vars).toMatchObject({ prop66: 'first', events: 'event39,event27', eVar8: 'set by doPlugins', eVar1: 'kept' });
    // The variables as the call found them; linkTrackVars was empty then, so AppMeasurement leaves doPlugins' value; the site's flag stays.
    expect([s.prop66, s.events, s.eVar8, s.eVar1, s.linkTrackVars, s.loaded, s.contextData.seen]).toEqual([undefined, 'event39', undefined, 'kept', 'prop66', true, 'yes']);
    s.events = 'event46';
    s.t();
    expect(hits[1]!.vars).toMatchObject({ events: 'event46', eVar8: 'set by doPlugins' });
    expect(hits[1]!.vars.prop66).toBeUndefined();
    expect(s.eVar8).toBe('set by doPlugins');
    // collectHighEntropyUserAgentHints: each hit asks for the client hints, and the first call waits for them too.
    const hinted = host();
    const withHints = createAppMeasurement('rs1', hinted.h);
    withHints.collectHighEntropyUserAgentHints = true;
    withHints.usePlugins = true;
    withHints.doPlugins = (t: typeof s) => void (t.prop66 = 'first');
    withHints.t();
    expect(withHints.prop66).toBeUndefined();
    withHints.t();
    expect(hinted.hits.map((x) => x.clientHints)).toEqual([true, true]);
    expect(withHints.prop66).toBe('first');
    // Without the opt-in service the first call does not wait either.
    const plain = createAppMeasurement('rs1', host().h);
    plain.usePlugins = true;
    plain.doPlugins = (t: typeof s) => void (t.prop66 = 'first');
    plain.t();
    expect(plain.prop66).toBe('first');
  });
  it('sends nothing without a report suite; callbacks registered are called around a hit', () => {
    const { h, hits } = host();
    const s = createAppMeasurement('', h);
    s.t();
    expect(hits).toEqual([]);
    const calls: string[] = [];
    s.setAccount('rs2');
    s.registerPreTrackCallback((_u: string, a: string) => calls.push(`pre ${a}`), 'x');
    s.registerPostTrackCallback(() => calls.push('post'));
    s.t();
    expect(calls).toEqual(['pre x', 'post']);
    expect(s.account).toBe('rs2');
  });
});

describe('the Common Analytics Plugins the import runs', () => {
  const plugins = () => {
    const { h, jar } = host();
    const s = createAppMeasurement('rs1', h);
    const w: Record<string, any> = {};
    installPlugins(
      [
        { name: 'apl', on: 'analytics' },
        { name: 'inList', on: 'analytics' },
        { name: 'getValOnce', on: 'analytics' },
        { name: 'getTimeParting', on: 'window' },
      ],
      s,
      w,
      { now: () => Date.UTC(2026, 10, 27, 17, 5), s: () => s },
    );
    return { s, w, jar };
  };
  it('hand each plugin over with its version in contextData (the c. block)', () => {
    const { s, w } = plugins();
    expect(s.contextData).toEqual({ apl: '4.0', inList: '3.0', getValOnce: '3.0.1', getTimeParting: '6.3' });
    expect(typeof w.getTimeParting).toBe('function');
    expect(s.getTimeParting).toBeUndefined();
  });
  it('apl appends what the list lacks, ignoring case (the case-sensitive flag also matches ignoring case, as the published plugin does); inList finds an item', () => {
    const { s } = plugins();
    expect(s.apl('event1,EVENT2', 'event2,event3')).toBe('event1,EVENT2,event3');
    expect(s.apl('', 'a,b')).toBe('a,b');
    expect(s.apl(undefined, 'a')).toBe('a');
    expect(s.apl('a|b', 'B,c', '|', '|', 1)).toBe('a|b|c');
    expect(s.apl('a|b', 'c', '|', ';')).toBe('a|b;c');
    expect(s.apl('a', 'b', ',', 2)).toBe('a,b');
    expect(s.inList('a,b', 'B')).toBe(true);
    expect(s.inList('a,b', 'B', ',', 1)).toBe(true);
    expect(s.inList('a;b', 'c', ';')).toBe(false);
  });
  it('getValOnce gives the value once while its cookie holds it; getTimeParting the time parts in a zone', () => {
    const { s, w } = plugins();
    expect(s.getValOnce('x', 'c1')).toBe('x');
    expect(s.getValOnce('x', 'c1')).toBe('');
    expect(s.getValOnce('y', 'c1')).toBe('y');
    expect(w.getTimeParting('America/New_York')).toBe('year=2026 | month=November | date=27 | day=Friday | time=12:05 PM');
    expect(w.getTimeParting()).toBe('year=2026 | month=November | date=27 | day=Friday | time=5:05 PM');
  });
});

/**
 * The worker's AppMeasurement-compatible `s` against AppMeasurement 2.27.0's documented
 * behaviour: its escape, cookie helpers and their domain, Util.getQueryParam, clearVars, the
 * variables a call sends, linkTrackVars for link calls, doPlugins, abort and call overrides.
 */
import { describe, expect, it } from 'vitest';
import { amEscape, amUnescape, cookieDomainFor, createAppMeasurement, getQueryParam, plainValues, setPath, type TrackerHost } from '../../../src/launch/appmeasurement/tracker.ts';
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
    expect(hits[0]).toEqual({ type: 't', vars: { charSet: 'UTF-8', pageName: 'Home', eVar1: '7', products: ';sku;1;9.99', events: 'purchase,event3:x', campaign: 'c', pageURL: h.url() }, contextData: { 'a.b': 'v', flag: 'true' }, account: 'rs1' });
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
      { type: 'tl', linkType: 'd', linkName: 'file', linkUrl: 'https://x.example/f.pdf', vars: { charSet: 'UTF-8', eVar1: 'a', pageURL: h.url() }, linkTrackVars: 'eVar1', linkTrackEvents: '', account: 'rs1' },
      { type: 'tl', linkType: 'o', linkName: 'named', vars: { charSet: 'UTF-8', eVar1: 'a', pageURL: h.url() }, linkTrackVars: 'eVar1', linkTrackEvents: '', account: 'rs1' },
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

describe('the tracker object: the rest of what custom code calls', () => {
  it('unescape leaves an empty value as it is; getQueryParam without a key, a URL or a query is empty, and with the key-only flag a bare key is undefined', () => {
    expect([amUnescape(''), amUnescape(undefined), amUnescape(0)]).toEqual(['', undefined, 0]);
    expect([getQueryParam('', 'https://x/?a=1', undefined, undefined), getQueryParam('a', '', undefined, undefined), getQueryParam('a', 'https://x/a=1', undefined, undefined)]).toEqual(['', '', '']);
    expect(getQueryParam('adobe_mc_ref', 'https://x/?adobe_mc_ref&b=1', undefined, true)).toBeUndefined();
    expect(getQueryParam('adobe_mc_ref', 'https://x/?adobe_mc_ref=&b=1', undefined, true)).toBeUndefined();
    expect(getQueryParam('b', 'https://x/?adobe_mc_ref&b=1', undefined, true)).toBe('1');
    expect(getQueryParam('adobe_mc_ref', 'https://x/?adobe_mc_ref&b=1', undefined, undefined)).toBe('');
  });
  it('c_w: expires 1 is two years on, a number is a time, a session lifetime never expires, a lifetime in seconds wins', () => {
    const { h, jar } = host();
    const s = createAppMeasurement('rs1', h);
    s.c_w('two', 'v', 1);
    const d = new Date(1_700_000_000_000);
    d.setFullYear(d.getFullYear() + 2);
    expect(jar.get('two')?.expires).toBe(d.getTime());
    s.c_w('num', 'v', 1_800_000_000_000);
    expect(jar.get('num')?.expires).toBe(1_800_000_000_000);
    s.c_w('none', 'v', 'not a time');
    expect(jar.get('none')?.expires).toBeUndefined();
    s.cookieLifetime = '30';
    s.c_w('life', 'v', 1);
    expect(jar.get('life')?.expires).toBe(1_700_000_030_000);
    s.cookieLifetime = 'session';
    s.c_w('sess', 'v', 1);
    expect(jar.get('sess')?.expires).toBeUndefined();
    expect(s.c_w('', 'v')).toBe(false);
  });
  it('setPath and plainValues: contextData entries by their dotted name, plain values only, internal fields left out', () => {
    const t: Record<string, any> = {};
    setPath(t, 'contextData.a.b', 1);
    setPath(t, 'contextData.gone', 2);
    setPath(t, 'contextData.gone', undefined);
    setPath(t, 'eVar1', 'x');
    expect(t).toEqual({ contextData: { 'a.b': 1 }, eVar1: 'x' });
    expect(plainValues({ eVar1: 'x', n: 0, b: false, nil: null, u: undefined, o: {}, f: () => 1, __offtagPlugins: 'x', contextData: { k: 'v', o: {}, nil: null, f: () => 1 } })).toEqual({ eVar1: 'x', n: 0, b: false, 'contextData.k': 'v' });
    expect(plainValues({ a: 1 })).toEqual({ a: 1 });
  });
  it("doPlugins' writes recorded on the page replace doPlugins for one call, without the link fields", () => {
    const { h, hits } = host();
    const s = createAppMeasurement('rs1', h);
    let ran = 0;
    s.usePlugins = true;
    s.doPlugins = () => void ran++;
    s.__offtagPlugins = [['set', 'eVar5', 'page'], ['set', 'linkName', 'x'], ['set', 'contextData.k', 'v'], ['t', 'eVar6', 'no']];
    s.t();
    s.t();
    expect(ran).toBe(1);
    expect(hits[0]).toMatchObject({ vars: { eVar5: 'page' }, contextData: { k: 'v' } });
    expect(hits[0]!.vars.eVar6).toBeUndefined();
    expect(hits[0]!.linkName).toBeUndefined();
  });
  it('a callback that throws is logged and the hit still goes; s.log, replace, setAccount, loadModule, the ready helpers and Util.getQueryParam', () => {
    const { h, hits } = host();
    const logs: string[] = [];
    h.log = (l, m) => void logs.push(`${l}: ${m}`);
    const s = createAppMeasurement('rs1', h);
    s.registerPostTrackCallback(() => {
      throw new Error('cb');
    });
    s.registerPostTrackCallback('not a function');
    s.t();
    expect(hits).toHaveLength(1);
    s.log('said');
    expect(logs).toEqual(['warn: Analytics: a track callback threw: cb', 'warn: said']);
    expect([s.replace('a-b-c', '-', '+'), s.replace('abc', '-', '+'), s.replace('', '-', '+')]).toEqual(['a+b+c', 'abc', '']);
    s.setAccount('rs2,rs1');
    s.setAccount('rs3');
    expect([s.account, s.allAccounts]).toEqual(['rs3', ['rs1', 'rs2', 'rs3']]);
    let loaded: unknown;
    s.loadModule('Media', (t: unknown, m: unknown) => (loaded = [t === s, m]));
    expect(loaded).toEqual([true, {}]);
    s.Media.x = 1;
    s.loadModule('Media');
    expect(s.Media).toEqual({ x: 1 });
    expect(s.isReadyToTrack()).toBe(true);
    expect(s.callbackWhenReadyToTrack({ n: 2 }, function (this: { n: number }, a: number) {
      return this.n + a;
    }, [3])).toBe(5);
    expect(s.callbackWhenReadyToTrack(null, () => 'no args', undefined as never)).toBe('no args');
    expect(s.Util.getQueryParam('cid')).toBe('x y');
    s.pageURL = 'https://other.example/?cid=z';
    expect(s.Util.getQueryParam('cid')).toBe('z');
    expect(s.Util.getQueryParam('cid', 'https://u.example/?cid=u')).toBe('u');
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

describe("AppMeasurement's Audience Manager module and postbacks", () => {
  const config = () => ({ partner: 'acme', uuidCookie: { name: 'aam_uuid', days: 180 }, visitorService: { namespace: 'ORG@AdobeOrg' } });
  it('once set up, every hit carries postbacks: the tracker\'s s_c_il index and the module\'s event call parameters', () => {
    const { h, hits } = host();
    const s = createAppMeasurement('rs1', h, { index: 1, audienceManagement: true, visitor: true });
    s.t();
    s.loadModule('AudienceManagement');
    expect(s.AudienceManagement.isReady()).toBe(false);
    s.AudienceManagement.setup(config());
    expect(s.AudienceManagement.isReady()).toBe(true);
    s.t();
    s.tl(true, 'o', 'cta');
    expect(hits.map((x) => x.postbacks)).toEqual([undefined, { index: 1, d: { nsid: '0', jsonv: '1' } }, { index: 1, d: { nsid: '0', jsonv: '1' } }]);
  });
  it("DIL's reading of the config: containerNSID a whole number ≥ 0 (else 0), isCoopSafe as coop_safe or coop_unsafe", () => {
    const made = (c: Record<string, unknown>) => {
      const { h, hits } = host();
      const s = createAppMeasurement('rs1', h, { audienceManagement: true, visitor: true });
      s.loadModule('AudienceManagement');
      s.AudienceManagement.setup({ ...config(), ...c });
      s.t();
      return hits[0]!.postbacks;
    };
    expect(made({ containerNSID: '7' })).toEqual({ index: 0, d: { nsid: '7', jsonv: '1' } });
    expect(made({ containerNSID: -2 })).toEqual({ index: 0, d: { nsid: '0', jsonv: '1' } });
    expect(made({ isCoopSafe: true })).toEqual({ index: 0, d: { nsid: '0', jsonv: '1', coop_safe: '1' } });
    expect(made({ isCoopSafe: false })).toEqual({ index: 0, d: { nsid: '0', jsonv: '1', coop_unsafe: '1' } });
    // No partner: DIL gives an Error object, which the module takes for its instance: ready, no parameters.
    expect(made({ partner: '' })).toEqual({ index: 0, d: {} });
  });
  it("without VisitorAPI on the page, or without the visitor service's namespace, setup throws DIL's error", () => {
    const { h } = host();
    const s = createAppMeasurement('rs1', h, { audienceManagement: true, visitor: false });
    s.loadModule('AudienceManagement');
    expect(() => s.AudienceManagement.setup(config())).toThrow('Error in attempt to create DIL instance with DIL.create(): Error in processing Visitor API, which is a hard dependency for DIL v8.0+: Visitor does not exist.');
    const t = createAppMeasurement('rs1', h, { audienceManagement: true, visitor: true });
    t.loadModule('AudienceManagement');
    expect(() => t.AudienceManagement.setup({ partner: 'acme' })).toThrow("needs the initConfig property `visitorService`");
    expect(t.AudienceManagement.isReady()).toBe(false);
  });
  it('without the module file the module is empty, as AppMeasurement makes a module it cannot find; usePostbacks turns postbacks on by itself', () => {
    const { h, hits } = host();
    const s = createAppMeasurement('rs1', h);
    s.loadModule('AudienceManagement');
    expect(s.AudienceManagement).toEqual({});
    s.t();
    s.usePostbacks = true;
    s.t();
    s.usePostbacks = false;
    s.t();
    expect(hits.map((x) => x.postbacks)).toEqual([undefined, { index: 0 }, undefined]);
  });
});

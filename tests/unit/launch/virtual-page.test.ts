/**
 * The page as worker custom code sees it (src/launch/virtual-page.ts), and the page-side `s`
 * that records what a block needing the page does (src/launch/appmeasurement/page-tracker.ts).
 */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { installPageAnalytics } from '../../../src/launch/appmeasurement/page-tracker.ts';
import { elementOf, pageGlobalElement, runBlock, virtualPage, type WorkerBlock } from '../../../src/launch/virtual-page.ts';

function ctx(o: { url?: string; values?: Record<string, unknown>; event?: object } = {}) {
  const writes: Array<[string, string, object]> = [];
  const jar: Record<string, string> = { 'AMCV_ORG%40AdobeOrg': '1|MCMID|m-1|MCAID|a-2', other: 'x' };
  const c = {
    rule: { name: 'r' },
    settings: { environment: 'production', dataLayer: 'digitalData' },
    snapshot: { url: o.url ?? 'https://shop.example.com:8443/a/b?q=1#h', referrer: 'https://ref.example/', viewport: { width: 800, height: 600 }, dataLayer: { page: { name: 'home' } }, time: 0 },
    event: o.event ?? { type: 'direct-call', id: 'x' },
    cookies: { get: (n: string) => jar[n], all: () => ({ ...jar }), set: (n: string, v: string, op: object) => void writes.push([n, v, op]) },
    session: { get: () => null, set: () => {} },
    get: (n: string) => o.values?.[n],
    services: { analytics: {}, visitor: {}, pageInfo: { userAgent: 'UA', language: 'fr-CA', screen: { width: 1, height: 2, colorDepth: 24 }, cookieDomain: '', cookiesEnabled: true } },
    log: () => {},
  };
  return { c: c as never, writes };
}

describe('the virtual page', () => {
  it('serves location, document, navigator, screen and the viewport from the snapshot and the page facts', () => {
    const { c } = ctx();
    const w = virtualPage(c);
    expect([w.location.href, w.location.hostname, w.location.pathname, w.location.search, w.location.hash, w.location.port, w.document.location.protocol]).toEqual(['https://shop.example.com:8443/a/b?q=1#h', 'shop.example.com', '/a/b', '?q=1', '#h', '8443', 'https:']);
    expect([w.document.URL, w.document.referrer, w.document.domain, w.document.cookie]).toEqual(['https://shop.example.com:8443/a/b?q=1#h', 'https://ref.example/', 'shop.example.com', 'AMCV_ORG%40AdobeOrg=1|MCMID|m-1|MCAID|a-2; other=x']);
    expect([w.navigator.userAgent, w.navigator.language, w.screen.width, w.innerWidth, w.innerHeight, w.window === w, w.self === w]).toEqual(['UA', 'fr-CA', 1, 800, 600, true, true]);
    expect(w.digitalData).toEqual({ page: { name: 'home' } });
  });
  it('writes document.cookie through the jar, with its attributes', () => {
    const { c, writes } = ctx();
    virtualPage(c).document.cookie = 'a=1; path=/x; domain=.example.com; max-age=60; secure';
    expect(writes).toEqual([['a', '1', { path: '/x', domain: '.example.com', expires: expect.any(Number), secure: true }]]);
  });
  it('answers Visitor.getInstance(org) getters from the AMCV cookie, and gives page globals read as data from their data elements', () => {
    const { c } = ctx({ values: { [pageGlobalElement('eventData')]: { search: { type: 'quick' } } } });
    const w = virtualPage(c);
    const v = w.Visitor.getInstance('ORG');
    expect([v.getMarketingCloudVisitorID(), v.getAnalyticsVisitorID(), v.getAudienceManagerBlob()]).toEqual(['m-1', 'a-2', '']);
    w.__pageGlobals(['eventData']);
    expect(w.eventData.search.type).toBe('quick');
  });
  it("keeps a rule's window between events (what a block assigns to it), and runs a block with the element as this", () => {
    const first = ctx({ event: { type: 'trigger', element: { tagName: 'A', id: 'buy', className: 'btn', href: 'https://x/', text: 'Buy', attributes: { 'data-x': '7' } } } });
    const block: WorkerBlock = (w) =>
      function (this: unknown, e: { $type: string }) {
        const el = this as { getAttribute(n: string): string; id: string };
        w.seen = `${el.getAttribute('data-x')}:${el.id}:${e.$type}`;
        return w.seen;
      };
    expect(runBlock(block, first.c, 'element', [{ $type: 'core.click' }])).toBe('7:buy:core.click');
    expect(virtualPage(first.c).seen).toBe('7:buy:core.click');
    expect(elementOf(undefined)).toBeUndefined();
  });
});

describe('the page-side s', () => {
  const w = globalThis as unknown as Record<string, any>;
  afterEach(() => {
    delete w.window;
    delete w.document;
    delete w.__offtagAnalytics;
    delete w._satellite;
  });
  it("records what a step's block does to s, from the worker's variables sent with the step, and what a customSetup defined stays for the next step", () => {
    w.window = w;
    w.document = { cookie: '' };
    w._satellite = {};
    installPageAnalytics();
    const api = w.__offtagAnalytics;
    const block = function (this: unknown, e: { $type: string }, s: Record<string, any>) {
      s.eVar1 = undefined;
      s.eVar2 = s.eVar1 + e.$type;
      s.linkTrackVars = s.apl(s.linkTrackVars, 'eVar2');
      s.contextData.k = 'w';
      s.tl(true, 'o', 'n');
      s.prop1 = 'after';
      delete s.pageName;
    };
    const throws = () => {
      throw new TypeError('no');
    };
    api.define(
      function (s: Record<string, any>) {
        s.apl = (l: string, v: string) => (l ? `${l},${v}` : v);
        s.usePlugins = true;
        s.list = ['kept on the page'];
        s.doPlugins = (t: Record<string, any>) => {
          t.prop9 = `${t.pageName}:${t.linkType}:${t.eVar5}:${t.list[0]}`;
        };
      },
      [block, throws],
    );
    expect(api.step({ analytics: 'setup', vars: { pageName: 'home' }, global: true }, {}).ops).toEqual([['set', 'usePlugins', true]]);
    expect(w.s).toBe(api.s);
    const record = api.step({ analytics: 'block', block: 0, vars: { pageName: 'home', eVar1: 'a', 'contextData.k': 'v' } }, { $type: 'core.direct-call' });
    expect(record).toEqual({
      ops: [
        ['set', 'eVar1', undefined],
        ['set', 'eVar2', 'undefinedcore.direct-call'],
        ['set', 'linkTrackVars', 'eVar2'],
        ['set', 'contextData.k', 'w'],
        ['tl', 'o', 'n'],
        ['set', 'prop1', 'after'],
        ['set', 'pageName', undefined],
      ],
    });
    // doPlugins reads what the worker's s holds at the beacon (eVar5, set by its rule just before; usePlugins, replayed from the setup), not what the page s held at the last step.
    expect(api.step({ analytics: 'plugins', vars: { pageName: 'cart', eVar5: 'set by the rule', usePlugins: true }, linkType: 'o', linkName: 'n' }, {}).ops).toEqual([['set', 'prop9', 'cart:o:set by the rule:kept on the page']]);
    expect(api.s.eVar2).toBeUndefined();
    expect(api.step({ analytics: 'block', block: 1, vars: {} }, { $type: 'core.dom-ready' })).toEqual({ ops: [], error: 'TypeError: no' });
    expect(api.step({ analytics: 'block', block: 7, vars: {} }, {}).error).toMatch(/no Analytics block 7/);
  });
});

describe("the page-side s: AppMeasurement's helpers, the Visitor facade, notify", () => {
  const w = globalThis as unknown as Record<string, any>;
  afterEach(() => {
    for (const k of ['window', 'document', '__offtagAnalytics', '_satellite', 'Visitor', 'offtag', 's']) delete w[k];
    Object.defineProperty(w, 'location', { value: undefined, configurable: true, writable: true });
  });
  /** A page whose document.cookie keeps name=value pairs as a browser does (attributes dropped). */
  function page(cookies: Record<string, string> = {}) {
    const jar = { ...cookies };
    w.window = w;
    w.document = {
      get cookie() {
        return Object.entries(jar).map(([k, v]) => `${k}=${v}`).join('; ');
      },
      set cookie(text: string) {
        const [pair = ''] = text.split(';');
        const eq = pair.indexOf('=');
        jar[pair.slice(0, eq)] = pair.slice(eq + 1);
      },
    };
    Object.defineProperty(w, 'location', { value: { href: 'https://shop.example/p?cid=a+b&x.y=1' }, configurable: true, writable: true });
    return jar;
  }
  it('cookies, escape and the query parameter as AppMeasurement does them', () => {
    const jar = page({ 'a%20b': 'x%20y', blank: '%5B%5BB%5D%5D', bad: '%E0%A4%A' });
    installPageAnalytics();
    const s = w.__offtagAnalytics.s;
    expect([s.c_r('a b'), s.Util.cookieRead('blank'), s.c_r('missing'), s.c_r('bad')]).toEqual(['x y', '', '', unescape('%E0%A4%A')]);
    expect(s.c_w('n', "it's (1)!", 1)).toBe(true);
    expect(jar.n).toBe('it%27s%20%281%29%21');
    expect(s.c_w('gone', '', 1)).toBe(true);
    expect(jar.gone).toBe('%5B%5BB%5D%5D');
    expect([s.escape(''), s.escape('~*'), s.unescape(''), s.unescape('a+b'), s.Util.urlEncode('a b'), s.Util.urlDecode('a%20b')]).toEqual(['', '%7E%2A', '', 'a b', 'a%20b', 'a b']);
    expect([s.Util.getQueryParam('cid'), s.Util.getQueryParam('x.y'), s.Util.getQueryParam('xxy'), s.Util.getQueryParam('q', 'https://o.example/?q=1#q=2'), s.Util.getQueryParam('q', 'https://o.example/')]).toEqual(['a b', '1', '', '1', '']);
  });
  it("Visitor.getInstance answers from the AMCV cookie and hands setCustomerIDs to offtag.js; a page's own Visitor is kept", async () => {
    page({ 'AMCV_ORG%40AdobeOrg': 'MCMID|m-1|MCAID|NONE|MCAAMLH|9|MCAAMB|' });
    const asked: unknown[] = [];
    w.offtag = { ask: (m: unknown) => (asked.push(m), Promise.reject(new Error('x'))) };
    installPageAnalytics();
    const v = w.Visitor.getInstance('ORG');
    let called: unknown;
    expect([v.marketingCloudOrgID, v.getMarketingCloudVisitorID((x: string) => (called = x)), v.getAnalyticsVisitorID(), v.getLocationHint(), v.getAudienceManagerLocationHint(), v.getAudienceManagerBlob(), v.isAllowed()]).toEqual(['ORG@AdobeOrg', 'm-1', 'NONE', '9', '9', '', true]);
    expect(called).toBe('m-1');
    expect(w.Visitor.getInstance('OTHER').getMarketingCloudVisitorID()).toBe('');
    v.setCustomerIDs({ crm: 'u' }, true);
    expect(asked).toEqual([{ type: 'service-call', service: 'visitor', method: 'setCustomerIDs', args: [{ crm: 'u' }, true] }]);
    delete w.offtag;
    v.setCustomerIDs({ crm: 'u' });
    delete w.__offtagAnalytics;
    const own = { getInstance: () => 'own' };
    w.Visitor = own;
    installPageAnalytics();
    expect(w.Visitor).toBe(own);
  });
  it("Visitor's getSupplementalDataID answers at once, as VisitorAPI does, and hands offtag.js the id each consumer took", () => {
    page();
    const asked: Array<{ args: unknown[] }> = [];
    w.offtag = { ask: (m: { args: unknown[] }) => (asked.push(m), Promise.resolve({})) };
    installPageAnalytics();
    const v = w.Visitor.getInstance('ORG');
    // Without one yet, a consumer that may not make one gets none.
    expect(v.getSupplementalDataID('AppMeasurement:0', true)).toBe('');
    const a = v.getSupplementalDataID('mbox:target-global-mbox:0');
    expect(a).toMatch(/^[0-9A-F]{16}-[0-9A-F]{16}$/);
    // Another consumer shares it; the same consumer again starts the next one; another org has its own.
    expect(w.Visitor.getInstance('ORG').getSupplementalDataID('AppMeasurement:0', true)).toBe(a);
    const b = v.getSupplementalDataID('mbox:target-global-mbox:0');
    expect(b).not.toBe(a);
    expect(w.Visitor.getInstance('OTHER').getSupplementalDataID('x', true)).toBe('');
    expect(asked.map((m) => m.args)).toEqual([
      ['mbox:target-global-mbox:0', true, a],
      ['AppMeasurement:0', true, a],
      ['mbox:target-global-mbox:0', true, b],
    ]);
  });
  it("_satellite.notify, which Analytics code still calls, logs at turbine's levels; a page's own notify is kept", () => {
    page();
    const said: string[] = [];
    const logger = { log: (m: string) => said.push(`log ${m}`), warn: (m: string) => said.push(`warn ${m}`), error: (m: string) => said.push(`error ${m}`) };
    w._satellite = { logger };
    installPageAnalytics();
    w._satellite.notify('a', 5);
    w._satellite.notify('b', 4);
    w._satellite.notify('c', 1);
    w._satellite.logger = undefined;
    w._satellite.notify('d');
    expect(said).toEqual(['error a', 'warn b', 'log c']);
    delete w.__offtagAnalytics;
    const own = () => 'own';
    w._satellite = { notify: own };
    installPageAnalytics();
    expect(w._satellite.notify).toBe(own);
  });
});

describe('the page-side s as the import writes it', () => {
  it('is source text offtag.js can run: as the import compiles it (tsx), no function of it is wrapped in a name helper offtag.js lacks', () => {
    const source = execFileSync(process.execPath, ['--import', 'tsx', '-e', "import('./src/launch/appmeasurement/page-tracker.ts').then((m) => process.stdout.write(String(m.installPageAnalytics)))"], { encoding: 'utf8' });
    expect(source).toMatch(/__offtagAnalytics/);
    expect(source).not.toMatch(/__name\(/);
    // A child process that loads tsx: seconds on a loaded machine.
  }, 60_000);
});

describe("worker custom code's _satellite and sessionStorage", () => {
  it('_satellite reads data elements and cookies (decoded), writes and removes cookies, logs with turbine\'s prefix, and tells the environment', () => {
    const logs: string[] = [];
    const removed: string[] = [];
    const { c, writes } = ctx({ values: { de: 'value' } });
    Object.assign((c as { cookies: object }).cookies, { remove: (n: string) => void removed.push(n), get: (n: string) => (n === 'enc' ? 'a%20b' : undefined) });
    Object.assign(c as object, { log: (l: string, m: string) => logs.push(`${l}: ${m}`) });
    const w = virtualPage(c);
    const sat = w._satellite;
    expect([sat.getVar('de'), sat.cookie.get('enc'), sat.cookie.get('none'), sat.environment.stage, sat.buildInfo.environment]).toEqual(['value', 'a b', undefined, 'production', 'production']);
    const before = Date.now();
    sat.cookie.set('k', 'v w', { expires: 2, domain: '.shop.example.com', path: '/p' });
    sat.cookie.set('plain', 1);
    sat.cookie.remove('gone');
    expect(writes[0]!.slice(0, 2)).toEqual(['k', 'v%20w']);
    expect(writes[0]![2]).toMatchObject({ domain: '.shop.example.com', path: '/p' });
    const expires = (writes[0]![2] as { expires: number }).expires;
    expect(expires - before).toBeGreaterThanOrEqual(2 * 86_400_000);
    expect(expires - before).toBeLessThan(2 * 86_400_000 + 60_000);
    expect(writes[1]).toEqual(['plain', '1', {}]);
    expect(removed).toEqual(['gone']);
    sat.logger.log('a', { n: 1 });
    sat.logger.info('i');
    sat.logger.warn('w');
    sat.logger.error('e');
    sat.logger.debug('d');
    sat.notify('n5', 5);
    sat.notify('n4', 4);
    sat.notify('n1');
    const P = '\uD83D\uDE80 [Custom Script]';
    expect(logs).toEqual([`log: ${P} a {"n":1}`, `info: ${P} i`, `warn: ${P} w`, `error: ${P} e`, `debug: ${P} d`, `error: ${P} n5`, `warn: ${P} n4`, `log: ${P} n1`]);
  });
  it('sessionStorage reads and writes the engine\'s session store; removeItem clears the key', () => {
    const { c } = ctx();
    const store: Record<string, string | null> = { a: '1' };
    Object.assign(c as object, { session: { get: (k: string) => store[k] ?? null, set: (k: string, v: string | null) => void (store[k] = v) } });
    const s = virtualPage(c).sessionStorage;
    s.setItem('n', 5);
    expect([s.getItem('a'), s.getItem('n'), s.getItem('x')]).toEqual(['1', '5', null]);
    s.removeItem('a');
    expect(store.a).toBeNull();
  });
  it('document.cookie: expires and max-age, a value without a name ignored, a bad date ignored', () => {
    const { c, writes } = ctx();
    const doc = virtualPage(c).document;
    doc.cookie = 'a=1; expires=Wed, 01 Jan 2031 00:00:00 GMT; Path=/; Domain=x.example';
    doc.cookie = 'b = 2 ; expires=not a date';
    doc.cookie = 'novalue';
    doc.cookie = 'c=3; max-age=; expires=Wed, 01 Jan 2031 00:00:00 GMT; max-age=10';
    expect(writes[0]).toEqual(['a', '1', { expires: Date.UTC(2031, 0, 1), path: '/', domain: 'x.example' }]);
    expect(writes[1]).toEqual(['b', '2', {}]);
    expect(writes).toHaveLength(3);
    expect(writes[2]![0]).toBe('c');
    expect((writes[2]![2] as { expires: number }).expires).not.toBe(Date.UTC(2031, 0, 1));
  });
});

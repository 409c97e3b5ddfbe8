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
  const jar: Record<string, string> = { AMCV_ORG: '1|MCMID|m-1|MCAID|a-2', other: 'x' };
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
    expect([w.document.URL, w.document.referrer, w.document.domain, w.document.cookie]).toEqual(['https://shop.example.com:8443/a/b?q=1#h', 'https://ref.example/', 'shop.example.com', 'AMCV_ORG=1|MCMID|m-1|MCAID|a-2; other=x']);
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

describe('the page-side s as the import writes it', () => {
  it('is source text offtag.js can run: as the import compiles it (tsx), no function of it is wrapped in a name helper offtag.js lacks', () => {
    const source = execFileSync(process.execPath, ['--import', 'tsx', '-e', "import('./src/launch/appmeasurement/page-tracker.ts').then((m) => process.stdout.write(String(m.installPageAnalytics)))"], { encoding: 'utf8' });
    expect(source).toMatch(/__offtagAnalytics/);
    expect(source).not.toMatch(/__name\(/);
  });
});

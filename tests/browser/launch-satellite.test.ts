/**
 * An imported Launch container's `_satellite` (src/page-side/satellite.ts) in Chromium:
 * turbine's getVar (page reads on the call, finished as turbine finishes them; worker values; setVar
 * values with dotted paths), js-cookie 2.2.1's cookie, the logger and notify as turbine prints them,
 * setDebug, pageBottom, getVisitorId and buildInfo.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent, SnapshotProblem } from '../../src/protocol.ts';
import type { ApplyHooks } from '../../src/main-bridge/apply-effects.ts';
import { launchSatellite, type LaunchFacts } from '../../src/page-side/satellite.ts';
import { cookieApi } from '../../src/page-side/reactor-modules.ts';
import { pageSide } from '../../src/page-side/index.ts';
import { installSatellite } from '../../src/main-bridge/satellite.ts';
import { clearCookies } from './clear-cookies.ts';

/** js-cookie 2 as turbine's `_satellite.cookie` and the module host's `@adobe/reactor-cookie` give it. */
const launchCookie = cookieApi();

const DEBUG = 'com.adobe.reactor.debug';
const FACTS: LaunchFacts = {
  buildInfo: { turbineVersion: '28.1.0', turbineBuildDate: '2026-01-20T10:00:00Z', buildDate: '2026-01-21T09:30:00Z', minified: true },
  property: { name: 'Shop', id: 'PR1' },
  company: { orgId: 'ORG@AdobeOrg' },
  names: ['page type', 'title', 'heading', 'missing', 'kept', 'stored', 'throws'],
  reads: {
    title: [null, 0, 1, 0],
    heading: [null, 1, 0, 0],
    missing: ['fallback', 0, 0, 0],
    kept: [null, 0, 0, 'pageview'],
    stored: [null, 0, 0, 'session'],
    throws: ['fallback', 0, 0, 0],
  },
};

/** `_satellite` as a page script sees it. */
type Satellite = Record<string, (...a: unknown[]) => unknown> & { logger: Record<string, (...a: unknown[]) => void>; buildInfo: Record<string, unknown>; property: unknown; company: unknown };

/** What the page reads give, by data element (a function throws: the read threw). */
let page: Record<string, unknown>;
let sent: EngineEvent[];
let reads: Array<string | undefined>;

function make(vars: Record<string, unknown> = {}, facts: Partial<LaunchFacts> = {}) {
  sent = [];
  reads = [];
  const hooks: ApplyHooks = {
    base: '/',
    vars: { 'page type': 'Home', title: 'stale title', ...vars },
    frameMessage: () => {},
    reply: () => {},
  };
  const send = (e: EngineEvent) => (sent.push(e), 1);
  hooks.send = send;
  const readOne = (key: string, problems: SnapshotProblem[]) => {
    reads.push(key);
    const d: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(page)) {
      if (k !== key) continue;
      if (typeof v === 'function') problems.push({ kind: 'page', g: 'd', k, detail: 'TypeError: no' });
      else d[k] = v;
    }
    return { d };
  };
  const s = installSatellite(send, async () => ({}), hooks, 'production', () => {}) as unknown as Satellite;
  launchSatellite(s, { ...FACTS, ...facts }, hooks, readOne);
  return s;
}

beforeEach(() => {
  page = { title: 'Gloves | Shop', heading: '  Nitrile \n Gloves ', missing: undefined, kept: 'first', stored: 'en', throws: () => 0 };
  localStorage.removeItem(DEBUG);
  sessionStorage.clear();
});
afterEach(() => {
  vi.restoreAllMocks();
  clearCookies();
});

describe('getVar', () => {
  it('a data element read on the page is read now (that one only) and finished: lower case, clean text, the default for null or undefined', () => {
    const s = make();
    expect(s.getVar('title')).toBe('gloves | shop');
    page.title = 'Changed';
    expect(s.getVar('title')).toBe('changed');
    expect(s.getVar('heading')).toBe('Nitrile Gloves');
    expect(s.getVar('missing')).toBe('fallback');
    expect(reads).toEqual(['title', 'title', 'heading', 'missing']);
  });

  it("the page side's reads, given a data element's name, read that element only (and no condition)", () => {
    const done: string[] = [];
    const code = (name: string) => () => (done.push(name), name);
    const side = pageSide({ elements: { a: ['f', code('a')], b: ['f', code('b')] }, conditions: [['r#0', 1, ['f', code('c')]]] });
    expect(side.read({ type: 'get-var', name: 'b' }, [], undefined, 0, 'b')).toEqual({ d: { b: 'b' } });
    expect(done).toEqual(['b']);
    expect(side.read({ type: 'dom-ready' }, [], undefined, 1)).toEqual({ d: { a: 'a', b: 'b' }, c: { 'r#0': 'c' } });
  });

  it("during an event's reads, a data element that asks getVar for another page data element gets it read then, as turbine computes it on the call; a cycle answers the worker's value", () => {
    const facts: LaunchFacts = { ...FACTS, names: ['track', 'hierarchy', 'loop'], reads: { track: [null, 0, 1, 0], hierarchy: [null, 0, 0, 0], loop: ['loop default', 0, 0, 0] } };
    const sat = () => (window as unknown as { _satellite: Satellite })._satellite;
    const side = pageSide({
      elements: {
        hierarchy: ['f', () => 'shop:' + String(sat().getVar('track'))],
        track: ['f', () => 'Product Detail'],
        // Asks for itself: turbine would not end; the page answers the worker's value instead.
        loop: ['f', () => 'again:' + String(sat().getVar('loop'))],
      },
      launch: facts,
    });
    const hooks: ApplyHooks = { base: '/', vars: { loop: 'from the worker' }, frameMessage: () => {}, reply: () => {} };
    const s = installSatellite(() => 1, async () => ({}), hooks, 'production', () => {}) as unknown as Satellite;
    side.launch(s, hooks);
    const before = (window as unknown as { _satellite?: unknown })._satellite;
    (window as unknown as { _satellite: unknown })._satellite = s;
    try {
      // No worker value for "track" yet (the page's first event): it is read on the call, finished (lower case).
      expect(side.read({ type: 'page-bottom' }, [], undefined, 1)).toEqual({ d: { hierarchy: 'shop:product detail', track: 'Product Detail', loop: 'again:from the worker' } });
    } finally {
      (window as unknown as { _satellite?: unknown })._satellite = before;
    }
  });

  it("the page side makes offtag.js's _satellite turbine's only for an imported container (its page data's `launch`)", () => {
    const hooks = { vars: {}, send: () => 1 };
    const plain: Record<string, unknown> = {};
    pageSide({}).launch(plain, hooks);
    expect(plain.pageBottom).toBeUndefined();
    const launch: Record<string, unknown> = {};
    pageSide({ elements: { title: ['t'] }, launch: FACTS }).launch(launch, hooks);
    expect(typeof launch.pageBottom).toBe('function');
    expect((launch.getVar as (n: string) => unknown)('title')).toBe(document.title.toLowerCase());
  });

  it('a read that throws answers undefined, as turbine answers a module that throws (no default)', () => {
    expect(make().getVar('throws')).toBeUndefined();
  });

  it("storage duration: the page view's value, and the session's in sessionStorage under turbine's key, answer while the source is missing", () => {
    const s = make();
    expect(s.getVar('kept')).toBe('first');
    expect(s.getVar('stored')).toBe('en');
    expect(sessionStorage.getItem('com.adobe.reactor.dataElements.stored')).toBe('"en"');
    page.kept = null;
    page.stored = undefined;
    expect(s.getVar('kept')).toBe('first');
    expect(s.getVar('stored')).toBe('en');
  });

  it("storage duration pageview: a value the worker kept (a rule read it while the source was there) answers once the source is gone, as turbine's one store", () => {
    page.kept = undefined;
    expect(make({ kept: 'seen by a rule' }).getVar('kept')).toBe('seen by a rule');
    expect(make().getVar('kept')).toBeNull();
  });

  it("another data element answers the worker's latest value; a name that is none reads setVar's, with dotted paths; this., event., target. need a rule's event", () => {
    const s = make();
    expect(s.getVar('page type')).toBe('Home');
    s.setVar('cart', { total: 3, items: [{ sku: 'A' }] });
    s.setVar({ 'page type': 'Other', plan: 'pro' });
    expect(s.getVar('cart.total')).toBe(3);
    expect(s.getVar('cart.items.0.sku')).toBe('A');
    expect(s.getVar('cart.nothing.deeper')).toBeUndefined();
    expect(s.getVar('plan')).toBe('pro');
    // A data element of that name wins, as in turbine.
    expect(s.getVar('page type')).toBe('Home');
    expect(s.getVar('this.id')).toBeUndefined();
    expect(s.getVar('event.detail')).toBeUndefined();
    expect(sent).toEqual([
      { type: 'set-var', values: { cart: { total: 3, items: [{ sku: 'A' }] } } },
      { type: 'set-var', values: { 'page type': 'Other', plan: 'pro' } },
    ]);
  });

  it("setVar takes names as turbine's: any name as text, an object's keys inherited ones included, null nothing", () => {
    const s = make();
    s.setVar(7, 'seven');
    s.setVar(Object.create({ inherited: 'yes' }, { own: { value: 'mine', enumerable: true } }));
    s.setVar(null, 'x');
    expect([s.getVar('7'), s.getVar('inherited'), s.getVar('own'), s.getVar('null')]).toEqual(['seven', 'yes', 'mine', undefined]);
    expect(sent).toEqual([
      { type: 'set-var', values: { 7: 'seven' } },
      { type: 'set-var', values: { own: 'mine', inherited: 'yes' } },
    ]);
  });
});

describe('cookie (js-cookie 2.2.1)', () => {
  /** What `set` assigns to document.cookie. */
  function written(f: () => void): string[] {
    const out: string[] = [];
    Object.defineProperty(document, 'cookie', { configurable: true, get: () => '', set: (v: string) => void out.push(v) });
    try {
      f();
    } finally {
      delete (document as { cookie?: string }).cookie;
    }
    return out;
  }

  it("set: the value encoded but for the characters js-cookie keeps, objects as JSON, path / by default, expires in days, flags without a value; remove: expired", () => {
    vi.spyOn(Date, 'now').mockReturnValue(Date.UTC(2026, 0, 1));
    const out = written(() => {
      launchCookie.set('a b(1)', 'x;y=z/@:', { expires: 1, domain: 'example.com', secure: true });
      launchCookie.set('obj', { n: 1 });
      launchCookie.remove('gone', { path: '/x' });
    });
    expect(out[0]).toBe('a%20b%281%29=x%3By=z/@:; path=/; expires=Fri, 02 Jan 2026 00:00:00 GMT; domain=example.com; secure');
    expect(out[1]).toBe('obj={%22n%22:1}; path=/');
    expect(out[2]).toMatch(/^gone=; path=\/x; expires=Wed, 31 Dec 2025 00:00:00 GMT$/);
  });

  it('get: one decoded value (quotes stripped), or all of them', () => {
    document.cookie = 'plain=a%20b; path=/';
    document.cookie = 'quoted="q"; path=/';
    expect(launchCookie.get('plain')).toBe('a b');
    expect(launchCookie.get('quoted')).toBe('q');
    expect(launchCookie.get('none')).toBeUndefined();
    expect(launchCookie.get()).toMatchObject({ plain: 'a b', quoted: 'q' });
  });

  it('get: what is written between two reads is seen; a name set twice answers the first as js-cookie does, get() the last, a fresh object each time', () => {
    const here = location.pathname.replace(/[^/]*$/, '');
    document.cookie = `dup=deep; path=${here}`;
    document.cookie = 'dup=root; path=/';
    document.cookie = 'later=1; path=/';
    // The longer path comes first in document.cookie.
    expect(launchCookie.get('dup')).toBe(here === '/' ? 'root' : 'deep');
    expect(launchCookie.get('later')).toBe('1');
    const all = launchCookie.get() as Record<string, string>;
    expect(all.dup).toBe('root');
    all.later = 'changed by a caller';
    expect(launchCookie.get()).toMatchObject({ later: '1' });
    document.cookie = 'later=2; path=/';
    expect(launchCookie.get('later')).toBe('2');
    document.cookie = 'later=; path=/; expires=Thu, 01 Jan 1970 00:00:01 GMT';
    expect(launchCookie.get('later')).toBeUndefined();
    // A name that is no cookie reads what js-cookie's plain object has there.
    expect(launchCookie.get('toString')).toBe(Object.prototype.toString);
    document.cookie = `dup=; path=${here}; expires=Thu, 01 Jan 1970 00:00:01 GMT`;
  });
});

describe('logger, notify, setDebug', () => {
  it("the logger prints only with debug on, after turbine's rocket and [Custom Script]; notify's deprecation always", () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const s = make();
    s.logger.error('quiet');
    expect(error).not.toHaveBeenCalled();
    s.notify('hello', 5);
    expect(warn).toHaveBeenCalledWith('\u{1F680}', '_satellite.notify is deprecated. Please use the `_satellite.logger` API.');
    expect(error).not.toHaveBeenCalled();
    s.setDebug(true);
    expect(localStorage.getItem(DEBUG)).toBe('true');
    s.logger.log('a', 1);
    s.notify('loud', 4);
    expect(log).toHaveBeenCalledWith('\u{1F680}', '[Custom Script]', 'a', 1);
    expect(warn).toHaveBeenLastCalledWith('\u{1F680}', '[Custom Script]', 'loud');
  });

  it('the deprecated cookie calls say so, then do it; buildInfo.environment says so, and is the stage', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const s = make();
    s.setCookie('dep', 'v', 2);
    expect(warn).toHaveBeenCalledWith('\u{1F680}', '_satellite.setCookie is deprecated. Please use _satellite.cookie.set("dep", "v", { expires: 2 }).');
    expect(s.readCookie('dep')).toBe('v');
    s.removeCookie('dep');
    expect(launchCookie.get('dep')).toBeUndefined();
    const info = s.buildInfo;
    expect({ ...info, environment: undefined }).toMatchObject({ turbineVersion: '28.1.0', buildDate: '2026-01-21T09:30:00Z', minified: true });
    expect(info.environment).toBe('production');
    expect(warn).toHaveBeenLastCalledWith('\u{1F680}', 'container.buildInfo.environment is deprecated.Please use `container.environment.stage` instead');
    expect(s.property).toEqual({ name: 'Shop', id: 'PR1' });
    expect(s.company).toEqual({ orgId: 'ORG@AdobeOrg' });
  });
});

describe('pageBottom, getVisitorId', () => {
  it('pageBottom sends Page Bottom once, while the page is parsed; after DOMContentLoaded it has fired already', () => {
    const state = vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    let s = make();
    s.pageBottom();
    s.pageBottom();
    expect(sent).toEqual([{ type: 'page-bottom' }]);
    state.mockReturnValue('interactive');
    s = make();
    s.pageBottom();
    expect(sent).toEqual([]);
  });

  it('getVisitorId: null without the Experience Cloud ID Service extension, as turbine\'s', () => {
    expect(make().getVisitorId()).toBeNull();
  });

  it("getVisitorId: the extension's instance; its ID getters answer at once from the visitor's AMCV cookie, as VisitorAPI answers an ID it knows, and call a callback with it", () => {
    const s = make({}, { visitor: 'ORG@AdobeOrg' });
    const v = s.getVisitorId() as Record<string, (...a: unknown[]) => unknown>;
    // Not known yet: "" (VisitorAPI's answer before its ID call), and the callback waits.
    const called: unknown[] = [];
    expect([v.marketingCloudOrgID, v.getMarketingCloudVisitorID!((x: unknown) => called.push(x))]).toEqual(['ORG@AdobeOrg', '']);
    document.cookie = `AMCV_ORG%40AdobeOrg=${encodeURIComponent('179643557|MCIDTS|20000|MCMID|41284960711373302781577314566843810362|MCAAMLH-1800000000|7|MCAAMB-1800000000|blob|MCAID|NONE|vVersion|5.5.0')}; path=/`;
    expect(v.getMarketingCloudVisitorID!((x: unknown) => called.push(x))).toBe('41284960711373302781577314566843810362');
    expect([v.getAudienceManagerLocationHint!(), v.getAudienceManagerBlob!(), v.getAnalyticsVisitorID!()]).toEqual(['7', 'blob', 'NONE']);
    expect(called).toEqual(['41284960711373302781577314566843810362']);
    // The same instance each time, as the extension's.
    expect(s.getVisitorId()).toBe(v);
  });

  it("getVisitorId with the Visitor facade on the page: an ID not known yet is the facade's to call back with; the other methods are the facade's", () => {
    const asked: string[] = [];
    const facade = { getMarketingCloudVisitorID: (cb: (id: string) => void) => (asked.push('mid'), cb('later')), setCustomerIDs: () => 'facade' };
    (window as unknown as { Visitor?: unknown }).Visitor = { getInstance: (org: string) => (org === 'ORG@AdobeOrg' ? facade : null) };
    try {
      const v = make({}, { visitor: 'ORG@AdobeOrg' }).getVisitorId() as Record<string, (...a: unknown[]) => unknown>;
      const called: unknown[] = [];
      expect(v.getMarketingCloudVisitorID!((x: unknown) => called.push(x))).toBe('');
      expect([asked, called, v.setCustomerIDs!()]).toEqual([['mid'], ['later'], 'facade']);
    } finally {
      delete (window as unknown as { Visitor?: unknown }).Visitor;
    }
  });
});

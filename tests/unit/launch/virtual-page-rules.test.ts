/**
 * The virtual page's edges: document.cookie attributes as a browser reads them (RFC 6265: names
 * case-insensitive, values trimmed, an empty Max-Age ignored, Max-Age over Expires), an element as
 * `this` (its `href` property absolute, attributes by any case), VisitorAPI's getters with their
 * callback, the facts of a page whose facts the event lacks, and one window shared by a data
 * element and the rules of the same engine.
 *
 * Mutants of virtual-page.ts no input can tell apart (left Survived on purpose):
 * - writeCookie: `eq < 0` → `<= 0` (both) and → false for the value: a pair without a name is never
 *   written, so what its value would be does not matter; `i < 0` → `<= 0` for an attribute: `=x` names
 *   no attribute either way.
 * - location: `k === 'href'` → false: the snapshot URL is location.href, which URL parsing gives back unchanged.
 * - the property descriptors' `configurable` and `enumerable` flags of window's own properties.
 * - virtualPage: `key` → true / false: the engine's settings object is always there, and the rule's
 *   window is found through it when not under its own key.
 * - virtualPage: `'page' in ctx && !('services' in ctx)` → `||` and `'services'` → '': a rule's context has
 *   both, and its services' pageInfo is its `page` (launchServices makes it so); `!w && services` → `||`:
 *   the window under the settings object is the one under the services as soon as both are set.
 */
import { describe, expect, it } from 'vitest';
import { elementOf, runBlock, virtualPage, type WorkerBlock } from '../../../src/launch/virtual-page.ts';

type Page = { userAgent: string; language: string; screen: { width: number; height: number; colorDepth: number }; cookiesEnabled: boolean } | undefined;

/** A rule's context (with services) or, with `dataElement`, a data element's (with `page`, no services). */
function ctx(o: { settings?: object; page?: Page; dataElement?: boolean; url?: string; viewport?: object | null; jar?: Record<string, string>; visitor?: object } = {}) {
  const writes: Array<[string, string, object]> = [];
  const jar = o.jar ?? {};
  const base = {
    rule: { name: 'r' },
    settings: o.settings ?? { environment: 'production', dataLayer: 'digitalData' },
    snapshot: { url: o.url ?? 'https://shop.example.com/a?q=1', referrer: '', ...(o.viewport === null ? {} : { viewport: o.viewport ?? { width: 800, height: 600 } }), dataLayer: {}, time: 0 },
    event: { type: 'direct-call', id: 'x' },
    cookies: { get: (n: string) => jar[n], all: () => ({ ...jar }), set: (n: string, v: string, op: object) => void writes.push([n, v, op]) },
    session: { get: () => null, set: () => {} },
    get: () => undefined,
    log: () => {},
  };
  const c = o.dataElement ? { ...base, page: o.page } : { ...base, services: { analytics: {}, visitor: o.visitor ?? {}, ...(o.page ? { pageInfo: o.page } : {}) } };
  return { c: c as never, writes };
}

const page = (language: string, colorDepth = 30): Page => ({ userAgent: `UA ${language}`, language, screen: { width: 1280, height: 720, colorDepth }, cookiesEnabled: false });

describe('document.cookie = … as a browser reads the attributes', () => {
  it('Max-Age: seconds from now, over Expires; an empty Max-Age is ignored', () => {
    const { c, writes } = ctx();
    const doc = virtualPage(c).document;
    const before = Date.now();
    doc.cookie = 'a=1; Max-Age=60';
    doc.cookie = 'b=1; max-age=';
    doc.cookie = 'c=1; max-age=-1';
    const after = Date.now();
    const expiresOf = (i: number) => (writes[i]![2] as { expires?: number }).expires;
    expect(expiresOf(0)).toBeGreaterThanOrEqual(before + 60_000);
    expect(expiresOf(0)).toBeLessThanOrEqual(after + 60_000);
    expect(writes[1]).toStrictEqual(['b', '1', {}]);
    expect(expiresOf(2)).toBeLessThan(before);
  });
  it('attribute values are trimmed; an attribute without a value has an empty one', () => {
    const { c, writes } = ctx();
    virtualPage(c).document.cookie = 'a = 1 ;  Path = /x ; Domain= .example.com ;Secure';
    virtualPage(c).document.cookie = 'b=2; domain; path';
    expect(writes).toStrictEqual([
      ['a', '1', { path: '/x', domain: '.example.com', secure: true }],
      ['b', '2', { domain: '', path: '' }],
    ]);
  });
});

describe('an element as this', () => {
  it("href is the element's own (absolute) href, else its attribute; hasAttribute in any case", () => {
    const el = elementOf({ tagName: 'A', href: 'https://shop.example.com/x', attributes: { href: '/x', 'data-id': '7' } } as never) as Record<string, any>;
    expect(el.href).toBe('https://shop.example.com/x');
    expect((elementOf({ tagName: 'A', attributes: { href: '/y' } } as never) as { href: string }).href).toBe('/y');
    expect([el.hasAttribute('DATA-ID'), el.hasAttribute('data-id'), el.hasAttribute('title'), el.getAttribute('Data-Id')]).toEqual([true, true, false, '7']);
  });
  it("a trigger's element is the turbine event's element; without one there is none", async () => {
    const { turbineEvent } = await import('../../../src/launch/virtual-page.ts');
    const { c } = ctx();
    Object.assign(c as object, { event: { type: 'trigger', element: { tagName: 'A', id: 'buy', attributes: {} } } });
    expect((turbineEvent(c, 'r') as { element?: { id: string } }).element?.id).toBe('buy');
    expect('element' in turbineEvent(ctx().c, 'r')).toBe(false);
  });
});

describe('Visitor.getInstance on the virtual page', () => {
  it('the getters answer from the AMCV cookie and call their callback with the value; isAllowed is true', () => {
    const { c } = ctx({ jar: { 'AMCV_ORG%40AdobeOrg': '1|MCMID|m-1|MCAAMLH|9|MCAAMB|blob' } });
    const v = virtualPage(c).Visitor.getInstance('ORG');
    const got: unknown[] = [];
    expect(v.getMarketingCloudVisitorID((x: unknown) => got.push(x))).toBe('m-1');
    expect([v.getAudienceManagerLocationHint(), v.getLocationHint(), v.getAudienceManagerBlob(), v.getAnalyticsVisitorID(), v.isAllowed()]).toEqual(['9', '9', 'blob', '', true]);
    expect(got).toEqual(['m-1']);
  });
  it('customer IDs: read from and handed to the visitor service; a data element (no services) reads none', () => {
    const calls: unknown[] = [];
    const visitor = { getCustomerIDs: () => ({ crm: { id: '42', authState: 1 } }), call: (m: string, a: unknown[]) => (calls.push([m, a]), Promise.reject(new Error('no'))) };
    const v = virtualPage(ctx({ visitor }).c).Visitor.getInstance('ORG');
    expect(v.getCustomerIDs()).toEqual({ crm: { id: '42', authState: 1 } });
    expect(v.setCustomerIDs({ crm: '43' }, 'SHA-256')).toBeUndefined();
    expect(calls).toEqual([['setCustomerIDs', [{ crm: '43' }, 'SHA-256']]]);
    const de = virtualPage(ctx({ dataElement: true, page: page('en') }).c).Visitor.getInstance('ORG');
    expect(de.getCustomerIDs()).toEqual({});
    expect(de.setCustomerIDs({ crm: '1' })).toBeUndefined();
  });
});

describe('window facts', () => {
  it('a page whose facts the event lacks: empty navigator (cookies enabled), a zero screen of depth 24, no viewport', () => {
    const w = virtualPage(ctx({ viewport: null }).c);
    expect({ ...w.navigator }).toStrictEqual({ userAgent: '', language: '', languages: [], cookieEnabled: true });
    expect({ ...w.screen }).toStrictEqual({ width: 0, height: 0, colorDepth: 24, pixelDepth: 24 });
    expect([w.innerWidth, w.innerHeight]).toEqual([undefined, undefined]);
  });
  it("navigator and screen from the page's facts: a data element's from its own context", () => {
    const w = virtualPage(ctx({ dataElement: true, page: page('de-CH') }).c);
    expect({ ...w.navigator }).toStrictEqual({ userAgent: 'UA de-CH', language: 'de-CH', languages: ['de-CH'], cookieEnabled: false });
    expect({ ...w.screen }).toStrictEqual({ width: 1280, height: 720, colorDepth: 30, pixelDepth: 30 });
  });
  it('location: its fields are enumerable and it reads as its URL; an unreadable URL is about:blank', () => {
    const w = virtualPage(ctx().c);
    expect(Object.keys(w.location)).toEqual(expect.arrayContaining(['href', 'hostname', 'search']));
    expect(String(w.location)).toBe('https://shop.example.com/a?q=1');
    const bad = virtualPage(ctx({ url: 'not a url' }).c);
    expect([bad.location.protocol, bad.location.hostname, bad.document.domain]).toEqual(['about:', '', '']);
  });
  it('top, parent, globalThis and frames are the window; what a block assigned is not shadowed by a page global of that name', () => {
    const { c } = ctx();
    const w = virtualPage(c);
    expect([w.top, w.parent, w.globalThis, w.frames].every((x) => x === w)).toBe(true);
    w.eventData = { mine: true };
    w.__pageGlobals(['eventData', 'digitalData']);
    expect(w.eventData).toEqual({ mine: true });
    expect(w.digitalData).toEqual({});
    expect(Object.keys(w)).toEqual(['eventData']);
  });
  it('a page global read as data is the data element the import names "offtag:global <name>"', () => {
    const { c } = ctx();
    Object.assign(c as object, { get: (n: string) => (n === 'offtag:global utag_data' ? { page: 'home' } : undefined) });
    const w = virtualPage(c);
    w.__pageGlobals(['utag_data']);
    expect(w.utag_data).toEqual({ page: 'home' });
  });
});

describe("one window per engine, a data element's and the rules'", () => {
  it('a window a data element made first is the rules\' too, and each event brings its own page facts', () => {
    const settings = { environment: 'production', dataLayer: 'digitalData' };
    const de = virtualPage(ctx({ settings, dataElement: true, page: page('en') }).c);
    de.fromDataElement = 1;
    const rule = virtualPage(ctx({ settings, page: page('fr') }).c);
    expect(rule).toBe(de);
    expect([rule.fromDataElement, rule.navigator.language]).toEqual([1, 'fr']);
    expect(virtualPage(ctx({ settings, page: page('it') }).c).navigator.language).toBe('it');
    // A later data element keeps the rule's services: its Visitor still reads the customer IDs.
    const visitor = { getCustomerIDs: () => ({ crm: { id: '1' } }), call: async () => {} };
    const withVisitor = ctx({ settings, page: page('es'), visitor });
    virtualPage(withVisitor.c);
    const block: WorkerBlock = (w) => () => [w.navigator.language, w.Visitor.getInstance('ORG').getCustomerIDs()];
    expect(runBlock(block, ctx({ settings, dataElement: true, page: page('pt') }).c, 'window', [])).toEqual(['pt', { crm: { id: '1' } }]);
  });
});

describe('document.cookie = … with attributes a browser does not know', () => {
  it('an unknown attribute is ignored, even with a number for its value (only Max-Age counts seconds)', () => {
    const { c, writes } = ctx();
    virtualPage(c).document.cookie = 'a=1; Version=1; Priority=5; path=/';
    expect(writes).toStrictEqual([['a', '1', { path: '/' }]]);
  });
});

describe("Visitor.getInstance's org, as VisitorAPI checks it", () => {
  it('no org, or one that is no text, throws VisitorAPI\'s error; "@AdobeOrg" is added when missing, and names the AMCV cookie read', () => {
    const { c } = ctx({ jar: { 'AMCV_ABC%40AdobeOrg': '1|MCMID|m-abc' } });
    const V = virtualPage(c).Visitor;
    expect(() => V.getInstance()).toThrow(new Error('Visitor requires Adobe Marketing Cloud Org ID.'));
    expect(() => V.getInstance(42)).toThrow(new Error('Org ID is not a string.'));
    expect([V.getInstance('ABC').marketingCloudOrgID, V.getInstance('ABC').getMarketingCloudVisitorID(), V.getInstance('ABC@AdobeOrg').getMarketingCloudVisitorID()]).toEqual(['ABC@AdobeOrg', 'm-abc', 'm-abc']);
  });
});

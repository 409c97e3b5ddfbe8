/**
 * The page-side `s` (src/launch/appmeasurement/page-tracker.ts) on the edges of AppMeasurement
 * 2.27.0's own helpers: cookie reads of names that prefix others, writes with and without an
 * expiry (an empty value a minute ago, `1` two calendar years on), a query key matched whole,
 * clearVars' variables; VisitorAPI's getters for a field the cookie lacks; the steps' doPlugins
 * link fields and their errors.
 *
 * Mutants of page-tracker.ts no input can tell apart (left Survived on purpose):
 * - isVar: `v === undefined` → false (undefined is no object either); the `||` → `&&` / false forms only
 *   change how a null is recorded: as null or as removed, which the worker's s reads the same.
 * - esc: `!v` → false: encodeURIComponent('') is '' (and no page writes an undefined name).
 * - clearVars' pattern without its anchors on names no AppMeasurement variable has (xprop1, eVar1x, mychannel).
 * - cookieRead: `i < 0 ? i : …` → false and `end < 0` → `<= 0`: a name not found reads '' whatever `end` is,
 *   and the text searched starts with a space, so no ';' is at 0.
 * - the first `ops = []` → a list of one text: every step starts its own list before anything reads it.
 * - define's `blocks || []` → a list of one text: a text is no function either (the same "no block" error).
 * - the Visitor getters' `String(raw || '')` → another text: a field name is never that text.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { installPageAnalytics } from '../../../src/launch/appmeasurement/page-tracker.ts';

const w = globalThis as unknown as Record<string, any>;

/** A page whose document.cookie reads as a browser's (name=value pairs) and keeps each write's full text. */
function page(cookies: Record<string, string> = {}, o: { refuse?: boolean } = {}) {
  const jar = { ...cookies };
  const written: string[] = [];
  w.window = w;
  w.document = {
    get cookie() {
      return Object.entries(jar)
        .map(([k, v]) => `${k}=${v}`)
        .join('; ');
    },
    set cookie(text: string) {
      written.push(text);
      if (o.refuse) return;
      const [pair = ''] = text.split(';');
      const eq = pair.indexOf('=');
      jar[pair.slice(0, eq)] = pair.slice(eq + 1);
    },
  };
  Object.defineProperty(w, 'location', { value: { href: 'https://shop.example/p?ba=1&a=2' }, configurable: true, writable: true });
  installPageAnalytics();
  return { jar, written, api: w.__offtagAnalytics, s: w.__offtagAnalytics.s };
}

afterEach(() => {
  for (const k of ['window', 'document', '__offtagAnalytics', 'Visitor', 'offtag', '_satellite']) delete w[k];
  Object.defineProperty(w, 'location', { value: undefined, configurable: true, writable: true });
});

describe("the page s's cookies as AppMeasurement's", () => {
  it('a name that prefixes another is read whole; the last cookie without a ";" after it is read to the end', () => {
    const { s } = page({ s_vi: 'long', s_v: 'short', last: 'end%20value' });
    expect([s.c_r('s_v'), s.c_r('s_vi'), s.c_r('last'), s.c_r('s')]).toEqual(['short', 'long', 'end value', '']);
  });
  it('written for path /: a session cookie without expiry, a Date as given, 1 two calendar years on, an empty value a minute ago; false when the browser keeps nothing', () => {
    const { s, written } = page();
    const before = new Date();
    s.c_w('session', 'v');
    s.c_w('dated', 'v', new Date(Date.UTC(2030, 0, 1)));
    s.c_w('long', 'v', 1);
    s.c_w('gone', '', 1);
    const after = new Date();
    expect(written[0]).toBe('session=v; path=/');
    expect(written[1]).toBe(`dated=v; path=/; expires=${new Date(Date.UTC(2030, 0, 1)).toUTCString()}`);
    const expiry = (i: number) => Date.parse(written[i]!.split('; expires=')[1]!);
    const twoYears = (d: Date) => new Date(d).setFullYear(d.getFullYear() + 2);
    // toUTCString keeps whole seconds.
    expect(expiry(2)).toBeGreaterThanOrEqual(twoYears(before) - 1000);
    expect(expiry(2)).toBeLessThanOrEqual(twoYears(after));
    expect(expiry(3)).toBeGreaterThanOrEqual(before.getTime() - 61_000);
    expect(expiry(3)).toBeLessThanOrEqual(after.getTime() - 60_000);
    expect(page({}, { refuse: true }).s.c_w('x', 'v')).toBe(false);
  });
  it('getQueryParam matches the key whole', () => {
    const { s } = page();
    expect([s.Util.getQueryParam('a'), s.Util.getQueryParam('a', 'https://o.example/?ba=1')]).toEqual(['2', '']);
  });
});

describe('the page s itself', () => {
  it("is AppMeasurement 2.27.0's; clearVars clears the numbered variables at any number and the listed ones, not events2 or pageName", () => {
    const { s } = page();
    expect(s.version).toBe('2.27.0');
    Object.assign(s, { eVar10: 'a', prop75: 'b', list3: 'c', hier5: 'd', events: 'e', events2: 'f', pageName: 'g', channel: 'h' });
    s.clearVars();
    expect([s.eVar10, s.prop75, s.list3, s.hier5, s.events, s.events2, s.pageName, s.channel]).toEqual([undefined, undefined, undefined, undefined, undefined, 'f', 'g', undefined]);
  });
  it("Visitor: a field the AMCV cookie lacks is empty, whatever its first part; setCustomerIDs with an offtag that cannot ask does nothing", () => {
    page({ 'AMCV_ORG%40AdobeOrg': 'ver|MCMID|m-1|MCAAMB|blob' });
    const v = w.Visitor.getInstance('ORG');
    expect([v.getAudienceManagerBlob(), v.getAnalyticsVisitorID(), v.getLocationHint()]).toEqual(['blob', '', '']);
    w.offtag = {};
    expect(() => v.setCustomerIDs({ crm: 'u' })).not.toThrow();
  });
  it('a doPlugins step sees the link type and name and they are gone after; without usePlugins doPlugins does not run', () => {
    const { api, s } = page();
    const seen: unknown[] = [];
    s.doPlugins = (t: Record<string, any>) => {
      seen.push([t.linkType, t.linkName]);
      t.eVar1 = 'dp';
    };
    expect(api.step({ analytics: 'plugins', vars: {}, linkType: 'o', linkName: 'n' }, {}).ops).toEqual([]);
    s.usePlugins = true;
    const rec = api.step({ analytics: 'plugins', vars: { usePlugins: true }, linkType: 'e', linkName: 'exit' }, {});
    expect(seen).toEqual([['e', 'exit']]);
    expect(rec.ops).toEqual([['set', 'eVar1', 'dp']]);
    expect([s.linkType, s.linkName]).toEqual([undefined, undefined]);
  });
  it('a block the page lacks is an error of its step; what a block throws that is no Error is its text', () => {
    const { api } = page();
    api.define(undefined, [
      () => {
        throw 'plain';
      },
    ]);
    expect(api.step({ analytics: 'block', vars: {}, block: 3 }, {}).error).toBe('Error: the page has no Analytics block 3 (rebuild offtag.js with offtag build)');
    expect(api.step({ analytics: 'block', vars: {}, block: 0 }, {}).error).toBe('plain');
  });
});

describe('the page s across steps', () => {
  it('installed once: a second install keeps the first s; a block records t, tl and clear in order, and objects in contextData are not recorded', () => {
    const { api, s } = page();
    installPageAnalytics();
    expect(w.__offtagAnalytics).toBe(api);
    api.define(undefined, [
      (_e: object, t: Record<string, any>) => {
        t.eVar1 = 'a';
        t.t();
        t.contextData.obj = { a: 1 };
        t.tl(true, 'o', 'n');
        t.clearVars();
      },
    ]);
    expect(api.step({ analytics: 'block', vars: {}, block: 0 }, {}).ops).toEqual([['set', 'eVar1', 'a'], ['t'], ['tl', 'o', 'n'], ['clear']]);
    s.loadModule('Media');
    const media = s.Media;
    s.loadModule('Media');
    expect([typeof media, s.Media === media]).toEqual(['object', true]);
  });
  it("each step takes the worker's variables: contextData entries by their dotted name, the previous step's gone; a contextData that is no object is made one", () => {
    const { api, s } = page();
    api.step({ analytics: 'block', vars: { 'contextData.a': '1', pageName: 'p' }, block: 5 }, {});
    expect([s.contextData, s.pageName, 'contextData.a' in s]).toEqual([{ a: '1' }, 'p', false]);
    s.contextData = 'broken';
    api.step({ analytics: 'block', vars: { 'contextData.b': '2' }, block: 5 }, {});
    expect([s.contextData, s.pageName]).toEqual([{ b: '2' }, undefined]);
  });
  it('the customSetup step makes s window.s only when the tracker is global; a block step likewise; without a customSetup the setup step does nothing', () => {
    const { api, s } = page();
    expect(api.step({ analytics: 'setup', vars: {} }, {}).ops).toEqual([]);
    expect(w.s).toBeUndefined();
    const seen: unknown[] = [];
    api.define(function (this: unknown, t: Record<string, any>) {
      seen.push(this === w, t === s);
      t.prop1 = 'set up';
    }, [() => {}]);
    api.step({ analytics: 'setup', vars: {} }, {});
    expect(w.s).toBeUndefined();
    api.step({ analytics: 'block', vars: {}, block: 0 }, {});
    expect(w.s).toBeUndefined();
    api.step({ analytics: 'block', vars: {}, block: 0, global: true }, {});
    expect(w.s).toBe(s);
    delete w.s;
    expect(api.step({ analytics: 'setup', vars: {}, global: true }, {}).ops).toEqual([['set', 'prop1', 'set up']]);
    expect([w.s, seen]).toEqual([s, [true, true, true, true]]);
    delete w.s;
  });
});

describe('the page s on what the other tests leave out', () => {
  it('a setup step without a customSetup, and a doPlugins step when plugins are off or doPlugins is no function, do nothing and fail nothing', () => {
    const { api, s } = page();
    expect(api.step({ analytics: 'setup', vars: {} }, {})).toStrictEqual({ ops: [] });
    let called = 0;
    s.doPlugins = () => void called++;
    expect(api.step({ analytics: 'plugins', vars: {} }, {})).toStrictEqual({ ops: [] });
    s.usePlugins = true;
    s.doPlugins = 'not a function';
    expect(api.step({ analytics: 'plugins', vars: { usePlugins: true } }, {})).toStrictEqual({ ops: [] });
    expect(called).toBe(0);
  });
  it("the worker's variables replace the previous step's contextData entries, and what is no variable in contextData (an object, a function) stays from step to step", () => {
    const { api, s } = page();
    const helper = { n: 1 };
    api.define((t: Record<string, any>) => void (t.contextData.helper = helper), [() => {}]);
    api.step({ analytics: 'setup', vars: {} }, {});
    api.step({ analytics: 'block', vars: { 'contextData.a': '1' }, block: 0 }, {});
    api.step({ analytics: 'block', vars: { 'contextData.b': '2' }, block: 0 }, {});
    expect(s.contextData).toStrictEqual({ b: '2', helper });
    expect(s.contextData.helper).toBe(helper);
  });
  it('s.unescape gives a value that is not set back as it is, as AppMeasurement does', () => {
    const { s } = page();
    expect([s.unescape(0), s.unescape(false), s.unescape(undefined), s.unescape('a+b%20c')]).toStrictEqual([0, false, undefined, 'a b c']);
  });
});

describe("document.cookie during a step: read once until something writes it", () => {
  /** A browser-like Document whose prototype holds the cookie accessor, counting the reads that reach it. */
  function browserDocument() {
    let jar = 'a=1';
    const counts = { reads: 0, writes: 0 };
    class FakeDocument {}
    Object.defineProperty(FakeDocument.prototype, 'cookie', {
      get: () => (counts.reads++, jar),
      set: (v: string) => void (counts.writes++, (jar = `${jar}; ${v.split(';')[0]}`)),
      configurable: true,
    });
    w.window = w;
    w.Document = FakeDocument;
    w.document = new FakeDocument();
    Object.defineProperty(w, 'location', { value: { href: 'https://shop.example/p' }, configurable: true, writable: true });
    installPageAnalytics();
    return { api: w.__offtagAnalytics, counts };
  }
  afterEach(() => void delete w.Document);

  it('a block reads the browser once, again after its own write, and the document is as it was after the step (also when the block threw)', () => {
    const { api, counts } = browserDocument();
    const seen: string[] = [];
    api.define(undefined, [
      () => {
        seen.push(w.document.cookie, w.document.cookie);
        w.document.cookie = 'b=2; path=/';
        seen.push(w.document.cookie, w.document.cookie);
      },
      () => {
        throw new Error('late');
      },
    ]);
    expect(api.step({ analytics: 'block', vars: {}, block: 0 }, {})).toStrictEqual({ ops: [] });
    expect(seen).toEqual(['a=1', 'a=1', 'a=1; b=2', 'a=1; b=2']);
    expect(counts).toEqual({ reads: 2, writes: 1 });
    expect(Object.getOwnPropertyDescriptor(w.document, 'cookie')).toBeUndefined();
    expect(api.step({ analytics: 'block', vars: {}, block: 1 }, {}).error).toBe('Error: late');
    expect(Object.getOwnPropertyDescriptor(w.document, 'cookie')).toBeUndefined();
    w.document.cookie;
    w.document.cookie;
    expect(counts.reads).toBe(4);
  });
  it("a page that put its own cookie accessor on document keeps it: every read reaches it", () => {
    const { api } = browserDocument();
    let own = 0;
    Object.defineProperty(w.document, 'cookie', { get: () => (own++, 'x=1'), set: () => {}, configurable: true });
    api.define(undefined, [() => void [w.document.cookie, w.document.cookie]]);
    api.step({ analytics: 'block', vars: {}, block: 0 }, {});
    expect(own).toBe(2);
    expect(Object.getOwnPropertyDescriptor(w.document, 'cookie')?.get).toBeTypeOf('function');
  });
});

describe("the page's Visitor: getSupplementalDataID's edges", () => {
  it('a consumer without a name is the consumer ""; without offtag.js (or its ask) the id is still answered', () => {
    const asked: unknown[][] = [];
    w.offtag = { ask: (m: { args: unknown[] }) => (asked.push(m.args), Promise.resolve({})) };
    page();
    const v = w.Visitor.getInstance('ORG');
    const id = v.getSupplementalDataID();
    expect(asked).toEqual([['', true, id]]);
    expect(v.getSupplementalDataID('AppMeasurement:0', true)).toBe(id);
    w.offtag = { ask: 'no function' };
    expect(v.getSupplementalDataID('other')).toBe(id);
    delete w.offtag;
    const next = v.getSupplementalDataID('other');
    expect(next).toMatch(/^[0-9A-F]{16}-[0-9A-F]{16}$/);
    expect(next).not.toBe(id);
    expect(asked).toHaveLength(2);
  });
});

describe("the page's Visitor: the org, as VisitorAPI checks it", () => {
  it('no org, or one that is no text, throws VisitorAPI\'s error; "@AdobeOrg" is added when missing, and names the AMCV cookie read', () => {
    page({ 'AMCV_ABC%40AdobeOrg': 'ver|MCMID|m-abc' });
    expect(() => w.Visitor.getInstance()).toThrow(new Error('Visitor requires Adobe Marketing Cloud Org ID.'));
    expect(() => w.Visitor.getInstance(42)).toThrow(new Error('Org ID is not a string.'));
    expect([w.Visitor.getInstance('ABC').marketingCloudOrgID, w.Visitor.getInstance('ABC').getMarketingCloudVisitorID(), w.Visitor.getInstance('ABC@AdobeOrg').getMarketingCloudVisitorID()]).toEqual(['ABC@AdobeOrg', 'm-abc', 'm-abc']);
  });
});

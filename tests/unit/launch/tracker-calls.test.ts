/**
 * The worker's `s` on what its calls send and leave: values that are no text (sent as
 * AppMeasurement writes them), and its first call when it waits in AppMeasurement's queue (the
 * page has Adobe's opt-in service): which variables the queued call's copy carries and puts back
 * after its hit. Each expected value is what AppMeasurement 2.27.0 leaves on `s` for the same calls (its
 * dist/AppMeasurement.js run in Node outside the repository with a stub window whose
 * `adobe.optIn` holds the first call until its permissions are answered); AppMeasurement's reset
 * writes 0 where the worker writes undefined (and `false` for `abort`), which a page reads the same.
 */
import { describe, expect, it } from 'vitest';
import { createAppMeasurement, type AppMeasurement, type TrackerHost } from '../../../src/launch/appmeasurement/tracker.ts';
import type { AnalyticsHit } from '../../../src/worker-engine/services.ts';

function queued() {
  const hits: AnalyticsHit[] = [];
  const h: TrackerHost = {
    cookie: () => undefined,
    setCookie: () => {},
    url: () => 'https://www.shop.example.co.uk/p?a=1',
    hostname: () => 'www.shop.example.co.uk',
    cookieDomain: () => '.example.co.uk',
    now: () => 1_700_000_000_000,
    send: (hit) => void hits.push(hit),
    log: () => {},
    optIn: () => true,
  };
  return { s: createAppMeasurement('rs1', h), hits };
}

const withPlugins = (s: AppMeasurement, f: (t: AppMeasurement) => void) => {
  s.usePlugins = true;
  s.doPlugins = f;
};

describe("the first call, queued behind Adobe's opt-in service", () => {
  it("puts back a page variable that was set when the call was made, after doPlugins changed it; the hit has doPlugins' value", () => {
    const { s, hits } = queued();
    s.pageName = 'home';
    s.server = 'srv';
    withPlugins(s, (t) => {
      t.pageName = 'x';
      t.server = '';
    });
    s.t();
    expect(hits[0]!.vars.pageName).toBe('x');
    expect(hits[0]!.vars.server).toBeUndefined();
    expect([s.pageName, s.server]).toEqual(['home', 'srv']);
  });
  it('leaves what doPlugins set on a page variable that was empty when the call was made, and on a flag of the site', () => {
    const { s, hits } = queued();
    s.pageName = '';
    s.myFlag = 'a';
    withPlugins(s, (t) => {
      t.pageName = 'x';
      t.myFlag = 'b';
    });
    s.t();
    expect(hits[0]!.vars.pageName).toBe('x');
    expect([s.pageName, s.myFlag]).toEqual(['x', 'b']);
  });
  it('empties the cleared and numbered variables doPlugins set when they were not set before', () => {
    const { s, hits } = queued();
    withPlugins(s, (t) => {
      t.channel = 'c';
      t.prop3 = 'p';
    });
    s.t();
    expect(hits[0]!.vars).toMatchObject({ channel: 'c', prop3: 'p' });
    expect([s.channel, s.prop3]).toEqual([undefined, undefined]);
  });
  it("a link call's link fields stay reset after its hit, and abort is false", () => {
    const { s, hits } = queued();
    s.tl(true, 'o', 'first');
    expect(hits[0]).toMatchObject({ type: 'tl', linkType: 'o', linkName: 'first' });
    expect([s.linkName, s.linkType, s.linkObject, s.abort]).toEqual([undefined, undefined, undefined, false]);
  });
});

describe('a call', () => {
  it('adds to s only the variables AppMeasurement resets after every call, and pageURL; an override it named is gone again', () => {
    const { s } = queued();
    const before = new Set(Object.keys(s));
    s.t();
    s.t({ pageName: 'once' });
    s.tl(true, 'o', 'n');
    expect(Object.keys(s).filter((k) => !before.has(k)).sort()).toEqual(
      ['clickObject', 'lightProfileID', 'linkName', 'linkObject', 'linkType', 'linkURL', 'pageURL', 'pageURLRest', 'pe', 'pev1', 'pev2', 'pev3', 'referrer', 'supplementalDataID', 'timestamp', 'useBeacon'],
    );
    expect(s.pageName).toBeUndefined();
  });
});

describe('values that are no text', () => {
  it('go as their text, as AppMeasurement sends them (an object as [object Object], a list joined with commas); a function is left out', () => {
    const { s, hits } = queued();
    s.eVar3 = { a: 1 };
    s.list1 = ['a', 'b'];
    s.products = ['p1', 'p2'];
    s.prop4 = function named() {};
    s.contextData = { n: { x: '1' }, l: ['x', 'y'], f() {}, t: true, z: 0 };
    s.t();
    expect(hits[0]!.vars).toMatchObject({ eVar3: '[object Object]', list1: 'a,b', products: 'p1,p2' });
    expect(hits[0]!.vars.prop4).toBeUndefined();
    expect(hits[0]!.contextData).toStrictEqual({ n: '[object Object]', l: 'x,y', t: 'true' });
  });
});

describe("s.escape on a value that is not set", () => {
  it('gives it back as it is, as AppMeasurement does (0, false, null, undefined, the empty text)', () => {
    const { s } = queued();
    expect([s.escape(0), s.escape(false), s.escape(null), s.escape(undefined), s.escape(''), s.Util.urlEncode(0)]).toStrictEqual([0, false, null, undefined, '', 0]);
  });
});

describe('modules and postbacks', () => {
  it('a hit without postbacks has no postbacks field; only AudienceManagement is the Audience Manager module, another module is empty', () => {
    const hits: AnalyticsHit[] = [];
    const h: TrackerHost = { cookie: () => undefined, setCookie: () => {}, url: () => 'https://x.example/', hostname: () => 'x.example', cookieDomain: () => '', now: () => 0, send: (hit) => void hits.push(hit), log: () => {} };
    const s = createAppMeasurement('rs1', h, { audienceManagement: true, visitor: true });
    s.t();
    expect(Object.keys(hits[0]!)).not.toContain('postbacks');
    s.loadModule('Media');
    expect(s.Media).toStrictEqual({});
  });
});

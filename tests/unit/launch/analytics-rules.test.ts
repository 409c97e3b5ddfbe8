/**
 * The Analytics extension as the worker runs it, on what the other tests leave out: the tracker's
 * host (cookies through the engine's jar with the page's cookie domain, a beacon that fails, its
 * log), the ECID extension's instance on `s.visitor`, `window.s`, settings that are no text, the
 * plugins' clock, and the Analytics code that runs on the page (customSetup, Set Variables and Core
 * custom code blocks, doPlugins) through a page channel that answers with its record, as offtag.js does.
 *
 * Mutants of analytics.ts no input can tell apart (left Survived on purpose):
 * - applyTrackerVariables: `String(s.events).length > 0` → true / `>= 0` (s.events is truthy, so it has a length);
 *   `p?.events` → `p.events` (the properties are always an object).
 * - initializePlugins: `trackers.has(key)` → false and the augmenters' `?? []`: once the tracker is made nobody
 *   reads the augmenters again; an empty list and a list of one text install nothing either way.
 * - getVisitNum: `typeof days === 'number'` → true: with no argument the default is taken either way.
 * - onThePage: `names ?? []` → a list of one text: the values go to the page only when there are names.
 * - the host's hostname: the catch's '' → another text or nothing: a hostname without a dot, or none,
 *   gets no cookie domain either way (cookieDomainFor).
 * - setVariables' block: `'element'` → '': runBlock only tests for 'window'.
 * - sendBeacon: the link name's `b.type === 'page'` → false and its texts: a page beacon never reads it.
 */
import { describe, expect, it } from 'vitest';
import * as launch from '../../../src/launch/index.ts';
import type { AnalyticsHit } from '../../../src/worker-engine/services.ts';

type Record_ = Record<string, any>;

function ctx(o: { orgId?: string; url?: string; cookieDomain?: string; track?: (h: AnalyticsHit) => Promise<void>; page?: (msg: Record_) => string | undefined; element?: object } = {}) {
  const hits: AnalyticsHit[] = [];
  const logs: string[] = [];
  const sets: Array<[string, string, object]> = [];
  const steps: Record_[] = [];
  const monitors: unknown[] = [];
  const waits: boolean[] = [];
  const jar: Record<string, string> = {};
  const c = {
    rule: { name: 'r' },
    settings: { trackingConsentCookie: '', reportSuites: { production: 'rs' }, environment: 'production', dataLayer: 'digitalData', ...(o.orgId ? { orgId: o.orgId } : {}) },
    snapshot: { url: o.url ?? 'https://www.example.com/p?q=1', time: Date.UTC(2026, 10, 27, 17, 5), referrer: '', viewport: { width: 1, height: 1 }, seq: 1 },
    event: o.element ? { type: 'trigger', on: 'click', element: o.element } : { type: 'direct-call', id: 'x' },
    cookies: { get: (n: string) => jar[n], set: (n: string, v: string, op: object) => void (sets.push([n, v, op]), (jar[n] = v)), all: () => ({ ...jar }) },
    replaceTokens: (t: string) => t,
    get: (n: string) => (n === 'de' ? 'value' : undefined),
    emit: (e: unknown) => void monitors.push(e),
    services: {
      analytics: { track: o.track ?? (async (h: AnalyticsHit) => void hits.push(h)) },
      visitor: {},
      ...(o.cookieDomain !== undefined ? { pageInfo: { userAgent: '', language: '', screen: { width: 0, height: 0, colorDepth: 24 }, cookieDomain: o.cookieDomain, origin: '', secure: true, cookiesEnabled: true } } : {}),
      ...(o.page ? { page: { run: async (msg: Record_, wait: boolean) => (steps.push(msg), waits.push(wait), o.page!(msg)) } } : {}),
    },
    log: (l: string, m: string) => void logs.push(`${l}: ${m}`),
  };
  return { c: c as never, hits, logs, sets, steps, jar, monitors, waits };
}

const made = (c: unknown, options: launch.AnalyticsOptions = {}) => launch.trackerFor(c as never, options) as unknown as Record_;
const settle = () => new Promise((r) => setTimeout(r, 0));

describe("the tracker's host", () => {
  it("c_w writes through the engine's jar for the page's cookie domain, secure when asked, expiring when told; c_r reads it back", () => {
    const { c, sets } = ctx({ cookieDomain: '.example.com' });
    const s = made(c);
    const before = Date.now();
    expect(s.c_w('k', 'v w', new Date(Date.UTC(2030, 0, 1)))).toBe(true);
    s.writeSecureCookies = true;
    s.c_w('two', 'y', 1);
    const after = Date.now();
    s.writeSecureCookies = false;
    s.c_w('session', 'z');
    expect(sets[0]).toStrictEqual(['k', 'v%20w', { expires: Date.UTC(2030, 0, 1), domain: '.example.com' }]);
    expect(sets[1]![2]).toMatchObject({ domain: '.example.com', secure: true });
    const twoYears = (t: number) => new Date(t).setFullYear(new Date(t).getFullYear() + 2);
    expect((sets[1]![2] as { expires: number }).expires).toBeGreaterThanOrEqual(twoYears(before));
    expect((sets[1]![2] as { expires: number }).expires).toBeLessThanOrEqual(twoYears(after));
    expect(sets[2]).toStrictEqual(['session', 'z', { domain: '.example.com' }]);
    expect(s.c_r('k')).toBe('v w');
  });
  it('a page without a found cookie domain, or without a URL, gets host-only cookies', () => {
    for (const o of [{}, { cookieDomain: '' }, { cookieDomain: '.example.com', url: 'not a url' }]) {
      const { c, sets } = ctx(o);
      made(c).c_w('k', 'v');
      expect(sets[0]).toStrictEqual(['k', 'v', {}]);
    }
  });
  it('a beacon the analytics service fails is logged with its rule; s.log warns', async () => {
    const { c, logs } = ctx({ track: async () => Promise.reject(new Error('queue full')) });
    const s = made(c);
    s.t();
    await settle();
    s.log('hello');
    expect(logs).toEqual(['error: Analytics beacon of rule "r" failed: queue full', 'warn: hello']);
    const other = ctx({ track: async () => Promise.reject('no reason') });
    made(other.c).t();
    await settle();
    expect(other.logs).toEqual(['error: Analytics beacon of rule "r" failed: no reason']);
  });
  it("with the ECID extension's org, s.visitor is its instance; without, there is none; with consent nothing is logged", async () => {
    const { c, logs } = ctx({ orgId: 'ORG@AdobeOrg' });
    expect(made(c).visitor.marketingCloudOrgID).toBe('ORG@AdobeOrg');
    expect(made(ctx().c).visitor).toBeUndefined();
    await launch.setVariables({}, { pageName: 'p' }).fn(c);
    await launch.sendBeacon({}, { type: 'page' }).fn(c);
    await launch.clearVariables({}).fn(c);
    expect(logs).toEqual([]);
  });
  it("with the ECID extension's org, the first call waits in AppMeasurement's queue: doPlugins' change to a variable is undone after it", () => {
    for (const [orgId, kept] of [['ORG@AdobeOrg', undefined], [undefined, 'first']] as const) {
      const { c } = ctx(orgId ? { orgId } : {});
      const s = made(c);
      s.usePlugins = true;
      s.doPlugins = (t: Record_) => void (t.prop66 = 'first');
      s.t();
      expect(s.prop66).toBe(kept);
    }
  });
  it('a link beacon on an element without a tag name is "link clicked"', async () => {
    const { c, hits } = ctx({ element: { id: 'x', attributes: {} } });
    await launch.sendBeacon({}, { type: 'link' }).fn(c);
    expect(hits[0]).toMatchObject({ type: 'tl', linkName: 'link clicked' });
  });
  it('scopeTrackerGlobally makes it window.s for custom code; otherwise window has no s', () => {
    const on = ctx();
    const s = made(on.c, { scopeTrackerGlobally: true });
    expect(launch.virtualPage(on.c).s).toBe(s);
    const off = ctx();
    made(off.c);
    expect(launch.virtualPage(off.c).s).toBeUndefined();
  });
});

describe('Set Variables: what the other tests leave out', () => {
  it('settings that are no text reach s as they are', () => {
    const { c } = ctx();
    const s = made(c, { trackerProperties: { cookieDomainPeriods: 3, trackDownloadLinks: true, zip: null } as never });
    expect([s.cookieDomainPeriods, s.trackDownloadLinks, s.zip]).toEqual([3, true, null]);
  });
  it('linkTrackVars names a variable once, leaves "None" alone when there is nothing to track, and lists events only when there are some', async () => {
    const { c } = ctx();
    const s = made(c, {});
    s.linkTrackVars = 'None';
    await launch.setVariables({}, { pageName: 'p', events: [] }).fn(c);
    expect(s.linkTrackVars).toBe('None');
    await launch.setVariables({}, { eVars: [{ name: 'eVar1', type: 'value', value: 'a' }] }).fn(c);
    await launch.setVariables({}, { eVars: [{ name: 'eVar1', type: 'value', value: 'b' }] }).fn(c);
    expect(s.linkTrackVars).toBe('eVar1');
  });
  it('the campaign from the query string is the named parameter, not the first', () => {
    const s: Record_ = {};
    launch.applyTrackerVariables(s as never, { campaign: { type: 'queryParam', value: 'cid' } }, 'https://x.example/?q=1&cid=spring');
    expect(s.campaign).toBe('spring');
  });
  it('missing lists set nothing', () => {
    const s: Record_ = {};
    launch.applyTrackerVariables(s as never, { eVars: undefined, props: undefined, hierarchies: undefined, events: undefined } as never, 'https://x.example/');
    expect(Object.keys(s).filter((k) => s[k] !== undefined && s[k] !== '')).toEqual([]);
    expect('undefined' in s).toBe(false);
  });
  it("custom code runs with the event's element as this", async () => {
    const { c } = ctx({ element: { tagName: 'A', id: 'buy', attributes: {} } });
    const code = (() =>
      function (this: { id?: string }, _e: unknown, s: Record_) {
        s.eVar3 = this?.id;
      }) as never;
    await launch.setVariables({}, {}, code).fn(c);
    expect(made(c).eVar3).toBe('buy');
  });
  it("the actions carry the extension's names (the engine's logs name them)", () => {
    expect([launch.setVariables({}, {}).name, launch.clearVariables({}).name, launch.sendBeacon({}, { type: 'page' }).name, launch.initializePlugins([]).name]).toEqual([
      'Adobe Analytics: Set Variables',
      'Adobe Analytics: Clear Variables',
      'Adobe Analytics: Send Beacon',
      'Common Analytics Plugins: initialize',
    ]);
  });
  it("the plugins read the event's time and mark the tracker's contextData", async () => {
    const { c } = ctx();
    await launch.initializePlugins([{ name: 'getTimeParting', on: 'window' }]).fn(c);
    const s = made(c);
    s.contextData = {};
    expect(launch.virtualPage(c).getTimeParting()).toBe('year=2026 | month=November | date=27 | day=Friday | time=5:05 PM');
    expect(s.contextData).toEqual({ getTimeParting: '6.3' });
    s.getVisitNum(30);
    expect(Object.keys((c as { cookies: { all(): object } }).cookies.all())).toContain('s_vnc30');
  });
});

describe('Analytics code that runs on the page', () => {
  const record = (ops: unknown[], error?: string) => JSON.stringify({ ops, ...(error ? { error } : {}) });

  it('a customSetup on the page: the step carries the worker s and the values it names; its record is replayed; global properties after it unless it says beforeSettings', async () => {
    for (const phase of ['afterSettings', 'beforeSettings'] as const) {
      const { c, steps } = ctx({ page: () => record([['set', 'prop1', 'from page'], ['set', 'server', 'page server']]) });
      const s = (await made(c, { onPage: 'setup', customSetupPhase: phase, trackerProperties: { server: 'www' }, scopeTrackerGlobally: true, pageValues: ['de'] })) as Record_;
      expect(s.prop1).toBe('from page');
      expect(s.server).toBe(phase === 'afterSettings' ? 'page server' : 'www');
      expect(steps[0]).toMatchObject({ step: { analytics: 'setup', global: true }, name: 'Analytics customSetup', rule: 'r', values: { de: 'value' } });
      expect(steps[0]!.step.vars.server).toBe(phase === 'afterSettings' ? 'www' : undefined);
    }
  });
  it('a customSetup that threw on the page is logged and the tracker is still made; an action that did not wait gets it once made', async () => {
    const { c, logs } = ctx({ page: () => record([], 'x is not defined') });
    const pending = made(c, { onPage: 'setup' });
    const meanwhile = made(c, { onPage: 'setup' });
    const [s, later] = (await Promise.all([pending, meanwhile])) as Record_[];
    expect(later).toBe(s);
    expect(logs).toEqual(['error: Analytics customSetup threw: on the page: x is not defined']);
  });
  it('without a page channel, or without a record from the page, the customSetup fails with a message saying so', async () => {
    const none = ctx();
    await made(none.c, { onPage: 'setup' });
    expect(none.logs[0]).toMatch(/^error: Analytics customSetup threw: Analytics customSetup runs on the page, and the container has no page channel/);
    const silent = ctx({ page: () => undefined });
    await made(silent.c, { onPage: 'setup' });
    expect(silent.logs).toEqual(['error: Analytics customSetup threw: Analytics customSetup ran on the page, which sent back no record of it']);
  });
  it('a Set Variables block on the page: its ops replayed in order (set, t, tl, clear); one that threw fails its action', async () => {
    const { c, hits, steps } = ctx({ page: () => record([['set', 'eVar1', 'a'], ['t'], ['tl', 'o', 'link'], ['clear'], ['set', 'contextData.k', 'v']]) });
    await launch.setVariables({}, { pageName: 'p' }, undefined, undefined, { block: 2, names: ['de'] }).fn(c);
    expect(steps[0]).toMatchObject({ step: { analytics: 'block', block: 2 }, name: 'Set Variables custom code', values: { de: 'value' } });
    expect(hits.map((h) => [h.type, h.vars.eVar1, h.type === 'tl' ? h.linkName : ''])).toEqual([
      ['t', 'a', ''],
      ['tl', 'a', 'link'],
    ]);
    const s = made(c);
    expect([s.eVar1, s.contextData.k]).toEqual([undefined, 'v']);
    const threw = ctx({ page: () => record([['set', 'eVar1', 'a']], 'boom') });
    await expect(launch.setVariables({}, {}, undefined, undefined, { block: 1 }).fn(threw.c)).rejects.toThrow('Set Variables custom code threw on the page: boom');
    expect(made(threw.c).eVar1).toBe('a');
  });
  it("Core custom code on the tracker: before the tracker is made it runs with no window.s; after, with it (global when the tracker is), its ops replayed", async () => {
    const { c, steps } = ctx({ page: () => record([['set', 'eVar7', 'x']]) });
    await launch.trackerCode({ scopeTrackerGlobally: true }, { block: 4 }).fn(c);
    const s = made(c, { scopeTrackerGlobally: true });
    expect(s.eVar7).toBeUndefined();
    await launch.trackerCode({ scopeTrackerGlobally: true }, { block: 4 }).fn(c);
    expect(s.eVar7).toBe('x');
    expect(steps.map((m) => [m.name, m.step.global ?? false])).toEqual([
      ['Custom Code', false],
      ['Custom Code', true],
    ]);
    const threw = ctx({ page: () => record([], 'nope') });
    await expect(launch.trackerCode({}, { block: 4 }).fn(threw.c)).rejects.toThrow('Custom Code threw on the page: nope');
  });
  it("doPlugins on the page: its writes take doPlugins' place in the beacon, a link beacon's step carries its type and name; one that threw is logged and the beacon goes", async () => {
    const { c, hits, steps, logs } = ctx({ page: () => record([['set', 'eVar9', 'dp']], 'late') });
    await launch.sendBeacon({}, { type: 'link', linkType: 'e', linkName: 'exit' }, undefined, true).fn(c);
    expect(steps[0]).toMatchObject({ step: { analytics: 'plugins', linkType: 'e', linkName: 'exit' }, name: 'Analytics doPlugins' });
    expect(hits[0]).toMatchObject({ type: 'tl', linkType: 'e', linkName: 'exit', vars: { eVar9: 'dp' } });
    expect(logs).toEqual(['error: Analytics doPlugins threw on the page: late']);
    const page = ctx({ page: () => record([]) });
    await launch.sendBeacon({}, { type: 'page' }, undefined, true).fn(page.c);
    expect(page.steps[0]!.step).toStrictEqual({ analytics: 'plugins', vars: expect.any(Object) });
    expect(page.logs).toEqual([]);
    // Each page step waits for the page's record, and the devtools overlay hears of it.
    expect(page.waits).toEqual([true]);
    expect(page.monitors).toEqual([{ type: 'monitor', name: 'rule-page-part', data: { rule: 'r', block: 'Analytics doPlugins', seq: 1 } }]);
  });
  it('page steps make their actions page actions, so offtag build writes the page side', () => {
    expect([
      launch.setVariables({}, {}, undefined, undefined, { block: 1 }).page,
      launch.setVariables({ onPage: 'setup' }, {}).page,
      launch.setVariables({}, {}).page,
      launch.clearVariables({ onPage: 'setup' }).page,
      launch.clearVariables({}).page,
      launch.sendBeacon({ onPage: 'setup' }, { type: 'page' }).page,
      launch.sendBeacon({}, { type: 'page' }, undefined, true).page,
      launch.sendBeacon({}, { type: 'page' }).page,
      launch.trackerCode({}, { block: 1 }).page,
    ]).toEqual([true, true, undefined, true, undefined, true, true, undefined, true]);
    expect(launch.trackerCode({}, { block: 1 }).name).toBe('Custom Code');
  });
});

describe('Analytics on the edges the other tests leave out', () => {
  const record = (ops: unknown[], error?: string) => JSON.stringify({ ops, ...(error ? { error } : {}) });

  it("doPlugins sees the link object of each call: none for a page beacon, 'true' for a link beacon off a link and for a page block's s.tl", async () => {
    const { c } = ctx({ element: { tagName: 'BUTTON', id: 'b', attributes: {} }, page: () => record([['tl', 'o', 'from page']]) });
    const s = made(c);
    const seen: unknown[] = [];
    s.usePlugins = true;
    s.doPlugins = (t: Record_) => void seen.push([t.linkObject, t.linkType]);
    await launch.sendBeacon({}, { type: 'page' }).fn(c);
    await launch.sendBeacon({}, { type: 'link' }).fn(c);
    await launch.setVariables({}, {}, undefined, undefined, { block: 1 }).fn(c);
    expect(seen).toEqual([[undefined, undefined], ['true', 'o'], ['true', 'o']]);
  });
  it('a page record with an op it does not know replays the others; a record that is null replays nothing', async () => {
    const { c } = ctx({ page: () => record([['set', 'eVar1', 'a'], ['noop'], ['set', 'eVar2', 'b']]) });
    await launch.setVariables({}, {}, undefined, undefined, { block: 1 }).fn(c);
    expect([made(c).eVar1, made(c).eVar2]).toEqual(['a', 'b']);
    const nothing = ctx({ page: () => 'null' });
    await launch.setVariables({}, { pageName: 'p' }, undefined, undefined, { block: 1 }).fn(nothing.c);
    expect(made(nothing.c).pageName).toBe('p');
  });
  it("Core custom code on the tracker works through its own event: a beacon it sends has that event's URL; one that threw fails with its message", async () => {
    const first = ctx({ page: () => record([['t']], undefined) });
    made(first.c);
    const later = { ...(first.c as object), snapshot: { ...(first.c as { snapshot: object }).snapshot, url: 'https://www.example.com/later' }, rule: { name: 'later' } };
    await launch.trackerCode({}, { block: 4 }).fn(later as never);
    expect(first.hits[0]!.vars.pageURL).toBe('https://www.example.com/later');
    const threw = ctx({ page: () => record([], 'nope') });
    made(threw.c);
    await expect(launch.trackerCode({}, { block: 4 }).fn(threw.c)).rejects.toThrow(new Error('Custom Code threw on the page: nope'));
  });
  it('Core custom code on the tracker while its customSetup runs on the page waits for the tracker, and works on it', async () => {
    const { c, steps } = ctx({ page: (msg) => record(msg.name === 'Custom Code' ? [['set', 'eVar7', 'x']] : []) });
    const making = made(c, { onPage: 'setup', scopeTrackerGlobally: true });
    const code = launch.trackerCode({ scopeTrackerGlobally: true }, { block: 4 }).fn(c);
    const s = (await making) as Record_;
    await code;
    expect(s.eVar7).toBe('x');
    expect(steps.map((m) => [m.name, m.step.global ?? false])).toEqual([
      ['Analytics customSetup', true],
      ['Custom Code', true],
    ]);
  });
  it('without a report suite for the environment the tracker has no account and sends nothing', () => {
    const { c, hits } = ctx();
    (c as { settings: object }).settings = { trackingConsentCookie: '', reportSuites: {}, environment: 'production', dataLayer: 'digitalData' };
    const s = made(c);
    expect(s.account).toBe('');
    s.t();
    expect(hits).toEqual([]);
  });
  it('a report suite from a data element is read when the tracker is made: its value as text, none when the element has none', () => {
    const accountOf = (value: unknown) => {
      const { c } = ctx();
      const x = c as { settings: object; replaceTokens: (t: string) => unknown };
      x.settings = { trackingConsentCookie: '', reportSuites: { production: '%rsid%' }, environment: 'production', dataLayer: 'digitalData' };
      x.replaceTokens = (t: string) => (t === '%rsid%' ? value : t);
      return made(c).account;
    };
    expect([accountOf('shop-prod'), accountOf(12), accountOf(undefined), accountOf(null)]).toEqual(['shop-prod', '12', '', '']);
  });
  it("Audience Manager forwarding with a customSetup on the page: the module is set up once the page's setup answered, from a copy of the config; without forwarding there is no module", async () => {
    const config = { partner: 'acme', visitorService: { namespace: 'ORG@AdobeOrg' } };
    const { c, logs } = ctx({ orgId: 'ORG@AdobeOrg', page: () => record([]) });
    const s = (await made(c, { onPage: 'setup', audienceManager: config })) as Record_;
    expect(s.AudienceManagement.isReady()).toBe(true);
    expect(config).toStrictEqual({ partner: 'acme', visitorService: { namespace: 'ORG@AdobeOrg' } });
    const plain = ctx({ orgId: 'ORG@AdobeOrg' });
    expect(made(plain.c).AudienceManagement).toBeUndefined();
    expect([...logs, ...plain.logs]).toEqual([]);
  });
  it("launchServices keeps Adobe's services' hooks (link tracking, the beacon round trip, the page's Visitor calls)", () => {
    expect(launch.launchServices().hooks).toBeTypeOf('function');
  });
});

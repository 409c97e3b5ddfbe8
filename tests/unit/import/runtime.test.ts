/**
 * The pieces an imported container is written with, on a rule context of the engine's shape:
 * Analytics variables (aliases, hierarchies, events, global properties), link beacons, clear,
 * ECID customer ids, `delayNext: false`.
 */
import { describe, expect, it } from 'vitest';
import * as launch from '../../../src/launch/index.ts';
import type { AnalyticsHit } from '../../../src/worker-engine/services.ts';
import { createResolver } from '../../../src/worker-engine/core/data-elements.ts';
import { readSetOf } from '../../../src/worker-engine/core/data-layer.ts';

function ctx(values: Record<string, unknown>, reportSuite = 'rs') {
  const hits: AnalyticsHit[] = [];
  const calls: unknown[][] = [];
  const analytics = { track: async (h: AnalyticsHit) => void hits.push(h) };
  const c = {
    rule: { name: 'r' },
    settings: { trackingConsentCookie: '', reportSuites: { production: reportSuite }, environment: 'production', dataLayer: 'digitalData' },
    snapshot: { url: 'https://www.example.com/p?q=1', time: 0, referrer: '', viewport: { width: 1, height: 1 } },
    event: { type: 'direct-call', id: 'x' },
    cookies: { get: () => undefined, set: () => {}, all: () => ({}) },
    replaceTokens: (t: string) => {
      const whole = /^%([^%]+)%$/.exec(t);
      if (whole) return values[whole[1]!];
      return t.replace(/%([^%]+)%/g, (_m, n: string) => String(values[n] ?? ''));
    },
    get: (n: string) => values[n],
    services: { analytics, visitor: { call: async (m: string, a: unknown[]) => (calls.push([m, ...a]), {}) } },
    log: () => {},
  };
  return { c: c as never, hits, calls };
}

describe('Analytics actions', () => {
  it("a report suite from a data element is the element's value when the tracker is made, and a beacon goes to s.account as it is at the call", async () => {
    const { c, hits } = ctx({ rsid: 'acmeprod,acmeglobal' }, '%rsid%');
    const analytics = { trackerProperties: {} };
    await launch.sendBeacon(analytics, { type: 'page' }).fn(c);
    const s = launch.trackerFor(c, analytics) as unknown as { account: string; setAccount(a: string): void };
    expect(s.account).toBe('acmeprod,acmeglobal');
    // Site code that sets the account (s.account = …, s.setAccount(…)): the next beacon goes there.
    s.account = 'acmedev';
    await launch.sendBeacon(analytics, { type: 'page' }).fn(c);
    expect(hits.map((h) => h.account)).toEqual(['acmeprod,acmeglobal', 'acmedev']);
  });

  it('the tracker is made once: global properties applied then, Set Variables applied and kept on s, D= aliases, hierarchies joined, events appended; Clear Variables clears what AppMeasurement clears', async () => {
    const { c, hits } = ctx({ pn: 'Home', lob: 'Safety', ev: 'event49', a: '7', cid: 'spring' });
    const analytics = { trackerProperties: { channel: '%lob%', eVars: [{ name: 'eVar9', type: 'value' as const, value: 'global' }], campaign: { type: 'value', value: '%cid%' } } };
    await launch.setVariables(analytics, { pageName: '%pn%', eVars: [{ name: 'eVar1', type: 'value', value: '%a%' }, { name: 'eVar2', type: 'value', value: '%missing%' }], props: [{ name: 'prop1', type: 'alias', value: 'eVar1' }, { name: 'prop2', type: 'alias', value: 'pageName' }], hierarchies: [{ name: 'hier1', sections: ['a', '%pn%'], delimiter: '|' }], events: [{ name: '%ev%' }, { name: 'event2', value: '3' }, { name: 'event3', id: 'x' }] }).fn(c);
    await launch.sendBeacon(analytics, { type: 'page' }).fn(c);
    await launch.clearVariables(analytics).fn(c);
    await launch.sendBeacon(analytics, { type: 'link', linkName: '' }).fn(c);
    expect(hits[0]).toEqual({ type: 't', vars: { charSet: 'UTF-8', channel: 'Safety', eVar9: 'global', campaign: 'spring', pageName: 'Home', eVar1: '7', prop1: 'D=v1', hier1: 'a|Home', events: 'event49,event2=3,event3:x', pageURL: 'https://www.example.com/p?q=1' }, account: 'rs' });
    // The global properties were cleared with the rest; pageName stays (AppMeasurement keeps it).
    expect(hits[1]).toEqual({ type: 'tl', linkType: 'o', linkName: 'link clicked', vars: { charSet: 'UTF-8', pageName: 'Home', pageURL: 'https://www.example.com/p?q=1' }, linkTrackVars: 'eVar1,eVar2,prop1,prop2,hier1,events,channel,eVar9,campaign', linkTrackEvents: 'event49,event2,event3,', account: 'rs' });
  });

  it('a link beacon tracks the variables and events the extension listed, and the custom code can change the list', async () => {
    const { c, hits } = ctx({ ids: 'a,b' });
    const code = (() => function (this: unknown, _e: unknown, s: Record<string, unknown>) {
      s.list1 = 'l';
      s.linkTrackVars = `${String(s.linkTrackVars)},list1`;
    }) as never;
    await launch.setVariables({}, { pageName: 'p', eVars: [{ name: 'eVar3', type: 'value', value: '%ids%' }], events: [{ name: 'event49' }] }, code).fn(c);
    await launch.sendBeacon({}, { type: 'link', linkType: 'e', linkName: '%ids%' }).fn(c);
    expect(hits).toEqual([{ type: 'tl', linkType: 'e', linkName: 'a,b', vars: { charSet: 'UTF-8', pageName: 'p', eVar3: 'a,b', events: 'event49', list1: 'l', pageURL: 'https://www.example.com/p?q=1' }, linkTrackVars: 'eVar3,events,list1', linkTrackEvents: 'event49,', account: 'rs' }]);
  });

  it('customSetup runs once with the window as this and s, after the global properties; doPlugins runs on every beacon and its abort cancels one', async () => {
    const { c, hits } = ctx({ srv: 'www' });
    let setups = 0;
    const customSetup = ((w: Record<string, unknown>) =>
      function (this: unknown, s: Record<string, any>) {
        setups++;
        s.prop9 = `${String(s.server)}:${this === w}`;
        s.usePlugins = true;
        s.doPlugins = (t: Record<string, any>) => {
          t.eVar50 = (t.eVar50 ?? 0) + 1;
          t.abort = t.eVar50 === 2;
        };
      }) as never;
    const analytics = { trackerProperties: { server: '%srv%' }, customSetup };
    for (let i = 0; i < 3; i++) await launch.sendBeacon(analytics, { type: 'page' }).fn(c);
    expect(setups).toBe(1);
    expect(hits.map((h) => [h.vars.prop9, h.vars.eVar50])).toEqual([['www:true', '1'], ['www:true', '3']]);
  });

  it('without consent nothing is made or sent, and the settings are still expanded (their data elements run, as under turbine)', async () => {
    const read: string[] = [];
    const { c, hits } = ctx({});
    const cc = c as { settings: Record<string, unknown>; get: (n: string) => unknown; replaceTokens: (t: string) => unknown };
    cc.settings.trackingConsentCookie = 'sat_track';
    cc.replaceTokens = (t: string) => (read.push(t), t);
    await launch.setVariables({}, { pageName: '%pn%' }).fn(c);
    await launch.sendBeacon({}, { type: 'page' }).fn(c);
    expect(hits).toEqual([]);
    expect(read).toEqual(['%pn%']);
  });
});

describe('ECID and sequencing', () => {
  it('Set Customer IDs hands the visitor service the ids with their auth states, tokens replaced', async () => {
    const { c, calls } = ctx({ crm: 'u-1' });
    await launch.setCustomerIds([{ integrationCode: 'crm', value: '%crm%', authState: 'AUTHENTICATED' }, { integrationCode: 'empty', value: '%none%' }]).fn(c);
    // Deployed libraries store VisitorAPI's number (1: authenticated, 2: logged out).
    await launch.setCustomerIds([{ integrationCode: 'crm', value: '%crm%', authState: 1 }, { integrationCode: 'out', value: '%crm%', authState: 2 }, { integrationCode: 'odd', value: '%crm%', authState: 7 }]).fn(c);
    expect(calls).toEqual([
      ['setCustomerIDs', { crm: { id: 'u-1', authState: 1 } }],
      ['setCustomerIDs', { crm: { id: 'u-1', authState: 1 }, out: { id: 'u-1', authState: 2 }, odd: { id: 'u-1', authState: 0 } }],
    ]);
  });

  it('ECID variables as the Visitor instance reads them: tokens replaced, "true"/"false" booleans, empty values dropped, a container id that is no whole number said, one the engine does not take left out', () => {
    const logs: string[] = [];
    const { c } = ctx({ ts: 'metrics.example.com', no: 'false', empty: '', nsid: 'x' });
    (c as { log: (l: string, m: string) => void }).log = (_l, m) => logs.push(m);
    expect(
      launch.visitorOptions(c, [
        { name: 'trackingServerSecure', value: '%ts%' },
        { name: 'overwriteCrossDomainMCIDAndAID', value: '%no%' },
        { name: 'disableIdSyncs', value: 'true' },
        { name: 'idSyncDisable3rdPartySyncing', value: '%empty%' },
        { name: 'idSyncContainerID', value: '%nsid%' },
        { name: 'cookieLifetime', value: 'SESSION' },
        { name: 'loadTimeout', value: '5000' },
      ]),
    ).toEqual({ trackingServer: 'metrics.example.com', overwriteCrossDomainMCIDAndAID: false, disableIdSyncs: true, cookieLifetime: 'SESSION' });
    expect(logs).toEqual(['Experience Cloud ID Service: idSyncContainerID "x" is not a whole number; the default 0 is used']);
  });

  it('the ECID rule configures the visitor service before it starts, and says so when the service was already in use', () => {
    for (const builtAlready of [false, true]) {
      const logs: string[] = [];
      const seen: unknown[] = [];
      const { c } = ctx({ ts: 'metrics.example.com' });
      (c as { log: (l: string, m: string) => void }).log = (l, m) => logs.push(`${l}: ${m}`);
      (c as { services: { visitor: unknown } }).services.visitor = {
        configure: (o: unknown) => (seen.push(o), !builtAlready),
        start: async () => {},
      };
      void launch.ecidRule([{ name: 'trackingServer', value: '%ts%' }]).actions[0]!.fn(c);
      expect(seen).toEqual([{ trackingServer: 'metrics.example.com' }]);
      expect(logs).toEqual(builtAlready ? ['warn: Experience Cloud ID Service: the visitor service was in use before Library Loaded; its variables are not applied'] : []);
    }
  });

  it('every ECID variable the engine takes, each as VisitorAPI reads it; a lifetime that is no number said', () => {
    const logs: string[] = [];
    const { c } = ctx({});
    (c as { log: (l: string, m: string) => void }).log = (_l, m) => logs.push(m);
    expect(launch.visitorOptions(c, [
      { name: 'trackingServer', value: 'm.example' },
      { name: 'idSyncContainerID', value: '7' },
      { name: 'idSyncDisableSyncs', value: 1 },
      { name: 'disableThirdPartyCookies', value: 'false' },
      { name: 'cookieDomain', value: 'example.com' },
      { name: 'cookieLifetime', value: '86400' },
    ])).toEqual({ trackingServer: 'm.example', idSyncContainerId: 7, disableIdSyncs: true, disableThirdPartyCookies: false, cookieDomain: 'example.com', cookieLifetime: 86400 });
    expect(launch.visitorOptions(c, [{ name: 'idSyncDisable3rdPartySyncing', value: 'true' }, { name: 'disableIdSyncs', value: 0 }, { name: 'cookieLifetime', value: 'NONE' }, { name: 'idSyncContainerID', value: -1 }, { name: 'cookieLifetime', value: 'week' }])).toEqual({ disableThirdPartyCookies: true, disableIdSyncs: false, cookieLifetime: 'NONE' });
    expect(logs).toEqual(['Experience Cloud ID Service: idSyncContainerID -1 is not a whole number; the default 0 is used', 'Experience Cloud ID Service: cookieLifetime "week" is neither seconds, SESSION nor NONE; the AMCV cookie lives two years']);
  });

  it('the ECID rule logs a visitor service that does not start; without variables it configures nothing', async () => {
    const logs: string[] = [];
    const { c } = ctx({});
    (c as { log: (l: string, m: string) => void }).log = (l, m) => logs.push(`${l}: ${m}`);
    let configured = 0;
    (c as { services: { visitor: unknown } }).services.visitor = { configure: () => (configured++, false), start: () => Promise.reject(new Error('no org')) };
    void launch.ecidRule([]).actions[0]!.fn(c);
    await new Promise((r) => setImmediate(r));
    expect(configured).toBe(0);
    expect(logs).toEqual(['error: The visitor service did not start: no org']);
  });

  it("the ECID data element: the MID of the org's AMCV cookie, undefined before there is one", () => {
    const read = (cookie: string | undefined) => {
      const de = launch.ecidValue();
      if (de.type !== 'custom') throw new Error('not a custom data element');
      return de.fn({ session: { get: () => null, set: () => {} }, settings: { orgId: 'ORG@AdobeOrg' }, cookies: { get: (n: string) => (n === 'AMCV_ORG%40AdobeOrg' ? cookie : undefined) }, log: () => {} } as never);
    };
    expect(read('-1330315163%7CMCMID%7C12345%7CMCAID%7CNONE')).toBe('12345');
    expect(read('-1330315163%7CMCAID%7CNONE')).toBeUndefined();
    expect(read(undefined)).toBeUndefined();
  });

  it('delayNext: false does not make the next action wait', () => {
    const { c } = ctx({});
    const never = () => () => new Promise(() => {});
    expect(launch.customAction(never).fn(c)).toBeInstanceOf(Promise);
    expect(launch.customAction(never, { delayNext: false }).fn(c)).toBeUndefined();
  });
});

describe('Core Random Number', () => {
  const read = (de: ReturnType<typeof launch.randomNumber>, random?: () => number) => {
    if (de.type !== 'custom') throw new Error('not a custom data element');
    const logs: string[] = [];
    const session = { get: () => null, set: () => {} };
    const value = de.fn({ session, settings: {}, ...(random ? { random } : {}), log: (_l: string, m: string) => logs.push(m) } as never);
    return value;
  };
  it('draws an integer from min to max inclusive from the engine random source, bounds rounded inward as Core does', () => {
    expect(read(launch.randomNumber(1, 6), () => 0)).toBe(1);
    expect(read(launch.randomNumber(1, 6), () => 0.999999)).toBe(6);
    expect(read(launch.randomNumber(1.2, 6.8), () => 0)).toBe(2);
    expect(read(launch.randomNumber(1.2, 6.8), () => 0.999999)).toBe(6);
    expect(read(launch.randomNumber(3, 3), () => 0.5)).toBe(3);
  });
  it('without a random source from the engine, it fails with a message (the engine logs it and uses the default)', () => {
    expect(() => read(launch.randomNumber(1, 6))).toThrow('the engine gave this data element no random source');
  });
});

describe('Core Runtime Environment', () => {
  const read = (de: ReturnType<typeof launch.runtimeEnvironment>, event: unknown) => {
    if (de.type !== 'custom') throw new Error('not a custom data element');
    return de.fn({ session: { get: () => null, set: () => {} }, settings: { environment: 'staging' }, event, log: () => {} } as never);
  };
  it("the environment's stage, and the event's type, detail and direct-call identifier as turbine's event gives them", () => {
    const call = { type: 'direct-call', id: 'cart:add', detail: { sku: 'A1' } };
    expect(read(launch.runtimeEnvironment('environmentStage'), call)).toBe('staging');
    expect(read(launch.runtimeEnvironment('eventType'), call)).toBe('core.direct-call');
    expect(read(launch.runtimeEnvironment('eventDetail'), call)).toEqual({ sku: 'A1' });
    expect(read(launch.runtimeEnvironment('DCRIdentifier'), call)).toBe('cart:add');
    expect(read(launch.runtimeEnvironment('eventType'), { type: 'dom-ready' })).toBe('core.dom-ready');
  });
});

describe('Core page events as the engine\'s triggers', () => {
  it('custom event on window (where Launch listens), click, form submission, enters viewport, time on page, data element change', () => {
    expect(launch.customEvent('cart:add')).toEqual({ type: 'custom-event', name: 'cart:add', target: 'window' });
    expect(launch.customEvent('cart:add', 'button.add', { bubbleFireIfParent: false, bubbleStop: true })).toEqual({ type: 'custom-event', name: 'cart:add', target: 'window', selector: 'button.add', bubbleFireIfParent: false, bubbleStop: true });
    // Without a selector Launch fires for the event's target only.
    expect(launch.click()).toEqual({ type: 'click', selector: '*', bubbleFireIfParent: false });
    expect(launch.click('.card', { bubbleFireIfChildFired: false })).toStrictEqual({ type: 'click', selector: '.card', bubbleFireIfChildFired: false });
    expect(launch.formSubmission()).toEqual({ type: 'form-submit' });
    expect(launch.formSubmission('form#news')).toEqual({ type: 'form-submit', selector: 'form#news' });
    expect(launch.entersViewport('.promo')).toEqual({ type: 'element-visible', selector: '.promo' });
    expect(launch.entersViewport('.promo', 'everyEntry')).toEqual({ type: 'element-visible', selector: '.promo', everyEntry: true });
    expect(launch.timeOnPage(30)).toEqual({ type: 'timer', ms: 30_000 });
    expect(launch.dataElementChange('cart size')).toEqual({ type: 'data-element-change', name: 'cart size' });
  });
});

describe('Analytics extension: what the tracker is given and sends', () => {
  const withLogs = (values: Record<string, unknown> = {}) => {
    const made = ctx(values);
    const logs: string[] = [];
    const emitted: unknown[] = [];
    Object.assign(made.c as object, { log: (l: string, m: string) => logs.push(`${l}: ${m}`), emit: (e: unknown) => emitted.push(e) });
    return { ...made, logs, emitted };
  };
  const at = (c: unknown, over: Record<string, unknown>) => Object.assign(c as object, over);

  it('Set Variables as the extension computes them: aliases with the dynamic prefix, campaign from the query string, filter lists joined, events after the ones already set, linkTrackVars and linkTrackEvents without "None"', () => {
    const s: Record<string, unknown> = { events: 'event9', linkTrackVars: 'None', linkTrackEvents: 'None' };
    launch.applyTrackerVariables(s as never, {
      dynamicVariablePrefix: '@@',
      eVars: [{ name: 'eVar1', value: 'one' }, { name: 'eVar2', type: 'alias', value: 'prop3' }, { name: 'eVar4', type: 'alias', value: 'nothing' }],
      props: [{ name: 'prop1', type: 'alias', value: 'eVar1' }],
      campaign: { type: 'queryParam', value: 'cid' },
      linkInternalFilters: ['a.example', 'b.example'],
      linkExternalFilters: 'not a list' as never,
      events: [{ name: 'event1' }, { name: 'event2', id: 'serial', value: '2' }],
      server: 'www',
      hierarchies: [{ name: 'hier2', sections: ['a', 'b'] }],
    }, 'https://x.example/?cid=spring+sale&cid=other');
    expect(s).toEqual({
      dynamicVariablePrefix: '@@', eVar1: 'one', eVar2: '@@c3', eVar4: undefined, prop1: '@@v1', campaign: 'spring sale', linkInternalFilters: 'a.example,b.example', linkExternalFilters: 'not a list', server: 'www', hier2: 'a,b',
      events: 'event9,event1,event2:serial=2',
      linkTrackVars: 'eVar1,eVar2,eVar4,prop1,campaign,server,hier2,events',
      linkTrackEvents: 'event1,event2',
    });
    const plain: Record<string, unknown> = {};
    launch.applyTrackerVariables(plain as never, { eVars: [{ name: 'eVar3', type: 'alias', value: 'eVar7' }], campaign: { value: 'c' }, pageName: 'p' }, 'not a url');
    expect(plain).toEqual({ eVar3: 'D=v7', campaign: 'c', pageName: 'p', linkTrackVars: 'eVar3,campaign' });
    const noUrl: Record<string, unknown> = {};
    launch.applyTrackerVariables(noUrl as never, { campaign: { type: 'queryParam', value: 'cid' } }, 'not a url');
    expect(noUrl).toEqual({ campaign: undefined, linkTrackVars: 'campaign' });
  });

  it('a link beacon on a link is named by its text, else its alt, title, value or src; on anything else "link clicked"; type o unless set', async () => {
    const names: string[] = [];
    for (const element of [
      { tagName: 'A', text: '  Buy \n now ', attributes: { href: 'https://x.example/buy' } },
      { tagName: 'a', text: ' ', attributes: { alt: 'Alt', title: 'Title' } },
      { tagName: 'A', attributes: { title: ' T  t ' } },
      { tagName: 'A', attributes: { value: 'V' } },
      { tagName: 'A', attributes: { src: 'S' } },
      { tagName: 'BUTTON', text: 'Go' },
    ]) {
      const { c, hits } = withLogs();
      at(c, { event: { type: 'trigger', on: 'click', element } });
      await launch.sendBeacon({}, { type: 'link' }).fn(c);
      names.push(`${String(hits[0]?.linkType)}:${String(hits[0]?.linkName)}`);
    }
    expect(names).toEqual(['o:Buy now', 'o:Alt', 'o:T t', 'o:V', 'o:S', 'o:link clicked']);
    const { c, hits } = withLogs({ n: 'Named' });
    await launch.sendBeacon({}, { type: 'link', linkType: 'd', linkName: '%n%' }).fn(c);
    expect(hits[0]).toMatchObject({ type: 'tl', linkType: 'd', linkName: 'Named' });
  });

  it('without consent each action says why it did nothing', async () => {
    const { c, hits, logs } = withLogs();
    (c as { settings: Record<string, unknown> }).settings.trackingConsentCookie = 'sat_track';
    await launch.setVariables({}, { pageName: 'p' }).fn(c);
    await launch.clearVariables({}).fn(c);
    await launch.sendBeacon({}, { type: 'page' }).fn(c);
    expect(hits).toEqual([]);
    expect(logs).toEqual(['error: Cannot set variables: EU compliance was not acknowledged by the user.', 'error: Cannot clear variables: EU compliance was not acknowledged by the user.', 'error: Cannot send beacon: EU compliance was not acknowledged by the user.']);
  });

  it('customSetup runs after the global properties unless it says beforeSettings; one that throws is logged and the beacon still goes', async () => {
    const seen: unknown[] = [];
    const setup = (() => function (s: Record<string, unknown>) {
      seen.push(s.server);
    }) as never;
    for (const phase of ['afterSettings', 'beforeSettings'] as const) {
      const { c } = withLogs();
      await launch.sendBeacon({ trackerProperties: { server: 'www' }, customSetup: setup, customSetupPhase: phase }, { type: 'page' }).fn(c);
    }
    expect(seen).toEqual(['www', undefined]);
    const { c, hits, logs } = withLogs();
    const boom = (() => function () {
      throw new Error('boom');
    }) as never;
    await launch.sendBeacon({ customSetup: boom }, { type: 'page' }).fn(c);
    expect(logs).toContain('error: Analytics customSetup threw: boom');
    expect(hits).toHaveLength(1);
  });



  it("Audience Manager forwarding: set up once the tracker is made, its hits carry postbacks; a config DIL refuses (no VisitorAPI: no ECID org) is logged and the hits go without it", async () => {
    const config = { partner: 'acme', containerNSID: 3, visitorService: { namespace: 'ORG@AdobeOrg' } };
    const withOrg = withLogs();
    at(withOrg.c, { settings: { ...(withOrg.c as { settings: object }).settings, orgId: 'ORG@AdobeOrg' } });
    await launch.sendBeacon({ audienceManager: config }, { type: 'page' }).fn(withOrg.c);
    expect(withOrg.hits.map((h) => h.postbacks)).toEqual([{ index: 1, d: { nsid: '3', jsonv: '1' } }]);
    const { c, hits, logs } = withLogs();
    await launch.sendBeacon({ audienceManager: config }, { type: 'page' }).fn(c);
    expect(logs).toEqual(['error: Analytics Audience Manager forwarding: Error in attempt to create DIL instance with DIL.create(): Error in processing Visitor API, which is a hard dependency for DIL v8.0+: Visitor does not exist.']);
    expect(hits.map((h) => h.postbacks)).toEqual([undefined]);
  });

  it('plugins the Common Analytics Plugins extension initializes reach the tracker only if they come before it is made', async () => {
    const { c } = withLogs();
    await launch.initializePlugins([{ name: 'getValOnce', on: 'analytics' }]).fn(c);
    await launch.sendBeacon({}, { type: 'page' }).fn(c);
    const s = launch.trackerFor(c, {}) as unknown as Record<string, unknown>;
    expect(typeof s.getValOnce).toBe('function');
    await launch.initializePlugins([{ name: 'getPreviousValue', on: 'analytics' }]).fn(c);
    expect(s.getPreviousValue).toBeUndefined();
    expect(typeof s.getNewRepeat).toBe('function');
  });
});

describe('the rest of Core\'s events as the engine\'s triggers', () => {
  const filter = [{ name: 'id', value: 'x' }] as never;
  it('page lifecycle events, direct calls (the identifier trimmed), history change, element exists, hover, media time played', () => {
    expect([launch.libraryLoaded(), launch.domReady(), launch.windowLoaded(), launch.pageBottom(), launch.historyChange()]).toEqual([{ type: 'library-loaded' }, { type: 'dom-ready' }, { type: 'window-loaded' }, { type: 'page-bottom' }, { type: 'history-change' }]);
    expect(launch.directCall('  cart add ')).toEqual({ type: 'direct-call', id: 'cart add' });
    expect(launch.elementExists('.banner')).toEqual({ type: 'element-exists', selector: '.banner' });
    expect(launch.elementExists('.banner', { elementProperties: filter })).toEqual({ type: 'element-exists', selector: '.banner', properties: filter });
    expect(launch.elementExists('.banner', { elementProperties: [] })).toEqual({ type: 'element-exists', selector: '.banner' });
    expect(launch.hover('.card')).toEqual({ type: 'hover', selector: '.card' });
    expect(launch.hover('.card', 300, { bubbleStop: true, bubbleFireIfChildFired: true, bubbleFireIfParent: false })).toEqual({ type: 'hover', selector: '.card', delay: 300, bubbleStop: true, bubbleFireIfChildFired: true, bubbleFireIfParent: false });
    expect(launch.mediaTimePlayed(10, 'second')).toEqual({ type: 'media-time-played', amount: 10, unit: 'second' });
    expect(launch.mediaTimePlayed(50, 'percent', undefined, { elementProperties: filter, bubbleStop: true })).toEqual({ type: 'media-time-played', amount: 50, unit: 'percent', properties: filter });
    expect(launch.mediaTimePlayed(50, 'percent', 'video', { bubbleStop: false })).toEqual({ type: 'media-time-played', amount: 50, unit: 'percent', selector: 'video', bubbleStop: false });
    expect(launch.entersViewport('.p', 'firstEntry', { delay: 500, elementProperties: filter })).toEqual({ type: 'element-visible', selector: '.p', properties: filter, delay: 500 });
    expect(launch.customEvent('x', undefined, { elementProperties: filter })).toEqual({ type: 'custom-event', name: 'x', target: 'window', properties: filter });
    expect(launch.click(undefined, { elementProperties: filter })).toEqual({ type: 'click', properties: filter, selector: '*', bubbleFireIfParent: false });
    expect(launch.formSubmission('form', { bubbleFireIfParent: true })).toEqual({ type: 'form-submit', selector: 'form', bubbleFireIfParent: true });
  });
  it('DOM events on document with Core\'s selector and options, the Custom Code event, data layer pushes', () => {
    expect(launch.domEvent('play')).toEqual({ type: 'custom-event', name: 'play', target: 'document' });
    expect(launch.domEvent('blur', 'input', { bubbleStop: true, elementProperties: filter })).toEqual({ type: 'custom-event', name: 'blur', target: 'document', selector: 'input', properties: filter, bubbleStop: true });
    expect(Object.entries(launch.DOM_EVENTS)).toEqual([['mediaEnded.js', 'ended'], ['mediaPlay.js', 'play'], ['mediaPause.js', 'pause'], ['mediaVolumeChange.js', 'volumechange'], ['mediaStalled.js', 'stalled'], ['mediaLoadedData.js', 'loadeddata'], ['blur.js', 'blur'], ['focus.js', 'focus'], ['change.js', 'change'], ['keyPress.js', 'keypress'], ['keyDown.js', 'keydown'], ['keyUp.js', 'keyup'], ['mousedown.js', 'mousedown']]);
    expect(launch.customCodeEvent('function (trigger) { trigger(); }', 3)).toEqual({ type: 'direct-call', id: 'offtag-launch:core.custom-code:3', code: 'function (trigger) { trigger(); }' });
    expect(launch.dataLayerPush('dataLayer')).toEqual({ type: 'data-layer-push', global: 'dataLayer' });
    expect(launch.dataLayerPush('appEventData', '', 'dlm')).toEqual({ type: 'data-layer-push', global: 'appEventData', event: '', flavor: 'dlm' });
  });
});

describe('the ECID data element', () => {
  const ORG = '0123456789ABCDEF01234567@AdobeOrg';
  const AMCV = `AMCV_${encodeURIComponent(ORG)}`;
  const withMid = 'MCMID%7C41284960711373302781577314566843810362%7CMCAAMLH-1%7C7';
  const read = (type: string, pageCookie: string, jar: string | undefined) => {
    const de = launch.ecidValue();
    if (de.type !== 'custom') throw new Error('not a custom data element');
    const session = { get: () => null, set: () => {} };
    return de.fn({ session, settings: { orgId: ORG }, event: { type }, snapshot: { cookie: pageCookie }, cookies: { get: (n: string) => (n === AMCV ? jar : undefined) } } as never);
  };
  it("the page's cookie at the event, as VisitorAPI answers at that moment: none on a first page until the worker's ID call answer has reached the page, however soon the worker had it", () => {
    expect(read('library-loaded', 'a=1', withMid)).toBeUndefined();
    expect(read('library-loaded', `a=1; ${AMCV}=${withMid}`, withMid)).toBe('41284960711373302781577314566843810362');
    expect(read('page-bottom', 'a=1', withMid)).toBeUndefined();
    expect(read('dom-ready', `a=1; ${AMCV}=${withMid}`, undefined)).toBe('41284960711373302781577314566843810362');
  });
});

describe("data elements made of their settings: the Web SDK's XDM object and identity map, Core's Merged Objects", () => {
  const resolve = (elements: Record<string, ReturnType<typeof launch.constant>>, customVars = new Map<string, unknown>(), pageCall = false) =>
    createResolver(launch.dataElements(elements), {
      settings: { dataLayer: 'digitalData' } as never,
      page: {} as never,
      snapshot: { url: 'https://www.example.com/', time: 0, referrer: '', viewport: { width: 1, height: 1 }, dataLayer: {} } as never,
      event: { type: 'direct-call', id: 'cart:add', detail: { sku: 'A1' } },
      cookies: { get: () => undefined, set: () => {}, all: () => ({}) } as never,
      session: { get: () => null, set: () => {} } as never,
      log: () => {},
      customVars,
      pageCall,
    });

  it("replaces the tokens as turbine does: a whole token keeps the value's type, a longer string writes undefined as JavaScript does, an unknown name stays as written", () => {
    const r = resolve(
      {
        name: launch.constant('Home'),
        total: launch.constant(42),
        nothing: launch.constant(undefined),
        xdm: launch.xdmObject({ web: { webPageDetails: { name: '%name%', views: [{ value: '%total%' }] } }, eVar19: '%nothing%_%nothing%', missing: '%nothing%', type: '%CustomEventName%', id: '%event.identifier%', cart: '%cart%' }),
      },
      new Map([['cart', { items: 2 }]]),
    );
    expect(r.get('xdm')).toEqual({ web: { webPageDetails: { name: 'Home', views: [{ value: 42 }] } }, eVar19: 'undefined_undefined', missing: undefined, type: '%CustomEventName%', id: undefined, cart: { items: 2 } });
    expect(Object.keys(r.get('xdm') as object)).toContain('missing');
  });

  it('keeps the identities whose ID is text, and the namespaces left with one', () => {
    const r = resolve({
      account: launch.constant('acc-1'),
      empty: launch.constant(''),
      map: launch.identityMap({ ACC: [{ id: '%account%', primary: true, authenticatedState: 'authenticated' }, { id: '%empty%', primary: false }], CRM: [{ id: '%empty%' }], NUM: [{ id: 7 }] }, { storageDuration: 'pageview' }),
    });
    expect(r.get('map')).toEqual({ ACC: [{ id: 'acc-1', primary: true, authenticatedState: 'authenticated' }] });
  });

  it("for the page's getVar, custom code, Runtime Environment and event tokens get no event, as turbine's getVar on the page gives none (a read that fails takes no default)", () => {
    const elements = {
      code: launch.customCode(((_w: unknown) => function (e?: { $type: string }) {
        return e ? e.$type : 'no event';
      }) as never),
      type: launch.runtimeEnvironment('eventType', { defaultValue: 'fallback' }),
      xdm: launch.xdmObject({ id: '%event.detail.sku%' }),
    };
    const rule = resolve(elements);
    expect([rule.get('code'), rule.get('type'), rule.get('xdm')]).toEqual(['core.direct-call', 'core.direct-call', { id: 'A1' }]);
    const page = resolve(elements, new Map(), true);
    expect([page.get('code'), page.get('type'), page.get('xdm')]).toEqual(['no event', undefined, { id: undefined }]);
  });

  it("Merged Objects merges as Core's deep merge: an undefined value is kept on a key that has none and does not replace a defined one; arrays are joined", () => {
    const r = resolve({
      nothing: launch.constant(undefined),
      tags: launch.constant(['a']),
      first: launch.xdmObject({ id: '%nothing%', name: 'kept', tags: '%tags%' }),
      second: launch.xdmObject({ name: '%nothing%', extra: '%nothing%', tags: ['b'] }),
      merged: launch.mergedObjects(['%first%', '%second%', '%nothing%']),
    });
    const merged = r.get('merged') as Record<string, unknown>;
    expect(merged).toEqual({ id: undefined, name: 'kept', tags: ['a', 'b'], extra: undefined });
    expect(Object.keys(merged)).toEqual(['id', 'name', 'tags', 'extra']);
  });
});

describe('Core JavaScript Variable', () => {
  it('of the data layer itself reads all of it (the bridge sends it whole, in the page\'s key order); of a path, that path; of a page fact, none', () => {
    expect(readSetOf({ all: launch.javascriptVariable('utag_data') })).toBeNull();
    expect(readSetOf({ one: launch.javascriptVariable('utag_data.page.name'), url: launch.javascriptVariable('location.href') })).toStrictEqual({ page: { name: 0 } });
  });
});

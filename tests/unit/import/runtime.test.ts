/**
 * The pieces an imported container is written with, on a rule context of the engine's shape:
 * Analytics variables (aliases, hierarchies, events, global properties), link beacons, clear,
 * ECID customer ids, `delayNext: false`.
 */
import { describe, expect, it } from 'vitest';
import * as launch from '../../../src/launch/index.ts';
import type { AnalyticsHit } from '../../../src/worker-engine/services.ts';

function ctx(values: Record<string, unknown>) {
  const hits: AnalyticsHit[] = [];
  const calls: unknown[][] = [];
  const analytics = { track: async (h: AnalyticsHit) => void hits.push(h) };
  const c = {
    rule: { name: 'r' },
    settings: { trackingConsentCookie: '' },
    snapshot: { url: 'https://www.example.com/p?q=1', time: 0 },
    event: { type: 'direct-call', id: 'x' },
    cookies: { get: () => undefined },
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
  it('set, send (page view with the global properties), clear', async () => {
    const { c, hits } = ctx({ pn: 'Home', lob: 'Safety', ev: 'event49', a: '7' });
    const analytics = { trackerProperties: { channel: '%lob%', eVars: [{ name: 'eVar9', type: 'value' as const, value: 'global' }] } };
    await launch.setVariables({ pageName: '%pn%', eVars: [{ name: 'eVar1', type: 'value', value: '%a%' }, { name: 'eVar2', value: '%missing%' }], props: [{ name: 'prop1', type: 'alias', value: 'eVar1' }], hierarchies: [{ name: 'hier1', sections: ['a', '%pn%'], delimiter: '|' }], events: [{ name: '%ev%' }, { name: 'event2', value: '3' }] }).fn(c);
    await launch.sendBeacon(analytics, { type: 'page' }).fn(c);
    await launch.clearVariables().fn(c);
    await launch.sendBeacon(analytics, { type: 'link', linkName: '' }).fn(c);
    expect(hits).toEqual([
      { type: 't', vars: { channel: 'Safety', eVar9: 'global', pageName: 'Home', eVar1: '7', prop1: 'D=v1', hier1: 'a|Home', events: 'event49,event2=3' } },
      { type: 'tl', linkType: 'o', linkName: 'link clicked', vars: { channel: 'Safety', eVar9: 'global' }, linkTrackVars: '', linkTrackEvents: '' },
    ]);
  });

  it('a link beacon tracks the variables and events it set', async () => {
    const { c, hits } = ctx({ ids: 'a,b' });
    await launch.setVariables({ pageName: 'p', lists: [{ name: 'list1', value: '%ids%' }], events: [{ name: 'event49' }] }).fn(c);
    await launch.sendBeacon({}, { type: 'link', linkType: 'e', linkName: '%ids%' }).fn(c);
    expect(hits).toEqual([{ type: 'tl', linkType: 'e', linkName: 'a,b', vars: { pageName: 'p', list1: 'a,b', events: 'event49' }, linkTrackVars: 'pageName,list1,events', linkTrackEvents: 'event49' }]);
  });
});

describe('ECID and sequencing', () => {
  it('Set Customer IDs hands the visitor service the ids with their auth states, tokens replaced', async () => {
    const { c, calls } = ctx({ crm: 'u-1' });
    await launch.setCustomerIds([{ integrationCode: 'crm', value: '%crm%', authState: 'AUTHENTICATED' }, { integrationCode: 'empty', value: '%none%' }]).fn(c);
    expect(calls).toEqual([['setCustomerIDs', { crm: { id: 'u-1', authState: 1 } }]]);
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

describe('Core page events as the engine\'s triggers', () => {
  it('custom event on window (where Launch listens), click, form submission, enters viewport, time on page, data element change', () => {
    expect(launch.customEvent('cart:add')).toEqual({ type: 'custom-event', name: 'cart:add', target: 'window' });
    expect(launch.customEvent('cart:add', 'button.add', { bubbleFireIfParent: false, bubbleStop: true })).toEqual({ type: 'custom-event', name: 'cart:add', target: 'window', selector: 'button.add', bubbleFireIfParent: false, bubbleStop: true });
    // Without a selector Launch fires for the event's target only.
    expect(launch.click()).toEqual({ type: 'click', selector: '*', bubbleFireIfParent: false });
    expect(launch.click('.card', { bubbleFireIfChildFired: false })).toEqual({ type: 'click', selector: '.card', bubbleFireIfChildFired: false });
    expect(launch.formSubmission()).toEqual({ type: 'form-submit' });
    expect(launch.formSubmission('form#news')).toEqual({ type: 'form-submit', selector: 'form#news' });
    expect(launch.entersViewport('.promo')).toEqual({ type: 'element-visible', selector: '.promo' });
    expect(launch.entersViewport('.promo', 'everyEntry')).toEqual({ type: 'element-visible', selector: '.promo', everyEntry: true });
    expect(launch.timeOnPage(30)).toEqual({ type: 'timer', ms: 30_000 });
    expect(launch.dataElementChange('cart size')).toEqual({ type: 'data-element-change', name: 'cart size' });
  });
});

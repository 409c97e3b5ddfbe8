/**
 * What the kit's Analytics and visitor actions hand the services, run by the engine: page view and
 * link beacons from a variable map (tokens replaced, empty values left out, objects as JSON, a
 * nameless link named as Launch names it), a beacon or a visitor start that fails is logged and
 * stops nothing; `adobeServices()`'s hooks reach the service each belongs to; a selector's
 * problem as the build words it.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { adobeServices, constant, defineContainer, fn } from '../../../src/container/index.ts';
import { selectorProblem } from '../../../src/container/selectors.ts';
import type { AnalyticsService, VisitorService } from '../../../src/worker-engine/services.ts';
import { drive, logsOf, recordingServices, SITES, T0, testEnv, type Recorder } from '../harness.ts';

/** Built in each test, not when the file loads, so that what it runs is each test's (mutation testing sees it). */
const build = () =>
  defineContainer({
  name: 'kit actions',
  services: adobeServices(),
  dataElements: {
    page: constant('Home'),
    empty: constant(''),
    none: fn(() => null, { reads: [] }),
    obj: constant({ a: 1 }),
    num: constant(0),
  },
  rules: (k) => [
    { name: 'view', events: [{ type: 'direct-call', id: 'view' }], actions: [k.pageView({ pageName: '%page%', prop1: '%empty%', prop2: '%none%', prop3: '%obj%', prop4: '%num%', eVar1: 'fixed %page%' })] },
    { name: 'link', events: [{ type: 'direct-call', id: 'link' }], actions: [k.link('%page% link', { prop1: '%page%', prop2: '%empty%' })] },
    { name: 'nameless', events: [{ type: 'direct-call', id: 'nameless' }], actions: [k.link('%empty%', { prop1: '%page%' }, { trackVars: ['prop1', 'events'], trackEvents: ['event1', 'event2'], name: 'Mine' })] },
    { name: 'start', events: [{ type: 'direct-call', id: 'start' }], actions: [k.startVisitor(), k.run('after', (ctx) => ctx.log('log', 'went on'))] },
  ],
});
let container: ReturnType<typeof build>;
beforeEach(() => {
  container = build();
});

function run(opts: { track?: () => Promise<void>; visitorStart?: () => Promise<void> } = {}) {
  const rec: Recorder = { hits: [], visitorStarts: 0 };
  const d = drive({ container, services: () => recordingServices(rec, opts), env: testEnv(), page: SITES.shop, defaults: () => ({ time: T0, url: 'https://shop.example.com/p' }) });
  return { rec, fire: d.fire };
}

describe("the kit's Analytics actions", () => {
  it('a page view: tokens replaced, empty and missing values left out, objects as JSON, 0 kept', async () => {
    const { rec, fire } = run();
    await fire('view');
    expect(rec.hits).toEqual([{ type: 't', vars: { pageName: 'Home', prop3: '{"a":1}', prop4: '0', eVar1: 'fixed Home' } }]);
  });
  it('a link beacon: type o, its name with tokens replaced, every variable of the map tracked unless it says which; a nameless one is "link clicked"', async () => {
    const { rec, fire } = run();
    await fire('link');
    await fire('nameless');
    expect(rec.hits).toEqual([
      { type: 'tl', linkType: 'o', linkName: 'Home link', vars: { prop1: 'Home' }, linkTrackVars: 'prop1,prop2', linkTrackEvents: '' },
      { type: 'tl', linkType: 'o', linkName: 'link clicked', vars: { prop1: 'Home' }, linkTrackVars: 'prop1,events', linkTrackEvents: 'event1,event2' },
    ]);
    expect(container.rules.map((r) => r.actions[0]!.name)).toEqual(['Send page view beacon', 'Send link beacon', 'Mine', 'Start the visitor service']);
  });
  it('a beacon the tracker refuses is logged with the rule and its reason; the dispatch goes on', async () => {
    const { fire } = run({ track: () => Promise.reject(new Error('queue full')) });
    const b = await fire('view');
    await Promise.resolve();
    const later = await fire('link');
    const said = [...logsOf(b), ...logsOf(later)];
    expect(said).toContain('Analytics beacon of rule "view" failed: queue full');
    const { fire: fire2 } = run({ track: () => Promise.reject('plain') });
    await fire2('view');
    const after = await fire2('view');
    expect(logsOf(after)).toContain('Analytics beacon of rule "view" failed: plain');
  });
  it('a visitor service that does not start is logged; the next action still runs', async () => {
    const { rec, fire } = run({ visitorStart: () => Promise.reject(new Error('no org')) });
    const b = await fire('start');
    const later = await fire('view');
    expect(rec.visitorStarts).toBe(1);
    expect(logsOf(b)).toContain('went on');
    expect([...logsOf(b), ...logsOf(later)]).toContain('The visitor service did not start: no org');
    const other = run({ visitorStart: () => Promise.reject(7) });
    const first = await other.fire('start');
    expect([...logsOf(first), ...logsOf(await other.fire('view'))]).toContain('The visitor service did not start: 7');
  });
});

describe('adobeServices() hooks', () => {
  it('clicks, delivered beacons and pending hits go to the tracker; frame messages and the Visitor facade to the visitor service', async () => {
    const calls: unknown[][] = [];
    const visitor = { onFrameMessage: (...a: unknown[]) => void calls.push(['frame', ...a]), call: async (...a: unknown[]) => (calls.push(['call', ...a]), { ok: 1 }) } as unknown as VisitorService;
    const analytics = { onClick: async (l: unknown) => void calls.push(['click', l]), onBeaconDelivered: (ms: number) => void calls.push(['rtt', ms]), pendingHits: () => 3 } as unknown as AnalyticsService;
    const hooks = adobeServices().hooks!({ visitor, analytics });
    await hooks.onClick!({ href: 'https://x.example/a.pdf' } as never);
    hooks.onBeaconDelivered!(12);
    hooks.onFrameMessage!('f1', 'https://dpm.example', { d: 1 });
    expect(await hooks.serviceCall!('visitor', 'getMarketingCloudVisitorID', [1])).toEqual({ ok: 1 });
    expect(hooks.serviceCall!('other', 'x', [])).toBeUndefined();
    expect(hooks.pendingHits!()).toBe(3);
    expect(adobeServices().hooks!({ visitor, analytics: { ...analytics, pendingHits: undefined } }).pendingHits!()).toBe(0);
    expect(calls).toEqual([['click', { href: 'https://x.example/a.pdf' }], ['rtt', 12], ['frame', 'f1', 'https://dpm.example', { d: 1 }], ['call', 'getMarketingCloudVisitorID', [1]]]);
  });
});

describe('selector problems', () => {
  it('a selector is checked as the browser would; a vendor-prefixed pseudo-class is left to the browser unless the selector is broken anyway', () => {
    expect(selectorProblem('a.b > li:not(.x)')).toBeUndefined();
    expect(selectorProblem(':-webkit-any(a)')).toBeUndefined();
    expect(selectorProblem('::-webkit-scrollbar')).toBeUndefined();
    expect(selectorProblem('a:-webkit-any(')).toBe('Unknown pseudo-class: "-webkit-any" (at character 13)');
    expect(selectorProblem(':foo')).toBe('Unknown pseudo-class: "foo" (at character 3)');
    expect(selectorProblem('div >')).toBe('Expected rule but end of input reached (at character 4)');
  });
});

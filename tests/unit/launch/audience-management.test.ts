/**
 * AppMeasurement's Audience Manager module (src/launch/appmeasurement/audience-management.ts) and
 * the postbacks of the tracker's hits, on what tests/unit/launch/appmeasurement.test.ts leaves
 * out: configs that are no object, the settings the module writes onto its config, DIL's checks of
 * the partner, the visitor service and `ignoreHardDependencyOnVisitorAPI`, its reading of
 * containerNSID and isCoopSafe (as DIL's `DIL.create` reads them in the deployed libraries), and
 * how the tracker reads a module or `usePostbacks` of other shapes.
 *
 * Mutants no input can tell apart (left Survived on purpose):
 * - setup: `raw || typeof raw === 'number'` → true (and its parts): parseInt of what it leaves out
 *   (undefined, null, '', false) is NaN, which gives 0 as well; `n >= 0` → `n > 0`: 0 is the default.
 */
import { describe, expect, it } from 'vitest';
import { audienceManagement } from '../../../src/launch/appmeasurement/audience-management.ts';
import { createAppMeasurement, type TrackerHost } from '../../../src/launch/appmeasurement/tracker.ts';
import type { AnalyticsHit } from '../../../src/worker-engine/services.ts';

const config = (over: Record<string, unknown> = {}) => ({ partner: 'acme', visitorService: { namespace: 'ORG@AdobeOrg' }, ...over });
const paramsOf = (over: Record<string, unknown>) => {
  const m = audienceManagement(true);
  m.setup(config(over));
  return m.getEventCallConfigParams();
};
const DIL_VISITOR = "Error in attempt to create DIL instance with DIL.create(): Error in processing Visitor API, which is a hard dependency for DIL v8.0+: DIL.create() needs the initConfig property `visitorService`:{namespace:'<Experience Cloud Org ID>'}";

describe("the Audience Manager module's setup", () => {
  it('a config that is no object sets nothing up', () => {
    const m = audienceManagement(true);
    for (const c of [undefined, null, 'acme', 5]) m.setup(c);
    expect([m.isReady(), m.getEventCallConfigParams()]).toStrictEqual([false, {}]);
  });
  it("writes what the module sets before DIL.create onto the config: no default request, no CORS, the page's protocol", () => {
    const c: Record<string, unknown> = config({ disableDefaultRequest: false, secureDataCollection: true });
    audienceManagement(true).setup(c);
    expect(c).toMatchObject({ disableDefaultRequest: true, disableCORS: true, secureDataCollection: false });
  });
  it('a partner that is no text makes the module ready with no parameters, as an empty one does', () => {
    const m = audienceManagement(false);
    m.setup({ partner: 5 });
    expect([m.isReady(), m.getEventCallConfigParams()]).toStrictEqual([true, {}]);
  });
  it('ignoreHardDependencyOnVisitorAPI: true (only the boolean) lets it make DIL without VisitorAPI or the visitor service', () => {
    const m = audienceManagement(false);
    m.setup({ partner: 'acme', ignoreHardDependencyOnVisitorAPI: true });
    expect([m.isReady(), m.getEventCallConfigParams()]).toStrictEqual([true, { nsid: '0', jsonv: '1' }]);
    expect(() => audienceManagement(false).setup({ partner: 'acme', ignoreHardDependencyOnVisitorAPI: 'true' })).toThrow('Visitor does not exist.');
  });
  it("a visitor service that is no object, or whose namespace is no text or empty, is DIL's error", () => {
    for (const visitorService of ['ORG@AdobeOrg', { namespace: 7 }, { namespace: '' }, null]) {
      const m = audienceManagement(true);
      expect(() => m.setup(config({ visitorService }))).toThrow(new Error(DIL_VISITOR));
      expect(m.isReady()).toBe(false);
    }
  });
  it('containerNSID: a number or text read as a whole number when it is one ≥ 0, else 0; isCoopSafe only as a boolean', () => {
    expect([0, '0', '12abc', 4.8, '', null, 'abc', '-1'].map((containerNSID) => paramsOf({ containerNSID }).nsid)).toEqual(['0', '0', '12', '4', '0', '0', '0', '0']);
    expect(paramsOf({ isCoopSafe: 'true' })).toStrictEqual({ nsid: '0', jsonv: '1' });
  });
  it('the parameters are a copy each time; set up again, the new config replaces them; passData does nothing', () => {
    const m = audienceManagement(true);
    m.setup(config({ containerNSID: 2, isCoopSafe: true }));
    const first = m.getEventCallConfigParams();
    first.nsid = 'changed';
    expect(m.getEventCallConfigParams()).toStrictEqual({ nsid: '2', jsonv: '1', coop_safe: '1' });
    m.setup(config());
    expect(m.getEventCallConfigParams()).toStrictEqual({ nsid: '0', jsonv: '1' });
    expect(m.passData({ stuff: [] })).toBeUndefined();
  });
});

describe("the tracker's postbacks with modules and settings of other shapes", () => {
  function tracker(o: { index?: number } = {}) {
    const hits: AnalyticsHit[] = [];
    const h: TrackerHost = {
      cookie: () => undefined,
      setCookie: () => {},
      url: () => 'https://www.example.com/',
      hostname: () => 'www.example.com',
      cookieDomain: () => '.example.com',
      now: () => 0,
      send: (hit) => void hits.push(hit),
      log: () => {},
    };
    return { s: createAppMeasurement('rs1', h, o), hits };
  }
  it('usePostbacks undefined or null turns them on (AppMeasurement tests 0 != usePostbacks); an index that is no number is 0', () => {
    const { s, hits } = tracker({ index: 2 });
    s.usePostbacks = undefined;
    s.t();
    s.usePostbacks = null;
    s._in = '3';
    s.t();
    s.usePostbacks = '';
    s.t();
    expect(hits.map((x) => x.postbacks)).toEqual([{ index: 2 }, { index: 0 }, undefined]);
  });
  it("a module whose isReady is no function is not ready; a ready one's parameters: its own, without the empty ones, none when it has no such method or gives no object", () => {
    const sent = (module: unknown) => {
      const { s, hits } = tracker();
      s.AudienceManagement = module;
      s.t();
      return hits[0]!.postbacks;
    };
    expect(sent({ isReady: true })).toBeUndefined();
    expect(sent({ isReady: () => true, getEventCallConfigParams: () => ({ nsid: '0', empty: '', zero: 0, n: 5 }) })).toStrictEqual({ index: 0, d: { nsid: '0', n: '5' } });
    expect(sent({ isReady: () => true })).toStrictEqual({ index: 0, d: {} });
    expect(sent({ isReady: () => true, getEventCallConfigParams: () => 'nsid=0' })).toStrictEqual({ index: 0, d: {} });
  });
});

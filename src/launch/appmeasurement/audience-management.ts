/**
 * AppMeasurement's Audience Manager module (`s.AudienceManagement`, the module file the Analytics
 * extension loads when its Audience Manager forwarding is on), as far as the beacon goes: `setup`
 * makes the module's DIL instance from the config — with what it reads of it — and once it is
 * ready the tracker's hits carry postbacks (src/worker-engine/services.ts `AnalyticsHit.postbacks`):
 * the path's `10`, `callback=…doPostbacks&et=1` and the `d.` block of `getEventCallConfigParams()`.
 *
 * The module's DIL sends no request of its own here (the extension turns its default request off).
 * Audience Manager's answer to a hit (its URL destinations, its cookies) is the JSONP the
 * collector returns, which AppMeasurement runs on the page and Offtag's sender does not: `passData`
 * has nothing to pass (docs/import.md, "Audience Manager forwarding").
 */

/** The DIL version's `jsonVersion`, sent as `d.jsonv`. */
const DIL_JSON_VERSION = '1';

export interface AudienceManagementModule {
  setup(config: unknown): void;
  isReady(): boolean;
  getEventCallConfigParams(): Record<string, string>;
  passData(json: unknown): void;
}

/**
 * `hasVisitor`: the page has VisitorAPI (the ECID extension), which DIL needs: without it, or without
 * `visitorService.namespace`, `setup` throws DIL's error as the module's `DIL.create` does.
 */
export function audienceManagement(hasVisitor: boolean): AudienceManagementModule {
  let ready = false;
  let params: Record<string, string> = {};
  return {
    setup(config: unknown) {
      if (!config || typeof config !== 'object') return;
      const c = config as Record<string, unknown>;
      // What the module sets before DIL.create: no default request, no CORS, the page's protocol.
      Object.assign(c, { disableDefaultRequest: true, disableCORS: true, secureDataCollection: false });
      if (typeof c.partner !== 'string' || !c.partner) {
        // DIL's constructor returns an Error for an invalid partner: truthy, so "ready", with no parameters.
        ready = true;
        params = {};
        return;
      }
      if (c.ignoreHardDependencyOnVisitorAPI !== true) {
        const problem = !hasVisitor
          ? 'Visitor does not exist.'
          : !c.visitorService || typeof c.visitorService !== 'object' || typeof (c.visitorService as { namespace?: unknown }).namespace !== 'string' || !(c.visitorService as { namespace: string }).namespace
            ? "DIL.create() needs the initConfig property `visitorService`:{namespace:'<Experience Cloud Org ID>'}"
            : '';
        if (problem) throw new Error(`Error in attempt to create DIL instance with DIL.create(): Error in processing Visitor API, which is a hard dependency for DIL v8.0+: ${problem}`);
      }
      // containerNSID: a whole number ≥ 0, else 0.
      let nsid = 0;
      const raw = c.containerNSID;
      if (raw || typeof raw === 'number') {
        const n = parseInt(String(raw), 10);
        if (!isNaN(n) && n >= 0) nsid = n;
      }
      params = { nsid: String(nsid), jsonv: DIL_JSON_VERSION };
      if (c.isCoopSafe === true) params.coop_safe = '1';
      else if (c.isCoopSafe === false) params.coop_unsafe = '1';
      ready = true;
    },
    isReady: () => ready,
    getEventCallConfigParams: () => ({ ...params }),
    passData() {},
  };
}

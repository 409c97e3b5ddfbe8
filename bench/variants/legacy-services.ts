/**
 * The legacy variant's services: Adobe's real VisitorAPI.js 5.5.0 and AppMeasurement.js 2.27.0,
 * which the page loads before this bundle (the bench serves them from a clone of
 * github.com/adobe/appmeasurement named by OFFTAG_APPMEASUREMENT_REPO; never part of this
 * repository). The storefront's rules and data elements run on turbine as in the turbine variant;
 * where they ask the visitor service to start or the tracker to send a hit, `Visitor` and `s` do
 * it, as a Launch property with the ECID and Analytics extensions does.
 */
import type { EngineContext } from '../../src/worker-engine/core/types.ts';
import { reportSuiteFor } from '../../src/worker-engine/core/settings.ts';
import type { AnalyticsHit, Services } from '../../src/worker-engine/services.ts';

interface AdobeVisitor {
  getVisitorValues(cb: (v: Record<string, string>) => void): void;
  getSupplementalDataID(consumer: string, noGenerate?: boolean): string;
}
interface AppMeasurement extends Record<string, unknown> {
  t(): void;
  tl(link: unknown, type: string, name?: string): void;
  clearVars(): void;
}
const w = window as unknown as {
  Visitor: { getInstance(orgId: string, options: Record<string, unknown>): AdobeVisitor };
  s_gi(account: string): AppMeasurement;
  s?: AppMeasurement;
};

/** `http://127.0.0.1:1234` (the bench's servers) → `127.0.0.1:1234`, as both libraries take a host. */
const host = (url: string) => url.replace(/^[a-z]+:\/\//, '').replace(/\/$/, '');

export function legacyServices(ctx: EngineContext): Services {
  const settings = ctx.settings;
  let visitor: AdobeVisitor | undefined;
  const getVisitor = () =>
    // As the storefront's ECID configuration: no `trackingServer` (no A-style Analytics-ID call, docs/visitor.md).
    (visitor ??= w.Visitor.getInstance(settings.orgId, {
      // The bench's servers speak http (VisitorAPI's default is https).
      loadSSL: false,
      marketingCloudServer: host(settings.idServiceHost),
      audienceManagerServer: host(settings.idServiceHost),
    }));
  let s: AppMeasurement | undefined;
  const tracker = () => {
    if (s) return s;
    s = w.s = w.s_gi(reportSuiteFor(settings));
    s.trackingServer = s.trackingServerSecure = host(settings.trackingServer);
    s.visitor = getVisitor();
    return s;
  };
  return {
    visitor: {
      orgId: settings.orgId,
      start: async () => void getVisitor(),
      getVisitorValues: () => new Promise((resolve) => getVisitor().getVisitorValues((v) => resolve(v))),
      isApproved: () => true,
      getCustomerIDs: () => ({}),
      getSupplementalDataID: (consumer, noGenerate) => getVisitor().getSupplementalDataID(consumer, noGenerate),
      call: async () => ({}),
      onFrameMessage: () => undefined,
    },
    analytics: {
      async track(hit: AnalyticsHit) {
        const t = tracker();
        for (const [k, v] of Object.entries(hit.vars)) if (v !== undefined) t[k] = v;
        if (hit.contextData) t.contextData = { ...hit.contextData };
        if (hit.type === 't') t.t();
        else {
          t.linkTrackVars = hit.linkTrackVars ?? 'None';
          t.linkTrackEvents = hit.linkTrackEvents ?? 'None';
          t.tl(hit.linkUrl ?? true, hit.linkType ?? 'o', hit.linkName);
        }
        t.clearVars();
      },
      onClick: async () => undefined,
      onBeaconDelivered: () => undefined,
    },
  };
}

(window as unknown as { benchServices: typeof legacyServices }).benchServices = legacyServices;

/**
 * The services a container may use. `adobeServices()`: the visitor-ID service and the analytics
 * tracker (AppMeasurement's wire), with the hooks that give them automatic link tracking, the
 * beacon round trip, the ID-sync iframe's messages and the page-side `Visitor` facade.
 * Third-party scripts need no service: a rule emits a `script` effect (docs/third-party.md).
 */
import { createServices } from '../worker-engine/adobe-services.ts';
import type { Services } from '../worker-engine/services.ts';
import type { VisitorOptions } from '../worker-engine/visitor/service.ts';
import type { ServicesDef } from './define.ts';

/** `visitor`: the visitor-ID service's fixed configuration (what the ECID extension holds, docs/visitor.md). */
export function adobeServices(options: { visitor?: VisitorOptions } = {}): ServicesDef<Services> {
  return {
    create: (ctx) => createServices(ctx, options.visitor),
    hooks: ({ visitor, analytics }) => ({
      // Automatic link tracking (download and exit links) runs before the click rules.
      onClick: (link) => analytics.onClick(link),
      onBeaconDelivered: (rttMs) => analytics.onBeaconDelivered(rttMs),
      // The ID-sync iframe is the visitor service's.
      onFrameMessage: (frameId, origin, data) => visitor.onFrameMessage(frameId, origin, data),
      // The page-side `Visitor` facade is the one facade.
      serviceCall: (service, method, args) => (service === 'visitor' ? visitor.call(method, args) : undefined),
      pendingHits: () => analytics.pendingHits?.() ?? 0,
    }),
  };
}

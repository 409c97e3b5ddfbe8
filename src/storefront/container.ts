/**
 * The storefront's container: its data elements, rules and the session keys the bridge reads,
 * and the hooks through which the engine reaches its services (src/worker-engine/services.ts)
 * outside the rules.
 */
import type { Container } from '../worker-engine/core/types.ts';
import type { Services } from '../worker-engine/services.ts';
import { dataElements, type StorefrontElement } from './data-elements.ts';
import { rules } from './rules.ts';
import { SESSION_KEYS } from './session-keys.ts';

export type { StorefrontElement } from './data-elements.ts';

export const storefront: Container<StorefrontElement, Services> = {
  name: 'storefront',
  sessionKeys: SESSION_KEYS,
  dataElements,
  rules,
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

/**
 * The storefront's hits: its variable maps (variables.ts) applied by the helpers of
 * `offtag/container` (src/container/analytics.ts), the way the Launch analytics extension applies
 * its variables. A link beacon carries LINK_TRACK_VARS and LINK_TRACK_EVENTS only.
 */
import type { RuleContext } from '../../src/worker-engine/core/types.ts';
import type { AnalyticsHit, Services } from '../../src/worker-engine/services.ts';
import { linkHit as containerLinkHit } from '../../src/container/analytics.ts';
import type { StorefrontElement } from './data-elements.ts';
import { LINK_TRACK_EVENTS, LINK_TRACK_VARS, LINK_VARIABLES } from './variables.ts';

export { CUSTOM_LINK_TYPE, DEFAULT_LINK_NAME, evaluateVariables, pageViewHit, send } from '../../src/container/analytics.ts';

type Ctx = RuleContext<StorefrontElement, Services>;

/** A custom link beacon (`tl`, type `o`) named by a data element's value. */
export function linkHit(nameElement: StorefrontElement, ctx: Ctx): AnalyticsHit {
  return containerLinkHit(`%${nameElement}%`, LINK_VARIABLES, ctx, { trackVars: LINK_TRACK_VARS, trackEvents: LINK_TRACK_EVENTS });
}

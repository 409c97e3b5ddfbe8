/**
 * From a variable mapping to the analytics hit a rule asks the tracker for, the way the Launch
 * analytics extension applies its variables (appmeasurement.md §7): tokens replaced by data
 * element values, empty values left out (AppMeasurement drops them anyway).
 */
import type { RuleContext } from '../../src/worker-engine/core/types.ts';
import type { AnalyticsHit, Services } from '../../src/worker-engine/services.ts';
import type { StorefrontElement } from './data-elements.ts';
import { safeJson } from '../../src/worker-engine/core/safe-json.ts';
import { isMissing } from './derived.ts';
import { LINK_TRACK_EVENTS, LINK_TRACK_VARS, LINK_VARIABLES, type VariableMapping } from './variables.ts';

type Ctx = RuleContext<StorefrontElement, Services>;

/** Launch's sendBeacon names a link hit this when it has no name: a nameless `tl()` would count as a page view. */
export const DEFAULT_LINK_NAME = 'link clicked';
/** SPEC.md §7: link beacons are of type 'o' (other). */
export const CUSTOM_LINK_TYPE = 'o';

export function evaluateVariables(mapping: VariableMapping, ctx: Ctx): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, source] of Object.entries(mapping)) {
    if (source === undefined) continue;
    const value = ctx.replaceTokens(source);
    if (!isMissing(value)) vars[name] = typeof value === 'object' ? safeJson(value) : String(value);
  }
  return vars;
}

export function pageViewHit(mapping: VariableMapping, ctx: Ctx): AnalyticsHit {
  return { type: 't', vars: evaluateVariables(mapping, ctx) };
}

/** A custom link beacon (`tl`, type `o`) named by a data element's value. */
export function linkHit(nameElement: StorefrontElement, ctx: Ctx): AnalyticsHit {
  const name = ctx.get(nameElement);
  return {
    type: 'tl',
    linkType: CUSTOM_LINK_TYPE,
    linkName: isMissing(name) ? DEFAULT_LINK_NAME : String(name),
    vars: evaluateVariables(LINK_VARIABLES, ctx),
    linkTrackVars: LINK_TRACK_VARS.join(','),
    linkTrackEvents: LINK_TRACK_EVENTS.join(','),
  };
}

/**
 * Hands the hit to the tracker without waiting: sending may wait for the ID call (up to 30 s),
 * far past an action's 2 s timeout. The tracker never throws; a rejection is still logged.
 */
export function send(ctx: Ctx, hit: AnalyticsHit): void {
  void ctx.services.analytics.track(hit).catch((err: unknown) => {
    ctx.log('error', `Analytics beacon of rule "${ctx.rule.name}" failed: ${err instanceof Error ? err.message : String(err)}`);
  });
}

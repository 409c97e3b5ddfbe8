/**
 * From a variable map to the analytics hit a rule asks the tracker for, the way the Launch
 * analytics extension applies its variables: tokens replaced by data element values, empty values
 * left out (AppMeasurement drops them anyway), objects written as JSON.
 */
import type { RuleContext } from '../worker-engine/core/types.ts';
import { safeJson } from '../worker-engine/core/safe-json.ts';
import type { TrackerVarName } from '../worker-engine/analytics/variables.ts';
import type { AnalyticsHit, Services } from '../worker-engine/services.ts';

/** Analytics variables (AppMeasurement's ranges: props 1–75, eVars 1–250, hierarchies 1–5, lists 1–3) to texts with `%tokens%`. */
export type VariableMap = Partial<Record<TrackerVarName, string>>;

/** Launch's sendBeacon names a link hit this when it has no name: a nameless `tl()` would count as a page view. */
export const DEFAULT_LINK_NAME = 'link clicked';
/** Custom link beacons are of type 'o' (other). */
export const CUSTOM_LINK_TYPE = 'o';

const missing = (v: unknown) => v === undefined || v === null || v === '';

type Ctx = Pick<RuleContext<string, unknown>, 'replaceTokens'>;

export function evaluateVariables(map: VariableMap, ctx: Ctx): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, source] of Object.entries(map)) {
    if (source === undefined) continue;
    const value = ctx.replaceTokens(source);
    if (!missing(value)) vars[name] = typeof value === 'object' ? safeJson(value) : String(value);
  }
  return vars;
}

export function pageViewHit(map: VariableMap, ctx: Ctx): AnalyticsHit {
  return { type: 't', vars: evaluateVariables(map, ctx) };
}

export interface LinkOptions {
  /** Variables the link beacon carries (`linkTrackVars`); default: every variable of the map. */
  trackVars?: readonly string[];
  /** Events the link beacon carries (`linkTrackEvents`). */
  trackEvents?: readonly string[];
}

/** A custom link beacon (`tl`, type `o`) named by `name` (tokens replaced). */
export function linkHit(name: string, map: VariableMap, ctx: Ctx, o: LinkOptions = {}): AnalyticsHit {
  const linkName = ctx.replaceTokens(name);
  return {
    type: 'tl',
    linkType: CUSTOM_LINK_TYPE,
    linkName: missing(linkName) ? DEFAULT_LINK_NAME : String(linkName),
    vars: evaluateVariables(map, ctx),
    linkTrackVars: (o.trackVars ?? Object.keys(map)).join(','),
    linkTrackEvents: (o.trackEvents ?? []).join(','),
  };
}

/**
 * Hands the hit to the tracker without waiting: sending may wait for the ID call (up to 30 s),
 * far past an action's 2 s timeout. The tracker never throws; a rejection is still logged.
 */
export function send(ctx: Pick<RuleContext<string, Services>, 'services' | 'log' | 'rule'>, hit: AnalyticsHit): void {
  void ctx.services.analytics.track(hit).catch((err: unknown) => {
    ctx.log('error', `Analytics beacon of rule "${ctx.rule.name}" failed: ${err instanceof Error ? err.message : String(err)}`);
  });
}

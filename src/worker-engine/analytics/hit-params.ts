/**
 * The query parameters of one hit, in three steps: the rule's variables (names checked against
 * AppMeasurement's), the page parameters every hit carries, and the visitor ids.
 */
import type { AnalyticsHit, VisitorService, VisitorValues } from '../services.ts';
import type { ContextData } from './beacon-query.ts';
import { filterLinkHit, linkEventParam } from './link-tracking.ts';
import { firstHitReferrer, shortenReferrer } from './referrer.ts';
import { CHARACTER_SET, EXPECT_SUPPLEMENTAL_DATA, SDID_CONSUMER } from './tracker-config.ts';
import { queryKeyOf, settingKeyOf, wireValue } from './variables.ts';

export type Params = Record<string, string | undefined>;
const CONTEXT_PREFIX = 'contextData.';
const ACTIVITY_MAP_PREFIX = 'a.activitymap.';

export interface HitVariables {
  params: Params;
  contextData: ContextData;
  /** ActivityMap keys a rule set itself (they go where AppMeasurement puts its own). */
  activityMap?: ContextData;
}

/** The rule's variables as query keys; `unknown` hears of each name AppMeasurement would not send. */
export function hitVariables(hit: AnalyticsHit, unknown: (name: string) => void): HitVariables {
  const params: Params = {};
  const contextData: ContextData = {};
  for (const [name, value] of Object.entries(hit.vars)) {
    if (value === undefined || value === '') continue;
    if (name.startsWith(CONTEXT_PREFIX)) {
      contextData[name.slice(CONTEXT_PREFIX.length)] = value;
      continue;
    }
    const key = queryKeyOf(name) ?? settingKeyOf(name);
    if (!key) {
      unknown(name);
      continue;
    }
    // Values go out whole (the collection servers truncate); only hierarchies are cut, at 255 characters.
    params[key] = wireValue(key, value);
  }
  let activityMap: ContextData | undefined;
  for (const [k, v] of Object.entries(hit.contextData ?? {})) {
    if (k.startsWith(ACTIVITY_MAP_PREFIX)) (activityMap ??= {})[k] = v;
    else contextData[k] = v;
  }
  return { params, contextData, activityMap };
}

/** pageName, `g`, `r`, `cc` (the container's `currency` unless the rule set one), `ce`: the page as this hit sees it. */
export function addPageParams(
  params: Params,
  page: { pageName: string | undefined; url: string; referrer: string; firstHit: boolean; currency: string },
): void {
  params.pageName = page.pageName;
  params.g ??= page.url;
  // The referrer goes with the first hit of the page only (from `adobe_mc_ref` when the URL has
  // one); a later hit carries `r` only when its rule set `referrer`. Long search referrers are shortened.
  if (page.firstHit) params.r ??= firstHitReferrer(params.g, page.referrer) || undefined;
  if (params.r) params.r = shortenReferrer(params.r);
  params.cc ??= page.currency;
  // The tracker's charSet when an imported library's code set one.
  params.ce ??= CHARACTER_SET;
}

/**
 * The ids (with the `ecid` category approved), `sdid` (with `target` too), `fid` when there is
 * neither `mid` nor `aid`, and `cm.ssf` without `aam`. Returns whether ids were allowed.
 */
export function addIdParams(params: Params, contextData: ContextData, visitor: VisitorService, values: VisitorValues, fallbackId: () => string): boolean {
  const ecidAllowed = visitor.isApproved('ecid');
  if (ecidAllowed) {
    params.mid = values.MCMID;
    params.aid = values.MCAID;
    params.aamlh = values.MCAAMLH;
    params.aamb = values.MCAAMB;
    params.mcorgid = visitor.orgId;
  }
  // Only with the TARGET category approved, and without making one unless supplemental data is expected.
  if (ecidAllowed && visitor.isApproved('target')) {
    params.sdid = visitor.getSupplementalDataID(SDID_CONSUMER, !EXPECT_SUPPLEMENTAL_DATA) || undefined;
  }
  if (!params.mid && !params.aid) params.fid = fallbackId();
  if (!visitor.isApproved('aam')) contextData['cm.ssf'] = '1';
  return ecidAllowed;
}

/**
 * A link hit (`tl` with a URL or a name) gets `pe`, `pev1`, `pev2`, and only what linkTrackVars and
 * linkTrackEvents let through; any other hit goes as it is.
 */
export function linkHitParams(hit: AnalyticsHit, params: Params, contextData: ContextData): { isLink: boolean; params: Params; contextData: ContextData } {
  const isLink = hit.type === 'tl' && Boolean(hit.linkUrl || hit.linkName);
  if (!isLink) return { isLink, params, contextData };
  params.pe = linkEventParam(hit.linkType);
  params.pev1 = hit.linkUrl;
  params.pev2 = hit.linkName;
  return { isLink, ...filterLinkHit(params, contextData, hit.linkTrackVars, hit.linkTrackEvents) };
}

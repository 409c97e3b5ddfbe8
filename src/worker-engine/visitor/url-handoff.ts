/**
 * Carrying ids across domains in the URL (VisitorAPI.js 5.5.0: serverState, URL hand-off, SDID): `appendVisitorIDsTo` writes
 * `adobe_mc=MCMID=…|MCAID=…|MCORGID=…|TS=…`, and a landing page accepts it for 5 minutes.
 */
import { URL_IDS_MAX_AGE_MINUTES } from './constants.ts';
import { isValidVisitorId } from './id-response.ts';
import { handOffPairs } from './sdid.ts';
import { encodeText } from '../core/well-formed.ts';

export const ADOBE_MC_PARAM = 'adobe_mc';

/** VisitorAPI's clock for the hand-offs: whole seconds, rounded (not floored). */
export const handOffSeconds = (nowMs: number): number => Math.round(nowMs / 1000);

/**
 * Appends `adobe_mc` at the end of the query, before any `#`; null and `NONE` ids are left out.
 * As VisitorAPI 5.5.0 writes it: each value encoded (`MCORGID=…%40AdobeOrg`), then the whole
 * parameter encoded again (`MCORGID%3D…%2540AdobeOrg`).
 */
export function appendVisitorIDsTo(
  url: string,
  ids: { MCMID?: string | undefined; MCAID?: string | undefined },
  orgId: string,
  nowMs: number,
): string {
  const pairs: string[] = [];
  for (const [k, v] of [['MCMID', ids.MCMID], ['MCAID', ids.MCAID], ['MCORGID', orgId]] as const) {
    if (v && v !== 'NONE') pairs.push(`${k}=${encodeText(v)}`);
  }
  pairs.push(`TS=${handOffSeconds(nowMs)}`);
  return addQueryParam(url, `${ADOBE_MC_PARAM}=${encodeText(pairs.join('|'))}`);
}

/**
 * Where VisitorAPI 5.5.0 puts a parameter: before a `#` that is not the first character, after the
 * query's last part. A query ending in `?` or `&` keeps its empty part (`?&adobe_mc=`, `&&adobe_mc=`),
 * a second `?` and what follows it are dropped, and a URL that is only a fragment gets the query
 * after it, all as the library writes them (its reader finds the parameter there too).
 */
export function addQueryParam(url: string, param: string): string {
  const hashAt = url.indexOf('#');
  const hash = hashAt > 0 ? url.slice(hashAt) : '';
  const base = hashAt > 0 ? url.slice(0, hashAt) : url;
  if (!base.includes('?')) return `${base}?${param}${hash}`;
  const [path, query] = base.split('?') as [string, string];
  return `${path}?${[...query.split('&'), param].join('&')}${hash}`;
}

export interface HandedOverIds {
  MCMID?: string;
  MCAID?: string;
}

/** The ids of a page URL's `adobe_mc`, if it is for this org and at most 5 whole minutes old. */
export function idsFromUrl(pageUrl: string, orgId: string, nowMs: number): HandedOverIds | undefined {
  const pairs = handOffPairs(pageUrl, ADOBE_MC_PARAM);
  const ts = Number(pairs?.TS);
  if (!pairs?.TS || pairs.MCORGID !== orgId || !Number.isFinite(ts)) return undefined;
  if (Math.floor((handOffSeconds(nowMs) - ts) / 60) > URL_IDS_MAX_AGE_MINUTES) return undefined;
  const out: HandedOverIds = {};
  if (isValidVisitorId(pairs.MCMID)) out.MCMID = pairs.MCMID;
  if (isValidVisitorId(pairs.MCAID)) out.MCAID = pairs.MCAID;
  return out;
}

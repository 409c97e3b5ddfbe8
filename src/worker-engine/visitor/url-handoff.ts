/**
 * Carrying ids across domains in the URL (ecid.md §8): `appendVisitorIDsTo` writes
 * `adobe_mc=MCMID=…|MCAID=…|MCORGID=…|TS=…`, and a landing page accepts it for 5 minutes.
 */
import { URL_IDS_MAX_AGE_MIN } from './constants.ts';
import { isValidVisitorId } from './id-response.ts';
import { queryParam, readPairs } from './sdid.ts';
import { encodeText } from '../core/well-formed.ts';

export const ADOBE_MC_PARAM = 'adobe_mc';

/** Appends `adobe_mc` at the end of the query, before any `#`; null and `NONE` ids are left out. */
export function appendVisitorIDsTo(
  url: string,
  ids: { MCMID?: string | undefined; MCAID?: string | undefined },
  orgId: string,
  nowMs: number,
): string {
  const pairs: string[] = [];
  for (const [k, v] of [['MCMID', ids.MCMID], ['MCAID', ids.MCAID], ['MCORGID', orgId]] as const) {
    if (v && v !== 'NONE') pairs.push(`${k}=${v}`);
  }
  pairs.push(`TS=${Math.floor(nowMs / 1000)}`);
  const hashAt = url.indexOf('#');
  const base = hashAt < 0 ? url : url.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : url.slice(hashAt);
  const sep = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${sep}${ADOBE_MC_PARAM}=${encodeText(pairs.join('|'))}${hash}`;
}

export interface HandedOverIds {
  MCMID?: string;
  MCAID?: string;
}

/** The ids of a page URL's `adobe_mc`, if it is for this org and at most 5 whole minutes old. */
export function idsFromUrl(pageUrl: string, orgId: string, nowMs: number): HandedOverIds | undefined {
  const raw = queryParam(pageUrl, ADOBE_MC_PARAM);
  if (!raw) return undefined;
  const pairs = readPairs(raw);
  const ts = Number(pairs.TS);
  if (pairs.MCORGID !== orgId || !Number.isFinite(ts)) return undefined;
  if (Math.floor((nowMs / 1000 - ts) / 60) > URL_IDS_MAX_AGE_MIN) return undefined;
  const out: HandedOverIds = {};
  if (isValidVisitorId(pairs.MCMID)) out.MCMID = pairs.MCMID;
  if (isValidVisitorId(pairs.MCAID)) out.MCAID = pairs.MCAID;
  return out;
}

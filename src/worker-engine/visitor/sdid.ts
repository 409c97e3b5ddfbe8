/**
 * The supplemental data id (VisitorAPI.js 5.5.0: serverState, URL hand-off, SDID): one id shared by the consumers of a page view (the
 * analytics hit, Target…), renewed when a consumer asks a second time, and handed over from
 * another page through `adobe_mc_sdid` for 30 seconds.
 */
import { SDID_PARAM_EXPIRY_SECONDS } from './constants.ts';

export interface SdidState {
  current: string;
  currentConsumed: Record<string, boolean>;
  last: string;
  lastConsumed: Record<string, boolean>;
}

export function emptySdidState(): SdidState {
  return { current: '', currentConsumed: {}, last: '', lastConsumed: {} };
}

/** 16 uppercase hex digits, `-`, 16 more. */
export function generateSdid(random: () => number): string {
  let hex = '';
  for (let i = 0; i < 32; i++) hex += Math.floor(random() * 16).toString(16).toUpperCase();
  return `${hex.slice(0, 16)}-${hex.slice(16)}`;
}

/**
 * `getSupplementalDataID(consumer, noGenerate)`. A consumer that has not seen the previous id
 * gets it first (hits of one page view stay stitched); one that already took the current id
 * starts the next one.
 */
export function takeSdid(state: SdidState, consumer: string, noGenerate: boolean, random: () => number): string {
  if (!state.current && !noGenerate) state.current = generateSdid(random);
  if (state.last && !state.lastConsumed[consumer]) {
    state.lastConsumed[consumer] = true;
    return state.last;
  }
  let sdid = state.current;
  if (!sdid) return '';
  if (state.currentConsumed[consumer]) {
    state.last = state.current;
    state.lastConsumed = state.currentConsumed;
    state.current = sdid = noGenerate ? '' : generateSdid(random);
    state.currentConsumed = {};
  }
  if (sdid) state.currentConsumed[consumer] = true;
  return sdid;
}

/**
 * A consumer on the page took `id` already (offtag.js's page `Visitor`, which answers Target's
 * at.js at once, as VisitorAPI does): it becomes the current id, taken by that consumer, so the
 * consumers here get it next (the Analytics hit's `sdid`).
 */
export function adoptSdid(state: SdidState, consumer: string, id: string): void {
  if (state.current !== id) {
    if (state.current) {
      state.last = state.current;
      state.lastConsumed = state.currentConsumed;
    }
    state.current = id;
    state.currentConsumed = {};
  }
  state.currentConsumed[consumer] = true;
}

/** Reads `adobe_mc_sdid=SDID=…|MCORGID=…|TS=…` from a page URL: the SDID if fresh and for this org. */
export function sdidFromUrl(pageUrl: string, orgId: string, nowMs: number): string | undefined {
  const pairs = handOffPairs(pageUrl, 'adobe_mc_sdid');
  if (!pairs?.SDID || pairs.MCORGID !== orgId) return undefined;
  // No TS counts as too old (VisitorAPI starts from an age of 1e9 s).
  const age = pairs.TS ? Math.round(nowMs / 1000) - Number(pairs.TS) : 1e9;
  return age < SDID_PARAM_EXPIRY_SECONDS ? pairs.SDID : undefined;
}

/**
 * `K=V|K=V` pairs of the hand-off parameters, each value decoded again, as VisitorAPI 5.5.0 reads
 * them (a value is what lies between the first and the second `=`).
 */
export function readPairs(value: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of value.split('|')) {
    const [key, v] = part.split('=');
    if (key && v !== undefined) out[key] = decodeURIComponent(v);
  }
  return out;
}

/**
 * A hand-off parameter (`adobe_mc`, `adobe_mc_sdid`) of a page URL as VisitorAPI finds it: the first
 * `name=` after a `?`, `&` or `#`, decoded, then its pairs decoded again. Undefined when absent, or
 * when either decoding fails (the library then ignores the parameter).
 */
export function handOffPairs(pageUrl: string, name: string): Record<string, string> | undefined {
  const m = new RegExp(`[?&#]${name}=([^&#]*)`).exec(pageUrl);
  if (!m?.[1]) return undefined;
  try {
    return readPairs(decodeURIComponent(m[1]));
  } catch {
    return undefined;
  }
}

/** A query parameter of a URL, decoded, without `URL` so any string is accepted. */
export function queryParam(url: string, name: string): string | undefined {
  const query = (url.split('#')[0] as string).split('?').slice(1).join('?');
  for (const part of query.split('&')) {
    const i = part.indexOf('=');
    const key = i < 0 ? part : part.slice(0, i);
    if (key !== name) continue;
    const value = i < 0 ? '' : part.slice(i + 1);
    try {
      return decodeURIComponent(value.replace(/\+/g, ' '));
    } catch {
      return value;
    }
  }
  return undefined;
}

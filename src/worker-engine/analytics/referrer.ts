/**
 * The beacon's referrer (`r`) as AppMeasurement 2.27.0 makes it (docs/analytics.md, "Click rules
 * learned from AppMeasurement.js"): the first hit's referrer comes from the page URL's
 * `adobe_mc_ref` parameter when there is one (a redirect, such as a Target redirect offer, passes
 * the original referrer along in it), and a long search-engine referrer is shortened so that its
 * search terms survive the collection servers' 255 characters.
 */
import { unescapeValue } from './encoding.ts';

export const REFERRER_PARAM = 'adobe_mc_ref';
/** Above this length a search-engine referrer is shortened. */
export const REFERRER_MAX = 255;
/** The parameters kept first, per search engine (a host containing the key). */
const SEARCH_TERMS: ReadonlyArray<[string, string[]]> = [
  ['google', ['q', 'ie', 'start', 'search_key', 'word', 'kw', 'cd']],
  ['yahoo.co', ['p', 'ei']],
  ['baidu.', ['wd', 'word']],
];

/**
 * `adobe_mc_ref` of a page URL, as the library's `Util.getQueryParam(name, url, '&', true)` reads
 * it: undefined when the parameter is there without a value (`adobe_mc_ref` or `adobe_mc_ref=`),
 * '' when it is absent, else its value unescaped (`+` is a space). A `#…` ends the query.
 */
export function referrerParam(pageUrl: string): string | undefined {
  const q = pageUrl.indexOf('?');
  if (q < 0) return '';
  const all = `&${pageUrl.slice(q + 1)}&`;
  if (all.includes(`&${REFERRER_PARAM}&`) || all.includes(`&${REFERRER_PARAM}=&`)) return undefined;
  const hash = all.indexOf('#');
  const query = hash < 0 ? all : `${all.slice(0, hash)}&`;
  const at = query.indexOf(`&${REFERRER_PARAM}=`);
  if (at < 0) return '';
  const rest = query.slice(at + REFERRER_PARAM.length + 2);
  const value = rest.slice(0, rest.indexOf('&'));
  return value ? unescapeValue(value) : '';
}

/** The first hit's referrer: `adobe_mc_ref`'s value, '' for a bare `adobe_mc_ref`, else the document's. */
export function firstHitReferrer(pageUrl: string, documentReferrer: string): string {
  const handed = referrerParam(pageUrl);
  return handed === undefined ? '' : handed || documentReferrer;
}

/**
 * A referrer over 255 characters from Google, Yahoo or Baidu keeps its origin, then as much of its
 * path as fits in 253 characters with the query, then the query with the search-term parameters first.
 * Any other referrer goes whole (the collection servers cut it).
 */
export function shortenReferrer(referrer: string): string {
  if (referrer.length <= REFERRER_MAX) return referrer;
  const qAt = referrer.indexOf('?');
  if (qAt <= 0) return referrer;
  let query = referrer.slice(qAt + 1);
  const base = referrer.slice(0, qAt);
  const lower = base.toLowerCase();
  const from = lower.startsWith('http://') ? 7 : lower.startsWith('https://') ? 8 : 0;
  const slash = lower.indexOf('/', from);
  if (slash <= 0) return referrer;
  const host = lower.slice(from, slash);
  const terms = SEARCH_TERMS.find(([key]) => host.includes(key))?.[1];
  if (!terms || !query) return referrer;
  const origin = base.slice(0, slash);
  const path = base.slice(slash);
  let others = '';
  const parts = query.split('&');
  if (parts.length > 1) {
    const first: string[] = [];
    const rest: string[] = [];
    for (const p of parts) {
      const eq = p.indexOf('=');
      (eq > 0 && terms.includes(p.slice(0, eq)) ? first : rest).push(p);
    }
    others = rest.join('&');
    if (first.length && rest.length) query = `${first.join('&')}&${others}`;
    else others = '';
  }
  const room = 253 - (query.length - others.length) - origin.length;
  return `${origin}${room > 0 ? path.slice(0, room) : ''}?${query}`;
}

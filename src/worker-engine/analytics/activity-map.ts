/**
 * Click data (AppMeasurement 2.27.0: link tracking): the ActivityMap `c.` block and the ClickMap fields, sent after
 * `pev3` on the hit a click causes, or kept in the `s_sq` cookie for the next hit when the click sends none.
 */
import type { LinkClick } from '../../protocol.ts';
import type { CookieJar } from '../core/types.ts';
import type { ContextData } from './beacon-query.ts';
import { escapeValue, unescapeValue } from './encoding.ts';
import { nestedBlock } from './beacon-query.ts';
import { linkName, objectIdOf } from './link-name.ts';

export { objectIdOf };

export const ACTIVITY_MAP_PAGE_MAX = 255;
export const ACTIVITY_MAP_LINK_MAX = 128;
export const ACTIVITY_MAP_REGION_MAX = 127;
/** The cookie that carries a click's ActivityMap and ClickMap data to the next hit. */
export const CLICK_COOKIE = 's_sq';
/** AppMeasurement's stand-in for an empty cookie value; it escapes it like any value (`%5B%5BB%5D%5D`). */
export const CLICK_COOKIE_EMPTY = '[[B]]';
/** ClickMap (`trackInlineStats`): the page id is cut to 255 characters, the object id to 100. */
export const CLICK_MAP_PAGE_MAX = 255;
export const CLICK_MAP_OBJECT_MAX = 100;
const PREFIX = 'a.activitymap.';

/** The ActivityMap data of a click: page (pageName, else URL), link text, region, pageIDType. */
export function activityMapData(link: LinkClick, pageName: string | undefined, pageUrl: string, name = linkName(link)): ContextData {
  return {
    [`${PREFIX}page`]: (pageName || pageUrl).slice(0, ACTIVITY_MAP_PAGE_MAX),
    [`${PREFIX}link`]: name.slice(0, ACTIVITY_MAP_LINK_MAX),
    [`${PREFIX}region`]: (link.region || 'BODY').slice(0, ACTIVITY_MAP_REGION_MAX),
    // 1 when the page is named by pageName; 0 (URL) is dropped by the context data rules.
    [`${PREFIX}pageIDType`]: pageName ? 1 : 0,
  };
}

/**
 * The ClickMap fields of a click (AppMeasurement with `trackInlineStats`), already encoded:
 * `&pid=<pageName, else the page URL>[&pidt=1]&oid=<link URL, or window.s_objectID>[&oidt=1]&ot=<tag>[&oi=1]`.
 * `pidt` is sent only for a page name; `oidt` and `oi` only when `s_objectID` named the object.
 */
export function clickMapFields(link: LinkClick, pageName: string | undefined, pageUrl: string): string {
  const page = pageName || pageUrl;
  // (The page id needs a pageName or the URL of an earlier run of the tracker: `clickData`'s `ranBefore`.)
  const objectId = objectIdOf(link.objectId);
  const id = String(objectId ?? link.href ?? '').substring(0, CLICK_MAP_OBJECT_MAX);
  if (!page || !id || typeof link.tag !== 'string' || !link.tag) return '';
  return (
    `&pid=${escapeValue(page.substring(0, CLICK_MAP_PAGE_MAX))}${pageName ? '&pidt=1' : ''}` +
    `&oid=${escapeValue(id)}${objectId ? '&oidt=1' : ''}&ot=${escapeValue(link.tag.toUpperCase())}${objectId ? '&oi=1' : ''}`
  );
}

/** The encoded click data a hit carries after `pev3`: the ActivityMap block, then the ClickMap fields. */
export function clickData(link: LinkClick, pageName: string | undefined, pageUrl: string, ranBefore = true): string {
  // ActivityMap records a click only when it found a link name (its `link` is required).
  const name = linkName(link);
  const am = name ? nestedBlock('c', activityMapData(link, pageName, pageUrl, name)) : '';
  return am + clickMapFields(link, pageName, ranBefore ? pageUrl : '');
}

/** The `s_sq` value as written: `rsid=<escaped click data>`, escaped again as every library cookie value. */
export function clickCookieValue(rsid: string, data: string): string {
  return escapeValue(data ? `${rsid}=${escapeValue(data)}` : CLICK_COOKIE_EMPTY);
}

/** What `s_sq` reads as: entries `suites=data`, or none for an absent or empty (`[[B]]`) cookie. */
function clickCookieEntries(value: string | undefined): { suites: string[]; data: string }[] {
  if (!value) return [];
  const outer = unescapeValue(value);
  const out: { suites: string[]; data: string }[] = [];
  for (const part of outer.split('&')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    out.push({ suites: unescapeValue(part.slice(0, eq)).split(','), data: unescapeValue(part.slice(eq + 1)) });
  }
  return out;
}

/**
 * The click data a previous click left in `s_sq` for this report suite (exactly this suite, as the
 * library matches it), as the encoded string to send after `pev3`; undefined when there is none.
 */
export function readClickCookie(value: string | undefined, rsid: string): string | undefined {
  const hit = clickCookieEntries(value).find((e) => e.suites.join(',') === rsid && e.data.startsWith('&'));
  return hit?.data;
}

/** A click that sends no hit keeps its click data in `s_sq` for the next hit. */
export function keepClick(cookies: CookieJar, domain: string, rsid: string, data: string): void {
  cookies.set(CLICK_COOKIE, clickCookieValue(rsid, data), { path: '/', domain });
}

/**
 * The click data an earlier click left in `s_sq`, for a hit: `s_sq` is emptied either way, and what
 * it held goes only with a hit without click data of its own (`hasOwn`), as AppMeasurement does.
 */
export function takeCarriedClick(cookies: CookieJar, domain: string, rsid: string, hasOwn: boolean): string | undefined {
  const carried = readClickCookie(cookies.get(CLICK_COOKIE), rsid);
  if (carried === undefined) return undefined;
  keepClick(cookies, domain, rsid, '');
  return hasOwn ? undefined : carried;
}

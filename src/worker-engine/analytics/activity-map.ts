/**
 * ActivityMap context data (appmeasurement.md §4): sent in its own `c.` block after `pev3` on the
 * hit a click causes, or kept in the `s_sq` cookie for the next page view when the click sends none.
 */
import type { LinkClick } from '../../protocol.ts';
import type { ContextData } from './beacon-query.ts';
import { escapeValue, unescapeValue } from './encoding.ts';
import { nestedBlock } from './beacon-query.ts';

export const ACTIVITY_MAP_PAGE_MAX = 255;
export const ACTIVITY_MAP_LINK_MAX = 128;
export const ACTIVITY_MAP_REGION_MAX = 127;
/** The cookie that carries a click's ActivityMap data to the next page view. */
export const CLICK_COOKIE = 's_sq';
/** What `s_sq` holds once its data has been sent. */
export const CLICK_COOKIE_EMPTY = '[[B]]';
const PREFIX = 'a.activitymap.';

/** The ActivityMap data of a click: page (pageName, else URL), link text, region, pageIDType. */
export function activityMapData(link: LinkClick, pageName: string | undefined, pageUrl: string): ContextData {
  return {
    [`${PREFIX}page`]: (pageName || pageUrl).slice(0, ACTIVITY_MAP_PAGE_MAX),
    [`${PREFIX}link`]: link.text.slice(0, ACTIVITY_MAP_LINK_MAX),
    [`${PREFIX}region`]: (link.region || 'BODY').slice(0, ACTIVITY_MAP_REGION_MAX),
    // 1 when the page is named by pageName; 0 (URL) is dropped by the context data rules.
    [`${PREFIX}pageIDType`]: pageName ? 1 : 0,
  };
}

/** `s_sq` value: `rsid=<block>`, escaped twice as AppMeasurement stores it. */
export function clickCookieValue(rsid: string, data: ContextData): string {
  return escapeValue(`${rsid}=${escapeValue(nestedBlock('c', data))}`);
}

/**
 * The ActivityMap data a previous page's click left in `s_sq` for this report suite, or undefined
 * (absent, `[[B]]`, or written for another suite).
 */
export function readClickCookie(value: string | undefined, rsid: string): ContextData | undefined {
  if (!value) return undefined;
  const outer = unescapeValue(value);
  if (outer === CLICK_COOKIE_EMPTY) return undefined;
  const eq = outer.indexOf('=');
  if (eq < 0) return undefined;
  const suites = outer.slice(0, eq).split(',');
  if (!suites.includes(rsid)) return undefined;
  const block = unescapeValue(outer.slice(eq + 1));
  const data: ContextData = {};
  const path: string[] = [];
  for (const part of block.split('&')) {
    if (part === '') continue;
    const i = part.indexOf('=');
    const key = unescapeValue(i < 0 ? part : part.slice(0, i));
    if (i < 0 && key.endsWith('.')) path.push(key.slice(0, -1));
    else if (i < 0 && key.startsWith('.')) path.pop();
    else if (i >= 0) data[[...path, key].join('.')] = unescapeValue(part.slice(i + 1));
  }
  // The outer `c` level is the block's own wrapper, not part of the keys.
  const out: ContextData = {};
  for (const [k, v] of Object.entries(data)) if (k.startsWith(`c.${PREFIX}`)) out[k.slice(2)] = v;
  return Object.keys(out).length > 0 ? out : undefined;
}

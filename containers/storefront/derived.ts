/**
 * The storefront's derived values (docs/spec-coverage.md §2, §4, §5; docs/spec-coverage.md D3) as pure functions of
 * values already read, so each rule of derivation can be read and tested alone.
 */
import { readPath } from '../../src/worker-engine/core/data-layer.ts';

/** docs/spec-coverage.md §8: the default of fields the page data layer ("PDL") does not carry. */
export const NOT_SET_IN_PDL = 'Not Set in PDL';
export const NOT_LOGGED_IN = 'Not Logged In';
export const FULL_LOGGED_IN = 'Full Logged In';
export const SOFT_LOGGED_IN = 'Soft Logged In';
export const ANONYMOUS_COMMUNITY = 'anon';
export const UNKNOWN_USER = 'Unknown User';
export const UNASSIGNED_SAP_ID = 'Unassigned';
/** docs/spec-coverage.md §4: full and soft logins add this analytics event to every beacon of the event. */
export const LOGGED_IN_EVENT = 'event49';
export const LOGGED_IN_STATES: readonly string[] = [FULL_LOGGED_IN, SOFT_LOGGED_IN];

export const MODAL_PAGE_TYPE_SUFFIX = ' - modal';
/** docs/spec-coverage.md D3: each segment of the modal page name keeps its first 20 characters. */
export const MODAL_SEGMENT_LENGTH = 20;

export const PLATFORM_MOBILE = 'gcom mweb';
export const PLATFORM_FULL_SITE = 'gcom fullsite';
export const MOBILE_SITE_TYPE = 'mobile';

/** The OneTrust group that, when present as `C0007:0` (plain or encoded), sets the targeting flag. */
export const TARGETING_OPT_MARKERS = ['C0007:0', 'C0007%3A0'];
/** The insights area of the storefront: the real-user-monitoring rule runs only there. */
export const INSIGHTS_PATH = '/insights';
export const PRODUCTION = 'production';

export const PAGE_NAME_SEPARATOR = ':';
export const HIERARCHY_SEPARATOR = '|';

/** The flags docs/spec-coverage.md §5 writes as strings. */
export const flag = (on: boolean): 'true' | 'false' => (on ? 'true' : 'false');

export function isMissing(v: unknown): v is undefined | null | '' {
  return v === undefined || v === null || v === '';
}

const text = (v: unknown): string => (isMissing(v) ? '' : String(v));

/** `<brand>:<pageType>:<pageId>` (the caller lowercases; a missing page type is an empty segment). */
export function pageName(brand: string, pageType: unknown, pageId: unknown): string {
  return [brand, text(pageType), text(pageId)].join(PAGE_NAME_SEPARATOR);
}

/** `<brand>|<pageType>|<pageId>` for hier1. */
export function hierarchy(brand: string, pageType: unknown, pageId: unknown): string {
  return [brand, text(pageType), text(pageId)].join(HIERARCHY_SEPARATOR);
}

/**
 * docs/spec-coverage.md D3: the modal's own page type, else the page's plus ' - modal' (nothing when the
 * page has none either); each of brand, type and id cut to 20 characters.
 */
export function modalPageName(brand: string, modalType: unknown, pageType: unknown, modalId: unknown): string {
  const type = !isMissing(modalType) ? text(modalType) : !isMissing(pageType) ? text(pageType) + MODAL_PAGE_TYPE_SUFFIX : '';
  return [brand, type, text(modalId)].map(cutSegment).join(PAGE_NAME_SEPARATOR);
}

/** The first 20 UTF-16 units; a cut through an emoji (a surrogate pair) leaves out its first half. */
export function cutSegment(s: string): string {
  const cut = s.slice(0, MODAL_SEGMENT_LENGTH);
  return /[\uD800-\uDBFF]$/.test(cut) && s.length > MODAL_SEGMENT_LENGTH ? cut.slice(0, -1) : cut;
}

/**
 * docs/spec-coverage.md D3: every non-empty id at `path` of the array's items, in order, joined with the
 * list delimiter (the `listDelimiter` setting, `,`). A missing array gives ''; anything else that
 * is not an array is a malformed data layer.
 */
export function joinIds(items: unknown, path: string, where: string, delimiter: string): string {
  if (isMissing(items)) return '';
  if (!Array.isArray(items)) throw new TypeError(`${where} is not an array.`);
  return items
    .map((item) => readPath(item, path))
    .filter((id) => !isMissing(id))
    .map(String)
    .join(delimiter);
}

/** docs/spec-coverage.md §4: `Unknown User`, `<account>:Unassigned` or `<account>:<sapId>`. */
export function customerCombinationKey(accountNumber: unknown, sapAccountId: unknown): string {
  if (isMissing(accountNumber)) return UNKNOWN_USER;
  return `${text(accountNumber)}:${isMissing(sapAccountId) ? UNASSIGNED_SAP_ID : text(sapAccountId)}`;
}

export function platformId(siteTypeCookie: string | undefined): string {
  return siteTypeCookie?.toLowerCase() === MOBILE_SITE_TYPE ? PLATFORM_MOBILE : PLATFORM_FULL_SITE;
}

/** docs/spec-coverage.md §5 as written: `C0007:0` in the OneTrust cookie sets "targeting cookies enabled". */
export function targetingCookiesEnabled(oneTrustCookie: string | undefined): boolean {
  return TARGETING_OPT_MARKERS.some((m) => oneTrustCookie?.includes(m) ?? false);
}

/** docs/spec-coverage.md §5: monitoring stays off when targeting cookies are enabled or GPC is on. */
export function datadogEnabled(targeting: boolean, gpc: boolean): boolean {
  return !targeting && !gpc;
}

export function loginEvents(loginState: unknown): string {
  return typeof loginState === 'string' && LOGGED_IN_STATES.includes(loginState) ? LOGGED_IN_EVENT : '';
}

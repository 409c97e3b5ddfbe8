/**
 * The storefront's data elements (SPEC.md §1–§3, §5, §8; DECISIONS.md §2, §3), one table, each
 * named as SPEC.md names it. Resolution, defaults, failure logging and per-event memoising are
 * the engine's (core/data-elements.ts); this file only says where each value comes from.
 */
import { trackingConsented } from '../worker-engine/analytics/consent.ts';
import { readPath } from '../worker-engine/core/data-layer.ts';
import type { DataElement, DataElementContext } from '../worker-engine/core/types.ts';
import { getDaysSinceLastVisit } from '../worker-engine/analytics/plugins/days-since-last-visit.ts';
import { getGeoCoordinates } from '../worker-engine/analytics/plugins/geo-coordinates.ts';
import { getNewRepeat } from '../worker-engine/analytics/plugins/new-repeat.ts';
import { getTimeSinceLastVisit } from '../worker-engine/analytics/plugins/time-since-last-visit.ts';
import { getVisitNumber } from '../worker-engine/analytics/plugins/visit-number.ts';
import {
  ANONYMOUS_COMMUNITY,
  customerCombinationKey,
  datadogEnabled,
  flag,
  hierarchy,
  isMissing,
  joinIds,
  loginEvents,
  modalPageName,
  NOT_LOGGED_IN,
  NOT_SET_IN_PDL,
  pageName,
  platformId,
  PRODUCTION,
  targetingCookiesEnabled,
  UNKNOWN_USER,
} from './derived.ts';
import { PREVIOUS_PAGE_NAME_KEY, sessionKey, USER_DATA_KEY } from './session-keys.ts';

export type StorefrontElement =
  // page
  | 'brand'
  | 'page name'
  | 'modal page name'
  | 'page type'
  | 'page id'
  | 'content title'
  | 'language'
  | 'template'
  | 'line of business'
  | 'hierarchy'
  | 'hostname'
  | 'element click ids'
  | 'element impression ids'
  | 'internal campaign impressions'
  | 'modal page info'
  | 'previous page name'
  | 'platform id'
  | 'browser width'
  | 'browser height'
  // user
  | 'cached user profile'
  | 'login state'
  | 'login event'
  | 'account number'
  | 'SAP account id'
  | 'sales group'
  | 'community type'
  | 'RML state'
  | 'organization id'
  | 'user identifier'
  | 'client profile id'
  | 'night flag'
  | 'customer combination key'
  // cookies
  | 'community cookie'
  | 'AB1 cookie'
  | 'AB2 cookie'
  | 'AD1 cookie'
  | 'DS1 cookie'
  | 'DS2 cookie'
  | 'signin cookie'
  | 'OHBU cookie'
  | 'X-BT cookie'
  | 'client IP cookie'
  | 'G_ cookie'
  | 'O cookie'
  | 'insights eligible cookie'
  // consent and environment
  | 'targeting cookies enabled'
  | 'GPC'
  | 'Datadog enabled'
  | 'production flag'
  | 'environment stage'
  // commerce
  | 'product SKU'
  | 'cart freight forwarder'
  | 'category level'
  | 'leaf category id'
  | 'leaf category name'
  // analytics plugins
  | 'new/repeat'
  | 'visit number'
  | 'days since last visit'
  | 'time since last visit'
  | 'geo coordinates';

type Element = DataElement<StorefrontElement>;
type Ctx = DataElementContext<StorefrontElement>;

/** What a table entry may change about how a value is finished. */
type Finish = Pick<Element, 'default' | 'missingMessage'>;

/** A data layer field with SPEC.md §8's default for "most others": the empty string. */
const dl = (path: string, description: string, finish: Finish = {}): Element => ({
  type: 'data-layer',
  path,
  default: '',
  description,
  ...finish,
});

const cookie = (name: string | ((s: Ctx['settings']) => string), description: string): Element => ({
  type: 'cookie',
  name,
  default: '',
  description,
});

type ProfileGroup = 'attributes' | 'profileInfo';

/**
 * A user profile field: the data layer's `user.profile.<group>.<field>`, else the same field of
 * the profile cached in sessionStorage (DECISIONS.md §2), field by field.
 */
const userField = (group: ProfileGroup, field: string, finish: Finish = {}): Element => ({
  type: 'custom',
    reads: [`user.profile.${group}.${field}`],
  default: '',
  description: `user.profile.${group}.${field}, else sessionStorage <brand>UserData`,
  fn: (ctx) => {
    const fromPage = ctx.dataLayer(`user.profile.${group}.${field}`);
    if (!isMissing(fromPage)) return fromPage;
    return readPath(ctx.get('cached user profile'), ['profile', group, field]);
  },
  ...finish,
});

const notSetMessage = (what: string) => `${what} is not set in the page data layer; using "${NOT_SET_IN_PDL}".`;

/**
 * An analytics plugin as a data element. Plugins live in the tracker, which does not exist
 * without tracking consent (SPEC.md §6): then they neither answer nor write their cookies.
 * They run at the time the event fired and write their cookies on the page's cookie domain.
 */
const plugin = (
  description: string,
  run: (cookies: Ctx['cookies'], now: number, options: { domain: string }) => string,
): Element => ({
  type: 'custom',
    reads: [],
  default: '',
  description,
  sideEffects: true,
  fn: (ctx) =>
    trackingConsented(ctx) ? run(ctx.cookies, ctx.snapshot.time, { domain: ctx.page.cookieDomain }) : undefined,
});

export const dataElements: Record<StorefrontElement, Element> = {
  // ---- page ---------------------------------------------------------------------------------
  brand: { type: 'custom', reads: [], fn: (ctx) => ctx.settings.brand, description: 'SPEC.md {product}: the brand setting' },
  'page name': {
    type: 'custom',
    reads: [],
    forceLowerCase: true,
    default: '',
    description: '<brand>:<pageType>:<pageId>, lowercased (DECISIONS.md §3)',
    fn: (ctx) => pageName(ctx.settings.brand, ctx.get('page type'), ctx.get('page id')),
  },
  'modal page name': {
    type: 'custom',
    reads: ['modal.page.pageInfo.pageType', 'modal.page.pageInfo.pageUID'],
    forceLowerCase: true,
    default: '',
    description: '<brand>:<modal type or page type - modal>:<modal id>, 20 characters per segment',
    fn: (ctx) =>
      modalPageName(
        ctx.settings.brand,
        ctx.dataLayer('modal.page.pageInfo.pageType'),
        ctx.get('page type'),
        ctx.dataLayer('modal.page.pageInfo.pageUID'),
      ),
  },
  'page type': dl('page.pageInfo.pageType', 'e.g. Educational Content, Add to List, Share Product'),
  'page id': dl('page.pageInfo.pageUID', 'e.g. order management', {
    default: NOT_SET_IN_PDL,
    missingMessage: notSetMessage('Page id (page.pageInfo.pageUID)'),
  }),
  'content title': dl('page.pageInfo.contentTitle', 'channel-independent content title'),
  language: dl('page.pageInfo.language', 'page language'),
  template: dl('page.pageInfo.template', 'page template'),
  'line of business': {
    type: 'data-layer',
    path: 'page.category.lineOfBusiness',
    default: (settings: Ctx['settings']) => settings.brand,
    description: 'page.category.lineOfBusiness, else the brand',
  },
  hierarchy: {
    type: 'custom',
    reads: [],
    forceLowerCase: true,
    default: '',
    description: 'hier1: <brand>|<pageType>|<pageId>, lowercased (DECISIONS.md §5)',
    fn: (ctx) => hierarchy(ctx.settings.brand, ctx.get('page type'), ctx.get('page id')),
  },
  hostname: {
    type: 'custom',
    reads: [],
    default: '',
    description: 'the analytics server variable: the page URL\'s hostname',
    fn: (ctx) => new URL(ctx.snapshot.url).hostname,
  },
  'element click ids': {
    type: 'custom',
    reads: ['page.element'],
    default: NOT_SET_IN_PDL,
    missingMessage: notSetMessage('Element click id (page.element[].click.id)'),
    description: 'every page.element[].click.id, joined with ","',
    fn: (ctx) => joinIds(ctx.dataLayer('page.element'), 'click.id', 'page.element'),
  },
  'element impression ids': {
    type: 'custom',
    reads: ['page.element'],
    default: '',
    description: 'every page.element[].impression.id, joined with ","',
    fn: (ctx) => joinIds(ctx.dataLayer('page.element'), 'impression.id', 'page.element'),
  },
  'internal campaign impressions': {
    type: 'custom',
    reads: ['internalCampaign'],
    default: '',
    description: 'every internalCampaign[].impression.id, joined with ","',
    fn: (ctx) => joinIds(ctx.dataLayer('internalCampaign'), 'impression.id', 'internalCampaign'),
  },
  'modal page info': dl('modal.page.pageInfo', 'the modal\'s pageType, pageUID and contentTitle'),
  'previous page name': {
    type: 'custom',
    reads: [],
    default: '',
    description: 'sessionStorage <brand>PreviousPageName; reading it stores the current page name',
    sideEffects: true,
    fn: (ctx) => {
      const key = sessionKey(PREVIOUS_PAGE_NAME_KEY, ctx.settings.brand);
      const previous = ctx.session.get(key);
      ctx.session.set(key, String(ctx.get('page name') ?? ''));
      return previous;
    },
  },
  'platform id': {
    type: 'custom',
    reads: [],
    default: '',
    description: 'gcom mweb when the site-type cookie says mobile, else gcom fullsite',
    fn: (ctx) => platformId(ctx.cookies.get(ctx.settings.siteTypeCookie)),
  },
  'browser width': {
    type: 'custom',
    reads: [],
    default: NOT_SET_IN_PDL,
    missingMessage: notSetMessage('Browser width'),
    description: 'the viewport width (window.innerWidth)',
    fn: (ctx) => positive(ctx.snapshot.viewport.width),
  },
  'browser height': {
    type: 'custom',
    reads: [],
    default: NOT_SET_IN_PDL,
    missingMessage: notSetMessage('Browser height'),
    description: 'the viewport height (window.innerHeight)',
    fn: (ctx) => positive(ctx.snapshot.viewport.height),
  },

  // ---- user ---------------------------------------------------------------------------------
  'cached user profile': {
    type: 'custom',
    reads: [],
    default: '',
    description: 'sessionStorage <brand>UserData, parsed (a broken copy is logged once per event)',
    fn: (ctx) => {
      const raw = ctx.session.get(sessionKey(USER_DATA_KEY, ctx.settings.brand));
      return raw === null || raw === '' ? undefined : (JSON.parse(raw) as unknown);
    },
  },
  'login state': userField('attributes', 'loginState', { default: NOT_LOGGED_IN }),
  'login event': {
    type: 'custom',
    reads: [],
    default: '',
    description: 'event49 when the login state is Full Logged In or Soft Logged In',
    fn: (ctx) => loginEvents(ctx.get('login state')),
  },
  'account number': userField('attributes', 'accountNumber'),
  'SAP account id': userField('profileInfo', 'profileID'),
  'sales group': userField('profileInfo', 'csgID'),
  'community type': userField('attributes', 'communityType', { default: ANONYMOUS_COMMUNITY }),
  // No message when missing: anonymous visitors have no RML state, and every page would say so.
  'RML state': userField('attributes', 'RMLState', { default: NOT_SET_IN_PDL }),
  'organization id': userField('profileInfo', 'organizationId'),
  'user identifier': userField('profileInfo', 'userIdentifier'),
  'client profile id': userField('profileInfo', 'cimProfileID'),
  'night flag': dl('user.niteFlag', 'user.niteFlag'),
  'customer combination key': {
    type: 'custom',
    reads: [],
    default: UNKNOWN_USER,
    description: 'Unknown User, <account>:Unassigned or <account>:<SAP id>',
    fn: (ctx) => customerCombinationKey(ctx.get('account number'), ctx.get('SAP account id')),
  },

  // ---- cookies (names from settings where DECISIONS.md §1 makes them settings) ---------------
  'community cookie': cookie((s) => s.communityCookie, 'the community cookie'),
  'AB1 cookie': cookie('AB1', 'AB1'),
  'AB2 cookie': cookie('AB2', 'AB2'),
  'AD1 cookie': cookie('AD1', 'AD1'),
  'DS1 cookie': cookie('DS1', 'DS1'),
  'DS2 cookie': cookie('DS2', 'DS2'),
  'signin cookie': cookie('signin', 'signin'),
  'OHBU cookie': cookie('OHBU', 'OHBU'),
  'X-BT cookie': cookie('X-BT', 'X-BT'),
  'client IP cookie': cookie((s) => s.clientIpCookie, 'the client IP cookie'),
  'G_ cookie': cookie((s) => s.gCookie, 'the G_ cookie'),
  'O cookie': cookie((s) => s.oCookie, 'the O cookie'),
  'insights eligible cookie': cookie((s) => s.insightsEligibleCookie, 'the insights-eligible cookie'),

  // ---- consent and environment (strings "true"/"false", as SPEC.md §5 writes them) -----------
  'targeting cookies enabled': {
    type: 'custom',
    reads: [],
    default: 'false',
    description: '"true" when the OneTrust cookie contains C0007:0 or C0007%3A0',
    // The raw cookie, not decoded: both spellings are looked for as they are.
    fn: (ctx) => flag(targetingCookiesEnabled(ctx.cookies.get(ctx.settings.oneTrustCookie))),
  },
  GPC: {
    type: 'custom',
    reads: [],
    default: 'false',
    description: '"true" when navigator.globalPrivacyControl is true',
    fn: (ctx) => flag(ctx.snapshot.gpc === true),
  },
  'Datadog enabled': {
    type: 'custom',
    reads: [],
    default: 'false',
    description: '"false" when targeting cookies are enabled or GPC is on, else "true"',
    fn: (ctx) => flag(datadogEnabled(ctx.get('targeting cookies enabled') === 'true', ctx.get('GPC') === 'true')),
  },
  'production flag': {
    type: 'custom',
    reads: [],
    default: 'false',
    description: '"true" only when the environment setting is production',
    fn: (ctx) => flag(ctx.settings.environment === PRODUCTION),
  },
  'environment stage': {
    type: 'custom',
    reads: [],
    default: '',
    description: 'the environment setting: development, staging or production',
    fn: (ctx) => ctx.settings.environment,
  },

  // ---- commerce (paths of DECISIONS.md §2) ---------------------------------------------------
  'product SKU': dl('product[0].productInfo.sku', 'the first product\'s SKU'),
  'cart freight forwarder': dl('cart.freightForwarder', 'the shopping cart\'s freight forwarder'),
  'category level': dl('page.category.level', 'category level'),
  'leaf category id': dl('page.category.leafCategoryId', 'leaf category id'),
  'leaf category name': dl('page.category.leafCategoryName', 'leaf category name'),

  // ---- analytics plugins (state in cookies the bridge writes; DECISIONS.md §6) ----------------
  'new/repeat': plugin('New or Repeat (getNewRepeat, 30 days)', (cookies, now, o) =>
    getNewRepeat(cookies, now, undefined, o),
  ),
  'visit number': plugin('the visit count (getVisitNum, 365 days)', (cookies, now, o) =>
    getVisitNumber(cookies, now, undefined, o),
  ),
  'days since last visit': plugin('First Visit … More than 1 year (getDaysSinceLastVisit)', (cookies, now, o) =>
    getDaysSinceLastVisit(cookies, now, o),
  ),
  'time since last visit': plugin('New Visitor, minutes, hours or days (getTimeSinceLastVisit, 2 years)', (cookies, now, o) =>
    getTimeSinceLastVisit(cookies, now, o),
  ),
  // Reads only: nothing to hold back without consent.
  'geo coordinates': {
    type: 'custom',
    reads: [],
    default: '',
    description: 'latitude=X | longitude=Y from the geo cookie only (getGeoCoordinates)',
    fn: (ctx) => getGeoCoordinates(ctx.cookies),
  },
};

function positive(n: unknown): number | undefined {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

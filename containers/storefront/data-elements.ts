/**
 * The storefront's data elements (docs/spec-coverage.md §1–§3, §5, §8; docs/spec-coverage.md D2, D3), one table, each
 * named as docs/spec-coverage.md names it. Resolution, defaults, failure logging and per-event memoising are
 * the engine's (core/data-elements.ts); this file only says where each value comes from. What each
 * element is, is said in a comment above it (a `description` field was runtime data that nothing
 * read).
 */
import { trackingConsented } from '../../src/worker-engine/analytics/consent.ts';
import { readPath } from '../../src/worker-engine/core/data-layer.ts';
import type { DataElement, DataElementContext } from '../../src/worker-engine/core/types.ts';
import { getDaysSinceLastVisit } from '../../src/worker-engine/analytics/plugins/days-since-last-visit.ts';
import { getGeoCoordinates } from '../../src/worker-engine/analytics/plugins/geo-coordinates.ts';
import { getNewRepeat } from '../../src/worker-engine/analytics/plugins/new-repeat.ts';
import { getTimeSinceLastVisit } from '../../src/worker-engine/analytics/plugins/time-since-last-visit.ts';
import { getVisitNumber } from '../../src/worker-engine/analytics/plugins/visit-number.ts';
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
import type { StorefrontSettings } from './settings.ts';

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

type Element = DataElement<StorefrontElement, StorefrontSettings>;
type Ctx = DataElementContext<StorefrontElement, StorefrontSettings>;

/** What a table entry may change about how a value is finished. */
type Finish = Pick<Element, 'default' | 'missingMessage'>;

/** A data layer field with docs/spec-coverage.md §8's default for "most others": the empty string. */
const dl = (path: string, finish: Finish = {}): Element => ({
  type: 'data-layer',
  path,
  default: '',
  ...finish,
});

const cookie = (name: string | ((s: Ctx['settings']) => string)): Element => ({
  type: 'cookie',
  name,
  default: '',
});

type ProfileGroup = 'attributes' | 'profileInfo';

/**
 * A user profile field: the data layer's `user.profile.<group>.<field>`, else the same field of
 * the profile cached in sessionStorage (docs/spec-coverage.md D2), field by field.
 */
const userField = (group: ProfileGroup, field: string, finish: Finish = {}): Element => ({
  type: 'custom',
    reads: [`user.profile.${group}.${field}`],
  default: '',
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
 * without tracking consent (docs/spec-coverage.md §6): then they neither answer nor write their cookies.
 * They run at the time the event fired and write their cookies on the page's cookie domain.
 */
const plugin = (
  run: (cookies: Ctx['cookies'], now: number, options: { domain: string }) => string,
): Element => ({
  type: 'custom',
    reads: [],
  default: '',
  sideEffects: true,
  fn: (ctx) =>
    trackingConsented(ctx) ? run(ctx.cookies, ctx.snapshot.time, { domain: ctx.page.cookieDomain }) : undefined,
});

export const dataElements: Record<StorefrontElement, Element> = {
  // ---- page ---------------------------------------------------------------------------------
  // {product} in docs/spec-coverage.md §1: the brand setting
  brand: { type: 'custom', reads: [], fn: (ctx) => ctx.settings.brand },
  // <brand>:<pageType>:<pageId>, lowercased (docs/spec-coverage.md D3)
  'page name': {
    type: 'custom',
    reads: [],
    forceLowerCase: true,
    fn: (ctx) => pageName(ctx.settings.brand, ctx.get('page type'), ctx.get('page id')),
  },
  // <brand>:<modal type or page type - modal>:<modal id>, 20 characters per segment
  'modal page name': {
    type: 'custom',
    reads: ['modal.page.pageInfo.pageType', 'modal.page.pageInfo.pageUID'],
    forceLowerCase: true,
    default: '',
    fn: (ctx) =>
      modalPageName(
        ctx.settings.brand,
        ctx.dataLayer('modal.page.pageInfo.pageType'),
        ctx.get('page type'),
        ctx.dataLayer('modal.page.pageInfo.pageUID'),
      ),
  },
  // e.g. Educational Content, Add to List, Share Product
  'page type': dl('page.pageInfo.pageType'),
  // e.g. order management
  'page id': dl('page.pageInfo.pageUID', {
    default: NOT_SET_IN_PDL,
    missingMessage: notSetMessage('Page id (page.pageInfo.pageUID)'),
  }),
  // channel-independent content title
  'content title': dl('page.pageInfo.contentTitle'),
  // page language
  language: dl('page.pageInfo.language'),
  // page template
  template: dl('page.pageInfo.template'),
  // page.category.lineOfBusiness, else the brand
  'line of business': {
    type: 'data-layer',
    path: 'page.category.lineOfBusiness',
    default: (settings: Ctx['settings']) => settings.brand,
  },
  // hier1: <brand>|<pageType>|<pageId>, lowercased (docs/spec-coverage.md D5)
  hierarchy: {
    type: 'custom',
    reads: [],
    forceLowerCase: true,
    fn: (ctx) => hierarchy(ctx.settings.brand, ctx.get('page type'), ctx.get('page id')),
  },
  // the analytics server variable: the page URL's hostname
  hostname: {
    type: 'custom',
    reads: [],
    default: '',
    fn: (ctx) => new URL(ctx.snapshot.url).hostname,
  },
  // every page.element[].click.id, joined with ","
  'element click ids': {
    type: 'custom',
    reads: ['page.element'],
    default: NOT_SET_IN_PDL,
    missingMessage: notSetMessage('Element click id (page.element[].click.id)'),
    fn: (ctx) => joinIds(ctx.dataLayer('page.element'), 'click.id', 'page.element', ctx.settings.listDelimiter),
  },
  // every page.element[].impression.id, joined with ","
  'element impression ids': {
    type: 'custom',
    reads: ['page.element'],
    default: '',
    fn: (ctx) => joinIds(ctx.dataLayer('page.element'), 'impression.id', 'page.element', ctx.settings.listDelimiter),
  },
  // every internalCampaign[].impression.id, joined with ","
  'internal campaign impressions': {
    type: 'custom',
    reads: ['internalCampaign'],
    default: '',
    fn: (ctx) => joinIds(ctx.dataLayer('internalCampaign'), 'impression.id', 'internalCampaign', ctx.settings.listDelimiter),
  },
  // the modal's pageType, pageUID and contentTitle
  'modal page info': dl('modal.page.pageInfo'),
  // sessionStorage <brand>PreviousPageName; reading it stores the current page name
  'previous page name': {
    type: 'custom',
    reads: [],
    default: '',
    sideEffects: true,
    fn: (ctx) => {
      const key = sessionKey(PREVIOUS_PAGE_NAME_KEY, ctx.settings.brand);
      const previous = ctx.session.get(key);
      ctx.session.set(key, String(ctx.get('page name')));
      return previous;
    },
  },
  // gcom mweb when the site-type cookie says mobile, else gcom fullsite
  'platform id': {
    type: 'custom',
    reads: [],
    fn: (ctx) => platformId(ctx.cookies.get(ctx.settings.siteTypeCookie)),
  },
  // the viewport width (window.innerWidth)
  'browser width': {
    type: 'custom',
    reads: [],
    default: NOT_SET_IN_PDL,
    missingMessage: notSetMessage('Browser width'),
    fn: (ctx) => positive(ctx.snapshot.viewport.width),
  },
  // the viewport height (window.innerHeight)
  'browser height': {
    type: 'custom',
    reads: [],
    default: NOT_SET_IN_PDL,
    missingMessage: notSetMessage('Browser height'),
    fn: (ctx) => positive(ctx.snapshot.viewport.height),
  },

  // ---- user ---------------------------------------------------------------------------------
  // sessionStorage <brand>UserData, parsed (a broken copy is logged once per event)
  'cached user profile': {
    type: 'custom',
    reads: [],
    default: '',
    fn: (ctx) => {
      const raw = ctx.session.get(sessionKey(USER_DATA_KEY, ctx.settings.brand));
      return raw === null || raw === '' ? undefined : (JSON.parse(raw) as unknown);
    },
  },
  'login state': userField('attributes', 'loginState', { default: NOT_LOGGED_IN }),
  // event49 when the login state is Full Logged In or Soft Logged In
  'login event': {
    type: 'custom',
    reads: [],
    default: '',
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
  // user.niteFlag
  'night flag': dl('user.niteFlag'),
  // Unknown User, <account>:Unassigned or <account>:<SAP id>
  'customer combination key': {
    type: 'custom',
    reads: [],
    default: UNKNOWN_USER,
    fn: (ctx) => customerCombinationKey(ctx.get('account number'), ctx.get('SAP account id')),
  },

  // ---- cookies (names from settings where docs/spec-coverage.md D1 makes them settings) ---------------
  'community cookie': cookie((s) => s.communityCookie),
  'AB1 cookie': cookie('AB1'),
  'AB2 cookie': cookie('AB2'),
  'AD1 cookie': cookie('AD1'),
  'DS1 cookie': cookie('DS1'),
  'DS2 cookie': cookie('DS2'),
  'signin cookie': cookie('signin'),
  'OHBU cookie': cookie('OHBU'),
  'X-BT cookie': cookie('X-BT'),
  'client IP cookie': cookie((s) => s.clientIpCookie),
  'G_ cookie': cookie((s) => s.gCookie),
  'O cookie': cookie((s) => s.oCookie),
  'insights eligible cookie': cookie((s) => s.insightsEligibleCookie),

  // ---- consent and environment (strings "true"/"false", as docs/spec-coverage.md §5 writes them) -----------
  // "true" when the OneTrust cookie contains C0007:0 or C0007%3A0
  'targeting cookies enabled': {
    type: 'custom',
    reads: [],
    // The raw cookie, not decoded: both spellings are looked for as they are.
    fn: (ctx) => flag(targetingCookiesEnabled(ctx.cookies.get(ctx.settings.oneTrustCookie))),
  },
  // "true" when navigator.globalPrivacyControl is true
  GPC: {
    type: 'custom',
    reads: [],
    fn: (ctx) => flag(ctx.snapshot.gpc === true),
  },
  // "false" when targeting cookies are enabled or GPC is on, else "true"
  'Datadog enabled': {
    type: 'custom',
    reads: [],
    fn: (ctx) => flag(datadogEnabled(ctx.get('targeting cookies enabled') === 'true', ctx.get('GPC') === 'true')),
  },
  // "true" only when the environment setting is production
  'production flag': {
    type: 'custom',
    reads: [],
    fn: (ctx) => flag(ctx.settings.environment === PRODUCTION),
  },
  // the environment setting: development, staging or production
  'environment stage': {
    type: 'custom',
    reads: [],
    fn: (ctx) => ctx.settings.environment,
  },

  // ---- commerce (paths of docs/spec-coverage.md D2) ---------------------------------------------------
  // the first product's SKU
  'product SKU': dl('product[0].productInfo.sku'),
  // the shopping cart's freight forwarder
  'cart freight forwarder': dl('cart.freightForwarder'),
  // category level
  'category level': dl('page.category.level'),
  // leaf category id
  'leaf category id': dl('page.category.leafCategoryId'),
  // leaf category name
  'leaf category name': dl('page.category.leafCategoryName'),

  // ---- analytics plugins (state in cookies the bridge writes; docs/spec-coverage.md D6) ----------------
  // New or Repeat (getNewRepeat, 30 days)
  'new/repeat': plugin((cookies, now, o) =>
    getNewRepeat(cookies, now, undefined, o),
  ),
  // the visit count (getVisitNum, 365 days)
  'visit number': plugin((cookies, now, o) =>
    getVisitNumber(cookies, now, undefined, o),
  ),
  // First Visit … More than 1 year (getDaysSinceLastVisit)
  'days since last visit': plugin((cookies, now, o) =>
    getDaysSinceLastVisit(cookies, now, o),
  ),
  // New Visitor, minutes, hours or days (getTimeSinceLastVisit, 2 years)
  'time since last visit': plugin((cookies, now, o) =>
    getTimeSinceLastVisit(cookies, now, o),
  ),
  // Reads only: nothing to hold back without consent.
  // latitude=X | longitude=Y from the geo cookie only (getGeoCoordinates)
  'geo coordinates': {
    type: 'custom',
    reads: [],
    fn: (ctx) => getGeoCoordinates(ctx.cookies),
  },
};

function positive(n: unknown): number | undefined {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/**
 * One test per data element: its value, its default, and its failure path (the read fails, a
 * console message says so, the default comes back and the event goes on).
 */
import { describe, expect, it } from 'vitest';
import type { StorefrontElement } from '../../../containers/storefront/container.ts';
import { CACHED_PROFILE, COOKIES, DATA_LAYER } from './fixtures.ts';
import { SITES, cookieString, effectsOf, getVar, harness, logsOf, throwingDataLayer, throwingSession } from '../harness.ts';

const USER_DATA = JSON.stringify(CACHED_PROFILE);
const failedMessage = (name: string) => `Failed to execute data element module for data element "${name}". data layer unreadable`;

interface DataLayerCase {
  name: StorefrontElement;
  value: unknown;
  fallback: unknown;
}

/** Elements read from a data layer path (or derived from one), with docs/spec-coverage.md §8's defaults. */
const DATA_LAYER_CASES: DataLayerCase[] = [
  { name: 'page type', value: 'Educational Content', fallback: '' },
  { name: 'page id', value: 'Order Management', fallback: 'Not Set in PDL' },
  { name: 'content title', value: 'How to reorder', fallback: '' },
  { name: 'language', value: 'en-us', fallback: '' },
  { name: 'template', value: 'article', fallback: '' },
  { name: 'element click ids', value: 'btn-reorder,btn-share', fallback: 'Not Set in PDL' },
  { name: 'element impression ids', value: 'imp-hero,imp-carousel,imp-footer', fallback: '' },
  { name: 'internal campaign impressions', value: 'spring-sale,free-shipping', fallback: '' },
  { name: 'modal page info', value: DATA_LAYER.modal.page.pageInfo, fallback: '' },
  { name: 'night flag', value: 'N', fallback: '' },
  { name: 'product SKU', value: '1ABC2', fallback: '' },
  { name: 'cart freight forwarder', value: 'FF-9', fallback: '' },
  { name: 'category level', value: '2', fallback: '' },
  { name: 'leaf category id', value: 'C-17', fallback: '' },
  { name: 'leaf category name', value: 'Gloves', fallback: '' },
];

describe.each(DATA_LAYER_CASES)('data element "$name"', ({ name, value, fallback }) => {
  it('reads its data layer field', async () => {
    const { value: got } = await getVar(harness(), name, { dataLayer: DATA_LAYER });
    expect(got).toEqual(value);
  });
  it(`defaults to ${JSON.stringify(fallback)} when the field is missing`, async () => {
    const { value: got } = await getVar(harness(), name, { dataLayer: {} });
    expect(got).toEqual(fallback);
  });
  it('logs a reading failure and returns the default', async () => {
    const { value: got, batch } = await getVar(harness(), name, { dataLayer: throwingDataLayer() });
    expect(got).toEqual(fallback);
    expect(logsOf(batch, 'error')).toContain(failedMessage(name));
  });
});

interface UserCase {
  name: StorefrontElement;
  value: unknown;
  cached: unknown;
  fallback: unknown;
}

/** User profile fields: data layer first, then sessionStorage acmeUserData field by field. */
const USER_CASES: UserCase[] = [
  { name: 'login state', value: 'Full Logged In', cached: 'Soft Logged In', fallback: 'Not Logged In' },
  { name: 'account number', value: '0812345', cached: '0999', fallback: '' },
  { name: 'SAP account id', value: 'SAP-99', cached: 'SAP-cached', fallback: '' },
  { name: 'sales group', value: 'CSG-4', cached: 'CSG-cached', fallback: '' },
  { name: 'community type', value: 'b2b', cached: 'cached-community', fallback: 'anon' },
  { name: 'RML state', value: 'active', cached: 'cached-rml', fallback: 'Not Set in PDL' },
  { name: 'organization id', value: 'org-5', cached: 'org-cached', fallback: '' },
  { name: 'user identifier', value: 'u-123', cached: 'u-cached', fallback: '' },
  { name: 'client profile id', value: 'CIM-7', cached: 'CIM-cached', fallback: '' },
];

describe.each(USER_CASES)('user data element "$name"', ({ name, value, cached, fallback }) => {
  it('reads the data layer profile first', async () => {
    const { value: got } = await getVar(harness(), name, { dataLayer: DATA_LAYER, session: { acmeUserData: USER_DATA } });
    expect(got).toBe(value);
  });
  it('falls back to the profile cached in sessionStorage', async () => {
    const { value: got } = await getVar(harness(), name, { dataLayer: {}, session: { acmeUserData: USER_DATA } });
    expect(got).toBe(cached);
  });
  it(`defaults to ${JSON.stringify(fallback)} with neither`, async () => {
    const { value: got } = await getVar(harness(), name, { dataLayer: {}, session: {} });
    expect(got).toBe(fallback);
  });
  it('logs a broken cached profile and returns the default', async () => {
    const { value: got, batch } = await getVar(harness(), name, { dataLayer: {}, session: { acmeUserData: '{broken' } });
    expect(got).toBe(fallback);
    expect(logsOf(batch, 'error').some((m) => m.startsWith('Failed to execute data element module for data element "cached user profile".'))).toBe(true);
  });
  it('logs a reading failure and returns the default', async () => {
    const { value: got, batch } = await getVar(harness(), name, { dataLayer: throwingDataLayer() });
    expect(got).toBe(fallback);
    expect(logsOf(batch, 'error')).toContain(failedMessage(name));
  });
});

describe('user data falls back field by field', () => {
  it('takes what the data layer lacks from sessionStorage, and the rest from the data layer', async () => {
    const h = harness();
    const dataLayer = { user: { profile: { attributes: { loginState: 'Full Logged In' } } } };
    const batch = await h.fire({ type: 'get-var', name: 'customer combination key' }, { dataLayer, session: { acmeUserData: USER_DATA } });
    expect(batch.effects.find((e) => e.type === 'reply')).toMatchObject({ value: '0999:SAP-cached' });
    const { value } = await getVar(h, 'login state', { dataLayer, session: { acmeUserData: USER_DATA } });
    expect(value).toBe('Full Logged In');
  });
  it('uses the brand setting in the session key', async () => {
    const { value } = await getVar(harness({ config: { brand: 'zeta' } }), 'account number', {
      session: { zetaUserData: USER_DATA, acmeUserData: JSON.stringify({ profile: { attributes: { accountNumber: 'wrong' } } }) },
    });
    expect(value).toBe('0999');
  });
});

describe('data element "cached user profile"', () => {
  it('parses sessionStorage acmeUserData', async () => {
    expect((await getVar(harness(), 'cached user profile', { session: { acmeUserData: USER_DATA } })).value).toEqual(CACHED_PROFILE);
  });
  it('defaults to "" when absent', async () => {
    expect((await getVar(harness(), 'cached user profile', { session: {} })).value).toBe('');
  });
  it('logs once per event when sessionStorage cannot be read', async () => {
    const h = harness();
    const batch = await h.fire('Page View', { dataLayer: {}, session: throwingSession() });
    const failures = logsOf(batch, 'error').filter((m) => m.includes('"cached user profile"'));
    expect(failures).toEqual(['Failed to execute data element module for data element "cached user profile". session unreadable']);
  });
});

describe('data element "customer combination key"', () => {
  const key = async (attributes: object, profileInfo: object) =>
    (await getVar(harness(), 'customer combination key', { dataLayer: { user: { profile: { attributes, profileInfo } } } })).value;
  it('is <account>:<SAP id>', async () => {
    expect(await key({ accountNumber: '0812345' }, { profileID: 'SAP-99' })).toBe('0812345:SAP-99');
  });
  it('is <account>:Unassigned without SAP id', async () => {
    expect(await key({ accountNumber: '0812345' }, {})).toBe('0812345:Unassigned');
  });
  it('defaults to Unknown User without account number', async () => {
    expect(await key({}, { profileID: 'SAP-99' })).toBe('Unknown User');
  });
  it('is Unknown User when the profile cannot be read, with the failure logged', async () => {
    const { value, batch } = await getVar(harness(), 'customer combination key', { dataLayer: throwingDataLayer() });
    expect(value).toBe('Unknown User');
    expect(logsOf(batch, 'error')).toContain(failedMessage('account number'));
  });
});

describe('data element "login event"', () => {
  it.each([
    ['Full Logged In', 'event49'],
    ['Soft Logged In', 'event49'],
    ['Not Logged In', ''],
    ['something else', ''],
  ])('login state %s gives %j', async (loginState, events) => {
    const { value } = await getVar(harness(), 'login event', { dataLayer: { user: { profile: { attributes: { loginState } } } } });
    expect(value).toBe(events);
  });
  it('is "" when the login state cannot be read', async () => {
    expect((await getVar(harness(), 'login event', { dataLayer: throwingDataLayer() })).value).toBe('');
  });
});

describe('data element "page name"', () => {
  it('is <brand>:<pageType>:<pageId>, lowercased', async () => {
    expect((await getVar(harness(), 'page name', { dataLayer: DATA_LAYER })).value).toBe('acme:educational content:order management');
  });
  it('uses "not set in pdl" for a missing page id and an empty segment for a missing page type', async () => {
    expect((await getVar(harness(), 'page name', { dataLayer: {} })).value).toBe('acme::not set in pdl');
  });
  it('follows the brand setting', async () => {
    expect((await getVar(harness({ config: { brand: 'Zeta' } }), 'page name', { dataLayer: DATA_LAYER })).value).toBe(
      'zeta:educational content:order management',
    );
  });
  it('logs failures of its parts and still names the page', async () => {
    const { value, batch } = await getVar(harness(), 'page name', { dataLayer: throwingDataLayer() });
    expect(value).toBe('acme::not set in pdl');
    expect(logsOf(batch, 'error')).toEqual([failedMessage('page type'), failedMessage('page id')]);
  });
  it('is not cut (only the modal page name is)', async () => {
    const long = 'x'.repeat(40);
    const { value } = await getVar(harness(), 'page name', { dataLayer: { page: { pageInfo: { pageType: long, pageUID: long } } } });
    expect(value).toBe(`acme:${long}:${long}`);
  });
});

describe('data element "hierarchy"', () => {
  it('is <brand>|<pageType>|<pageId>, lowercased', async () => {
    expect((await getVar(harness(), 'hierarchy', { dataLayer: DATA_LAYER })).value).toBe('acme|educational content|order management');
  });
  it('uses the defaults of its parts', async () => {
    expect((await getVar(harness(), 'hierarchy', { dataLayer: {} })).value).toBe('acme||not set in pdl');
  });
  it('survives a failing data layer', async () => {
    expect((await getVar(harness(), 'hierarchy', { dataLayer: throwingDataLayer() })).value).toBe('acme||not set in pdl');
  });
});

describe('data element "modal page name"', () => {
  it('is brand, modal type and modal id, each cut to 20 characters, lowercased', async () => {
    const { value } = await getVar(harness(), 'modal page name', { dataLayer: DATA_LAYER });
    // 'Email Sign Up Success' (21) → 'Email Sign Up Succes'; 'newsletter-confirmation-dialog' → 'newsletter-confirmat'
    expect(value).toBe('acme:email sign up succes:newsletter-confirmat');
  });
  it('falls back to the page type plus " - modal"', async () => {
    const dataLayer = { page: { pageInfo: { pageType: 'Add to List' } }, modal: { page: { pageInfo: { pageUID: 'list-picker' } } } };
    expect((await getVar(harness(), 'modal page name', { dataLayer })).value).toBe('acme:add to list - modal:list-picker');
  });
  it('cuts the fallback type too', async () => {
    const dataLayer = { page: { pageInfo: { pageType: 'Educational Content' } }, modal: { page: { pageInfo: { pageUID: 'x' } } } };
    expect((await getVar(harness(), 'modal page name', { dataLayer })).value).toBe('acme:educational content :x');
  });
  it('cuts a long brand', async () => {
    const { value } = await getVar(harness({ config: { brand: 'A-Very-Long-Brand-Name-Indeed' } }), 'modal page name', { dataLayer: DATA_LAYER });
    expect(value).toBe('a-very-long-brand-na:email sign up succes:newsletter-confirmat');
  });
  it('has empty segments when neither the modal nor the page says anything', async () => {
    expect((await getVar(harness(), 'modal page name', { dataLayer: {} })).value).toBe('acme::');
  });
  it('logs a failing read and returns the default', async () => {
    const { value, batch } = await getVar(harness(), 'modal page name', { dataLayer: throwingDataLayer() });
    expect(value).toBe('');
    expect(logsOf(batch, 'error')).toContain(failedMessage('modal page name'));
  });
});

describe('data element "line of business"', () => {
  it('reads page.category.lineOfBusiness', async () => {
    expect((await getVar(harness(), 'line of business', { dataLayer: DATA_LAYER })).value).toBe('Safety');
  });
  it('defaults to the brand', async () => {
    expect((await getVar(harness({ config: { brand: 'zeta' } }), 'line of business', { dataLayer: {} })).value).toBe('zeta');
  });
  it('logs a failing read and returns the brand', async () => {
    const { value, batch } = await getVar(harness(), 'line of business', { dataLayer: throwingDataLayer() });
    expect(value).toBe('acme');
    expect(logsOf(batch, 'error')).toEqual([
      'Failed to execute data element module for data element "line of business". data layer unreadable',
    ]);
  });
});

describe('data element "brand"', () => {
  it('is the brand setting (default acme)', async () => {
    expect((await getVar(harness(), 'brand')).value).toBe('acme');
    expect((await getVar(harness({ config: { brand: 'zeta' } }), 'brand')).value).toBe('zeta');
  });
  it('keeps the default when the setting has the wrong type, with the problem logged', async () => {
    const h = harness({ config: { brand: 42 } });
    const { value, batch } = await getVar(h, 'brand');
    expect(value).toBe('acme');
    expect(logsOf(batch, 'error')).toContain('offtagConfig.brand must be a string; got number. Using "acme".');
  });
});

describe('data element "hostname"', () => {
  it('is the hostname of the page URL', async () => {
    expect((await getVar(harness(), 'hostname', { url: 'https://shop.keepstock.example:8443/a?b' })).value).toBe('shop.keepstock.example');
  });
  it('logs an unreadable URL and defaults to ""', async () => {
    const { value, batch } = await getVar(harness(), 'hostname', { url: 'not a url' });
    expect(value).toBe('');
    expect(logsOf(batch, 'error').some((m) => m.startsWith('Failed to execute data element module for data element "hostname".'))).toBe(true);
  });
});

describe('data elements "element click ids" / "element impression ids" / "internal campaign impressions"', () => {
  it('log the missing click id', async () => {
    const { batch } = await getVar(harness(), 'element click ids', { dataLayer: { page: { element: [{ impression: { id: 'i' } }] } } });
    expect(logsOf(batch, 'log')).toContain('Element click id (page.element[].click.id) is not set in the page data layer; using "Not Set in PDL".');
  });
  it.each(['element click ids', 'element impression ids'] as const)('%s: a page.element that is not an array is a logged failure', async (name) => {
    const { value, batch } = await getVar(harness(), name, { dataLayer: { page: { element: { click: { id: 'x' } } } } });
    expect(value).toBe(name === 'element click ids' ? 'Not Set in PDL' : '');
    expect(logsOf(batch, 'error')).toContain(`Failed to execute data element module for data element "${name}". page.element is not an array.`);
  });
  it('internal campaign impressions: an internalCampaign that is not an array is a logged failure', async () => {
    const { value, batch } = await getVar(harness(), 'internal campaign impressions', { dataLayer: { internalCampaign: 'spring' } });
    expect(value).toBe('');
    expect(logsOf(batch, 'error')).toContain(
      'Failed to execute data element module for data element "internal campaign impressions". internalCampaign is not an array.',
    );
  });
  it('keep numeric ids', async () => {
    const { value } = await getVar(harness(), 'element impression ids', { dataLayer: { page: { element: [{ impression: { id: 7 } }, null] } } });
    expect(value).toBe('7');
  });
});

describe('data element "page id"', () => {
  it('logs that the page id is not set', async () => {
    const { batch } = await getVar(harness(), 'page id', { dataLayer: {} });
    expect(logsOf(batch, 'log')).toContain('Page id (page.pageInfo.pageUID) is not set in the page data layer; using "Not Set in PDL".');
  });
});

describe('data element "RML state"', () => {
  it('is Not Set in PDL for an anonymous visitor, silently (every anonymous page would say so)', async () => {
    const { value, batch } = await getVar(harness(), 'RML state', { dataLayer: {} });
    expect(value).toBe('Not Set in PDL');
    expect(logsOf(batch)).toEqual([]);
  });
});

describe('data element "previous page name"', () => {
  it('is "" on the first page and stores the current page name', async () => {
    const h = harness();
    const { value, batch } = await getVar(h, 'previous page name', { dataLayer: DATA_LAYER });
    expect(value).toBe('');
    expect(batch.effects).toContainEqual({ type: 'storage', key: 'acmePreviousPageName', value: 'acme:educational content:order management' });
  });
  it('returns the stored name and replaces it with the current one', async () => {
    const h = harness();
    const { value, batch } = await getVar(h, 'previous page name', {
      dataLayer: DATA_LAYER,
      session: { acmePreviousPageName: 'acme:home:home' },
    });
    expect(value).toBe('acme:home:home');
    expect(batch.effects).toContainEqual({ type: 'storage', key: 'acmePreviousPageName', value: 'acme:educational content:order management' });
  });
  it('on the next event, returns the page name the previous event stored', async () => {
    const h = harness();
    await getVar(h, 'previous page name', { dataLayer: DATA_LAYER });
    const { value } = await getVar(h, 'previous page name', { dataLayer: { page: { pageInfo: { pageType: 'Cart', pageUID: 'cart' } } } });
    expect(value).toBe('acme:educational content:order management');
  });
  it('uses the brand setting in the session key', async () => {
    const { batch } = await getVar(harness({ config: { brand: 'zeta' } }), 'previous page name', { dataLayer: DATA_LAYER });
    expect(batch.effects.some((e) => e.type === 'storage' && e.key === 'zetaPreviousPageName')).toBe(true);
  });
  it('logs an unreadable sessionStorage and defaults to ""', async () => {
    const { value, batch } = await getVar(harness(), 'previous page name', { dataLayer: DATA_LAYER, session: throwingSession() });
    expect(value).toBe('');
    expect(logsOf(batch, 'error')).toContain('Failed to execute data element module for data element "previous page name". session unreadable');
  });
});

describe('data element "platform id"', () => {
  it.each([
    ['mobile', 'gcom mweb'],
    ['MOBILE', 'gcom mweb'],
    ['full', 'gcom fullsite'],
  ])('site type cookie %s gives %s', async (siteType, platform) => {
    expect((await getVar(harness(), 'platform id', { cookie: `siteType=${siteType}` })).value).toBe(platform);
  });
  it('defaults to gcom fullsite without the cookie', async () => {
    expect((await getVar(harness(), 'platform id', { cookie: '' })).value).toBe('gcom fullsite');
  });
  it('reads the cookie the siteTypeCookie setting names', async () => {
    const { value } = await getVar(harness({ config: { siteTypeCookie: 'st' } }), 'platform id', { cookie: 'siteType=full; st=mobile' });
    expect(value).toBe('gcom mweb');
  });
  it('treats an unparseable cookie string as no cookie', async () => {
    expect((await getVar(harness(), 'platform id', { cookie: ';;=;siteType' })).value).toBe('gcom fullsite');
  });
});

describe.each(['width', 'height'] as const)('data element "browser %s"', (side) => {
  const name = `browser ${side}` as StorefrontElement;
  it('reads the viewport', async () => {
    expect((await getVar(harness(), name, { viewport: { width: 1280, height: 720 } })).value).toBe(side === 'width' ? 1280 : 720);
  });
  it('defaults to Not Set in PDL without a size, and says so', async () => {
    const { value, batch } = await getVar(harness(), name, { viewport: { width: 0, height: 0 } });
    expect(value).toBe('Not Set in PDL');
    expect(logsOf(batch, 'log')).toContain(`Browser ${side} is not set in the page data layer; using "Not Set in PDL".`);
  });
  it('logs a missing viewport and returns the default', async () => {
    const { value, batch } = await getVar(harness(), name, { viewport: undefined as never });
    expect(value).toBe('Not Set in PDL');
    expect(logsOf(batch, 'error').some((m) => m.startsWith(`Failed to execute data element module for data element "${name}".`))).toBe(true);
  });
});

const COOKIE_CASES: Array<[StorefrontElement, string]> = [
  ['community cookie', 'community'],
  ['AB1 cookie', 'AB1'],
  ['AB2 cookie', 'AB2'],
  ['AD1 cookie', 'AD1'],
  ['DS1 cookie', 'DS1'],
  ['DS2 cookie', 'DS2'],
  ['signin cookie', 'signin'],
  ['OHBU cookie', 'OHBU'],
  ['X-BT cookie', 'X-BT'],
  ['client IP cookie', 'client_ip'],
  ['G_ cookie', 'G_'],
  ['O cookie', 'O'],
  ['insights eligible cookie', 'insights_eligible'],
];

describe.each(COOKIE_CASES)('data element "%s"', (name, cookieName) => {
  it(`reads cookie ${cookieName}, decoded`, async () => {
    const { value } = await getVar(harness(), name, { cookie: cookieString({ ...COOKIES, [cookieName]: 'v%20alue' }) });
    expect(value).toBe('v alue');
  });
  it('defaults to "" without the cookie', async () => {
    expect((await getVar(harness(), name, { cookie: 'other=1' })).value).toBe('');
  });
  it('keeps a value whose encoding is broken as it is', async () => {
    expect((await getVar(harness(), name, { cookie: `${cookieName}=%E0%A4%A` })).value).toBe('%E0%A4%A');
  });
});

describe('cookie names from settings (spec-coverage.md D1)', () => {
  it.each([
    ['community cookie', 'communityCookie'],
    ['client IP cookie', 'clientIpCookie'],
    ['G_ cookie', 'gCookie'],
    ['O cookie', 'oCookie'],
    ['insights eligible cookie', 'insightsEligibleCookie'],
  ] as const)('%s follows the %s setting', async (name, setting) => {
    const { value } = await getVar(harness({ config: { [setting]: 'renamed' } }), name, { cookie: 'renamed=yes' });
    expect(value).toBe('yes');
  });
});

describe('data element "targeting cookies enabled"', () => {
  it.each([
    ['groups=C0001:1,C0007:0', 'true'],
    ['groups=C0001%3A1%2CC0007%3A0', 'true'],
    ['groups=C0001:1,C0007:1', 'false'],
  ])('OptanonConsent %s gives %s', async (consent, flag) => {
    expect((await getVar(harness(), 'targeting cookies enabled', { cookie: `OptanonConsent=${consent}` })).value).toBe(flag);
  });
  it('is "false" without the cookie', async () => {
    expect((await getVar(harness(), 'targeting cookies enabled', { cookie: '' })).value).toBe('false');
  });
  it('reads the cookie the oneTrustCookie setting names', async () => {
    const { value } = await getVar(harness({ config: { oneTrustCookie: 'OT' } }), 'targeting cookies enabled', { cookie: 'OT=C0007:0' });
    expect(value).toBe('true');
  });
});

describe('data element "GPC"', () => {
  it('is "true" when the browser reports GPC', async () => {
    expect((await getVar(harness(), 'GPC', { gpc: true })).value).toBe('true');
  });
  it('is "false" otherwise', async () => {
    expect((await getVar(harness(), 'GPC', { gpc: false })).value).toBe('false');
  });
  it('is "false" for anything but true', async () => {
    expect((await getVar(harness(), 'GPC', { gpc: 'yes' as never })).value).toBe('false');
  });
});

describe('data element "Datadog enabled"', () => {
  it.each([
    ['', false, 'true'],
    ['OptanonConsent=C0007:0', false, 'false'],
    ['', true, 'false'],
    ['OptanonConsent=C0007%3A0', true, 'false'],
  ])('cookie %j, GPC %s gives %s', async (cookie, gpc, flag) => {
    expect((await getVar(harness(), 'Datadog enabled', { cookie, gpc })).value).toBe(flag);
  });
});

describe('data elements "production flag" and "environment stage"', () => {
  it.each([
    ['production', 'true'],
    ['staging', 'false'],
    ['development', 'false'],
  ])('environment %s: flag %s', async (environment, flag) => {
    const h = harness({ config: { environment } });
    expect((await getVar(h, 'production flag')).value).toBe(flag);
    expect((await getVar(h, 'environment stage')).value).toBe(environment);
  });
  it('default to production', async () => {
    expect((await getVar(harness(), 'production flag')).value).toBe('true');
    expect((await getVar(harness(), 'environment stage')).value).toBe('production');
  });
  it('an invalid environment is logged and production is kept', async () => {
    const h = harness({ config: { environment: 'prod' } });
    const { value, batch } = await getVar(h, 'environment stage');
    expect(value).toBe('production');
    expect(logsOf(batch, 'error')).toContain('offtagConfig.environment must be one of development, staging, production; got "prod". Using "production".');
  });
});

describe('plugin data elements', () => {
  it('first visit', async () => {
    const h = harness();
    const batch = await h.fire({ type: 'get-var', name: 'new/repeat' });
    expect(batch.effects.find((e) => e.type === 'reply')).toMatchObject({ value: 'New' });
    expect((await getVar(h, 'visit number')).value).toBe('1');
    expect((await getVar(h, 'days since last visit')).value).toBe('First Visit');
    expect((await getVar(h, 'time since last visit')).value).toBe('New Visitor');
  });
  it('write their cookies through the bridge', async () => {
    const { batch } = await getVar(harness(), 'visit number');
    const names = batch.effects.filter((e) => e.type === 'cookie').map((e) => (e as { name: string }).name);
    expect(names).toEqual(['s_ivc', 's_vnc365']);
  });
  it.each(['new/repeat', 'visit number', 'days since last visit', 'time since last visit'] as const)(
    '%s writes its cookies on the page\'s cookie domain, like the tracker',
    async (name) => {
      const { batch } = await getVar(harness(), name);
      const cookies = batch.effects.filter((e) => e.type === 'cookie') as Array<{ name: string; domain?: string }>;
      expect(cookies.length).toBeGreaterThan(0);
      for (const c of cookies) expect([c.name, c.domain]).toEqual([c.name, SITES.keepstock.cookieDomain]);
    },
  );
  it('a returning visitor two days later', async () => {
    const h = harness();
    const day = 86_400_000;
    const before = Date.UTC(2026, 0, 13, 10, 30, 0);
    const cookie = cookieString({
      sat_track: 'true',
      s_nr30: encodeURIComponent(`${before}-New`),
      s_vnc365: encodeURIComponent(`${before + 300 * day}&vn=3`),
      s_lv: String(before),
      s_tslv: String(before),
    });
    expect((await getVar(h, 'new/repeat', { cookie })).value).toBe('Repeat');
    expect((await getVar(harness(), 'visit number', { cookie })).value).toBe('4');
    expect((await getVar(harness(), 'days since last visit', { cookie })).value).toBe('Less than 7 days');
    expect((await getVar(harness(), 'time since last visit', { cookie })).value).toBe('2 days');
  });
  it('corrupt plugin cookies start over instead of failing', async () => {
    const cookie = 'sat_track=true; s_nr30=garbage; s_vnc365=garbage; s_lv=garbage; s_tslv=garbage';
    expect((await getVar(harness(), 'new/repeat', { cookie })).value).toBe('Repeat');
    expect((await getVar(harness(), 'visit number', { cookie })).value).toBe('1');
    expect((await getVar(harness(), 'days since last visit', { cookie })).value).toBe('First Visit');
    expect((await getVar(harness(), 'time since last visit', { cookie })).value).toBe('New Visitor');
  });
  it.each(['new/repeat', 'visit number', 'days since last visit', 'time since last visit'] as const)(
    '%s: without tracking consent there is no tracker, so the plugin neither answers nor writes',
    async (name) => {
      const { value, batch } = await getVar(harness(), name, { cookie: 'sat_track=false' });
      expect(value).toBe('');
      expect(effectsOf(batch, 'cookie')).toEqual([]);
    },
  );
  it('geo coordinates come from the geo cookie only', async () => {
    expect((await getVar(harness(), 'geo coordinates', { cookie: 's_ggc=41.8781%7C-87.6298' })).value).toBe(
      'latitude=41.8781 | longitude=-87.6298',
    );
    expect((await getVar(harness(), 'geo coordinates', { cookie: '' })).value).toBe('geo coordinates not available');
    expect((await getVar(harness(), 'geo coordinates', { cookie: 's_ggc=nowhere' })).value).toBe('error retrieving geo coordinates');
  });
});

describe('the container', () => {
  it('every data element is memoised per event: previous page name stores once', async () => {
    const h = harness();
    const batch = await h.fire('Page View', { dataLayer: DATA_LAYER });
    expect(batch.effects.filter((e) => e.type === 'storage')).toHaveLength(1);
  });
  it('getVar of an unknown name answers undefined, silently', async () => {
    const { value, batch } = await getVar(harness(), 'no such element');
    expect(value).toBeUndefined();
    expect(logsOf(batch)).toEqual([]);
  });
});

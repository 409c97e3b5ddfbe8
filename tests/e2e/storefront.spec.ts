import { expect, test } from '@playwright/test';
import { SERVERS, beacons, idCalls, resetServers, ruleVerdict, waitForBeacons } from './helpers.ts';

/**
 * The storefront control page (every data layer field and direct call by hand; the demo for people
 * is the React storefront, tests/e2e/demo.spec.ts) fires each rule of the container in real Chromium.
 */
const CONTROLS = '/test/storefront/';
test.beforeEach(async ({ request }) => {
  await resetServers(request);
});

/** The page fires its page view at load, as a storefront does; the tests below start after it, with an empty collector. */
async function openDemo(page: import('@playwright/test').Page, request: import('@playwright/test').APIRequestContext) {
  await page.goto(CONTROLS);
  const [pv] = await waitForBeacons(request, 1);
  expect(pv).toMatchObject({ hitType: 't', pageName: 'acme:product detail:product 4km91' });
  await request.post(`${SERVERS.collector}/__reset`);
}

test('the demo page: Visitor service on Library Loaded, then each direct-call rule yields its beacon', async ({ page, request }) => {
  await openDemo(page, request);
  await expect.poll(async () => (await idCalls(request)).filter((c) => c.path === '/id').length).toBe(1);

  await page.selectOption('#loginState', 'Full Logged In');
  await page.fill('#accountNumber', '0812345');
  await page.fill('#profileID', '1000042');
  await page.click('[data-track="Page View"]');
  const [pv] = await waitForBeacons(request, 1);
  expect(pv).toMatchObject({
    hitType: 't',
    rsid: 'acmeprod',
    pageName: 'acme:product detail:product 4km91',
    channel: 'industrial',
    server: '127.0.0.1',
    currencyCode: 'USD',
    events: 'event49',
    eVar1: 'Full Logged In',
    eVar2: '0812345',
    eVar3: '1000042',
    eVar4: '0812345:1000042',
    eVar5: 'anon',
    eVar11: 'gcom fullsite',
    eVar20: '4KM91',
    hier1: 'acme|product detail|product 4km91',
    list1: 'hero-banner,recs-carousel',
    list2: 'spring-sale',
  });
  expect(pv.params.c1).toBe('D=v1');
  expect(pv.params.c2).toBe('D=pageName');
  expect(pv.eVar16).toBe('New');

  await page.fill('#modalType', '');
  await page.click('[data-track="Content: Modal View"]');
  const modal = (await waitForBeacons(request, 2))[1];
  expect(modal.hitType).toBe('t');
  // Each segment is cut to 20 characters: 'Product Detail - mod', 'Email Sign Up Succes'.
  expect(modal.pageName).toBe('acme:product detail - mod:email sign up succes');

  await page.click('[data-track="Element Impressions"]');
  const impressions = (await waitForBeacons(request, 3))[2];
  expect(impressions).toMatchObject({ hitType: 'tl', linkType: 'o', linkName: 'hero-banner,recs-carousel', events: 'event49' });
  expect(impressions.channel).toBeUndefined();
  expect(impressions.eVar2).toBeUndefined();

  await page.fill('#clickId', 'add-to-cart');
  await page.click('[data-track="Element Interactions"]');
  const clicks = (await waitForBeacons(request, 4))[3];
  expect(clicks).toMatchObject({ hitType: 'tl', linkType: 'o', linkName: 'add-to-cart' });
});

test('automatic link tracking: a download link and an exit link', async ({ page, request }) => {
  await openDemo(page, request);
  await page.click('#download-link');
  await page.click('#exit-link');
  const list = await waitForBeacons(request, 2);
  expect(list.map((b) => b.linkType)).toEqual(['d', 'e']);
  expect(list[0].linkUrl).toBe(`${SERVERS.page}/files/safety-data-sheet.pdf`);
  expect(list[1].linkUrl).toBe('https://partner.example.org/catalog');
});

test('Real user monitoring: loads the RUM script on /insights in production when Datadog is enabled, not elsewhere', async ({ page, request }) => {
  const inits: unknown[] = [];
  await page.exposeFunction('recordRumInit', (o: unknown) => inits.push(o));
  await page.route(`${SERVERS.rum}/datadog-rum.js`, (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: 'window.DD_RUM = { init: function (o) { window.recordRumInit(o); }, setGlobalContextProperty: function (k, v) { window.recordRumInit({ context: k, value: v }); } };',
    }),
  );
  await page.goto(CONTROLS);
  expect(await ruleVerdict(page, 'Real user monitoring')).toBe('condition not met');
  expect(await page.locator('#offtag-rum').count()).toBe(0);

  await page.goto(`${CONTROLS}?area=/insights`);
  await expect.poll(() => inits.length, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
  expect(inits[0]).toMatchObject({ applicationId: 'demo-app', clientToken: 'pubdemo', sessionSampleRate: 100, sessionReplaySampleRate: 100 });
  expect(inits[1]).toMatchObject({ context: 'cookies' });
  // Only the demo's own page views at load: RUM sends nothing to the analytics collector.
  expect((await beacons(request)).map((b) => b.hitType)).toEqual(['t', 't']);
});

test('Real user monitoring is declined when targeting cookies are off (C0007:0, plain or encoded) or GPC is on', async ({ page, context }) => {
  const url = '/test/minimal.html?silent&area=/insights';
  await page.route(`${SERVERS.rum}/datadog-rum.js`, (route) => route.fulfill({ contentType: 'text/javascript', body: 'window.DD_RUM = { init() {}, setGlobalContextProperty() {} };' }));
  const rumScripts = async (cookie?: string) => {
    await context.clearCookies();
    if (cookie) await context.addCookies([{ name: 'OptanonConsent', value: cookie, url: SERVERS.page }]);
    await page.goto(url);
    // The rule's verdict, then (when it fired) the tag it asked for.
    if ((await ruleVerdict(page, 'Real user monitoring')) === 'fired') await expect(page.locator('#offtag-rum')).toHaveCount(1);
    return page.locator('#offtag-rum').count();
  };
  expect(await rumScripts('groups=C0001:1,C0007:1')).toBe(1);
  expect(await rumScripts('groups=C0001:1,C0007:0')).toBe(0);
  expect(await rumScripts('groups%3DC0001%3A1%2CC0007%3A0')).toBe(0);
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }));
  expect(await rumScripts()).toBe(0);
});

test('the devtools overlay loads on demand and shows cost, data elements, rule firings and decoded beacons', async ({ page, request }) => {
  await openDemo(page, request);
  await page.click('[data-track="Page View"]');
  await waitForBeacons(request, 1);
  expect(await page.evaluate(() => !!document.getElementById('offtag-devtools'))).toBe(false);
  await page.click('#devtools');
  const panel = page.locator('#offtag-devtools').locator('.panel');
  await expect(panel).toContainText('per event (snapshot + post)');
  await panel.getByRole('button', { name: 'data elements' }).click();
  await expect(panel).toContainText('acme:product detail:product 4km91');
  await panel.getByRole('button', { name: 'rules' }).click();
  await expect(panel).toContainText('Page View');
  await expect(panel).toContainText('fired');
  await panel.getByRole('button', { name: 'beacons' }).click();
  await panel.getByRole('button', { name: /page view acme:product detail/ }).last().click();
  await expect(panel).toContainText('eVar11');
  await page.screenshot({ path: 'test-results/devtools.png' });
});

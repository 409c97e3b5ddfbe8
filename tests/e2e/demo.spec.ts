import { expect, test, type Page, type TestInfo } from '@playwright/test';
import { SERVERS, beacons, beaconsIdle, caughtUp, resetServers, type Beacon } from './helpers.ts';

/**
 * The demo storefront (demo/, a React app with its own client-side router) as a newcomer uses it,
 * in real Chromium against `offtag serve`: each screen, the beacons it sends, the collector panel,
 * consent, the insights area with Datadog RUM, a phone-width screen and a clean console.
 * Screenshots of each screen go to the test's output folder (and its attachments); they are
 * looked at, not compared.
 */
test.beforeEach(async ({ request }) => {
  await resetServers(request);
});

const EU = 'EU compliance was not acknowledged by the user.';

/** Console errors, uncaught exceptions and failed requests of the page. */
function watch(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('response', (r) => r.status() >= 400 && problems.push(`${r.status()} ${r.url()}`));
  return problems;
}

async function shot(page: Page, info: TestInfo, name: string): Promise<void> {
  const path = info.outputPath(`${name}.png`);
  await page.screenshot({ path, fullPage: true });
  await info.attach(name, { path, contentType: 'image/png' });
}

/** Waits for a beacon matching `fields` at the collector and returns it. */
async function beacon(request: Parameters<typeof beacons>[0], fields: Partial<Beacon>): Promise<Beacon> {
  let found: Beacon | undefined;
  await expect
    .poll(async () => (found = (await beacons(request)).find((b) => Object.entries(fields).every(([k, v]) => b[k] === v))), {
      message: `a beacon with ${JSON.stringify(fields)}`,
      timeout: 10_000,
      intervals: [100, 200],
    })
    .toBeTruthy();
  return found!;
}

const pageViews = async (request: Parameters<typeof beacons>[0]) =>
  (await beacons(request)).filter((b) => b.hitType === 't').map((b) => b.pageName);

test('the storefront: route changes send Page View, impressions, add-to-cart, links, the sign-up modal, login states and consent, all listed in the panel', async ({ page, request, context }, info) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const problems = watch(page);
  const panel = page.locator('#beacons > li');

  // Home: a page view at load, with the page's modules and campaign.
  await page.goto('/');
  const home = await beacon(request, { pageName: 'acme:home:home' });
  expect(home).toMatchObject({ hitType: 't', eVar1: 'Not Logged In', list1: 'home-hero,home-categories', list2: 'spring-safety-sale' });
  await expect(panel.first()).toContainText('page view acme:home:home');
  await shot(page, info, 'home');

  // A client-side route change (no page load): Page View with the new data layer, then the
  // product cards in view as one Element Impressions link beacon named by their ids.
  const loads: string[] = [];
  page.on('load', () => loads.push(page.url()));
  await page.getByRole('link', { name: 'Products' }).click();
  await beacon(request, { pageName: 'acme:product list:safety & ppe', hitType: 't' });
  const impressions = await beacon(request, { hitType: 'tl', pageName: 'acme:product list:safety & ppe' });
  expect(impressions.linkType).toBe('o');
  expect(impressions.linkName).toMatch(/^plp:4KM91,plp:5AB12,/);
  expect(impressions.list1).toBe(impressions.linkName);
  await expect(page.locator('#beacons')).toContainText('custom link plp:4KM91,plp:5AB12');
  await shot(page, info, 'product-list');

  // The product's page: its SKU in the page view; add to cart is an Element Interactions link beacon.
  await page.locator('.product a', { hasText: 'Safety Glasses' }).click();
  const pdp = await beacon(request, { pageName: 'acme:product detail:product 4km91' });
  expect(pdp).toMatchObject({ eVar20: '4KM91', pageURL: `${SERVERS.page}/products/4KM91`, hier1: 'acme|product detail|product 4km91' });
  await page.click('#add-to-cart');
  const cart = await beacon(request, { hitType: 'tl', linkName: 'add-to-cart:4KM91' });
  expect(cart).toMatchObject({ linkType: 'o', pageName: 'acme:product detail:product 4km91', pageURL: `${SERVERS.page}/products/4KM91` });
  await expect(page.locator('#nav-cart')).toHaveText('Cart (1)');
  const cartItem = panel.filter({ hasText: 'add-to-cart:4KM91' });
  await expect(cartItem).toContainText('custom link add-to-cart:4KM91');
  await expect(cartItem).toContainText('on /products/4KM91');
  // The automatic link tracking: a download link and an exit link, each listed with its link URL.
  await context.route('https://partner.example.org/**', (route) => route.fulfill({ contentType: 'text/html', body: '<title>partner</title>' }));
  const download = page.waitForEvent('download');
  await page.click('#data-sheet');
  await download;
  const popup = page.waitForEvent('popup');
  await page.click('#maker-link');
  await (await popup).close();
  await beacon(request, { linkType: 'd', linkUrl: `${SERVERS.page}/files/4KM91-data-sheet.pdf` });
  await beacon(request, { linkType: 'e', linkUrl: 'https://partner.example.org/catalog/4KM91' });
  await expect(panel.filter({ hasText: 'download link' })).toContainText(`link URL: ${SERVERS.page}/files/4KM91-data-sheet.pdf`);
  await expect(panel.filter({ hasText: 'exit link' })).toContainText('link URL: https://partner.example.org/catalog/4KM91');
  // Decoded on click.
  await cartItem.locator('.summary').click();
  await expect(cartItem.locator('table')).toContainText('linkName');
  await expect(cartItem.locator('table')).toContainText('eVar4');
  await expect(cartItem.locator('.raw')).toContainText(`${SERVERS.collector}/b/ss/acmeprod/`);
  await shot(page, info, 'product-detail');

  // Back is a route change too (popstate): the list's page view again.
  await page.goBack();
  await expect.poll(() => pageViews(request)).toEqual(['acme:home:home', 'acme:product list:safety & ppe', 'acme:product detail:product 4km91', 'acme:product list:safety & ppe']);
  expect(loads).toEqual([]);

  // The email sign-up modal: a modal view on opening, a bad address is refused with a message and
  // kept, and the success is a second modal view.
  await page.getByRole('link', { name: 'Acme Industrial Supply' }).click();
  await page.click('#open-signup');
  await beacon(request, { pageName: 'acme:home - modal:email sign up' });
  await page.fill('#signup-email', 'dana@');
  await page.click('#signup-submit');
  await expect(page.locator('#signup-modal [role=alert]')).toHaveText('Enter an email address such as name@example.com.');
  await expect(page.locator('#signup-email')).toHaveValue('dana@');
  await shot(page, info, 'signup-modal');
  await page.fill('#signup-email', 'dana@example.com');
  await page.click('#signup-submit');
  // docs/spec-coverage.md D3: each segment of a modal page name keeps 20 characters ('Email Sign Up Success' has 21).
  const success = await beacon(request, { pageName: 'acme:home - modal:email sign up succes' });
  expect(success.hitType).toBe('t');
  await expect(page.locator('#signup-modal')).toContainText('You are signed up');
  await page.keyboard.press('Escape');
  await expect(page.locator('#signup-modal')).toHaveCount(0);

  // Login states: signing in leads to order management, Full Logged In with event49 and the
  // account ids; "remember me" is Soft Logged In; signing out is Not Logged In again.
  await page.click('#nav-account');
  await beacon(request, { pageName: 'acme:account:sign in' });
  await page.click('#signin');
  const orders = await beacon(request, { pageName: 'acme:account:order management' });
  expect(orders).toMatchObject({ eVar1: 'Full Logged In', events: 'event49', eVar2: '0812345', eVar3: '1000042', eVar4: '0812345:1000042', eVar5: 'business' });
  await expect(panel.filter({ hasText: 'acme:account:order management' })).toContainText('event49');
  expect(await page.evaluate(() => JSON.parse(sessionStorage.getItem('acmeUserData')!).profile.attributes.loginState)).toBe('Full Logged In');
  await shot(page, info, 'account-orders');
  await page.click('#signout-remember');
  await expect.poll(async () => (await beacons(request)).at(-1)).toMatchObject({ pageName: 'acme:home:home', eVar1: 'Soft Logged In', events: 'event49', eVar2: '0812345' });
  await page.click('#nav-account');
  await expect(page.locator('main')).toContainText('Welcome back, Dana');
  await page.click('#signin');
  await beacon(request, { pageName: 'acme:account:order management', eVar1: 'Full Logged In' });
  await page.click('#signout');
  await expect(page.locator('#login-state')).toHaveText('Not Logged In');
  await expect.poll(async () => (await beacons(request)).at(-1)).toMatchObject({ pageName: 'acme:home:home', eVar1: 'Not Logged In', eVar4: 'Unknown User' });
  expect(await page.evaluate(() => sessionStorage.getItem('acmeUserData'))).toBeNull();

  // Consent off: the events still fire, the container sends nothing and says why; on again, it sends.
  await page.click('#consent-tracking');
  expect((await context.cookies()).find((c) => c.name === 'sat_track')?.value).toBe('false');
  const before = (await beacons(request)).length;
  // The cart: a page whose only event is its Page View. (The product list also fires Element
  // Impressions when the demo's 250 ms impression batch closes; on a fast machine that came after the
  // switch went back on, and was rightly sent.)
  const said = page.waitForEvent('console', (m) => m.text() === EU);
  await page.click('#nav-cart');
  await said;
  await expect(page.locator('#tracking-off')).toBeVisible();
  // The event handled, its effects applied, the queue with nothing to send: no beacon can still come.
  await caughtUp(page);
  await beaconsIdle(page);
  expect((await beacons(request)).length).toBe(before);
  await shot(page, info, 'consent-off');
  await page.click('#consent-tracking');
  await page.getByRole('link', { name: 'Acme Industrial Supply' }).click();
  await expect.poll(async () => (await beacons(request)).length).toBe(before + 1);
  expect((await beacons(request)).at(-1)!.pageName).toBe('acme:home:home');

  // offtag.metrics(), rounded; then clear empties the panel and the collector.
  const metrics = await page.locator('#metrics').textContent();
  expect(metrics).toMatch(/events\d+/);
  for (const n of metrics!.match(/\d+\.\d+/g) ?? []) expect(n.split('.')[1]!.length).toBeLessThanOrEqual(2);
  await page.click('#clear-beacons');
  await expect(panel).toHaveCount(0);
  expect(await beacons(request)).toEqual([]);

  // No console errors but the consent message of the event sent while consent was off.
  expect(problems.filter((p) => p !== EU)).toEqual([]);
  expect(problems.filter((p) => p === EU).length).toBeGreaterThan(0);
});

test('the insights area: Educational Content page views, and the real Datadog RUM SDK sends its views to the local intake', async ({ page, request }, info) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const problems = watch(page);
  await page.goto('/insights');
  await beacon(request, { pageName: 'acme:educational content:insights home' });
  await expect(page.locator('#rum-status')).toContainText('Datadog RUM is running', { timeout: 10_000 });
  await page.getByRole('link', { name: 'Lockout/tagout basics' }).click();
  await beacon(request, { pageName: 'acme:educational content:lockout/tagout basics' });
  await shot(page, info, 'insights-article');
  // Leaving the area is a page load (the container decides on RUM at Window Loaded); the SDK
  // sends what it holds as the page goes.
  await page.getByRole('link', { name: 'Products' }).click();
  await beacon(request, { pageName: 'acme:product list:safety & ppe', hitType: 't' });
  const views = async () => {
    const events: Array<{ type: string; view?: { url?: string } }> = await (await request.get(`${SERVERS.rum}/__events`)).json();
    return [...new Set(events.filter((e) => e.type === 'view').map((e) => new URL(e.view!.url!).pathname))];
  };
  await expect.poll(views, { timeout: 15_000 }).toEqual(['/insights', '/insights/lockout-tagout-basics']);
  // Outside the area the container does not load RUM.
  expect(await page.locator('#offtag-rum').count()).toBe(0);

  // Back in the area, the status counts this RUM session's events only (the intake also holds
  // another session's, as after an earlier visit), and says when the SDK sends.
  const other = Array.from({ length: 7 }, (_, i) => JSON.stringify({ type: 'view', date: i, session: { id: 'another-session' }, view: { url: 'http://127.0.0.1/elsewhere' } }));
  expect((await request.post(`${SERVERS.rum}/api/v2/rum`, { data: other.join('\n'), headers: { 'Content-Type': 'text/plain' } })).ok()).toBe(true);
  await page.goto('/insights');
  await expect(page.locator('#rum-status')).toContainText('Datadog RUM is running', { timeout: 10_000 });
  await expect(page.locator('#rum-flush')).toContainText('30 s after the first one it holds');
  const session = await page.evaluate(() => (window as unknown as { DD_RUM: { getInternalContext(): { session_id: string } } }).DD_RUM.getInternalContext().session_id);
  const intake = async () => {
    const events: Array<{ session?: { id?: string } }> = await (await request.get(`${SERVERS.rum}/__events`)).json();
    return { all: events.length, ours: events.filter((e) => e.session?.id === session).length };
  };
  await expect
    .poll(async () => Number(/events: (\d+)/.exec((await page.locator('#rum-count').textContent()) ?? '')?.[1]) === (await intake()).ours, { timeout: 10_000 })
    .toBe(true);
  const { all, ours } = await intake();
  expect(ours).toBeGreaterThan(0);
  expect(all - ours).toBe(7);
  expect(problems).toEqual([]);
});

test('the beacon panel shows the host of a beacon sent from another origin, the path of one sent from the demo', async ({ page, request }) => {
  await page.goto('/');
  await beacon(request, { pageName: 'acme:home:home' });
  const g = encodeURIComponent('http://shop.other.example:8080/plain.html?x=1');
  const sent = await request.get(`${SERVERS.collector}/b/ss/acmedev/1/JS-2.27.0/s123456789?AQB=1&ndh=1&pageName=plain%20page&g=${g}&AQE=1`);
  expect(sent.ok()).toBe(true);
  await expect(page.locator('#beacons > li', { hasText: 'plain page' }).locator('.on')).toHaveText('on shop.other.example:8080/plain.html?x=1');
  await expect(page.locator('#beacons > li', { hasText: 'acme:home:home' }).locator('.on')).toHaveText('on /');
});

test('the devtools overlay opens on the left, off the collector panel; its dock button moves it; it reopens after closing', async ({ page, request }) => {
  await page.goto('/');
  await beacon(request, { pageName: 'acme:home:home' });
  await page.click('#devtools');
  const panel = page.locator('#offtag-devtools').locator('.panel');
  await expect(panel).toContainText('per event (snapshot + post)');
  const span = async (l: typeof panel) => {
    const b = (await l.boundingBox())!;
    return { x: b.x, width: b.width };
  };
  const overlaps = (a: { x: number; width: number }, b: { x: number; width: number }) => a.x < b.x + b.width && b.x < a.x + a.width;
  const collector = page.locator('#collector');
  expect(overlaps(await span(panel), await span(collector))).toBe(false);
  await panel.getByRole('button', { name: '⇥' }).click();
  expect(overlaps(await span(panel), await span(collector))).toBe(true);
  await panel.getByRole('button', { name: 'close' }).click();
  await expect(panel).toHaveCount(0);
  await page.click('#devtools');
  await expect(page.locator('#offtag-devtools').locator('.panel')).toContainText('per event (snapshot + post)');
});

test('every screen fits a 390 px phone screen (no horizontal scroll) with the panel below the store; the page view at load waits for a late offtag.js', async ({ page, request }, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const problems = watch(page);
  const fits = async (name: string) => {
    expect(await page.evaluate(() => document.documentElement.scrollWidth), name).toBeLessThanOrEqual(390);
    await shot(page, info, `phone-${name}`);
  };
  // offtag.js arrives late (after the app has rendered): the page view fired at load waits for it, with its data layer.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route(`${SERVERS.scripts}/offtag.js`, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto('/', { waitUntil: 'domcontentloaded' });
  await expect(page.locator('main h1')).toBeVisible();
  expect(await page.evaluate(() => '_satellite' in window)).toBe(false);
  release();
  expect(await beacon(request, { pageName: 'acme:home:home' })).toMatchObject({ list1: 'home-hero,home-categories', eVar1: 'Not Logged In' });
  const store = await page.locator('.store').boundingBox();
  const panel = await page.locator('#collector').boundingBox();
  expect(panel!.y).toBeGreaterThanOrEqual(store!.y + store!.height - 1);
  await fits('home');
  await page.getByRole('link', { name: 'Products' }).click();
  await beacon(request, { hitType: 'tl', pageName: 'acme:product list:safety & ppe' });
  await fits('product-list');
  await page.locator('.product a', { hasText: 'Hard Hat' }).click();
  await page.click('#add-to-cart');
  await beacon(request, { linkName: 'add-to-cart:3NX27' });
  const item = page.locator('#beacons > li', { hasText: 'add-to-cart:3NX27' });
  await item.locator('.summary').click();
  await expect(item.locator('table')).toContainText('linkName');
  await fits('product-detail');
  await page.click('#nav-cart');
  await fits('cart');
  await page.click('#nav-account');
  await page.click('#signin');
  await beacon(request, { pageName: 'acme:account:order management' });
  await fits('account-orders');
  await page.getByRole('link', { name: 'Acme Industrial Supply' }).click();
  await page.click('#open-signup');
  await fits('signup-modal');
  expect(problems).toEqual([]);
});

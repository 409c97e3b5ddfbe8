import { expect, test } from '@playwright/test';
import { SERVERS, idCalls, resetServers, waitForBeacons } from './helpers.ts';

const AMCV = 'AMCV_0123456789ABCDEF01234567%40AdobeOrg';

test.beforeEach(async ({ request, context }) => {
  await resetServers(request);
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
});

test('first page view: exactly one /id call, an AMCV cookie the real library accepts, the id on the beacon; a reload reuses it without a call', async ({
  page,
  request,
}) => {
  await page.goto('/test/minimal.html');
  const [first] = await waitForBeacons(request, 1);
  const ids = (await idCalls(request)).filter((c) => c.path === '/id');
  expect(ids).toHaveLength(1);
  expect(ids[0].query).toMatchObject({ d_visid_ver: '5.5.0', d_fieldgroup: 'MC', d_rtbd: 'json', d_ver: '2', d_orgid: '0123456789ABCDEF01234567@AdobeOrg', d_nsid: '0' });
  // A non-demdex host (the local service) gets d_verify=1 while no MID is known (VisitorAPI.js 5.5.0: the /id call).
  expect(ids[0].query.d_verify).toBe('1');

  const cookie = (await page.context().cookies()).find((c) => c.name === AMCV);
  expect(cookie).toBeDefined();
  const decoded = decodeURIComponent(cookie!.value);
  // <digest>|MCIDTS|<day>|MCMID|<mid>|MCAAMLH-<exp>|<region>|MCAAMB-<exp>|<blob>|…|vVersion|5.5.0
  // (the digest hashes the ID host, so it is not the default 179643557 with a local service)
  expect(decoded).toMatch(/^-?\d+\|MCIDTS\|\d+\|MCMID\|\d{38}\|MCAAMLH-\d+\|7\|MCAAMB-\d+\|[^|]+\|.*vVersion\|5\.5\.0$/);
  const mid = /MCMID\|(\d{38})/.exec(decoded)![1];
  expect(first.mid).toBe(mid);
  expect(first.aamlh).toBe('7');
  expect(first.mcorgid).toBe('0123456789ABCDEF01234567@AdobeOrg');
  expect((await page.context().cookies()).some((c) => c.name === 'AMCVS_0123456789ABCDEF01234567%40AdobeOrg')).toBe(true);

  await page.reload();
  const list = await waitForBeacons(request, 2);
  expect(list[1].mid).toBe(mid);
  expect((await idCalls(request)).filter((c) => c.path === '/id')).toHaveLength(1);
});

test('the ID-sync iframe loads dest5.html from the ID service and gets the combined message from the page origin', async ({ page, request }) => {
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  const frame = page.locator('iframe[id^="destination_publishing_iframe_"]');
  await expect(frame).toHaveAttribute('sandbox', 'allow-scripts allow-same-origin');
  await expect(frame).toHaveClass('aamIframeLoaded');
  await expect
    .poll(async () => (await idCalls(request)).filter((c) => c.path === '/dest5/record').map((c) => c.query.kind))
    .toContain('combined');
  const combined = (await idCalls(request)).find((c) => c.path === '/dest5/record' && c.query.kind === 'combined')!;
  expect(combined.query.origin).toBe(SERVERS.page);
});

test('the ID-sync iframe waits for the page to load: none while an image holds the load event, then it loads', async ({ page, request }) => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  // An image in the document holds its load event until the test releases it.
  await page.addInitScript(() => document.addEventListener('DOMContentLoaded', () => document.body.append(Object.assign(new Image(), { src: '/held.gif' }))));
  await page.route('**/held.gif', async (route) => {
    await held;
    await route.fulfill({ status: 204 });
  });
  await page.goto('/test/minimal.html', { waitUntil: 'commit' });
  await expect.poll(async () => (await idCalls(request)).filter((c) => c.path === '/id').length).toBe(1);
  // The ID reply's effects have reached the page (the AMCV cookie is in the batch that asks for the iframe).
  await expect.poll(() => page.evaluate(() => document.cookie.includes('AMCV_'))).toBe(true);
  expect(await page.evaluate(() => document.readyState)).not.toBe('complete');
  await expect(page.locator('iframe[id^="destination_publishing_iframe_"]')).toHaveCount(0);
  release();
  await expect(page.locator('iframe[id^="destination_publishing_iframe_"]')).toHaveClass('aamIframeLoaded');
});

test('a broken ID-service reply falls back to a local MID and the beacon still goes out', async ({ page, request }) => {
  await page.route(`${SERVERS.idService}/id?**`, (route) => route.fulfill({ status: 200, body: 'this is not json', headers: { 'Access-Control-Allow-Origin': SERVERS.page, 'Access-Control-Allow-Credentials': 'true' } }));
  const lines: string[] = [];
  page.on('console', (m) => lines.push(m.text()));
  await page.goto('/test/minimal.html');
  const [beacon] = await waitForBeacons(request, 1);
  expect(beacon.mid).toMatch(/^\d{38}$/);
  await expect.poll(() => lines.some((l) => l.startsWith('Visitor ID call:'))).toBe(true);
});

test('the optional page-side Visitor facade answers from the worker', async ({ page, request }) => {
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  await page.addScriptTag({ url: '/dist/offtag-visitor.js' });
  const r = await page.evaluate(async () => {
    const V = (window as any).Visitor;
    let direct = '';
    try {
      new V('x');
    } catch (e) {
      direct = (e as Error).message;
    }
    const v = V.getInstance('0123456789ABCDEF01234567@AdobeOrg');
    const viaCallback = await new Promise((resolve) => v.getMarketingCloudVisitorID(resolve, true));
    return { direct, viaCallback, viaPromise: await v.getMarketingCloudVisitorID() };
  });
  expect(r.direct).toBe('Please use `Visitor.getInstance` to instantiate Visitor.');
  const cookie = (await page.context().cookies()).find((c) => c.name === AMCV)!;
  const mid = /MCMID\|(\d{38})/.exec(decodeURIComponent(cookie.value))![1];
  expect(r.viaCallback).toBe(mid);
  expect(r.viaPromise).toBe(mid);
});

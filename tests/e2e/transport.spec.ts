import { expect, test } from '@playwright/test';
import { SERVERS, beacons, resetServers, waitForBeacons } from './helpers.ts';

test.beforeEach(async ({ request, context }) => {
  await resetServers(request);
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
});

test('offline for a while, then online: every beacon arrives, none twice', async ({ page, request, context }) => {
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  await context.setOffline(true);
  for (let i = 0; i < 3; i++) await page.evaluate(() => (window as any)._satellite.track('Page View'));
  await page.waitForTimeout(2000);
  expect(await beacons(request)).toHaveLength(1);
  await context.setOffline(false);
  await waitForBeacons(request, 4, 40_000);
  await page.waitForTimeout(1000);
  const after = await beacons(request);
  expect(after).toHaveLength(4);
  expect(after.filter((b) => b.duplicate)).toEqual([]);
});

test('the page closed with beacons in flight: they arrive on the next load', async ({ page, request, context }) => {
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  await request.post(`${SERVERS.collector}/__fail?count=100&status=503`);
  for (let i = 0; i < 2; i++) await page.evaluate(() => (window as any)._satellite.track('Page View'));
  await page.waitForTimeout(1500);
  await page.close();
  await request.post(`${SERVERS.collector}/__fail?count=0&status=503`);
  const next = await context.newPage();
  await next.goto('/test/minimal.html');
  // 2 left behind + the first page's + the new page's own page view.
  await waitForBeacons(request, 4, 40_000);
  await next.waitForTimeout(1000);
  const after = await beacons(request);
  expect(after).toHaveLength(4);
  expect(after.filter((b) => b.duplicate)).toEqual([]);
});

test('no tracking consent: nothing is sent, now or later, and the message says why at every event', async ({ page, request, context }) => {
  await context.clearCookies();
  const lines: string[] = [];
  page.on('console', (m) => lines.push(m.text()));
  await page.goto('/test/minimal.html');
  await page.evaluate(() => (window as any)._satellite.track('Element Impressions'));
  await expect.poll(() => lines.filter((l) => l === 'EU compliance was not acknowledged by the user.').length).toBe(2);
  // Consent given mid-page: the next event is tracked, the earlier ones are not sent later.
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
  await page.evaluate(() => (window as any)._satellite.track('Page View'));
  const list = await waitForBeacons(request, 1);
  await page.waitForTimeout(1000);
  expect(await beacons(request)).toHaveLength(1);
  expect(list[0].hitType).toBe('t');
});

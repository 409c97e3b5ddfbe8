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

test('events not yet acknowledged when the page closes go to localStorage on pagehide, as of their own time, and the next page finishes them', async ({ page, request, context }) => {
  // The ID call hangs: the hits wait for the visitor ids, so the worker acknowledges nothing.
  await request.post(`${SERVERS.idService}/__hang?on=1`);
  try {
    await page.goto('/test/minimal.html?silent');
    await page.waitForFunction(() => !!(window as any)._satellite);
    await page.evaluate(() => {
      const w = window as any;
      for (const id of ['one', 'two']) {
        w.digitalData.page.pageInfo.pageUID = id;
        w._satellite.track('Page View');
      }
    });
    await page.waitForTimeout(500);
    await page.close();
    // A page of the origin without Offtag sees what the closed page kept.
    const look = await context.newPage();
    await look.goto('/test/blank.html');
    const kept = await look.evaluate(() =>
      Object.keys(localStorage)
        .filter((k) => k.startsWith('offtag:u:'))
        .map((k) => JSON.parse(localStorage.getItem(k)!) as any[]),
    );
    expect(kept).toHaveLength(1);
    const calls = kept[0]!.filter((i) => i.event.type === 'direct-call');
    expect(calls.map((i) => i.snapshot.dataLayer.page.pageInfo.pageUID)).toEqual(['one', 'two']);
    expect(await beacons(request)).toHaveLength(0);
    await request.post(`${SERVERS.idService}/__hang?on=0`);
    // The next page with Offtag finishes them, then forgets them.
    const next = await context.newPage();
    await next.goto('/test/minimal.html?silent');
    const list = await waitForBeacons(request, 2, 30_000);
    expect(list.map((b) => b.pageName).sort()).toEqual([expect.stringContaining(':one'), expect.stringContaining(':two')]);
    await expect.poll(() => next.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('offtag:u:')).length)).toBe(0);
    await next.waitForTimeout(1000);
    expect(await beacons(request)).toHaveLength(2);
  } finally {
    await request.post(`${SERVERS.idService}/__hang?on=0`);
  }
});

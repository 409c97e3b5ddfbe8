import { expect, test } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { SERVERS, resetServers, waitForBeacons } from './helpers.ts';

// Playwright starts Chromium with the back/forward cache off; this file turns it back on.
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, ignoreDefaultArgs: ['--disable-back-forward-cache'] } });

test('a page with Offtag (its worker and the origin\'s SharedWorker sender) is restored from the back/forward cache, and tracks after it', async ({ page, request, context }) => {
  await resetServers(request);
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
  await page.goto('/test/minimal.html?host=same');
  await waitForBeacons(request, 1);
  // The queue done with it (its store writes and deletes), as a visitor's page is a moment after a beacon.
  await page.waitForTimeout(500);
  await page.evaluate(() => addEventListener('pageshow', (e) => ((window as any).restored = (e as PageTransitionEvent).persisted)));
  await page.goto('/test/blank.html');
  await page.goBack({ waitUntil: 'commit' });
  // When it is not restored, Chrome says why (PerformanceNavigationTiming.notRestoredReasons): shown in the failure.
  await expect
    .poll(() => page.evaluate(() => ((window as any).restored ? true : JSON.stringify((performance.getEntriesByType('navigation')[0] as any)?.notRestoredReasons ?? null))))
    .toBe(true);
  await page.evaluate(() => (window as any)._satellite.track('Page View'));
  await waitForBeacons(request, 2);
});

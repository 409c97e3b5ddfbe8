import { expect, test, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { SERVERS, beaconsIdle, resetServers, waitForBeacons } from './helpers.ts';

// Playwright starts Chromium with the back/forward cache off; this file turns it back on.
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, ignoreDefaultArgs: ['--disable-back-forward-cache'] } });

/**
 * Leaves the page for another and comes back, and returns once the page's script can be called
 * again: true when it was restored from the cache (pageshow, persisted: the page as it was), else
 * Chrome's reasons (PerformanceNavigationTiming.notRestoredReasons) as JSON, once the page loaded
 * again has fired `load` (its async offtag.js, added while it parsed, runs before that).
 * `goBack` waits for the commit only: a restored page fires pageshow, never load; a page loaded
 * again is committed before its scripts run, so `_satellite` may not be there yet.
 * `seen`: called once the way back is committed and the result read, before the page loaded again has loaded.
 */
async function awayAndBack(page: Page, seen = () => {}): Promise<true | string> {
  await page.evaluate(() => addEventListener('pageshow', (e) => ((window as any).restored = (e as PageTransitionEvent).persisted)));
  await page.goto('/test/blank.html');
  await page.goBack({ waitUntil: 'commit' });
  let result = '' as true | string;
  await expect
    .poll(async () => (result = await page.evaluate(() => ((window as any).restored ? true : JSON.stringify((performance.getEntriesByType('navigation')[0] as any)?.notRestoredReasons ?? null)))))
    .not.toBe('null');
  seen();
  if (result !== true) await page.waitForLoadState('load');
  // Said with the way back it took, should a page ever come back without its library.
  expect(await page.evaluate(() => typeof (window as any)._satellite), `_satellite after coming back (${result === true ? 'restored' : `loaded again: ${result}`})`).toBe('object');
  return result;
}

/** Every reason Chrome gave, in the page and its frames. */
const reasonsOf = (json: string): string[] => {
  const walk = (n: { reasons?: Array<{ reason: string }> | null; children?: unknown[] | null } | null): string[] =>
    n ? [...(n.reasons ?? []).map((r) => r.reason), ...(n.children ?? []).flatMap((c) => walk(c as never))] : [];
  return walk(JSON.parse(json));
};

test('a page with Offtag (its worker and the origin\'s SharedWorker sender) is restored from the back/forward cache, or kept out only by Chrome\'s rule for a SharedWorker left with no active client (Chromium 150), and tracks after it either way', async ({ page, request, context }) => {
  await resetServers(request);
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
  await page.goto('/test/minimal.html?host=same');
  await waitForBeacons(request, 1);
  // Leave as a visitor would, a moment after the beacon: the queue done with it (its store writes and deletes).
  await beaconsIdle(page);
  const back = await awayAndBack(page);
  // Nothing else of Offtag (its worker, its frames, its storage) keeps the page out.
  if (back !== true) expect(reasonsOf(back)).toEqual(['sharedworker-with-no-active-client']);
  await page.evaluate(() => (window as any)._satellite.track('Page View'));
  // Restored: this Page View is the second beacon; loaded again: the load's Page View, then this one.
  await waitForBeacons(request, back === true ? 2 : 3);
});

test('a page kept out of the cache is loaded again, and tracks once its offtag.js has run, however late that is', async ({ page, request, context }) => {
  await resetServers(request);
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
  // The page's own response keeps it out of the cache (Cache-Control: no-store), as a site's may.
  await page.route('**/test/minimal.html*', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'cache-control': 'no-store' } });
  });
  await page.goto('/test/minimal.html?host=same');
  await waitForBeacons(request, 1);
  await beaconsIdle(page);
  // On the way back, offtag.js arrives only once the page is committed and known not restored: a
  // test that called `_satellite` then (what goBack waits for) would find it undefined.
  let release = () => {};
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/dist/offtag.js', async (route) => {
    await held;
    await route.continue();
  });
  const back = await awayAndBack(page, release);
  expect(back === true ? [] : reasonsOf(back)).toContain('response-cache-control-no-store');
  await page.evaluate(() => (window as any)._satellite.track('Page View'));
  // The load's Page View (minimal.html tracks it when offtag.js has loaded), then this one.
  await waitForBeacons(request, 3);
});

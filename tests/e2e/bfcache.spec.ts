import { expect, test, type Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { SERVERS, beaconsIdle, resetServers, waitForBeacons } from './helpers.ts';

// Playwright starts Chromium with the back/forward cache off; this file turns it back on.
test.use({ launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, ignoreDefaultArgs: ['--disable-back-forward-cache'] } });

/** Leaves the page for another and comes back: true when restored from the cache, else Chrome's reasons (PerformanceNavigationTiming.notRestoredReasons) as JSON. */
async function awayAndBack(page: Page): Promise<true | string> {
  await page.evaluate(() => addEventListener('pageshow', (e) => ((window as any).restored = (e as PageTransitionEvent).persisted)));
  await page.goto('/test/blank.html');
  // 'commit', not 'load': a page restored from the cache fires pageshow, never load.
  await page.goBack({ waitUntil: 'commit' });
  let result: true | string = '';
  await expect
    .poll(async () => (result = await page.evaluate(() => ((window as any).restored ? true : JSON.stringify((performance.getEntriesByType('navigation')[0] as any)?.notRestoredReasons ?? null)))))
    .not.toBe('null');
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

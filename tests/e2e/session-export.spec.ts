import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { decodeBeacon } from '../../tools/collector/decode.ts';
import { replay, type Fixture } from '../../tools/replay/replay.ts';
import { SERVERS, beacons, resetServers, waitForBeacons } from './helpers.ts';

/**
 * A bug report becomes a test: the devtools overlay downloads the session so far as a replay
 * fixture (docs/replay.md), and `offtag replay` of that file sends the beacons the page sent.
 */
test.beforeEach(async ({ request, context }) => {
  await resetServers(request);
  await context.clearCookies();
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
});

/** What a beacon says, without what differs from run to run by design (the random path segment, the delivery round trip). */
function comparable(params: Record<string, string>): Record<string, string> {
  const { lrt: _lrt, ...rest } = params;
  return rest;
}

test('export session from the overlay: offtag replay of the file reproduces the beacons the page sent', async ({ page, request }, info) => {
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  // A data layer change, a consent-free cookie, a download link, an exit link and a direct call later on.
  await page.evaluate(() => {
    (window as any).digitalData.page.pageInfo.pageType = 'Search Results';
    (window as any).digitalData.page.element = [{ click: { id: 'add-to-cart' } }];
    document.cookie = 'siteType=mobile; path=/';
  });
  await page.click('#pdf');
  await page.click('#exit');
  await page.evaluate(() => (window as any)._satellite.track('Element Interactions'));
  await page.evaluate(() => (window as any)._satellite.track('Page View'));
  const sent = await waitForBeacons(request, 5);

  await page.evaluate(() => {
    const s = document.createElement('script');
    s.src = (window as any).offtag.base + 'offtag-devtools.js';
    document.head.appendChild(s);
  });
  const panel = page.locator('#offtag-devtools').locator('.panel');
  const [download] = await Promise.all([page.waitForEvent('download'), panel.getByRole('button', { name: 'export session' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^offtag-session-.*\.json$/);
  const file = info.outputPath('session.json');
  await download.saveAs(file);

  const fixture = JSON.parse(readFileSync(file, 'utf8')) as Fixture;
  const types = (fixture.events as Array<{ type: string }>).map((e) => e.type);
  expect(types.filter((t) => t === 'click')).toHaveLength(2);
  expect(types.filter((t) => t === 'direct-call')).toHaveLength(3);
  expect(types).toContain('library-loaded');
  const result = await replay(fixture);
  const replayed = result.effects.flatMap((e) => (e.type === 'request' && e.kind === 'beacon' ? [decodeBeacon(e.url, e.body)] : []));

  expect((await beacons(request)).length).toBe(sent.length);
  expect(replayed.map((b) => comparable(b.params))).toEqual(sent.map((b) => comparable(b.params)));
  expect(replayed.map((b) => b.rsid)).toEqual(sent.map((b) => b.rsid));
});

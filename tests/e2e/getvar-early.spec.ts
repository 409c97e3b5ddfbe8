import { expect, test } from '@playwright/test';
import { SERVERS, beacons, resetServers } from './helpers.ts';

test.beforeEach(async ({ request, context }) => {
  await resetServers(request);
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
});

test('getVar has values right after the script tag, before any track call, from the Library Loaded evaluation', async ({ page, request }) => {
  // ?silent: no direct call at all; site code asks as soon as offtag.js has run.
  await page.goto('/test/minimal.html?silent');
  await expect.poll(() => page.evaluate(() => (window as any)._satellite.getVar('page name'))).toBe('acme:product detail:product 4km91');
  expect(await page.evaluate(() => (window as any)._satellite.getVar('login state'))).toBe('Full Logged In');
  // Reading those values fired no rule: nothing was sent, nothing stored.
  expect(await beacons(request)).toEqual([]);
  expect(await page.evaluate(() => sessionStorage.getItem('acmePreviousPageName'))).toBeNull();
});

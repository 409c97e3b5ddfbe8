/**
 * The second container (containers/news) through its own built library: `offtag build --container
 * containers/news/container.ts --env staging --out dist/news`, on a page with its own data layer,
 * against the local collector and ID service (docs/containers.md).
 */
import { execFileSync } from 'node:child_process';
import { expect, test } from '@playwright/test';
import { beacons, clearState, consoleOf, resetServers, SERVERS, waitForBeacons } from './helpers.ts';

const PAGE = '/test/news.html?cid=spring';

test.beforeAll(() => {
  execFileSync(process.execPath, ['tools/build.mjs', '--container', 'containers/news/container.ts', '--env', 'staging', '--out', 'dist/news'], { stdio: 'pipe' });
});

test.beforeEach(async ({ page, request }) => {
  await clearState(page);
  await resetServers(request);
});

test('with consent: page view, article read, share and click beacons carry the news settings and data elements', async ({ page, context, request }) => {
  await context.addCookies([{ name: 'news_consent', value: 'all', url: SERVERS.page }]);
  await page.goto(PAGE);
  const [view, read] = await waitForBeacons(request, 2);
  expect(view).toMatchObject({
    hitType: 't',
    rsid: 'newsstage',
    pageName: 'news:world:a-123',
    channel: 'world',
    currencyCode: 'EUR',
    eVar1: 'subscriber',
    eVar2: 'premium',
    eVar3: 'spring',
    eVar4: 'international',
    prop1: 'Storm hits the coast',
    prop2: 'D=pageName',
    list1: 'storm;coast',
    events: 'event1',
  });
  expect(read).toMatchObject({ hitType: 'tl', rsid: 'newsstage', linkType: 'o', linkName: 'read:a-123', eVar5: 'Storm hits the coast', events: 'event2' });
  // The consent rule wrote the tracking-consent cookie.
  expect((await context.cookies()).find((c) => c.name === 'news_track')?.value).toBe('true');

  await page.evaluate(() => (window as any)._satellite.track('article share', { network: 'mastodon' }));
  const share = (await waitForBeacons(request, 3))[2];
  expect(share).toMatchObject({ hitType: 'tl', linkName: 'share:mastodon', eVar6: 'mastodon', events: 'event3' });

  await page.click('#partner');
  const clicks = (await waitForBeacons(request, 5)).slice(3);
  // Automatic exit link tracking (the Adobe services' hook), then the container's click rule.
  expect(clicks.map((b) => [b.linkType, b.linkName ?? b.linkUrl])).toEqual([
    ['e', 'https://partner.example.org/x'],
    ['o', 'click:Partner story'],
  ]);
  expect(clicks[1].eVar7).toBe('Partner story');

  const info = await page.evaluate(() => (window as any)._satellite.buildInfo);
  expect(info).toMatchObject({ containerName: 'news', containerVersion: '0.3.0', environment: 'staging', turbineVersion: 'offtag' });
  expect(await page.evaluate(() => (window as any)._satellite.environment.stage)).toBe('staging');
});

test('without consent nothing is sent; the consent direct call lets the next events through; the campaign is kept for the session', async ({ page, request }) => {
  const logs = consoleOf(page);
  await page.goto(PAGE);
  await expect.poll(() => logs.filter((l) => l.includes('EU compliance was not acknowledged by the user.')).length).toBeGreaterThanOrEqual(2);
  expect(await beacons(request)).toEqual([]);
  await page.evaluate(() => {
    document.cookie = 'news_consent=all; path=/';
    (window as any)._satellite.track('consent');
    (window as any)._satellite.track('article share', { network: 'email' });
  });
  const [share] = await waitForBeacons(request, 1);
  // A link beacon carries only its own variables (linkTrackVars): no eVar3.
  expect(share).toMatchObject({ linkName: 'share:email', rsid: 'newsstage', eVar6: 'email' });
  expect(share.eVar3).toBeUndefined();
  // Another page of the session without ?cid: the campaign comes from sessionStorage.
  await page.goto('/test/news.html');
  const later = await waitForBeacons(request, 3);
  expect(later[1]).toMatchObject({ hitType: 't', eVar3: 'spring' });
});

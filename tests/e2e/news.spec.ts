/**
 * The second container (containers/news) through its own built library: `offtag build --container
 * containers/news/container.ts --env staging --out dist/test-builds/news`, on a page with its own data layer,
 * against the local collector and ID service (docs/containers.md). One rule per event type.
 */
import { execFileSync } from 'node:child_process';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { beacons, clearState, consoleOf, resetServers, SERVERS, type Beacon } from './helpers.ts';
import { tagContainerMarker } from '../../src/worker-engine/analytics/beacon-url.ts';

const PAGE = '/test/news.html?cid=spring';

test.beforeAll(() => {
  execFileSync(process.execPath, ['tools/build.mjs', '--container', 'containers/news/container.ts', '--env', 'staging', '--out', 'dist/test-builds/news'], { stdio: 'pipe' });
});

test.beforeEach(async ({ page, request }) => {
  await clearState(page);
  await resetServers(request);
});

/** Waits for the beacon named `name` (a page view: its pageName) and returns it. */
async function beacon(request: APIRequestContext, name: string): Promise<Beacon> {
  const find = async () => (await beacons(request)).find((b) => (b.hitType === 't' ? b.pageName : (b.linkName ?? b.linkUrl)) === name);
  await expect.poll(find, { timeout: 15_000, message: `beacon "${name}"` }).toBeTruthy();
  return (await find())!;
}

test('with consent: page view, window loaded, direct call and click beacons carry the news settings and data elements', async ({ page, context, request }) => {
  await context.addCookies([{ name: 'news_consent', value: 'all', url: SERVERS.page }]);
  await page.goto(PAGE);
  expect(await beacon(request, 'news:world:a-123')).toMatchObject({
    hitType: 't',
    rsid: 'newsstage',
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
  expect(await beacon(request, 'read:a-123')).toMatchObject({ hitType: 'tl', rsid: 'newsstage', linkType: 'o', eVar5: 'Storm hits the coast', events: 'event2' });
  // The consent rule wrote the tracking-consent cookie.
  expect((await context.cookies()).find((c) => c.name === 'news_track')?.value).toBe('true');

  await page.evaluate(() => (window as any)._satellite.track('article share', { network: 'mastodon' }));
  expect(await beacon(request, 'share:mastodon')).toMatchObject({ hitType: 'tl', eVar6: 'mastodon', events: 'event3' });

  await page.click('#partner');
  // Automatic exit link tracking (the Adobe services' hook), and the container's click rule.
  expect(await beacon(request, 'https://partner.example.org/x')).toMatchObject({ linkType: 'e' });
  expect(await beacon(request, 'click:Partner story')).toMatchObject({ linkType: 'o', eVar7: 'Partner story' });

  const info = await page.evaluate(() => (window as any)._satellite.buildInfo);
  expect(info).toMatchObject({ containerName: 'news', containerVersion: '0.3.0', environment: 'staging', turbineVersion: 'offtag' });
  // The beacons' tag container marker is this library's build date's.
  expect((await beacon(request, 'news:world:a-123')).version).toBe(`JS-2.27.0-${tagContainerMarker(info.buildDate)}`);
  expect(await page.evaluate(() => (window as any)._satellite.environment.stage)).toBe('staging');
});

test('the page triggers: selector click, custom event, form submit, element visible, scroll depth, timer, data element change', async ({ page, context, request }) => {
  await context.addCookies([{ name: 'news_consent', value: 'all', url: SERVERS.page }]);
  await page.goto(PAGE);
  await beacon(request, 'news:world:a-123');
  // Page-visible time, counted by the page's own listener: no clock in the test.
  await beacon(request, 'engaged 1s');
  await page.click('button.subscribe');
  await beacon(request, 'subscribe:Subscribe now');
  await page.evaluate(() => dispatchEvent(new CustomEvent('video:play', { detail: { title: 'Coast cam' } })));
  await beacon(request, 'video:Coast cam');
  await page.click('#signup');
  expect(await beacon(request, 'newsletter signup')).toMatchObject({ events: 'event4' });
  await page.evaluate(() => scrollTo(0, document.body.scrollHeight));
  await beacon(request, 'scrolled:50');
  await beacon(request, 'ad seen:ad-bottom');
  await page.evaluate(() => {
    (window as any).newsData.page.section = 'Sport';
    (window as any)._satellite.track('article share', { network: 'rss' });
  });
  await beacon(request, 'section:world>sport');
});

test('without consent nothing is sent; the consent direct call lets the next events through; the campaign is kept for the session', async ({ page, request }) => {
  const logs = consoleOf(page);
  const eu = () => logs.filter((l) => l.includes('EU compliance was not acknowledged by the user.')).length;
  await page.goto(PAGE);
  // Quiet in production (docs/containers.md, "Console messages"): the news container says nothing
  // until debug is on. The getVarAsync round trip follows the page's events through the worker.
  await page.evaluate(() => (window as any)._satellite.getVarAsync('section'));
  expect(eu()).toBe(0);
  await page.evaluate(() => localStorage.setItem('com.adobe.reactor.debug', 'true'));
  await page.reload();
  await expect.poll(eu).toBeGreaterThanOrEqual(2);
  expect(await beacons(request)).toEqual([]);
  await page.evaluate(() => {
    document.cookie = 'news_consent=all; path=/';
    (window as any)._satellite.track('consent');
    (window as any)._satellite.track('article share', { network: 'email' });
  });
  const share = await beacon(request, 'share:email');
  // A link beacon carries only its own variables (linkTrackVars): no eVar3.
  expect(share).toMatchObject({ rsid: 'newsstage', eVar6: 'email' });
  expect(share.eVar3).toBeUndefined();
  // Another page of the session without ?cid: the campaign comes from sessionStorage.
  await page.goto('/test/news.html');
  expect(await beacon(request, 'news:world:a-123')).toMatchObject({ hitType: 't', eVar3: 'spring' });
});

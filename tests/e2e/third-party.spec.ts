/**
 * Third parties for real (docs/third-party.md): the real Datadog RUM SDK (`@datadog/browser-rum`
 * from npm, its CDN bundle served by tools/rum-intake) loaded by the container on an /insights
 * page, and its session asserted where it lands: decoded at the local intake.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { SERVERS, consoleOf, resetServers, ruleVerdict } from './helpers.ts';
import { SECRET, SESSION_PAGE, driveInsightsSession, leave } from './insights-session.ts';

type RumEvent = { type: string; [k: string]: any };

const rumEvents = async (request: APIRequestContext): Promise<RumEvent[]> => (await request.get(`${SERVERS.rum}/__events`)).json();
const replaySegments = async (request: APIRequestContext): Promise<Array<{ records: any[]; [k: string]: any }>> =>
  (await request.get(`${SERVERS.rum}/__replay`)).json();
const echoCalls = async (request: APIRequestContext): Promise<Array<{ path: string; headers: Record<string, string> }>> =>
  (await request.get(`${SERVERS.rum}/__calls`)).json();


test('the real Datadog RUM SDK: a session on an /insights page arrives decoded at the local intake', async ({ page, context, request }) => {
  await resetServers(request);
  await context.addCookies([
    { name: 'community', value: 'pros', url: SERVERS.page },
    { name: 'AB1', value: 'variant-b', url: SERVERS.page },
  ]);
  const lines = consoleOf(page);
  await page.goto(SESSION_PAGE);
  // The container loads the SDK from the intake's origin, with `crossorigin`.
  const tag = page.locator('#offtag-rum');
  await expect(tag).toHaveAttribute('data-offtag-status', 'ready', { timeout: 10_000 });
  expect(await tag.getAttribute('crossorigin')).toBe('anonymous');
  expect(await tag.getAttribute('src')).toBe(`${SERVERS.rum}/datadog-rum.js`);
  await driveInsightsSession(page);
  await leave(page, '/test/blank.html');

  await expect.poll(async () => (await rumEvents(request)).some((e) => e.type === 'view' && e.view?.time_spent > 0), { timeout: 15_000 }).toBe(true);
  await expect.poll(async () => (await replaySegments(request)).length, { timeout: 15_000 }).toBeGreaterThan(0);
  const events = (await rumEvents(request)).filter((e) => e.application?.id === 'demo-app');
  const byType = (t: string) => events.filter((e) => e.type === t);

  // A view of this page with its paint timings.
  const views = byType('view').filter((e) => e.view.url.endsWith('/test/insights/session.html'));
  expect(views.length).toBeGreaterThan(0);
  const last = views.at(-1)!;
  expect(last.view.first_contentful_paint).toBeGreaterThan(0);
  expect(last.view.largest_contentful_paint).toBeGreaterThan(0);
  expect(last.service).toBe('acme-insights');
  expect(last.ddtags).toContain('env:production');
  // Actions for the clicks.
  const actions = byType('action').map((e) => e.action.target?.name);
  expect(actions).toEqual(expect.arrayContaining(['Refresh the report', 'Load from the API host', 'Load from another host']));
  // Resources, including both fetches.
  const resources = byType('resource').map((e) => e.resource.url as string);
  expect(resources).toEqual(expect.arrayContaining([`${SERVERS.rum}/echo/traced/usage`, `${SERVERS.rum}/echo/plain/usage`]));
  // The error and the long task.
  expect(byType('error').map((e) => e.error.message)).toEqual(expect.arrayContaining([expect.stringContaining('insights: report failed to render')]));
  expect(byType('long_task').length + byType('long_animation_frame' as string).length).toBeGreaterThan(0);
  // The cookie context, added one second after init.
  expect(events.some((e) => e.context?.cookies?.community === 'pros' && e.context.cookies.AB1 === 'variant-b')).toBe(true);
  // The trace header goes only to the allowed tracing host.
  const calls = await echoCalls(request);
  const traced = calls.find((c) => c.path === '/echo/traced/usage')!;
  const plain = calls.find((c) => c.path === '/echo/plain/usage')!;
  expect(traced.headers['x-datadog-trace-id'] ?? traced.headers.traceparent).toBeTruthy();
  expect(plain.headers['x-datadog-trace-id']).toBeUndefined();
  expect(plain.headers.traceparent).toBeUndefined();
  // Session replay: segments with records; the typed text never reaches the intake.
  const segments = await replaySegments(request);
  expect(segments.reduce((n, s) => n + s.records.length, 0)).toBeGreaterThan(5);
  const everything = JSON.stringify({ events: await rumEvents(request), segments });
  expect(everything).not.toContain(SECRET);
  // The SDK compressed its batches in its own worker.
  const batches: Array<{ track: string; encoding: string }> = await (await request.get(`${SERVERS.rum}/__batches`)).json();
  expect(batches.filter((b) => b.track === 'rum').some((b) => b.encoding === 'deflate')).toBe(true);
  expect(lines.filter((l) => /Failed to load script|Cannot find the global|Bailing out/.test(l))).toEqual([]);
});

const amplitudeEvents = async (request: APIRequestContext): Promise<Array<Record<string, any>>> =>
  (await request.get(`${SERVERS.rum}/__amplitude`)).json();

for (const [where, url, lib] of [
  ['offtag.js on the page origin', '/test/minimal.html?silent&host=same', '/dist/~partytown/'],
  ['offtag.js on another origin', '/test/minimal.html?silent', '/~partytown/'],
] as const) {
  test(`Partytown (${where}): a real tag from npm (Amplitude) runs in Partytown's worker and its init/track calls arrive through forward`, async ({ page, context, request }) => {
    await resetServers(request);
    await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
    const lines = consoleOf(page);
    await page.goto(url);
    // A wait that grows with load: Partytown's service worker, its sandbox and worker, and the SDK's
    // download and run inside it all come before the upload (16 s measured with both cores busy).
    await expect.poll(async () => (await amplitudeEvents(request)).length, { timeout: 40_000 }).toBeGreaterThan(0);
    const [event] = await amplitudeEvents(request);
    expect(event).toMatchObject({
      api_key: 'demo-amplitude-key',
      event_type: 'Page View',
      event_properties: { page_name: 'acme:product detail:product 4km91', page_type: 'Product Detail', login_state: 'Full Logged In' },
    });
    // The snippet came from ~partytown/ beside offtag.js (or the page origin's), and only because a Partytown tag was requested.
    expect(await page.evaluate(() => (window as any).partytown.lib)).toBe(lib);
    expect(await page.locator(`script[src="${lib}partytown.js"]`).count()).toBe(1);
    const tag = page.locator('#offtag-amplitude');
    expect(await tag.getAttribute('data-offtag-mode')).toBe('partytown');
    await expect(tag).toHaveAttribute('type', 'text/partytown-x');
    // The worker wrote how far the calls got: the track call's result is the intake's answer.
    await expect(tag).toHaveAttribute('data-offtag-status', 'event delivered (HTTP 200)');
    // The SDK lives in Partytown's worker: the page has no `amplitude`, only the one forwarded function its calls go through.
    expect(await page.evaluate(() => ['amplitude' in window, typeof (window as any).offtagPartytownCall])).toEqual([false, 'function']);
    expect(lines.filter((l) => /Failed to load script|Cannot find the global|Bailing out|cannot be forwarded/.test(l))).toEqual([]);
  });
}

test('no Partytown snippet on a page that requests no Partytown script', async ({ page, request }) => {
  await resetServers(request);
  // No tracking consent: the Amplitude rule does not fire, so nothing asks for Partytown.
  await page.goto('/test/minimal.html?silent&host=same');
  expect(await ruleVerdict(page, 'Product analytics')).toBe('condition not met');
  expect(await page.locator('script[src$="partytown.js"]').count()).toBe(0);
  expect(await page.evaluate(() => 'partytown' in window)).toBe(false);
});

test('the devtools overlay lists the third-party scripts with their mode and status', async ({ page, context, request }) => {
  await resetServers(request);
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
  await page.goto(SESSION_PAGE);
  await expect(page.locator('#offtag-rum')).toHaveAttribute('data-offtag-status', 'ready', { timeout: 10_000 });
  await expect(page.locator('#offtag-amplitude')).toHaveAttribute('type', 'text/partytown-x', { timeout: 15_000 });
  await page.evaluate(() => document.head.append(Object.assign(document.createElement('script'), { src: (window as any).offtag.base + 'offtag-devtools.js' })));
  const panel = page.locator('#offtag-devtools').locator('.panel');
  await panel.getByRole('button', { name: 'third parties' }).click();
  const rows = panel.locator('table.third-parties tbody tr');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'offtag-rum' })).toHaveText(/offtag-rum\s*main\s*ready/);
  await expect(rows.filter({ hasText: 'offtag-amplitude' })).toHaveText(/offtag-amplitude\s*partytown\s*event delivered \(HTTP 200\)/);
});

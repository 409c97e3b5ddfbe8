import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { SERVERS, beacons, beaconsIdle, caughtUp, idCalls, pendingBeacons, resetServers, waitForBeacons } from './helpers.ts';

/** Beacons the collector has refused on purpose (`POST /__fail`) so far. */
const refused = async (request: APIRequestContext): Promise<number> => (await (await request.get(`${SERVERS.collector}/__fail`)).json()).refused;
import { setOffline } from '../../tools/offline.ts';
import { SENDER_AFTER_BEACONS } from '../../src/worker-engine/transport/sender.ts';

test.beforeEach(async ({ request, context }) => {
  await resetServers(request);
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
});

test('offline for a while, then online: every beacon arrives, none twice', async ({ page, request, context }) => {
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  await setOffline(context, true);
  for (let i = 0; i < 3; i++) await page.evaluate(() => (window as any)._satellite.track('Page View'));
  // The three are beacons in the queue, held while offline.
  await expect.poll(() => pendingBeacons(page)).toBe(3);
  expect(await beacons(request)).toHaveLength(1);
  await setOffline(context, false);
  await waitForBeacons(request, 4, 40_000);
  // Nothing left to send: a second copy would have arrived by now.
  await beaconsIdle(page);
  const after = await beacons(request);
  expect(after).toHaveLength(4);
  expect(after.filter((b) => b.duplicate)).toEqual([]);
});

test('the page closed with beacons in flight: they arrive on the next load', async ({ page, request, context }) => {
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  await request.post(`${SERVERS.collector}/__fail?count=100&status=503`);
  for (let i = 0; i < 2; i++) await page.evaluate(() => (window as any)._satellite.track('Page View'));
  // Both tried and refused: they are in the queue's store, in flight, when the page closes.
  await expect.poll(() => refused(request)).toBeGreaterThanOrEqual(2);
  await page.close();
  await request.post(`${SERVERS.collector}/__fail?count=0&status=503`);
  const next = await context.newPage();
  await next.goto('/test/minimal.html');
  // 2 left behind + the first page's + the new page's own page view.
  await waitForBeacons(request, 4, 40_000);
  await beaconsIdle(next);
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
  await beaconsIdle(page);
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
    // The worker is waiting on the hanging /id call, so it acknowledges nothing.
    await expect.poll(async () => (await idCalls(request)).some((c) => c.path === '/id')).toBe(true);
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
    await beaconsIdle(next);
    expect(await beacons(request)).toHaveLength(2);
  } finally {
    await request.post(`${SERVERS.idService}/__hang?on=0`);
  }
});

/** What the page's worker put in the devtools feed under `sender` (Comlink's wire format, by hand). */
async function senderFeed(page: Page): Promise<unknown[]> {
  const feed = (await page.evaluate(
    () =>
      new Promise((resolve) => {
        const port = (window as any).offtag.apiPort as MessagePort;
        const id = 'sender-feed';
        const on = (e: MessageEvent) => {
          if (e.data?.id !== id) return;
          port.removeEventListener('message', on);
          resolve(e.data.value);
        };
        port.addEventListener('message', on);
        port.start();
        port.postMessage({ id, type: 'APPLY', path: ['monitor'], argumentList: [] });
      }),
  )) as Array<{ name: string; data: unknown }>;
  return feed.filter((e) => e.name === 'sender').map((e) => e.data);
}
/** The browser's shared workers (Playwright lists none; the browser's own CDP target list does). */
async function sharedWorkers(browser: Browser): Promise<string[]> {
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ type: string; url: string }> };
  await cdp.detach();
  return targetInfos.filter((t) => t.type === 'shared_worker').map((t) => new URL(t.url).pathname);
}

/** A page's Page Views (its load's one included) until `total` beacons have arrived from the start of the test. */
async function pageViews(page: Page, request: APIRequestContext, n: number, total: number): Promise<void> {
  await page.evaluate((k) => {
    for (let i = 0; i < k; i++) (window as any)._satellite.track('Page View');
  }, n);
  await waitForBeacons(request, total, 40_000);
}

test('a page starts the origin\'s SharedWorker sender only at its 10th beacon (SENDER_AFTER_BEACONS): a page that sends fewer pays for no sender', async ({ page, request, browser }) => {
  await page.goto('/test/minimal.html?host=same');
  await waitForBeacons(request, 1);
  await pageViews(page, request, SENDER_AFTER_BEACONS - 2, SENDER_AFTER_BEACONS - 1);
  await beaconsIdle(page);
  expect(await sharedWorkers(browser)).toEqual([]);
  expect(await senderFeed(page)).toEqual([]);
  await pageViews(page, request, 1, SENDER_AFTER_BEACONS);
  await expect.poll(() => senderFeed(page)).toEqual([{ shared: true }]);
  expect(await sharedWorkers(browser)).toEqual(['/dist/offtag-sender.js']);
});

test('beacons leave from the origin\'s SharedWorker sender, one for two pages of the origin; offline reaches it too', async ({ page, request, context, browser }) => {
  await page.goto('/test/minimal.html?host=same');
  await waitForBeacons(request, 1);
  await pageViews(page, request, SENDER_AFTER_BEACONS - 1, SENDER_AFTER_BEACONS);
  await expect.poll(() => senderFeed(page)).toEqual([{ shared: true }]);
  const second = await context.newPage();
  await second.goto('/test/minimal.html?host=same');
  await waitForBeacons(request, SENDER_AFTER_BEACONS + 1);
  await pageViews(second, request, SENDER_AFTER_BEACONS - 1, 2 * SENDER_AFTER_BEACONS);
  await expect.poll(() => senderFeed(second)).toEqual([{ shared: true }]);
  expect(await sharedWorkers(browser)).toEqual(['/dist/offtag-sender.js']);
  // Offline (for the sender as well: tools/offline.ts): beacons wait, then all arrive, once.
  await setOffline(context, true);
  for (const p of [page, second]) await p.evaluate(() => (window as any)._satellite.track('Page View'));
  // One beacon in each page's queue, held while offline.
  await expect.poll(async () => [await pendingBeacons(page), await pendingBeacons(second)]).toEqual([1, 1]);
  expect(await beacons(request)).toHaveLength(2 * SENDER_AFTER_BEACONS);
  await setOffline(context, false);
  await waitForBeacons(request, 2 * SENDER_AFTER_BEACONS + 2, 40_000);
  for (const p of [page, second]) await beaconsIdle(p);
  const after = await beacons(request);
  expect(after).toHaveLength(2 * SENDER_AFTER_BEACONS + 2);
  expect(after.filter((b) => b.duplicate)).toEqual([]);
});

test('no sender (no SharedWorker in the browser, or its script missing): the worker sends the beacons itself, none lost', async ({ page, request, context }) => {
  // No SharedWorker at all (older mobile browsers).
  await page.addInitScript(() => delete (window as any).SharedWorker);
  // Past the beacon at which the worker asks for the sender (SENDER_AFTER_BEACONS), and some.
  const n = SENDER_AFTER_BEACONS + 2;
  await page.goto('/test/minimal.html?host=same');
  await waitForBeacons(request, 1);
  await pageViews(page, request, n - 1, n);
  expect(await senderFeed(page)).toEqual([]);
  // A worker file whose folder has no offtag-sender.js: the SharedWorker never says it is there.
  const other = await context.newPage();
  await other.addInitScript((w) => ((window as any).offtagConfig = { workerUrl: w }), `${SERVERS.page}/test/no-sender/worker.js`);
  await other.goto('/test/minimal.html?host=same');
  await waitForBeacons(request, n + 1);
  await pageViews(other, request, n - 1, 2 * n);
  await beaconsIdle(other);
  expect(await senderFeed(other)).toEqual([]);
  const after = await beacons(request);
  expect(after).toHaveLength(2 * n);
  expect(after.filter((b) => b.duplicate)).toEqual([]);
});

test('a burst of 100 events: every beacon arrives in the order made, and the page gets a few acknowledgements, not one per event (fewer tasks on the main thread)', async ({ page, request }) => {
  // Counts the messages the bridge's port hands it that carry an acknowledgement (`a`).
  await page.addInitScript(() => {
    const w = window as unknown as { acks: number[] };
    w.acks = [];
    const d = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage')!;
    Object.defineProperty(MessagePort.prototype, 'onmessage', {
      ...d,
      set(f: ((e: MessageEvent) => void) | null) {
        d.set!.call(this, f && ((e: MessageEvent) => (e.data?.a && w.acks.push(e.data.a), f.call(this, e))));
      },
    });
  });
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  await page.evaluate(() => {
    const w = window as any;
    for (let i = 0; i < 100; i++) {
      w.digitalData.page.pageInfo.pageUID = `product b${i}`;
      w._satellite.track('Page View');
    }
  });
  const list = await waitForBeacons(request, 101, 60_000);
  expect(list.filter((b) => b.duplicate)).toEqual([]);
  const made = list.slice(1).map((b) => Number(/ b(\d+)$/.exec(String(b.pageName))?.[1]));
  expect(made).toEqual(Array.from({ length: 100 }, (_, i) => i));
  // Every acknowledgement posted: the queue idle, then every batch before a get-var reply applied.
  await beaconsIdle(page);
  await caughtUp(page);
  const acks = await page.evaluate(() => (window as unknown as { acks: number[] }).acks);
  expect(acks).toEqual([...acks].sort((x, y) => x - y));
  // One per event without the grouping (104 measured when broken on purpose).
  expect(acks.length).toBeLessThan(50);
});

/**
 * Analytics custom code as AppMeasurement runs it: tests/fixtures/launch/analytics.js (a
 * customSetup defining plugins and doPlugins, Set Variables with value and alias objects, events
 * with ids and values, custom code in the worker and on the page, a Core block using `s`, page
 * views and link beacons with their linkTrackVars) runs under turbine with Adobe's AppMeasurement
 * 2.27.0 on one page, and, imported and built, in offtag.js and its worker on the same URL in a
 * fresh context. Both send their beacons to the local collector; every parameter of every beacon
 * is the same, in the same order, but for the time, the ids (turbine's page has no visitor
 * service: AppMeasurement sends `fid`, Offtag the visitor service's ids) and the round trip.
 *
 * AppMeasurement is read from where `OFFTAG_APPMEASUREMENT_REPO` says and served to the page at test
 * time, never committed; without it (CI) the test is skipped, and the wire format itself stays
 * checked by tests/e2e/real-library.spec.ts's recordings.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type BrowserContext } from '@playwright/test';
import { buildLibrary } from '../../tools/build/build.ts';
import { runImport } from '../../tools/import/command.ts';
import { SERVERS, beacons, resetServers, waitForBeacons } from './helpers.ts';

/**
 * Adobe's AppMeasurement.js, never committed: `OFFTAG_APPMEASUREMENT_REPO` names a git
 * clone of Adobe's appmeasurement repository, bare or not (its `dist/AppMeasurement.js` at HEAD is read), or the file itself.
 */
const SOURCE = process.env.OFFTAG_APPMEASUREMENT_REPO;
const appMeasurement = (() => {
  if (!SOURCE) return undefined;
  try {
    if (statSync(SOURCE).isFile()) return readFileSync(SOURCE, 'utf8');
    return execFileSync('git', ['-C', SOURCE, 'show', 'HEAD:dist/AppMeasurement.js'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  } catch {
    return undefined;
  }
})();

const LIBRARY = 'tests/fixtures/launch/analytics.js';
const OUT = 'test-results/import-e2e/analytics';
const PATH = '/shop/gloves.html';
const PAGE_URL = `${SERVERS.page}${PATH}?cid=spring&src=mail`;
const DATA_LAYER = { page: { name: 'shop:gloves', type: 'product' }, product: { sku: 'G-100' }, order: { id: 'o-7' } };
const BODY = '<h1>Gloves box</h1>';
const HEAD = `<meta charset="utf-8"><title>Nitrile gloves</title><script>window.digitalData = ${JSON.stringify(DATA_LAYER)};</script>`;
const CALLS = ['page view', 'add to cart', 'read the page'];
/** Differ by design: the time, the round trip of the previous beacon, and the ids (see above). */
const SKIPPED = new Set(['t', 'lrt', 'fid', 'mid', 'aid', 'aamlh', 'aamb', 'mcorgid', 'sdid']);

const turbine = () => readFileSync(createRequire(import.meta.url).resolve('@adobe/reactor-turbine/dist/engine.js'), 'utf8');
const collectorHost = new URL(SERVERS.collector).host;

/** A beacon's parameters in order, the skipped ones left out. */
const params = (query: string) =>
  query
    .replace(/^\?/, '')
    .split('&')
    .map((p) => p.split('=') as [string, string])
    .filter(([k]) => !SKIPPED.has(k));

async function calls(context: BrowserContext, count: () => Promise<number>) {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(PAGE_URL, { waitUntil: 'load' });
  await page.waitForFunction(() => typeof (window as unknown as { _satellite?: { track?: unknown } })._satellite?.track === 'function');
  for (let i = 0; i < CALLS.length; i++) {
    await page.evaluate((id) => (window as unknown as { _satellite: { track(id: string): void } })._satellite.track(id), CALLS[i]!);
    await expect.poll(count, { timeout: 15_000 }).toBeGreaterThanOrEqual(i + 1);
  }
}

test('the imported Analytics custom code sends the beacons AppMeasurement sends under turbine, parameter for parameter', async ({ browser, request }) => {
  test.skip(!appMeasurement, 'OFFTAG_APPMEASUREMENT_REPO names no AppMeasurement.js (the file, or a clone of Adobe\'s appmeasurement repository)');
  test.setTimeout(180_000);
  const { lines } = runImport({ library: LIBRARY, out: OUT });
  expect(lines.at(-1)).toBe('data elements: 4 worker, 0 on the page, 0 not imported; rules: 2 in the worker, 1 partly on the page, 0 not imported; 0 actions not imported; 0 other items not imported.');
  const built = await buildLibrary({ container: `${OUT}/container.ts`, env: 'production', out: 'dist/test-builds/import-analytics' });
  expect(built.problems).toEqual([]);
  await resetServers(request);

  // ---- turbine and AppMeasurement ----
  const withTurbine = await browser.newContext({ baseURL: SERVERS.page });
  await withTurbine.route(`${SERVERS.page}/launch-analytics.js`, (r) => r.fulfill({ contentType: 'text/javascript', body: readFileSync(LIBRARY, 'utf8').replace('metrics.example.com', collectorHost) + turbine() }));
  await withTurbine.route(`${SERVERS.page}/AppMeasurement.js`, (r) => r.fulfill({ contentType: 'text/javascript', body: appMeasurement! }));
  await withTurbine.route(`${SERVERS.page}${PATH}?**`, (r) =>
    r.fulfill({ contentType: 'text/html', body: `<!doctype html><html><head>${HEAD}<script>window.__appMeasurementUrl = '/AppMeasurement.js';</script><script src="/launch-analytics.js"></script></head><body>${BODY}</body></html>` }),
  );
  // AppMeasurement's image requests to the collector are answered here (the page may not reach the loopback collector itself).
  const fromTurbine: string[] = [];
  await withTurbine.route(`${SERVERS.collector}/b/ss/**`, (r) => {
    fromTurbine.push(new URL(r.request().url()).search);
    return r.fulfill({ status: 200, contentType: 'image/gif', body: '' });
  });
  await calls(withTurbine, async () => fromTurbine.length);
  await withTurbine.close();

  // ---- the import, built: offtag.js and its worker ----
  const withOfftag = await browser.newContext({ baseURL: SERVERS.page });
  await withOfftag.route(`${SERVERS.page}${PATH}?**`, (r) =>
    r.fulfill({ contentType: 'text/html', body: `<!doctype html><html><head>${HEAD}<script src="/offtag-config.js"></script><script src="/dist/test-builds/import-analytics/offtag.js"></script></head><body>${BODY}</body></html>` }),
  );
  await calls(withOfftag, async () => (await beacons(request)).length);
  const fromOfftag = (await waitForBeacons(request, CALLS.length)).map((b) => b.query as unknown as string);
  await withOfftag.close();

  expect(fromOfftag.map(params)).toEqual(fromTurbine.map(params));
  // Not empty: what each part of the library sets is on the wire.
  const [view, cart, read] = fromTurbine.map((q) => Object.fromEntries(params(q).map(([k, v]) => [k, decodeURIComponent(v)])));
  expect(view).toMatchObject({ pageName: 'shop:gloves', v0: 'spring', ch: 'shop', h1: 'shop|product', v3: 'G-100', v4: 'D=v3', c3: 'D=v3', v2: 'D=c2', v7: 'page view', l1: 'a,b', c10: 'mail', v12: 'G-100', v40: 'spring|2.27.0' });
  expect(view!.events).toBe('prodView,event5=2,event6:o-7,event9');
  expect(cart).toMatchObject({ pe: 'lnk_o', pev2: 'add to cart', v20: 'G-100', v12: 'G-100', products: ';G-100;1', events: 'scAdd' });
  expect(read).toMatchObject({ c30: 'Nitrile gloves', v31: 'Gloves box', v30: 'shop:gloves' });
});

/**
 * The site-tracker shape (tests/fixtures/launch/analytics-page.js): the customSetup, its doPlugins
 * and two Set Variables blocks need the page, in a property without sequencing; a Core block works on
 * the global tracker through a function a data element gives. Each runs at its
 * place in its rule with the worker's variables of that moment: doPlugins reads the eVar, events
 * and data element value of its own rule and event (not of the event before), and a block reads
 * what its Set Variables properties set just before it.
 */
const SITE = 'tests/fixtures/launch/analytics-page.js';
const SITE_OUT = 'test-results/import-e2e/analytics-page';
const SITE_PATH = '/articles/s1.html';
const SITE_HEAD = `<meta charset="utf-8"><title>An article</title><script>window.digitalData = { section: 'articles', promo: 'P-0' };</script>`;
/** Each call with the page's state just before it: the promo the data layer holds and the site's eventData. */
const SITE_CALLS: Array<[string, string, Record<string, unknown>]> = [
  ['pageLoad', 'P-1', { kind: 'view' }],
  ['promoClick', 'P-2', { kind: 'promo', position: 3 }],
  ['search', 'P-3', { kind: 'search' }],
  ['promoClick', 'P-4', { kind: 'promo', position: 1 }],
];

async function siteCalls(context: BrowserContext, count: () => Promise<number>) {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto(`${SERVERS.page}${SITE_PATH}`, { waitUntil: 'load' });
  await page.waitForFunction(() => typeof (window as unknown as { _satellite?: { track?: unknown } })._satellite?.track === 'function');
  for (let i = 0; i < SITE_CALLS.length; i++) {
    await page.evaluate(([id, promo, eventData]) => {
      const w = window as unknown as { digitalData: { promo: string }; eventData: unknown; _satellite: { track(id: string): void } };
      w.digitalData.promo = promo as string;
      w.eventData = eventData;
      w._satellite.track(id as string);
    }, SITE_CALLS[i]!);
    await expect.poll(count, { timeout: 15_000 }).toBeGreaterThanOrEqual(i + 1);
  }
}

test("Analytics code that needs the page runs at its place in the rule, with the worker's variables of that moment: the beacons AppMeasurement sends under turbine", async ({ browser, request }) => {
  test.skip(!appMeasurement, 'OFFTAG_APPMEASUREMENT_REPO names no AppMeasurement.js (the file, or a clone of Adobe\'s appmeasurement repository)');
  test.setTimeout(180_000);
  const { lines } = runImport({ library: SITE, out: SITE_OUT });
  expect(lines.at(-1)).toMatch(/^data elements: 2 worker, 1 on the page, 0 not imported; rules: 0 in the worker, 4 partly on the page, 0 not imported; 0 actions not imported;/);
  const built = await buildLibrary({ container: `${SITE_OUT}/container.ts`, env: 'production', out: 'dist/test-builds/import-analytics-page' });
  expect(built.problems).toEqual([]);
  await resetServers(request);

  const withTurbine = await browser.newContext({ baseURL: SERVERS.page });
  await withTurbine.route(`${SERVERS.page}/launch-analytics-page.js`, (r) => r.fulfill({ contentType: 'text/javascript', body: readFileSync(SITE, 'utf8').replace('metrics.example.com', collectorHost) + turbine() }));
  await withTurbine.route(`${SERVERS.page}/AppMeasurement.js`, (r) => r.fulfill({ contentType: 'text/javascript', body: appMeasurement! }));
  await withTurbine.route(`${SERVERS.page}${SITE_PATH}`, (r) =>
    r.fulfill({ contentType: 'text/html', body: `<!doctype html><html><head>${SITE_HEAD}<script>window.__appMeasurementUrl = '/AppMeasurement.js';</script><script src="/launch-analytics-page.js"></script></head><body><h1>An article</h1></body></html>` }),
  );
  const fromTurbine: string[] = [];
  await withTurbine.route(`${SERVERS.collector}/b/ss/**`, (r) => {
    fromTurbine.push(new URL(r.request().url()).search);
    return r.fulfill({ status: 200, contentType: 'image/gif', body: '' });
  });
  await siteCalls(withTurbine, async () => fromTurbine.length);
  await withTurbine.close();

  const withOfftag = await browser.newContext({ baseURL: SERVERS.page });
  await withOfftag.route(`${SERVERS.page}${SITE_PATH}`, (r) =>
    r.fulfill({ contentType: 'text/html', body: `<!doctype html><html><head>${SITE_HEAD}<script src="/offtag-config.js"></script><script src="/dist/test-builds/import-analytics-page/offtag.js"></script></head><body><h1>An article</h1></body></html>` }),
  );
  await siteCalls(withOfftag, async () => (await beacons(request)).length);
  const fromOfftag = (await waitForBeacons(request, SITE_CALLS.length)).map((b) => b.query as unknown as string);
  await withOfftag.close();

  expect(fromOfftag.map(params)).toEqual(fromTurbine.map(params));
  const [view, promo, search, promo2] = fromTurbine.map((q) => Object.fromEntries(params(q).map(([k, v]) => [k, decodeURIComponent(v)])));
  expect(view).toMatchObject({ pageName: 'articles', c20: 'view', c21: 'articles', c9: '2.27.0', c18: `${new URL(SERVERS.page).hostname}${SITE_PATH}`, v21: 'P-1', events: 'event9' });
  // doPlugins and the block read the eVar the rule set, and the promo of this very event.
  // c30: set through window.s by the function a data element gives, called by a Core block.
  expect(promo).toMatchObject({ c30: 'promoClick:An article', v5: 'P-2', c5: 'sd:P-2', c6: 'P-2|promo', v21: 'P-2', c20: 'promo', v22: '3', events: 'event5' });
  expect(search).toMatchObject({ c7: 'articles', events: 'event5,event7', c20: 'search' });
  expect(promo2).toMatchObject({ v5: 'P-4', c5: 'sd:P-4', v21: 'P-4', v22: '1' });
});

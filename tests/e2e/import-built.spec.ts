/**
 * Imported containers built with `offtag build` run on a real page: offtag.js and the worker of
 * the imported storefront send its page view to the local collector; the imported report-paths
 * library's page steps (custom code that needs the page, other extensions' actions) run in
 * offtag.js's page side when the worker's effects come.
 */
import { expect, test } from '@playwright/test';
import { buildLibrary } from '../../tools/build/build.ts';
import { runImport } from '../../tools/import/command.ts';
import { SERVERS, resetServers, waitForBeacons } from './helpers.ts';

async function built(name: string): Promise<string> {
  const out = `test-results/import-e2e/built-${name}`;
  runImport({ library: `tests/fixtures/launch/${name}.js`, out, assets: 'tests/fixtures/launch/assets' });
  // Under dist/test-builds/, which the test page server serves at /dist/test-builds/ and the package leaves out (package.json files).
  const result = await buildLibrary({ container: `${out}/container.ts`, env: 'production', out: `dist/test-builds/import-${name}` });
  expect(result.problems).toEqual([]);
  return out;
}

const pageFor = (name: string, dataLayer: unknown, track?: string) => `<!doctype html><html><head><meta charset="utf-8">
<script src="/offtag-config.js"></script>
<script>window.digitalData = ${JSON.stringify(dataLayer)};</script>
<script src="/dist/test-builds/import-${name}/offtag.js"${track ? ` onload="_satellite.track('${track}')"` : ''}></script>
</head><body><h1>imported</h1></body></html>`;

test('the imported storefront, built, sends its page view from the worker', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  await built('storefront');
  await resetServers(request);
  const dataLayer = { page: { pageInfo: { pageType: 'Product Detail', pageUID: 'product 4KM91', language: 'en' } } };
  await context.route(`${SERVERS.page}/import-storefront.html`, (route) => route.fulfill({ contentType: 'text/html', body: pageFor('storefront', dataLayer, 'Page View') }));
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
  await page.goto('/import-storefront.html');
  const [beacon] = await waitForBeacons(request, 1);
  expect(beacon!.hitType).toBe('t');
  expect(beacon!.pageName).toBe('acme:product detail:product 4km91');
  expect(beacon!.params.v12).toBe('en');
});

test('the imported report-paths library, built: its page steps run in offtag.js, and the devtools feed gets their main-thread time', async ({ page, context }) => {
  test.setTimeout(120_000);
  await built('report-paths');
  // The library's host: the external file --assets lacks is loaded from it when its action runs (here it answers 404).
  await context.route('https://assets.example.com/**', (route) => route.fulfill({ status: 404, body: 'not found' }));
  await context.route('https://cdn.vendor.example/**', (route) => route.fulfill({ contentType: 'text/javascript', body: 'window.vendorTag = 1;' }));
  await context.route(`${SERVERS.page}/import-report-paths.html`, (route) => route.fulfill({ contentType: 'text/html', body: pageFor('report-paths', { page: { pageInfo: { pageType: 'Cart' } } }) }));
  await page.goto('/import-report-paths.html');
  await expect(page.locator('body')).toHaveClass('tagged');
  // The block's `_satellite.getVar` answers with the value the worker sent with the step.
  await expect(page.locator('body')).toHaveAttribute('data-page-type', 'Cart');
  // What the devtools overlay reads: each step's rule, event sequence and main-thread time.
  await expect.poll(() => page.evaluate(() => ((window as unknown as { __offtagLaunch?: { runs: Array<{ rule: string }> } }).__offtagLaunch?.runs ?? []).map((r) => r.rule).sort())).toEqual(
    expect.arrayContaining(['page custom code action', 'page custom code with a value']),
  );
  const runs = await page.evaluate(() => (window as unknown as { __offtagLaunch: { runs: Array<{ rule: string; seq: number; ms: number }> } }).__offtagLaunch.runs);
  for (const r of runs) expect([typeof r.seq, typeof r.ms]).toEqual(['number', 'number']);
  // Page code gets what turbine's getVar gives it: the function a data element returns, to call; the promise, to wait on.
  expect(
    await page.evaluate(async () => {
      const s = (window as unknown as { _satellite: { getVar(n: string): unknown } })._satellite;
      const pending = s.getVar('cancel action');
      return [(s.getVar('price formatter') as (n: number) => string)(9.5), pending instanceof Promise, await pending, s.getVar('item label')];
    }),
  ).toEqual(['9.50', true, undefined, 'GLOVES']);
});

/**
 * tests/fixtures/launch/site-hierarchy.js: Audience Manager forwarding, a site hierarchy that one
 * page data element builds from another through `_satellite.getVar`, and `MCMID|%ECID%`, in a page
 * view the Library Loaded rule sends on a first visit: the beacon is AppMeasurement's with its
 * Audience Manager module ready, with the hierarchy read on the page at that first event and the
 * ECID VisitorAPI answers then (none yet).
 */
test('the imported site-hierarchy library, built: Audience Manager forwarding and the first event\'s hierarchy on the page view', async ({ page, context, request }) => {
  test.setTimeout(120_000);
  await built('site-hierarchy');
  await resetServers(request);
  await context.route(`${SERVERS.page}/import-site-hierarchy.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Nitrile Gloves | Shop</title>
<script src="/offtag-config.js"></script>
<script src="/dist/test-builds/import-site-hierarchy/offtag.js"></script>
</head><body><h1>imported</h1></body></html>`,
    }),
  );
  await page.goto('/import-site-hierarchy.html');
  const [beacon] = await waitForBeacons(request, 1);
  expect(beacon!.path).toMatch(/^\/b\/ss\/acmeprod\/10\/JS-2\.27\.0-LF8J\/s\d+$/);
  expect(String(beacon!.query)).toMatch(/^AQB=1&ndh=1&pf=1&callback=s_c_il\[1\]\.doPostbacks&et=1&t=[^&]+&d\.&nsid=0&jsonv=1&\.d&/);
  expect(beacon!.params).toMatchObject({ callback: 's_c_il[1].doPostbacks', et: '1', 'd.nsid': '0', 'd.jsonv': '1', c3: 'en:nitrile-gloves', v3: 'en:nitrile-gloves', v173: 'MCMID|' });
});

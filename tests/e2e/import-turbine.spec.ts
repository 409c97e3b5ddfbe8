/**
 * Equal to turbine: the Launch library that uses every supported module type and operator
 * (tests/fixtures/launch/every-module.js) runs with @adobe/reactor-turbine's runtime in Chromium;
 * its import runs in the engine (Node) on the same page state. The data element values
 * (`_satellite.getVar`) and the rules that complete, in their order (`_satellite._monitors`),
 * are the same.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test } from '@playwright/test';
import { runImport } from '../../tools/import/command.ts';
import { readLibrary } from '../../tools/import/read.ts';
import { replay, type Fixture } from '../../tools/replay/replay.ts';
import type { Effect } from '../../src/protocol.ts';

const ORIGIN = 'https://www.keepstock.example';
const URL_ = `${ORIGIN}/catalog/gloves?q=nitrile&Q=Big`;
const REFERRER = `${ORIGIN}/`;
const COOKIES = { consent: 'yes', segment: 'b2b%20buyer' };
const SESSION = { cartId: 'c-1' };
const DATA_LAYER = {
  page: { pageInfo: { pageType: 'Product Detail', contentTitle: '  Nitrile   Gloves\n Box ', empty: '', pageUID: 'pdp-1', language: 'en-us' } },
  product: [{ productInfo: { sku: '1ABC2' } }],
  cart: { total: 42 },
  user: { loggedIn: false, tags: ['web'], profile: { id: 'u-1' } },
};
const OUT = 'test-results/import-e2e/every-module';
const LIBRARY = 'tests/fixtures/launch/every-module.js';

const turbine = () => readFileSync(createRequire(import.meta.url).resolve('@adobe/reactor-turbine/dist/engine.js'), 'utf8');

const PAGE = `<!doctype html><html><head><title>Gloves</title>
<script>
window.digitalData = ${JSON.stringify(DATA_LAYER)};
window.__completed = [];
window._satellite = { _monitors: [{ ruleCompleted: function (e) { window.__completed.push(e.rule.name); } }] };
</script>
<script src="/launch.js"></script>
</head><body><p>every module</p></body></html>`;

test('the imported every-module library computes what turbine computes', async ({ page, context }) => {
  const { lines } = runImport({ library: LIBRARY, out: OUT });
  expect(lines.at(-1)).toMatch(/^\d+ rules entirely in the worker, 0 rules partly on the page, 0 items not imported\.$/);

  // ---- turbine, in Chromium ----
  await context.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/launch.js') return route.fulfill({ contentType: 'text/javascript', body: readFileSync(LIBRARY, 'utf8') + turbine() });
    return route.fulfill({ contentType: 'text/html', body: PAGE });
  });
  await context.addCookies(Object.entries(COOKIES).map(([name, value]) => ({ name, value, url: ORIGIN })));
  await context.addInitScript((session) => {
    for (const [k, v] of Object.entries(session)) sessionStorage.setItem(k, v);
  }, SESSION);
  await page.goto(URL_, { referer: REFERRER, waitUntil: 'load' });
  await page.evaluate(() => (window as unknown as { _satellite: { track(id: string): void } })._satellite.track('compare'));
  await page.waitForFunction(() => (window as unknown as { __completed: string[] }).__completed.includes('last'));
  const names = Object.keys(readLibrary(readFileSync(LIBRARY, 'utf8'), LIBRARY).dataElements ?? {});
  const fromTurbine = await page.evaluate((ns) => {
    const w = window as unknown as { __completed: string[]; _satellite: { getVar(n: string): unknown } };
    return { completed: w.__completed, values: Object.fromEntries(ns.map((n) => [n, w._satellite.getVar(n)])) };
  }, names);
  const userAgent = await page.evaluate(() => navigator.userAgent);

  // ---- the import, in the engine ----
  const { container } = (await import(/* @vite-ignore */ `../../${OUT}/container.ts`)) as { container: NonNullable<Parameters<typeof replay>[1]>['container'] };
  const fixture: Fixture = {
    page: { url: URL_, referrer: REFERRER, userAgent },
    cookies: COOKIES,
    session: SESSION,
    dataLayer: DATA_LAYER,
    events: [
      { type: 'library-loaded' },
      { type: 'dom-ready' },
      { type: 'window-loaded' },
      { type: 'direct-call', id: 'compare' },
      ...names.map((name) => ({ type: 'get-var' as const, name })),
    ],
  };
  const result = await replay(fixture, { container, services: container!.services! });
  const completed = result.effects
    .filter((e): e is Extract<Effect, { type: 'monitor' }> => e.type === 'monitor' && e.name === 'rule-completed')
    // A rule whose events have two rule orders is imported as one rule per order (rule names are unique).
    .map((e) => (e.data as { rule: string }).rule.replace(/ \((page bottom, )?rule order -?\d+\)$/, ''));
  const replies = result.effects.filter((e): e is Extract<Effect, { type: 'reply' }> => e.type === 'reply');
  const values = Object.fromEntries(names.map((n, i) => [n, replies[i]?.value]));

  // Random numbers: each side's value is an integer in the data element's range (drawn from the engine's random source).
  const library = readLibrary(readFileSync(LIBRARY, 'utf8'), LIBRARY);
  for (const [name, de] of Object.entries(library.dataElements ?? {})) {
    if (!de.modulePath.endsWith('/randomNumber.js')) continue;
    const { min, max } = de.settings as { min: number; max: number };
    for (const side of [values, fromTurbine.values]) {
      expect(Number.isInteger(side[name]) && (side[name] as number) >= min && (side[name] as number) <= max, `${name}: ${String(side[name])}`).toBe(true);
      side[name] = 'a random integer in range';
    }
  }
  expect(completed).toEqual(fromTurbine.completed);
  expect(values).toEqual(fromTurbine.values);
  // The comparison is not empty: rules passed and failed, values of every kind were read.
  expect(fromTurbine.completed.length).toBeGreaterThan(20);
  expect(fromTurbine.completed).not.toContain('other domain');
  expect(fromTurbine.values['messy title']).toBe('Nitrile Gloves Box');
  expect(fromTurbine.values['custom reads the layer']).toBe('84:Product Detail');
  expect(fromTurbine.values.merged).toEqual({ loggedIn: false, tags: ['web', 'b2b', 'web'], profile: { id: 'u-1', tier: 'gold' } });
});

test('the imported storefront library: every data element equals what turbine computes on a replay fixture page', async ({ page, context }) => {
  const library = 'tests/fixtures/launch/storefront.js';
  const out = 'test-results/import-e2e/storefront';
  runImport({ library, out });
  const fixture = JSON.parse(readFileSync('tests/fixtures/storefront/page-view-logged-in.json', 'utf8')) as Fixture & {
    page: { url: string; referrer: string };
    cookies: Record<string, string>;
    session: Record<string, string>;
  };
  const url = new URL(fixture.page.url);
  const html = `<!doctype html><html><head><script>window.digitalData = ${JSON.stringify(fixture.dataLayer)};
window.__completed = [];
window._satellite = { _monitors: [{ ruleCompleted: function (e) { window.__completed.push(e.rule.name); } }] };</script>
<script src="/launch.js"></script></head><body></body></html>`;
  await context.route(`${url.origin}/**`, (route) =>
    new URL(route.request().url()).pathname === '/launch.js'
      ? route.fulfill({ contentType: 'text/javascript', body: readFileSync(library, 'utf8') + turbine() })
      : route.fulfill({ contentType: 'text/html', body: html }),
  );
  await context.addCookies(Object.entries(fixture.cookies).map(([name, value]) => ({ name, value, url: url.origin })));
  await context.addInitScript((session) => {
    if (!sessionStorage.getItem('__seeded')) for (const [k, v] of Object.entries({ ...session, __seeded: '1' })) sessionStorage.setItem(k, v);
  }, fixture.session);
  await page.goto(fixture.page.url, { referer: fixture.page.referrer, waitUntil: 'load' });
  const names = Object.keys(readLibrary(readFileSync(library, 'utf8'), library).dataElements ?? {});
  // Turbine runs the rule's actions after track() returns (component sequencing): read once it completed.
  await page.evaluate(() => (window as unknown as { _satellite: { track(id: string): void } })._satellite.track('Page View'));
  await page.waitForFunction(() => (window as unknown as { __completed: string[] }).__completed.includes('Page View'));
  const fromTurbine = await page.evaluate((ns) => {
    const s = (window as unknown as { _satellite: { getVar(n: string): unknown } })._satellite;
    return Object.fromEntries(ns.map((n) => [n, s.getVar(n)]));
  }, names);

  const { container } = (await import(/* @vite-ignore */ `../../${out}/container.ts`)) as { container: NonNullable<NonNullable<Parameters<typeof replay>[1]>['container']> };
  const result = await replay(
    { ...fixture, events: [{ type: 'library-loaded' }, 'Page View', ...names.map((name) => ({ type: 'get-var' as const, name }))] },
    { container, services: container.services! },
  );
  const replies = result.effects.filter((e): e is Extract<Effect, { type: 'reply' }> => e.type === 'reply');
  expect(Object.fromEntries(names.map((n, i) => [n, replies[i]?.value]))).toEqual(fromTurbine);
  expect(fromTurbine['page name']).toBe('acme:educational content:order management');
  expect(fromTurbine['customer combination key']).toBe('0812345:SAP-99');
  expect(fromTurbine['previous page name']).toBe('acme:educational content:order management');
});

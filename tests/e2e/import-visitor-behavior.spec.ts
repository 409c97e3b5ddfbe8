/**
 * Equal to turbine, over a page sequence: the Launch library with Core's Visitor Behavior data
 * element (tests/fixtures/launch/visitor-behavior.js) runs with @adobe/reactor-turbine's runtime in
 * one browser context, and its import, built with `offtag build`, runs in offtag.js and its
 * worker in another. Each side visits the same pages: two in one tab (one session), then two in a
 * new tab (a second session: sessionStorage is per tab, the visitor's counts are not). After each
 * page loads, every data element's value is read (`_satellite.getVar` under turbine,
 * `_satellite.getVarAsync` under Offtag); the values are the same, the page's origin aside.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { runImport } from '../../tools/import/command.ts';
import { readLibrary } from '../../tools/import/read.ts';
import { buildLibrary } from '../../tools/build/build.ts';
import { SERVERS } from './helpers.ts';

const LIBRARY = 'tests/fixtures/launch/visitor-behavior.js';
const TURBINE_ORIGIN = 'https://www.keepstock.example';
const SEARCH = 'https://search.example/?q=gloves';
const SOCIAL = 'https://social.example/post/1';
// Read when a test runs: the library is written by the global setup, which `playwright test --list` does not run.
const names = () => Object.keys(readLibrary(readFileSync(LIBRARY, 'utf8'), LIBRARY).dataElements ?? {});
const turbine = () => readFileSync(createRequire(import.meta.url).resolve('@adobe/reactor-turbine/dist/engine.js'), 'utf8');

type Read = (page: Page) => Promise<Record<string, unknown>>;
/** Resolves once the page view is counted in the tab's sessionStorage, as the side keeps it. */
type Counted = (page: Page, pagesViewed: number) => Promise<unknown>;

/** The sequence: tab 1 lands from a search and views a second page; tab 2 lands with no referrer, then comes in from a social post. */
async function visit(context: BrowserContext, origin: string, read: Read, counted: Counted) {
  const seen: Array<Record<string, unknown>> = [];
  const go = async (page: Page, path: string, referer?: string) => {
    await page.goto(`${origin}${path}`, { ...(referer ? { referer } : {}), waitUntil: 'load' });
    const values = await read(page);
    // The page view is counted in this tab's sessionStorage before the next page.
    await counted(page, values['session page views'] as number);
    seen.push(JSON.parse(JSON.stringify(values).split(origin).join('<origin>')) as Record<string, unknown>);
  };
  const tab1 = await context.newPage();
  await go(tab1, '/vb/landing.html', SEARCH);
  await go(tab1, '/vb/second.html', `${origin}/vb/landing.html`);
  const tab2 = await context.newPage();
  await go(tab2, '/vb/third.html');
  await go(tab2, '/vb/fourth.html', SOCIAL);
  return seen;
}

test('visitor behaviour: over the same pages and tabs, the imported container computes what turbine computes', async ({ browser }) => {
  test.setTimeout(120_000);
  const out = 'test-results/import-e2e/visitor-behavior';
  const { lines } = runImport({ library: LIBRARY, out });
  expect(lines.at(-1)).toBe('data elements: 7 worker, 0 on the page, 0 not imported; rules: 0 in the worker, 0 partly on the page, 0 not imported; 0 actions not imported; 0 other items not imported.');
  const built = await buildLibrary({ container: `${out}/container.ts`, env: 'production', out: 'dist/test-builds/import-visitor-behavior' });
  expect(built.problems).toEqual([]);

  // ---- turbine ----
  const launch = await browser.newContext();
  await launch.route(`${TURBINE_ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/launch.js'
      ? route.fulfill({ contentType: 'text/javascript', body: readFileSync(LIBRARY, 'utf8') + turbine() })
      : route.fulfill({ contentType: 'text/html', body: '<!doctype html><html><head><script src="/launch.js"></script></head><body>page</body></html>' }),
  );
  const fromTurbine = await visit(launch, TURBINE_ORIGIN, (page) =>
    page.evaluate((ns) => Object.fromEntries(ns.map((n) => [n, (window as unknown as { _satellite: { getVar(n: string): unknown } })._satellite.getVar(n)])), names()),
    (page, n) => page.waitForFunction((v) => sessionStorage.getItem('com.adobe.reactor.core.visitorTracking.pagesViewed') === String(v), n),
  );
  await launch.close();

  // ---- the import, built: offtag.js and its worker ----
  const offtag = await browser.newContext();
  await offtag.route(`${SERVERS.page}/vb/*.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><html><head><meta charset="utf-8"><script src="/offtag-config.js"></script><script src="/dist/test-builds/import-visitor-behavior/offtag.js"></script></head><body>page</body></html>',
    }),
  );
  const fromOfftag = await visit(offtag, SERVERS.page, (page) =>
    page.evaluate(async (ns) => {
      const s = (window as unknown as { _satellite: { getVarAsync(n: string): Promise<unknown> } })._satellite;
      const out: Record<string, unknown> = {};
      for (const n of ns) out[n] = await s.getVarAsync(n);
      return out;
    }, names()),
    (page, n) => page.waitForFunction((v) => JSON.parse(sessionStorage.getItem('offtag_vts') ?? '{}').pagesViewed === v, n),
  );
  const cookies = await offtag.cookies(SERVERS.page);
  await offtag.close();

  expect(fromOfftag).toEqual(fromTurbine);
  // Not empty: the counts moved as a visitor's do.
  expect(fromTurbine.map((v) => [v['session count'], v['session page views'], v['lifetime page views'], v['new visitor']])).toEqual([
    [1, 1, 1, true],
    [1, 2, 2, true],
    [2, 1, 3, false],
    [2, 2, 4, false],
  ]);
  expect(fromTurbine.map((v) => [v['landing page'], v['traffic source'], v['minutes on site']])).toEqual([
    ['<origin>/vb/landing.html', SEARCH, 0],
    ['<origin>/vb/landing.html', SEARCH, 0],
    ['<origin>/vb/third.html', '', 0],
    // No referrer on the landing page: the next page's referrer is the traffic source.
    ['<origin>/vb/third.html', SOCIAL, 0],
  ]);
  // Offtag keeps the visitor's counts in a cookie, the session's facts in sessionStorage.
  expect(cookies.find((c) => c.name === 'offtag_vt')?.value).toBe('2.4');
});

/**
 * Code that runs on the page (docs/import.md, "What stays on the page"): tests/fixtures/launch/page-side.js
 * — sloppy custom code assigning page globals, global code declaring a function named like a
 * bundler helper, a block that throws mid-rule, external code files (one the host answers 404),
 * HTML with inline and `src` scripts, a made-up extension's action, data element, condition and
 * event — runs under turbine on one page and, imported and built with `offtag build`, in offtag.js
 * on another. The same rules complete in the same order, the page code sees and does the same
 * (`window.__log`), the data elements have the same values, and the console's errors are the same.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { buildLibrary } from '../../tools/build/build.ts';
import { runImport } from '../../tools/import/command.ts';
import { readLibrary } from '../../tools/import/read.ts';
import { SERVERS, consoleOf } from './helpers.ts';
// @ts-expect-error -- the fixtures' sources are plain ES modules without types
import { CDN, HOST, externalFiles } from '../fixtures/launch/page-side.mjs';

const LIBRARY = 'tests/fixtures/launch/page-side.js';
const ORIGIN = 'https://www.keepstock.example';
const QUERY = '?consent=yes';
const DATA_LAYER = { page: { pageInfo: { pageType: 'Product Detail' } } };
const HEAD = `<meta charset="utf-8"><title>Gloves</title><script>window.__log = []; window.digitalData = ${JSON.stringify(DATA_LAYER)};</script>`;
const BODY = '<ul><li>one</li><li>two</li></ul>';
const turbine = () => readFileSync(createRequire(import.meta.url).resolve('@adobe/reactor-turbine/dist/engine.js'), 'utf8');

type PageWindow = { __log: string[]; __completed: string[]; __acmeLoads: number; globalFromBlock: string; _satellite: { track(id: string): void } };

/** The library's host (its external code files; the one not there answers 404) and the vendor's CDN. */
async function hosts(context: BrowserContext) {
  await context.route(`${HOST}**`, (route) => {
    const file = new URL(route.request().url()).pathname.split('/').pop()!;
    const body = (externalFiles as Record<string, string>)[file];
    return body ? route.fulfill({ contentType: 'text/javascript', body }) : route.fulfill({ status: 404, body: 'not found' });
  });
  await context.route(`${CDN}**`, (route) =>
    route.fulfill({
      contentType: 'text/javascript',
      body: route.request().url().endsWith('/one.js') ? "window.oneLoaded = true; window.__log.push('src one');" : "window.acmeLib = 'v1';",
    }),
  );
}

/** Error lines as both runtimes word them: turbine's rocket and stack trace left out. */
function errorsOf(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text().replace(/^🚀 /, '').split('\n')[0]!);
  });
  page.on('pageerror', (e) => errors.push(`uncaught ${e.message}`));
  return errors;
}

/** The same steps on each page: the load, a direct call, the extension's own event; then each data element. */
async function run(page: Page, completed: () => Promise<string[]>, names: string[], getVar: (page: Page, names: string[]) => Promise<Record<string, unknown>>) {
  await expect.poll(completed, { timeout: 20_000 }).toContain('last at load');
  await page.evaluate(() => (window as unknown as PageWindow)._satellite.track('acme'));
  await expect.poll(completed).toContain('acme consented');
  await expect.poll(completed).toContain('acme send');
  await page.evaluate(() => dispatchEvent(new CustomEvent('acme:ready', { detail: { widget: 'w1' } })));
  await expect.poll(completed).toContain('acme ready');
  const state = await page.evaluate(() => {
    const w = window as unknown as PageWindow;
    return { log: w.__log, acmeLoads: w.__acmeLoads, globalFromBlock: w.globalFromBlock };
  });
  return { ...state, completed: await completed(), values: await getVar(page, names) };
}

test('page code and other extensions: the built import does on the page what turbine does, in the same order, with the same errors', async ({ page, context }) => {
  test.setTimeout(180_000);
  const out = 'test-results/import-e2e/page-side';
  const { lines } = runImport({ library: LIBRARY, out });
  expect(lines.at(-1)).toBe('data elements: 1 worker, 3 on the page, 0 not imported; rules: 1 in the worker, 11 partly on the page, 0 not imported; 0 actions not imported; 0 other items not imported.');
  const built = await buildLibrary({ container: `${out}/container.ts`, env: 'production', out: 'dist/test-builds/import-page-side' });
  expect(built.problems).toEqual([]);
  const lib = readLibrary(readFileSync(LIBRARY, 'utf8'), LIBRARY);
  const names = Object.keys(lib.dataElements ?? {});
  const ruleNames = new Set((lib.rules ?? []).map((r) => r.name));
  await hosts(context);
  await context.addInitScript(() => localStorage.setItem('com.adobe.reactor.debug', 'true'));

  // ---- turbine ----
  await context.addCookies([{ name: 'segment', value: 'b2b', url: ORIGIN }]);
  await context.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/launch.js'
      ? route.fulfill({ contentType: 'text/javascript', body: readFileSync(LIBRARY, 'utf8') + turbine() })
      : route.fulfill({
          contentType: 'text/html',
          body: `<!doctype html><html><head>${HEAD}<script>window.__completed = []; window._satellite = { _monitors: [{ ruleCompleted: function (e) { window.__completed.push(e.rule.name); } }] };</script><script src="/launch.js"></script></head><body>${BODY}</body></html>`,
        }),
  );
  const turbineErrors = errorsOf(page);
  await page.goto(`${ORIGIN}/gloves${QUERY}`);
  const fromTurbine = await run(
    page,
    () => page.evaluate(() => (window as unknown as PageWindow).__completed),
    names,
    (p, ns) => p.evaluate((n) => Object.fromEntries(n.map((x) => [x, (window as unknown as { _satellite: { getVar(x: string): unknown } })._satellite.getVar(x)])), ns),
  );

  // ---- offtag.js, built from the import ----
  const offtag = await context.newPage();
  const console = consoleOf(offtag);
  const offtagErrors = errorsOf(offtag);
  await context.addCookies([{ name: 'segment', value: 'b2b', url: SERVERS.page }]);
  await context.route(`${SERVERS.page}/import-page-side.html*`, (route) =>
    route.fulfill({ contentType: 'text/html', body: `<!doctype html><html><head>${HEAD}<script src="/offtag-config.js"></script><script src="/dist/test-builds/import-page-side/offtag.js"></script></head><body>${BODY}</body></html>` }),
  );
  await offtag.goto(`${SERVERS.page}/import-page-side.html${QUERY}`);
  const fromOfftag = await run(
    offtag,
    // Custom code's logger line, with or without turbine's prefix.
    async () => console.map((l) => l.replace(/^🚀 \[Custom Script\] /, '')).filter((l) => ruleNames.has(l)),
    names,
    (p, ns) =>
      p.evaluate(async (n) => {
        const s = (window as unknown as { _satellite: { getVarAsync(x: string): Promise<unknown> } })._satellite;
        const values: Record<string, unknown> = {};
        for (const x of n) values[x] = await s.getVarAsync(x);
        return values;
      }, ns),
  );

  expect(fromOfftag.completed).toEqual(fromTurbine.completed);
  expect(fromOfftag.log).toEqual(fromTurbine.log);
  expect(fromOfftag.values).toEqual(fromTurbine.values);
  expect(fromOfftag.acmeLoads).toBe(1);
  expect(fromOfftag.globalFromBlock).toBe(fromTurbine.globalFromBlock);
  const failures = (errors: string[]) => errors.filter((e) => /^(Failed to execute|Failed to load resource|uncaught)/.test(e)).sort();
  expect(failures(offtagErrors)).toEqual(failures(turbineErrors));

  // Not empty: what each side did, in its order.
  expect(fromTurbine.completed).toEqual(['sloppy page code', 'global code', 'external code', 'external code the host answers 404', 'external html', 'html block', 'last at load', 'acme send', 'acme consented', 'acme ready']);
  expect(fromTurbine.log).toEqual([
    'sloppy 2 undefined Product Detail',
    "global the page's own helper",
    'before the throw',
    'external core.library-loaded window',
    'after the 404',
    'external html Product Detail',
    'inline one written',
    'src one',
    'inline two true declared',
    'acme send Product Detail ACME-Product Detail v1 core.direct-call 1',
    'consented seg:b2b:eu:https://assets.example.com/extensions/acme-tags/acme.min.js',
    'ready acme-tags.ready w1 widget',
  ]);
  expect(fromTurbine.values).toEqual({ 'page type': 'Product Detail', 'sloppy global': '1:Gloves:undefined', 'named helpers': 42, 'acme segment': 'seg:b2b:eu:https://assets.example.com/extensions/acme-tags/acme.min.js' });
  expect(failures(turbineErrors)).toEqual([
    'Failed to execute "Custom Code" for "throwing block mid-rule" rule. Cannot set properties of null (setting \'x\')',
    'Failed to load resource: the server responded with a status of 404 (Not Found)',
  ]);
  // The bridge keeps its budget; the page code is the container's own, beside it.
  expect(built.bridge).toBeLessThanOrEqual(3072);
  expect(readFileSync('dist/test-builds/import-page-side/offtag.js', 'utf8')).not.toMatch(/__name\(|__defProp|__export\(/);
});

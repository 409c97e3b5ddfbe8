/**
 * Equal to turbine: the Launch library that uses every supported module type and operator
 * (tests/fixtures/launch/every-module.js) runs with @adobe/reactor-turbine's runtime in Chromium;
 * its import runs in the engine (Node) on the same page state. The data element values
 * (`_satellite.getVar`) and the rules that complete, in their order (`_satellite._monitors`),
 * are the same. Page events (clicks, custom events, a form submission, a data element change) run turbine in one page
 * and the imported container, built with `offtag build`, in another: the same rules complete in
 * the same order.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test } from '@playwright/test';
import { runImport } from '../../tools/import/command.ts';
import { readLibrary } from '../../tools/import/read.ts';
import { replay, type Fixture } from '../../tools/replay/replay.ts';
import type { Effect } from '../../src/protocol.ts';
import { buildLibrary } from '../../tools/build/build.ts';
import { SERVERS, consoleOf } from './helpers.ts';

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

/**
 * The imported container's page, with turbine's debug switch on: its custom code's
 * `_satellite.logger.log(ruleName)` prints only then, as turbine's does (docs/import.md, "`_satellite`").
 */
async function offtagPage(context: import('@playwright/test').BrowserContext) {
  const page = await context.newPage();
  await page.addInitScript(() => localStorage.setItem('com.adobe.reactor.debug', 'true'));
  return page;
}
/** Console lines without the logger's prefix (turbine's, kept by the worker's logger). */
const ruleLines = (lines: string[]) => lines.map((l) => l.replace(/^\u{1F680} \[Custom Script\] /u, ''));

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
  expect(lines.at(-1)).toMatch(/^data elements: \d+ worker, 0 on the page, 0 not imported; rules: \d+ in the worker, 0 partly on the page, 0 not imported; 0 actions not imported; 0 other items not imported\.$/);

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
  // Conditional Value's two branches (tokens keep their types), Runtime Environment's library facts.
  expect([fromTurbine.values['is product'], fromTurbine.values['is checkout'], fromTurbine.values['build date'], fromTurbine.values['property name']]).toEqual([42, 'forty-two', '2026-01-15T10:00:00Z', 'Every module']);
});

/** Nested cards around a button; `#ready` is in view, so "ready seen" completes once the page's observers run. */
const CARDS = '<div class="card" id="outer"><div class="card" id="inner"><button class="add"><span>Add</span></button></div></div><form class="newsletter" onsubmit="return false"><button id="subscribe">Subscribe</button></form><p id="ready">ready</p><p class="promo" data-kind="sale">sale</p><p class="promo" data-kind="news">news</p><p class="promo" data-kind="flash" id="flash">flash</p><script>document.addEventListener("click", function () { document.getElementById("flash").style.display = "none"; }, { once: true });</script>';
/**
 * The rules the page's load completes (elements in view, one after half a second in view), awaited on both sides before the page events.
 * The flash promo is hidden by the page's first click, long before its minute in view: that rule never completes.
 */
const ON_LOAD = ['ready seen', 'window loaded', 'sale promo seen', 'news promo in view for half a second', 'flash promo seen'];
type PageWindow = { __completed: string[]; digitalData: { cart: { total: number } }; _satellite: { track(id: string): void } };

/**
 * The same page events, in the same order, on a page: a click on the span inside the two cards, a
 * custom event dispatched on the button (it bubbles), one on document, one on window, a form
 * submitted (the page cancels it), then the cart
 * total changed and a direct call that matches no rule (Offtag's data element change shows with the
 * page's next event; turbine's Core module polls it).
 */
async function pageEvents(page: import('@playwright/test').Page) {
  await page.click('#inner span');
  await page.evaluate(() => document.querySelector('button.add')!.dispatchEvent(new CustomEvent('cart:add', { bubbles: true, detail: { sku: 'A1' } })));
  await page.evaluate(() => document.dispatchEvent(new CustomEvent('cart:add')));
  await page.evaluate(() => dispatchEvent(new CustomEvent('cart:add')));
  await page.click('#subscribe');
  await page.evaluate(() => {
    const w = window as unknown as PageWindow;
    w.digitalData.cart.total = 43;
    w._satellite.track('poke');
  });
}

test('page events: clicking, custom events and a data element change complete the same rules in the same order under turbine and under the imported container, built', async ({ page, context }) => {
  test.setTimeout(120_000);
  const out = 'test-results/import-e2e/every-module-built';
  runImport({ library: LIBRARY, out });
  const built = await buildLibrary({ container: `${out}/container.ts`, env: 'production', out: 'dist/test-builds/import-every-module' });
  expect(built.problems).toEqual([]);
  const ruleNames = new Set((readLibrary(readFileSync(LIBRARY, 'utf8'), LIBRARY).rules ?? []).map((r) => r.name));

  // ---- turbine, in Chromium ----
  await context.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/launch.js'
      ? route.fulfill({ contentType: 'text/javascript', body: readFileSync(LIBRARY, 'utf8') + turbine() })
      : route.fulfill({ contentType: 'text/html', body: PAGE.replace('<p>every module</p>', CARDS) }),
  );
  await page.goto(URL_, { referer: REFERRER, waitUntil: 'load' });
  await page.waitForFunction((names) => names.every((n) => (window as unknown as PageWindow).__completed.includes(n)), ON_LOAD);
  const turbineOnLoad = await page.evaluate(() => (window as unknown as PageWindow).__completed);
  const turbineBefore = await page.evaluate(() => (window as unknown as PageWindow).__completed.length);
  await pageEvents(page);
  await page.waitForFunction(() => (window as unknown as PageWindow).__completed.includes('cart total changed'));
  const fromTurbine = (await page.evaluate(() => (window as unknown as PageWindow).__completed)).slice(turbineBefore);

  // ---- the imported container, built: offtag.js and its worker; each rule's action logs its name ----
  const offtag = await offtagPage(context);
  const lines = consoleOf(offtag);
  const completed = () => ruleLines(lines).filter((l) => ruleNames.has(l));
  await context.route(`${SERVERS.page}/import-every-module.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><head><meta charset="utf-8"><script src="/offtag-config.js"></script>
<script>window.digitalData = ${JSON.stringify(DATA_LAYER)};</script>
<script src="/dist/test-builds/import-every-module/offtag.js"></script></head><body>${CARDS}</body></html>`,
    }),
  );
  await offtag.goto(`${SERVERS.page}/import-every-module.html`);
  await expect.poll(() => ON_LOAD.every((n) => completed().includes(n))).toBe(true);
  const offtagOnLoad = completed();
  const offtagBefore = completed().length;
  await pageEvents(offtag);
  await expect.poll(() => completed().includes('cart total changed')).toBe(true);
  const fromOfftag = completed().slice(offtagBefore);

  expect(fromOfftag).toEqual(fromTurbine);
  // The viewport rules of the page's load: each once on both sides (the element property filter
  // picked one promo each; the delayed one fired after its half second in view; the flash promo
  // left the viewport before its minute).
  const viewport = (list: string[]) => list.filter((n) => n.includes('promo')).sort();
  expect(viewport(offtagOnLoad)).toEqual(viewport(turbineOnLoad));
  expect(viewport(turbineOnLoad)).toEqual(['flash promo seen', 'news promo in view for half a second', 'sale promo seen']);
  for (const side of [completed(), await page.evaluate(() => (window as unknown as PageWindow).__completed)]) expect(side).not.toContain('flash promo in view for a minute');
  // Element property filters: the outer card by its id, the inner by a case-insensitive regex, none by another text.
  expect(fromTurbine.filter((n) => n === 'click on the outer card, by its id')).toHaveLength(1);
  expect(fromTurbine.filter((n) => n === 'click on a card whose id matches')).toHaveLength(1);
  expect(fromTurbine).not.toContain('click on a card with another text');
  // Without a selector the filter reads the event's target: the button, not document or window.
  expect(fromTurbine.filter((n) => n === 'custom event on an element of class add')).toHaveLength(1);
  expect(fromTurbine.filter((n) => n === 'custom event on a button with its text')).toHaveLength(1);
  expect(fromTurbine).toContain('newsletter form, by its class attribute');
  expect(fromTurbine).not.toContain('form with another id');
  // Not empty: each kind of page event completed rules, bubbling fired a rule once per matching card.
  expect(fromTurbine.filter((n) => n === 'click on a card')).toHaveLength(2);
  expect(fromTurbine.filter((n) => n === 'custom event anywhere')).toHaveLength(3);
  expect(fromTurbine).toContain('custom event on the add button');
  expect(fromTurbine).toContain('click anywhere');
  expect(fromTurbine).toContain('newsletter form submitted');
  expect(fromTurbine).toContain('any form submitted');
  expect(fromTurbine).not.toContain('other custom event');
  expect(fromTurbine).not.toContain('click on a card itself');
  // "click anywhere" fired for the span, below both cards.
  expect(fromTurbine).not.toContain('click on a card, unless a rule fired below');
  expect(fromTurbine.at(-1)).toBe('cart total changed');
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

/**
 * Page reads (docs/import.md, "What stays on the page"): data elements and conditions that need
 * the page — Local Storage, JavaScript Variable outside the data layer, DOM Attribute, Page Info
 * title, custom code reading the document — run
 * with turbine on one page and, imported and built with `offtag build`, in offtag.js on another
 * page with the same document and localStorage. The values (`getVar` under turbine,
 * `getVarAsync` under Offtag, each a direct call's fresh read) and the rules that complete, in
 * their order, are the same.
 */
test('page reads: local storage, page globals, DOM attributes, the title and custom code on the page give what turbine gives', async ({ page, context }) => {
  test.setTimeout(120_000);
  const library = 'tests/fixtures/launch/page-reads.js';
  const out = 'test-results/import-e2e/page-reads';
  const { lines: report } = runImport({ library, out });
  expect(report.at(-1)).toBe('data elements: 3 worker, 16 on the page, 0 not imported; rules: 2 in the worker, 11 partly on the page, 0 not imported; 0 actions not imported; 0 other items not imported.');
  expect(report.find((l) => l.startsWith('rule "currency is EUR"'))).toContain('1 condition(s) read on the page');
  const built = await buildLibrary({ container: `${out}/container.ts`, env: 'production', out: 'dist/test-builds/import-page-reads' });
  expect(built.problems).toEqual([]);
  expect(built.gzip).toBeGreaterThan(built.bridge);
  const lib = readLibrary(readFileSync(library, 'utf8'), library);
  const names = Object.keys(lib.dataElements ?? {});
  const ruleNames = new Set((lib.rules ?? []).map((r) => r.name));
  const body = `<script>window.digitalData = ${JSON.stringify(DATA_LAYER)}; window.shopConfig = { currency: "EUR", cart: [{ sku: "C-7" }] };</script><h1>  Nitrile \n Gloves </h1><div id="product" class="card wide" data-sku="1ABC2" data-stock="yes"><a href="https://shop.example/buy?sku=1ABC2">Buy</a><button id="buy-now">Buy now</button></div>`;
  const head = '<title>Gloves | Keepstock</title>';
  await context.addInitScript(() => localStorage.setItem('basket', '3'));

  // ---- turbine, in Chromium ----
  await context.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/launch.js'
      ? route.fulfill({ contentType: 'text/javascript', body: readFileSync(library, 'utf8') + turbine() })
      : route.fulfill({ contentType: 'text/html', body: PAGE.replace('<title>Gloves</title>', head).replace('<p>every module</p>', body) }),
  );
  await page.goto(URL_, { referer: REFERRER, waitUntil: 'load' });
  await page.evaluate(() => (window as unknown as PageWindow)._satellite.track('check'));
  await page.waitForFunction(() => (window as unknown as PageWindow).__completed.includes('last'));
  await page.click('#buy-now');
  await page.waitForFunction(() => (window as unknown as PageWindow).__completed.includes('buy now clicked'));
  const fromTurbine = await page.evaluate((ns) => {
    const w = window as unknown as PageWindow & { _satellite: { getVar(n: string): unknown } };
    return { completed: w.__completed, values: Object.fromEntries(ns.map((n) => [n, w._satellite.getVar(n)])) };
  }, names);

  // ---- the imported container, built: offtag.js reads the page with each event ----
  const offtag = await offtagPage(context);
  const lines = consoleOf(offtag);
  await context.route(`${SERVERS.page}/import-page-reads.html`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<!doctype html><html><head><meta charset="utf-8">${head}<script src="/offtag-config.js"></script>
<script src="/dist/test-builds/import-page-reads/offtag.js"></script></head><body>${body}</body></html>`,
    }),
  );
  await offtag.goto(`${SERVERS.page}/import-page-reads.html`, { waitUntil: 'load' });
  await offtag.waitForFunction(() => !!(window as unknown as { offtag?: unknown }).offtag);
  await offtag.evaluate(() => (window as unknown as PageWindow)._satellite.track('check'));
  await expect.poll(() => ruleLines(lines).includes('last')).toBe(true);
  await offtag.click('#buy-now');
  await expect.poll(() => ruleLines(lines).includes('buy now clicked')).toBe(true);
  const values = await offtag.evaluate(async (ns) => {
    const s = (window as unknown as { _satellite: { getVarAsync(n: string): Promise<unknown> } })._satellite;
    const out: Record<string, unknown> = {};
    for (const n of ns) out[n] = await s.getVarAsync(n);
    return out;
  }, names);

  expect(ruleLines(lines).filter((l) => ruleNames.has(l))).toEqual(fromTurbine.completed);
  expect(values).toEqual(fromTurbine.values);
  // Not empty: page conditions passed and failed, values of each kind were read.
  expect(fromTurbine.completed).toEqual(['hierarchy at load', 'in stock', 'title mentions gloves', 'basket has items', 'currency is EUR', 'cart sku matches', 'not sold out', 'last', 'buy now clicked']);
  expect(fromTurbine.values).toMatchObject({ 'basket size': '3', 'no such item': 'none', 'heading text': 'nitrile gloves', 'product sku': '1ABC2', 'buy link': 'https://shop.example/buy?sku=1ABC2', 'product class': 'card wide', 'missing element': 'no element', 'document title': 'gloves | keepstock', 'stock from the page': 'yes', 'shop currency': 'eur', 'first cart sku': 'C-7', 'missing global': 'no global', 'page track': 'gloves', 'site hierarchy': 'html:GLOVES' });
  // The read that throws on the page: no value on either side (turbine logs the module's error), and offtag.js names it; the event went on.
  expect(fromTurbine.values['throwing code']).toBeUndefined();
  expect(lines.some((l) => l.includes('The page read of data element "throwing code" threw: TypeError'))).toBe(true);
  expect(lines.some((l) => l.includes('The page read of condition 1 of rule "condition that throws" threw: TypeError'))).toBe(true);
});

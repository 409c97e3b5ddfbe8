/**
 * Turbine's timing, the Core events the engine gained and `_satellite.getVar`, against turbine
 * (docs/import.md, "Timing" and "`_satellite`"): tests/fixtures/launch/timing-events.js runs with
 * @adobe/reactor-turbine's runtime on one page and, imported and built with `offtag build`, in
 * offtag.js and its worker on another page with the same document, path, cookies and local
 * storage. The page calls `_satellite.pageBottom()` at the end of its body and reads getVar while
 * it is parsed; the test then changes the URL with pushState, adds an element, hovers a card, plays
 * an audio element to its end, dispatches the event a Custom Code event's block listens to, and
 * pushes into Data Layer Manager's array. The rules that complete, in their order, and every data
 * element's synchronous getVar are the same on both pages.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, test, type Page, type Route } from '@playwright/test';
import { runImport } from '../../tools/import/command.ts';
import { readLibrary } from '../../tools/import/read.ts';
import { buildLibrary } from '../../tools/build/build.ts';
import { SERVERS, consoleOf } from './helpers.ts';

const LIBRARY = 'tests/fixtures/launch/timing-events.js';
const OUT = 'test-results/import-e2e/timing-events';
const ORIGIN = 'https://www.keepstock.example';
// Read when a test runs: the library is written by the global setup, which `playwright test --list` does not run.
const library = () => readLibrary(readFileSync(LIBRARY, 'utf8'), LIBRARY);
/** The lifecycle rules, in turbine's order: Library Loaded by rule order, Page Bottom (called by the page) before every DOM Ready rule whatever its order, Window Loaded last. */
const LIFECYCLE = ['library loaded, order 10', 'customer ids, order 20', 'library loaded, order 60', 'page bottom, order 5', 'page bottom', 'dom ready, order 1', 'wide window', 'chrome browser', 'window loaded'];
const PAGE_READS = ['title', 'basket', 'heading', 'currency', 'card count'];

const turbine = () => readFileSync(createRequire(import.meta.url).resolve('@adobe/reactor-turbine/dist/engine.js'), 'utf8');

/** 1.2 s of silence, 8 kHz mono 16-bit PCM: an audio element every Chromium plays. */
function wav(seconds = 1.2, rate = 8000): Buffer {
  const data = Math.round(seconds * rate) * 2;
  const b = Buffer.alloc(44 + data);
  b.write('RIFF', 0);
  b.writeUInt32LE(36 + data, 4);
  b.write('WAVEfmt ', 8);
  b.writeUInt32LE(16, 16);
  b.writeUInt16LE(1, 20);
  b.writeUInt16LE(1, 22);
  b.writeUInt32LE(rate, 24);
  b.writeUInt32LE(rate * 2, 28);
  b.writeUInt16LE(2, 32);
  b.writeUInt16LE(16, 34);
  b.write('data', 36);
  b.writeUInt32LE(data, 40);
  return b;
}

/** The sound, with byte ranges as a web server serves media: its seekable range is then its length (Media Time Played's percent is of that range). */
function sound(route: Route) {
  const body = wav();
  const range = /bytes=(\d+)-(\d*)/.exec(route.request().headers()['range'] ?? '');
  if (!range) return route.fulfill({ contentType: 'audio/wav', headers: { 'accept-ranges': 'bytes' }, body });
  const from = Number(range[1]);
  const to = range[2] ? Number(range[2]) : body.length - 1;
  return route.fulfill({ status: 206, contentType: 'audio/wav', headers: { 'accept-ranges': 'bytes', 'content-range': `bytes ${from}-${to}/${body.length}` }, body: body.subarray(from, to + 1) });
}

const html = (head: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Gloves | Timing</title>
<script>
window.digitalData = { page: { type: 'Home', language: 'en' }, cart: { total: 3 } };
window.shopConfig = { currency: 'EUR' };
window.appEventData = [{ event: 'Page Load Complete', page: { name: 'home' } }];
</script>
${head}</head><body><h1>  Nitrile
  Gloves </h1><div class="card" id="card" style="width:300px;height:60px">card</div><p id="away" style="height:60px">away</p>
<audio id="sound" muted preload="auto" src="/sound.wav"></audio>
<script>
window.__early = ${JSON.stringify(PAGE_READS)}.map(function (n) { return _satellite.getVar(n); });
_satellite.pageBottom();
</script></body></html>`;

type W = { __early: unknown[]; __promoListening?: boolean; __fixtureHoverWatching?: boolean; digitalData: { cart: { total: number } }; appEventData: unknown[]; _satellite: { getVar(n: string): unknown } };

/** The page's load, then the page events; `completed` reads the rules completed so far. */
async function drive(page: Page, completed: () => Promise<string[]>, turbineSide: boolean) {
  const until = async (name: string, times = 1) => expect.poll(async () => (await completed()).filter((n) => n === name).length, { timeout: 20_000 }).toBe(times);
  await until('window loaded');
  await until('dlm page load');
  await page.waitForFunction(() => (window as unknown as W).__promoListening === true);
  // Turbine's hover looks for its elements every 3 seconds: hover once it has found the card.
  if (turbineSide) await page.waitForFunction(() => (window as unknown as W).__fixtureHoverWatching === true);
  const early = await page.evaluate(() => (window as unknown as W).__early);
  const before = (await completed()).length;
  const onLoad = await completed();

  await page.evaluate(() => history.pushState({}, '', '/timing/next?cid=spring'));
  await until('navigated');
  await page.evaluate(() => {
    const b = document.createElement('div');
    b.className = 'late-banner';
    document.body.append(b);
  });
  await until('late banner exists');
  await page.hover('#card');
  await until('card hovered for 300 ms');
  await page.hover('#away');
  await page.evaluate(() => (document.getElementById('sound') as HTMLAudioElement).play());
  await until('sound ended');
  await page.evaluate(() => document.dispatchEvent(new CustomEvent('promo:ready')));
  await until('promo ready');
  // The last event carries the page's changes: the worker's values are this event's.
  await page.evaluate(() => {
    const w = window as unknown as W;
    w.digitalData.cart.total = 7;
    document.cookie = 'segment=retail; path=/';
    w.appEventData.push({ event: 'Page Load Complete', page: { name: 'next' } });
  });
  await until('dlm page load', 2);
  const values = await page.evaluate((names) => Object.fromEntries(names.map((n) => [n, (window as unknown as W)._satellite.getVar(n)])), Object.keys(library().dataElements ?? {}));
  return { early, onLoad, events: (await completed()).slice(before), values };
}

test('timing, the new Core events and getVar: the same rules complete in the same order, and synchronous getVar gives what turbine gives', async ({ browser }) => {
  test.setTimeout(180_000);
  const { lines: report } = runImport({ library: LIBRARY, out: OUT });
  expect(report.at(-1)).toBe('data elements: 9 worker, 5 on the page, 0 not imported; rules: 19 in the worker, 3 partly on the page, 0 not imported; 0 actions not imported; 0 other items not imported.');
  const built = await buildLibrary({ container: `${OUT}/container.ts`, env: 'production', out: 'dist/test-builds/import-timing-events' });
  expect(built.problems).toEqual([]);
  const seed = (origin: string) => [
    { name: 'segment', value: 'b2b%20buyer', url: origin },
  ];

  // ---- turbine, in Chromium ----
  const tctx = await browser.newContext();
  await tctx.addCookies(seed(ORIGIN));
  await tctx.addInitScript(() => localStorage.setItem('basket', '3'));
  await tctx.route(`${ORIGIN}/**`, (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/launch.js') return route.fulfill({ contentType: 'text/javascript', body: readFileSync(LIBRARY, 'utf8') + turbine() });
    if (path === '/sound.wav') return sound(route);
    return route.fulfill({
      contentType: 'text/html',
      body: html(`<script>window.__completed = []; window._satellite = { _monitors: [{ ruleCompleted: function (e) { window.__completed.push(e.rule.name); } }] };</script>
<script src="/launch.js"></script>`),
    });
  });
  const tpage = await tctx.newPage();
  await tpage.goto(`${ORIGIN}/timing?cid=launch`, { waitUntil: 'load' });
  const fromTurbine = await drive(tpage, () => tpage.evaluate(() => (window as unknown as { __completed: string[] }).__completed), true);

  // ---- the import, built: offtag.js and its worker (debug on: custom code's logger prints, as turbine's) ----
  const octx = await browser.newContext();
  await octx.addCookies(seed(SERVERS.page));
  await octx.addInitScript(() => {
    localStorage.setItem('basket', '3');
    localStorage.setItem('com.adobe.reactor.debug', 'true');
  });
  await octx.route(`${SERVERS.page}/timing**`, (route) =>
    route.fulfill({ contentType: 'text/html', body: html('<script src="/offtag-config.js"></script>\n<script src="/dist/test-builds/import-timing-events/offtag.js"></script>') }),
  );
  await octx.route(`${SERVERS.page}/sound.wav`, sound);
  const opage = await octx.newPage();
  const lines = consoleOf(opage);
  const errors: string[] = [];
  opage.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
  opage.on('pageerror', (e) => errors.push(e.message));
  await opage.goto(`${SERVERS.page}/timing?cid=launch`, { waitUntil: 'load' });
  const rules = new Set((library().rules ?? []).map((r) => r.name));
  const logged = async () => lines.map((l) => l.replace(/^\u{1F680} \[Custom Script\] /u, '')).filter((l) => rules.has(l));
  const fromOfftag = await drive(opage, logged, false);

  // The lifecycle rules: turbine's order (Library Loaded, with the one waiting for the ID service, before Page Bottom and DOM Ready).
  expect(fromTurbine.onLoad.filter((n) => LIFECYCLE.includes(n))).toEqual(LIFECYCLE);
  expect(fromOfftag.onLoad.filter((n) => LIFECYCLE.includes(n))).toEqual(LIFECYCLE);
  // The page events, in order.
  expect(fromOfftag.events).toEqual(fromTurbine.events);
  expect(fromTurbine.events).toEqual(['navigated', 'late banner exists', 'card hovered', 'card hovered for 300 ms', 'played half', 'played a second', 'sound ended', 'promo ready', 'dlm page load']);
  for (const never of ['narrow window', 'firefox browser', 'card hovered for a minute', 'dlm other event'])
    for (const side of [fromTurbine, fromOfftag]) expect([...side.onLoad, ...side.events]).not.toContain(never);
  // getVar while the page is parsed (before the worker's first answer): the page reads, read on the call.
  expect(fromOfftag.early).toEqual(fromTurbine.early);
  expect(fromTurbine.early).toEqual(['gloves | timing', '3', 'Nitrile Gloves', 'EUR', 1]);
  // getVar after the page's events: every data element.
  expect(fromOfftag.values).toEqual(fromTurbine.values);
  expect(fromTurbine.values).toMatchObject({ path: '/timing/next', campaign: 'spring', 'cart total': 7, segment: 'retail', joined: 'Home/7', 'dlm page name': 'next', 'session language': 'en', constant: 'kept' });
  // No error turbine does not also give (the test servers' config names the storefront's settings, which this container lacks).
  expect(errors.filter((e) => !/^offtagConfig\.(rum|amplitude) is not a setting/.test(e))).toEqual([]);
  await tctx.close();
  await octx.close();
});

/**
 * What a container's page reads cost the main thread per event (docs/containers.md, "Page
 * reads"): the page data `offtag build` writes into offtag.js for them (tools/build/page-reads.ts),
 * read by offtag.js's page side (src/page-side, bundled here as offtag build bundles it) in Chromium
 * on a product page, as offtag.js reads it when it takes each event's snapshot.
 * One row per kind of read (one data element each), one that throws, then the imported tests/fixtures/launch/page-reads.js
 * library's page data elements and page conditions together, then nothing (the call alone).
 * Each figure is the median, over 15 rounds, of the mean time of 2,000 calls (interleaved rounds).
 *
 *   tsx bench/per-event/page-reads.ts
 *
 * Writes bench/results/page-reads.md. It checks no number: it measures.
 */
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { defineContainer, domAttribute, localStorage as localItem, pageCode, pageTitle } from '../../src/container/index.ts';
import { build } from 'vite';
import { pageReadsIn, pageText } from '../../tools/build/page-reads.ts';
import { runImport } from '../../tools/import/command.ts';
import { loadContainer } from '../../tools/build/build.ts';
import { saveResult } from '../lib/report.ts';
import { writeLaunchFixtures } from '../../tests/fixtures/launch/written.ts';

const one = (name: string, de: ReturnType<typeof pageTitle>) => pageText(defineContainer({ name, dataElements: { x: de }, rules: [] })).data!;
writeLaunchFixtures();
runImport({ library: 'tests/fixtures/launch/page-reads.js', out: 'test-results/bench/page-reads' });
const imported = await loadContainer('test-results/bench/page-reads/container.ts');

const CASES: Array<[string, string]> = [
  ['nothing (the call with no read)', '{}'],
  ['localStorage item', one('ls', localItem('basket'))],
  ['page title', one('title', pageTitle())],
  ['DOM attribute (an attribute)', one('attr', domAttribute('#product', 'data-sku'))],
  ['DOM attribute (text)', one('text', domAttribute('h1', 'text'))],
  ['page code (querySelector)', one('code', pageCode(() => document.querySelector('h1')?.textContent?.length))],
  ['page code that throws (named in the snapshot problems)', one('throws', pageCode(() => (document.querySelector('#nothing') as HTMLElement).id))],
  [`page-reads.js imported: ${pageReadsIn(imported).elements.length} data elements, ${pageReadsIn(imported).conditions.length} page conditions (a direct call of their rules)`, pageText(imported).data!],
];

const PAGE = `<!doctype html><html><head><title>Gloves | Keepstock</title></head><body>
<header><nav>${'<a href="/c">category</a>'.repeat(40)}</nav></header>
<h1>Nitrile Gloves</h1><div id="product" class="card" data-sku="1ABC2" data-stock="yes"><a href="/buy">Buy</a></div>
<main>${'<section><p>text</p><ul><li>a</li><li>b</li></ul></section>'.repeat(200)}</main></body></html>`;

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
const page = await browser.newPage();
await page.route('https://bench.example/**', (route) => route.fulfill({ contentType: 'text/html', body: PAGE }));
await page.goto('https://bench.example/gloves');
await page.evaluate(() => localStorage.setItem('basket', '3'));
// The page side as offtag build bundles it into offtag.js (without a module host: no extension here).
const bundled = await build({
  configFile: false,
  logLevel: 'error',
  define: { __OFFTAG_PAGE_HOST__: '0', __OFFTAG_PAGE_STEPS__: '0', __OFFTAG_LAUNCH__: '0' },
  build: { write: false, minify: true, target: 'es2020', lib: { entry: 'src/page-side/index.ts', formats: ['iife'], name: 'benchPageSide', fileName: () => 'page-side.js' } },
});
await page.addScriptTag({ content: (bundled as Array<{ output: Array<{ code?: string }> }>)[0]!.output[0]!.code! });
const ROUNDS = 15;
const CALLS = 2000;
const times: number[][] = CASES.map(() => []);
for (let round = 0; round < ROUNDS; round++)
  for (let i = 0; i < CASES.length; i++)
    times[i]!.push(
      await page.evaluate(
        ({ code, calls }) => {
          const side = (window as unknown as { benchPageSide: { pageSide(data: unknown): { read(e: unknown, p: unknown[], el: undefined, seq: number): unknown } } }).benchPageSide.pageSide(new Function(`return (${code})`)());
          const event = { type: 'direct-call', id: 'check' };
          const t0 = performance.now();
          for (let n = 0; n < calls; n++) side.read(event, [], undefined, n);
          return ((performance.now() - t0) / calls) * 1000;
        },
        { code: CASES[i]![1], calls: CALLS },
      ),
    );
await browser.close();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const lines = [
  '# Page reads: main-thread time per event',
  '',
  `Chromium ${CHROMIUM_PATH}, ${new Date().toISOString()}; median of ${ROUNDS} rounds of ${CALLS} calls (tsx bench/per-event/page-reads.ts).`,
  '',
  '| reads | µs per event |',
  '|---|---|',
  ...CASES.map(([name], i) => `| ${name} | ${median(times[i]!).toFixed(2)} |`),
  '',
];
console.log(lines.join('\n'));
await saveResult('page-reads.md', lines.join('\n'));

/**
 * What a container's page reads cost the main thread per event (docs/containers.md, "Page
 * reads"): the code `offtag build` writes into offtag.js for them (tools/build/page-reads.ts),
 * run in Chromium on a product page, as offtag.js runs it when it takes each event's snapshot.
 * One row per kind of read (one data element each), one that throws, then the imported tests/fixtures/launch/page-reads.js
 * library's eleven data elements and four page conditions together, then nothing (the call alone).
 * Each figure is the median, over 15 rounds, of the mean time of 2,000 calls (interleaved rounds).
 *
 *   tsx bench/page-reads.ts
 *
 * Writes bench/results/page-reads.md. It checks no number: it measures.
 */
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { defineContainer, domAttribute, localStorage as localItem, pageCode, pageTitle } from '../src/container/index.ts';
import { pageReadsDefine, pageReadsIn } from '../tools/build/page-reads.ts';
import { runImport } from '../tools/import/command.ts';
import { loadContainer } from '../tools/build/build.ts';
import { saveResult } from './report.ts';

const one = (name: string, de: ReturnType<typeof pageTitle>) => pageReadsDefine(pageReadsIn(defineContainer({ name, dataElements: { x: de }, rules: [] })));
runImport({ library: 'tests/fixtures/launch/page-reads.js', out: 'test-results/bench/page-reads' });
const imported = await loadContainer('test-results/bench/page-reads/container.ts');

const CASES: Array<[string, string]> = [
  ['nothing (the call with no read)', one('none', pageTitle()).replace(/^r\("d".*$/m, '')],
  ['localStorage item', one('ls', localItem('basket'))],
  ['page title', one('title', pageTitle())],
  ['DOM attribute (an attribute)', one('attr', domAttribute('#product', 'data-sku'))],
  ['DOM attribute (text)', one('text', domAttribute('h1', 'text'))],
  ['page code (querySelector)', one('code', pageCode(() => document.querySelector('h1')?.textContent?.length))],
  ['page code that throws (named in the snapshot problems)', one('throws', pageCode(() => (document.querySelector('#nothing') as HTMLElement).id))],
  ['page-reads.js imported: 11 data elements, 4 page conditions (a direct call of their rules)', pageReadsDefine(pageReadsIn(imported))],
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
const ROUNDS = 15;
const CALLS = 2000;
const times: number[][] = CASES.map(() => []);
for (let round = 0; round < ROUNDS; round++)
  for (let i = 0; i < CASES.length; i++)
    times[i]!.push(
      await page.evaluate(
        ({ code, calls }) => {
          const reads = new Function(`return ${code}`)() as (e: unknown, p: unknown[]) => unknown;
          const event = { type: 'direct-call', id: 'check' };
          const t0 = performance.now();
          for (let n = 0; n < calls; n++) reads(event, []);
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
  `Chromium ${CHROMIUM_PATH}, ${new Date().toISOString()}; median of ${ROUNDS} rounds of ${CALLS} calls (tsx bench/page-reads.ts).`,
  '',
  '| reads | µs per event |',
  '|---|---|',
  ...CASES.map(([name], i) => `| ${name} | ${median(times[i]!).toFixed(2)} |`),
  '',
];
console.log(lines.join('\n'));
await saveResult('page-reads.md', lines.join('\n'));

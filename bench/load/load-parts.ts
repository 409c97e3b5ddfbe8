/**
 * The main-thread CPU of single start-up parts, apart (docs/bench.md "Page load"): on
 * the bench's no-tag page, loaded in a fresh context (so every part is a first use, as on a first
 * visit), one part is run from a page task and the page renderer's main thread is read from
 * /proc (`/proc/<pid>/task/<pid>/schedstat`, bench/load/load.ts `rendererCpu`) before it and 300 ms
 * after it (what the part sets off on the main thread later counts too); minus the same for an
 * empty task, median over loads, the parts interleaved. Beside it, the renderer's whole process.
 * Playwright drives the page (DevTools attached; the /proc figure is the thread's CPU all the same).
 * Run: `npx tsx bench/load/load-parts.ts [--loads 7]` (dist/ built). Never asserted.
 */
import { median } from '../lib/measure.ts';
import { pageRenderer, rendererCpu } from '../lib/proc.ts';
import { startWorld } from '../lib/setup.ts';

const i = process.argv.indexOf('--loads');
const loads = i < 0 ? 7 : Number(process.argv[i + 1]);
const SENDER = `'/dist/offtag-sender.js'`;
export const PARTS: Record<string, string> = {
  'an empty task': '0',
  'new Worker (offtag-worker.js)': `new Worker('/dist/offtag-worker.js?part')`,
  'new SharedWorker (offtag-sender.js, same origin)': `new SharedWorker(${SENDER}).port`,
  'new SharedWorker (a blob that loads it: files on another origin)': `new SharedWorker(URL.createObjectURL(new Blob(['importScripts(' + JSON.stringify(location.origin + ${SENDER}) + ')']))).port`,
  'localStorage, first use (for…in over the keys)': `for (const k in localStorage) k`,
  'document.cookie, first read': `document.cookie`,
  'offtag-effects.js: fetched and run': `await new Promise((r) => { const s = document.createElement('script'); s.src = '/dist/offtag-effects.js'; s.onload = r; document.head.append(s); })`,
};

const world = await startWorld();
try {
  const rows: Record<string, { main: number[]; all: number[] }> = {};
  for (let r = 0; r < loads; r++) {
    for (const [name, code] of Object.entries(PARTS)) {
      const ctx = await world.browser.newContext();
      const page = await ctx.newPage();
      await page.goto(world.pageUrl({ variant: 'none' }), { waitUntil: 'load' });
      await page.waitForTimeout(300);
      const a = rendererCpu(process.pid);
      await page.evaluate(`(async () => { ${code}; await new Promise((r) => setTimeout(r, 300)); })()`);
      const d = pageRenderer(a, rendererCpu(process.pid))![1];
      (rows[name] ??= { main: [], all: [] }).main.push(d.main / 1e6);
      rows[name].all.push(d.all / 1e6);
      await ctx.close();
    }
    console.log(`round ${r + 1}/${loads}`);
  }
  const empty = rows['an empty task'];
  console.log(`\nCPU ms over an empty task, median of ${loads} (main thread | whole renderer):`);
  for (const [name, x] of Object.entries(rows))
    if (x !== empty) console.log(`  ${name.padEnd(66)} ${(median(x.main) - median(empty.main)).toFixed(2).padStart(6)} | ${(median(x.all) - median(empty.all)).toFixed(2).padStart(6)}`);
  console.log(`  (the empty task itself: ${median(empty.main).toFixed(2)} | ${median(empty.all).toFixed(2)})`);
} finally {
  await world.close();
}

/**
 * `npm run bench:burst`: beacons per second in a burst of 250 Page Views, the worker (the durable
 * IndexedDB queue, requests from the origin's SharedWorker sender) side by side with the same
 * engine on the main thread (bare `fetch`), in one run, variants interleaved sample by sample.
 * Beside them, what the network allows with no engine at all: a SharedWorker making 250 beacon
 * GETs to the same collector one at a time (the ceiling for beacons that must arrive in the
 * order made), and 4 at a time (with how many arrived out of order). Each sample opens fresh
 * browser contexts (`--same-context`: one set for the whole run, as before 2026-11-24). Writes bench/results/burst.md
 * (docs/delivery.md, "Throughput"). The offtag figure is also the "beacons per second" row of the
 * full bench (bench/results/latest.md).
 */
import type { Page } from 'playwright';
import { saveResult } from './report.ts';
import { median, openPage, sample, warm } from './measure.ts';
import { buildVariants, CEILING_WORKER, CONTAINER_SIZES, startWorld, type Variant, type World } from './setup.ts';

const N = Number(process.argv.find((a) => a.startsWith('--n='))?.slice(4)) || 250;
const SAMPLES = Number(process.argv.find((a) => a.startsWith('--samples='))?.slice(10)) || 7;
const SAME_CONTEXT = process.argv.includes('--same-context');
const variants: Variant[] = ['offtag', 'main-thread'];

async function ceiling(world: World, page: Page, window: number, round: number): Promise<{ perSec: number; outOfOrder: number }> {
  const tag = `c${window}r${round}`;
  const urls = Array.from({ length: N }, (_, i) => `${world.collector.url}/b/ss/ceiling/1/JS-2.27.0/s${tag}${i}?AQB=1&pageName=${tag}-${i}&AQE=1`);
  const before = world.collector.beacons.length;
  const ms = await page.evaluate(
    ([code, urls, window]) =>
      new Promise<number>((resolve) => {
        const w = new SharedWorker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
        w.port.onmessage = (e) => resolve(e.data as number);
        w.port.postMessage({ urls, window });
      }),
    [CEILING_WORKER, urls, window] as const,
  );
  const order = world.collector.beacons.slice(before).map((b) => Number(String(b.pageName).split('-')[1]));
  // Out of order: a beacon that arrived after one made later than it.
  let highest = -1;
  let outOfOrder = 0;
  for (const i of order) {
    if (i < highest) outOfOrder++;
    highest = Math.max(highest, i);
  }
  return { perSec: N / (ms / 1000), outOfOrder };
}

await buildVariants([CONTAINER_SIZES[0]]);
const world = await startWorld();
const rates: Record<string, number[]> = { offtag: [], 'main-thread': [], serial: [], four: [] };
const reordered: number[] = [];
try {
  // Each sample in fresh browser contexts unless --same-context: Chromium slows every request of a
  // context down ~2-3x some seconds into a run of thousands of requests (docs/delivery.md,
  // "Throughput"), which would make later samples measure that rather than Offtag.
  const fresh = async () => {
    const pages = await Promise.all(variants.map((variant) => openPage(world, { variant })));
    const blank = await (await world.browser.newContext()).newPage();
    await blank.goto(`${world.base}/blank`);
    for (const p of pages) await warm(world, p, 5);
    return { pages, blank, close: async () => { for (const p of pages) await p.close(); await blank.context().close(); } };
  };
  let set = await fresh();
  for (let s = 0; s < SAMPLES; s++) {
    if (s && !SAME_CONTEXT) {
      await set.close();
      set = await fresh();
    }
    for (const p of set.pages) rates[p.variant]!.push((await sample(world, p, 'Page View', N)).eventsPerSec);
    rates.serial!.push((await ceiling(world, set.blank, 1, s)).perSec);
    const four = await ceiling(world, set.blank, 4, s);
    rates.four!.push(four.perSec);
    reordered.push(four.outOfOrder);
  }
  await set.close();
} finally {
  await world.close();
}
const row = (v: string, label = v) => `| ${label} | ${Math.round(median(rates[v]!))} | ${rates[v]!.map((r) => Math.round(r)).join(', ')} |`;
const md = [
  `# Burst throughput: ${N} Page Views from one page task, until the last beacon reached the collector`,
  '',
  `\`npm run bench:burst${SAME_CONTEXT ? ' -- --same-context' : ''}\` · ${new Date().toISOString().slice(0, 10)} · median of ${SAMPLES} samples, variants interleaved, ${SAME_CONTEXT ? 'every sample in the same browser contexts' : 'each sample in fresh browser contexts'}`,
  '',
  '| variant | beacons/s (median) | samples |',
  '|---|---|---|',
  row('offtag'),
  row('main-thread'),
  row('serial', 'no engine: a SharedWorker, one GET at a time'),
  row('four', 'no engine: a SharedWorker, 4 GETs at a time'),
  '',
  `offtag: the worker engine, every beacon through the durable IndexedDB queue (stored before it is sent, one transaction per batch), requests from the origin's SharedWorker sender, one at a time in the order made. main-thread: the same engine on the page, beacons sent with bare \`fetch\` (no queue, all at once). No engine: ${N} beacon GETs to the same collector from a SharedWorker, the ceiling of ordered (one at a time) and of unordered (4 at a time) sending on this machine; with 4 at a time, beacons that arrived after one made later than them, per sample: ${reordered.join(', ')} of ${N}.`,
  '',
].join('\n');
await saveResult('burst.md', md);
console.log(md);

/**
 * `npm run bench:burst`: beacons per second in a burst of 250 Page Views, the worker (the durable
 * IndexedDB queue) side by side with the same engine on the main thread (bare `fetch`), in one
 * run, variants interleaved sample by sample. Writes bench/results/burst.md (docs/delivery.md).
 * The same figure is the "beacons per second" row of the full bench (bench/results/latest.md).
 */
import { saveResult } from './report.ts';
import { median, openPage, sample, warm } from './measure.ts';
import { buildVariants, CONTAINER_SIZES, startWorld, type Variant } from './setup.ts';

const N = Number(process.argv.find((a) => a.startsWith('--n='))?.slice(4)) || 250;
const SAMPLES = Number(process.argv.find((a) => a.startsWith('--samples='))?.slice(10)) || 7;
const variants: Variant[] = ['offtag', 'main-thread'];

await buildVariants([CONTAINER_SIZES[0]]);
const world = await startWorld();
const rates: Record<string, number[]> = { offtag: [], 'main-thread': [] };
try {
  const pages = await Promise.all(variants.map((variant) => openPage(world, { variant })));
  for (const p of pages) await warm(world, p, 5);
  for (let s = 0; s < SAMPLES; s++) {
    for (const p of pages) rates[p.variant]!.push((await sample(world, p, 'Page View', N)).eventsPerSec);
  }
  for (const p of pages) await p.close();
} finally {
  await world.close();
}
const row = (v: string) => `| ${v} | ${Math.round(median(rates[v]!))} | ${rates[v]!.map((r) => Math.round(r)).join(', ')} |`;
const md = [
  `# Burst throughput: ${N} Page Views from one page task, until the last beacon reached the collector`,
  '',
  `\`npm run bench:burst\` · ${new Date().toISOString().slice(0, 10)} · median of ${SAMPLES} samples, variants interleaved`,
  '',
  '| variant | beacons/s (median) | samples |',
  '|---|---|---|',
  row('offtag'),
  row('main-thread'),
  '',
  'offtag: the worker engine, every beacon through the durable IndexedDB queue (stored before it is sent, one transaction per batch). main-thread: the same engine on the page, beacons sent with bare `fetch` (no queue).',
  '',
].join('\n');
await saveResult('burst.md', md);
console.log(md);

/**
 * What the bench's idle correction subtracts: the CDP ThreadTime delta of an idle
 * Offtag bench page (warmed, as the bench's samples meet it) over windows of 100 ms to 3 s, median
 * of `reps` windows each, interleaved. A delta that does not grow with the window is the cost of
 * the measurement itself (the two `Performance.getMetrics` calls), not idle CPU per second.
 * Run: `npx tsx bench/per-event/idle-windows.ts [--reps 7] [--bytes 1000]`. Never asserted.
 */
import { median, metrics, openPage, warm } from '../lib/measure.ts';
import { startWorld } from '../lib/setup.ts';

const opt = (name: string, d: string) => Number(process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : d);
const reps = opt('--reps', '7');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const world = await startWorld();
try {
  const p = await openPage(world, { variant: 'offtag', dataLayerBytes: opt('--bytes', '1000') });
  await warm(world, p, 1);
  const windows = [0, 100, 300, 1000, 3000];
  const xs: Record<number, number[]> = {};
  for (let r = 0; r < reps; r++)
    for (const w of windows) {
      const m0 = await metrics(p.cdp);
      await sleep(w);
      const m1 = await metrics(p.cdp);
      (xs[w] ??= []).push((m1.ThreadTime - m0.ThreadTime) * 1000);
    }
  for (const w of windows) console.log(`${w} ms window: ThreadTime delta ${median(xs[w]).toFixed(2)} ms (median of ${reps}; min ${Math.min(...xs[w]).toFixed(2)}, max ${Math.max(...xs[w]).toFixed(2)})`);
  await p.close();
} finally {
  await world.close();
}

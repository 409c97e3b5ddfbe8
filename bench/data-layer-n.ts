/**
 * Does Offtag's Page View cost grow with the data layer, or only a sample's fixed cost (issue 12)?
 * Opens one Offtag bench page per data-layer size (as `npm run bench` section 3 does), then takes
 * interleaved samples of n Page Views from one page task for each n, and prints per size and n the
 * sample's main-thread CPU (CDP ThreadTime, idle-corrected as the bench does) and per event, and
 * the bridge's own per-event time (`offtag.metrics()`). Never asserted.
 * Run: `npx tsx bench/data-layer-n.ts [--sizes 1000,1000000] [--ns 0,20,200] [--reps 5]`.
 */
import { startWorld } from './setup.ts';
import { EVENTS, idleRate, median, openPage, sample, warm, type OpenPage } from './measure.ts';

const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(name);
  return (i < 0 ? d : process.argv[i + 1]).split(',').map(Number);
};
const sizes = arg('--sizes', '1000,1000000');
const ns = arg('--ns', '0,20,200');
const [reps] = arg('--reps', '5');

const world = await startWorld();
try {
  const ps: Record<number, OpenPage> = {};
  for (const b of sizes) {
    ps[b] = await openPage(world, { variant: 'offtag', dataLayerBytes: b });
    await warm(world, ps[b], 1);
  }
  const res: Record<string, { corr: number[]; bridge: number[] }> = {};
  for (let r = 0; r < reps; r++)
    for (const b of sizes)
      for (const n of ns) {
        const rate = await idleRate(ps[b]);
        const s = await sample(world, ps[b], EVENTS[0], n);
        const row = (res[`${b} B, n=${n}`] ??= { corr: [], bridge: [] });
        row.corr.push(Math.max(0, s.totalMs - (rate * s.wallMs) / 1000));
        row.bridge.push(s.bridgeMs ?? NaN);
      }
  for (const [k, v] of Object.entries(res)) {
    const n = Number(k.split('n=')[1]);
    const c = median(v.corr);
    console.log(`${k}: sample ${c.toFixed(2)} ms${n ? `, ${(c / n).toFixed(3)} ms per event, bridge ${median(v.bridge).toFixed(3)} ms per event` : ''}`);
  }
  for (const b of sizes) await ps[b].close();
} finally {
  await world.close();
}

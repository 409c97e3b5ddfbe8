/**
 * Does Offtag's Page View cost grow with the data layer, or only a sample's fixed cost or the
 * bench's own neighbours? Opens Offtag bench pages per data-layer size (as `npm run
 * bench` section 3 does), then takes interleaved samples of n Page Views from one page task for
 * each n, and prints per size and n the sample's main-thread CPU (CDP ThreadTime, idle-corrected
 * as the bench does) and per event, and the bridge's own per-event time (`offtag.metrics()`).
 * Never asserted.
 *
 * `--floor`: a second Offtag page per size on which, as section 3 does, every sample is followed
 * by the floor's `whole` sample (n posts of the page's whole data layer to a worker of its own);
 * its rows are marked `+floor`, side by side with the clean page's. `--others main-thread,turbine`:
 * those variants' pages are opened too and sampled in the same rounds (section 3 interleaves them).
 * `--once`: the idle figures (measure.ts `idleOf`) are taken once per page before the rounds (as
 * section 3 did before) instead of before every sample.
 * Run: `npx tsx bench/per-event/data-layer-n.ts [--sizes 1000,1000000] [--ns 0,20,200] [--reps 5] [--floor] [--others …] [--once]`.
 */
import { startWorld, type Variant } from '../lib/setup.ts';
import { EVENTS, floorSample, idleCorrected, idleOf, installFloor, median, openPage, sample, warm, type Idle, type OpenPage } from '../lib/measure.ts';

const raw = (name: string, d: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? d : process.argv[i + 1];
};
const arg = (name: string, d: string) => raw(name, d).split(',').map(Number);
const sizes = arg('--sizes', '1000,1000000');
const ns = arg('--ns', '0,20,200');
const [reps] = arg('--reps', '5');
const withFloor = process.argv.includes('--floor');
const once = process.argv.includes('--once');
const others = raw('--others', '').split(',').filter(Boolean) as Variant[];

const world = await startWorld();
try {
  // Per size: the clean Offtag page, the one the floor shares (--floor), the other variants (--others).
  const ps: Record<string, OpenPage> = {};
  const rate: Record<string, Idle> = {};
  const kinds = ['offtag', ...(withFloor ? ['offtag+floor'] : []), ...others];
  for (const b of sizes)
    for (const k of kinds) {
      const p = (ps[`${k} ${b}`] = await openPage(world, { variant: k.split('+')[0] as Variant, dataLayerBytes: b }));
      await warm(world, p, 1);
      if (k === 'offtag+floor') await installFloor(p.page);
    }
  if (once) for (const k in ps) rate[k] = await idleOf(ps[k]);
  const res: Record<string, { corr: number[]; bridge: number[] }> = {};
  for (let r = 0; r < reps; r++)
    for (const b of sizes)
      for (const n of ns)
        for (const k of kinds) {
          const p = ps[`${k} ${b}`];
          const idle = once ? rate[`${k} ${b}`] : await idleOf(p);
          const s = await sample(world, p, EVENTS[0], n);
          const row = (res[`${k} ${b} B, n=${n}`] ??= { corr: [], bridge: [] });
          row.corr.push(n ? idleCorrected(s, idle, n) * n : Math.max(0, s.totalMs - idle.fixedMs));
          row.bridge.push(s.bridgeMs ?? NaN);
          if (k === 'offtag+floor') await floorSample(p, n, 'whole');
        }
  for (const [k, v] of Object.entries(res)) {
    const n = Number(k.split('n=')[1]);
    const c = median(v.corr);
    const bridge = median(v.bridge);
    console.log(`${k}: sample ${c.toFixed(2)} ms${n ? `, ${(c / n).toFixed(3)} ms per event${Number.isFinite(bridge) ? `, bridge ${bridge.toFixed(3)} ms per event` : ''}` : ''}`);
  }
  for (const k in ps) await ps[k].close();
} finally {
  await world.close();
}

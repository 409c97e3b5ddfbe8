/**
 * Section 3's data-layer scaling (`npm run bench`), also runnable on its own to find out what the
 * figure measures: `npx tsx bench/per-event/scaling.ts [--sizes 1000,1000000] [--samples 5]
 * [--n 200] [--variants offtag,main-thread,turbine] [--no-floor]` (dist/ built; bench/.build/ built
 * by `npm run bench` once, or by this command when it is missing). Prints the rows as JSON, with
 * each Offtag sample's raw figures. Never asserted.
 */
import { existsSync } from 'node:fs';
import { EVENTS, floorSample, idleCorrected, idleOf, installFloor, median, medianIdle, openPage, sample, warm, type Idle, type OpenPage, type Sample } from '../lib/measure.ts';
import { BUILD, buildVariants, startWorld, type Variant, type World } from '../lib/setup.ts';

const round = (x: number, d = 4) => (Number.isFinite(x) ? Number(x.toFixed(d)) : null);


/**
 * Page View at each data-layer size: per size, a fresh page per variant (warmed by one event of each
 * type), then `samples` rounds of, per variant, its idle figures and one sample (n events from one
 * page task), and the floor's `whole` sample (n posts of the page's whole data layer, on the
 * Offtag page). Each sample is corrected with the median idle figures of its page. Medians.
 */
export async function dataLayerScaling(
  world: World,
  sizes: Array<{ bytes: number; n: number }>,
  samples: number,
  log: (m: string) => void,
  o: { variants?: Variant[]; floor?: boolean; raw?: boolean } = {},
): Promise<Array<Record<string, unknown>>> {
  const variants = o.variants ?? ['offtag', 'main-thread', 'turbine'];
  const rows: Array<Record<string, unknown>> = [];
  for (const size of sizes) {
    const ps = {} as Record<Variant, OpenPage>;
    for (const v of variants) {
      ps[v] = await openPage(world, { variant: v, dataLayerBytes: size.bytes });
      await warm(world, ps[v], 1);
    }
    if (o.floor !== false) await installFloor(ps.offtag.page);
    const idle: Record<string, Idle[]> = {};
    const got: Record<string, Sample[]> = {};
    const xs: Record<string, number[]> = o.floor !== false ? { floor: [] } : {};
    for (let r = 0; r < samples; r++) {
      for (const v of variants) {
        // The idle figures per round, before each sample, and their median per page (measure.ts `idleOf`).
        (idle[v] ??= []).push(await idleOf(ps[v]));
        (got[v] ??= []).push(await sample(world, ps[v], EVENTS[0], size.n));
      }
      if (o.floor !== false) xs.floor.push(await floorSample(ps.offtag, size.n, 'whole'));
    }
    for (const v of variants) xs[v] = got[v].map((s) => idleCorrected(s, medianIdle(idle[v]), size.n));
    const row: Record<string, unknown> = { bytes: size.bytes, eventsPerSample: size.n };
    for (const k of Object.keys(xs)) row[k] = round(median(xs[k]));
    if (o.raw) {
      const i = medianIdle(idle.offtag);
      row.offtagIdle = { fixedMs: round(i.fixedMs, 2), msPerSec: round(i.msPerSec, 2) };
      row.offtagRaw = round(median(got.offtag.map((s) => s.totalMs / size.n)));
      row.offtagSamples = got.offtag.map((s) => ({ totalMs: round(s.totalMs, 1), wallMs: s.wallMs, bridgeMs: round(s.bridgeMs ?? NaN) }));
    }
    rows.push(row);
    for (const v of variants) await ps[v].close();
    log(`${size.bytes} B done`);
  }
  return rows;
}

if (process.argv[1]?.endsWith('scaling.ts')) {
  const opt = (name: string, d: string) => {
    const i = process.argv.indexOf(name);
    return i < 0 ? d : process.argv[i + 1];
  };
  const n = Number(opt('--n', '200'));
  const sizes = opt('--sizes', '1000,10000,100000,1000000').split(',').map((b) => ({ bytes: Number(b), n }));
  const variants = opt('--variants', 'offtag,main-thread,turbine').split(',') as Variant[];
  if (variants.some((v) => v !== 'offtag') && !existsSync(`${BUILD}/turbine.js`)) await buildVariants([]);
  const world = await startWorld();
  try {
    const rows = await dataLayerScaling(world, sizes, Number(opt('--samples', '5')), (m) => console.error(m), {
      variants,
      floor: !process.argv.includes('--no-floor'),
      raw: true,
    });
    for (const r of rows) console.log(JSON.stringify(r));
  } finally {
    await world.close();
  }
}

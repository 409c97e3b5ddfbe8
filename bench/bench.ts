/**
 * The bench, end to end: build the variants, start the servers and Chromium, measure, write
 * bench/results/ (or bench/results/quick/ with --quick). Loaded by bench/run.mjs.
 */
import { execFileSync } from 'node:child_process';
import { gzipSync } from 'node:zlib';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { CHROMIUM_PATH } from '../chromium.ts';
import {
  EVENTS,
  floorSample,
  installFloor,
  latencyRun,
  median,
  idleCorrected,
  idleOf,
  medianIdle,
  type Idle,
  inpRun,
  openPage,
  sample,
  singleEvents,
  taskSamples,
  warm,
  type OpenPage,
  type Sample,
} from './lib/measure.ts';
import { renderChart, renderHeadline, renderMarkdown } from './lib/report.ts';
import { FLOOR_D, floorCases, LOAD_VARIANTS, loadCdp, loadProc, variantCases, writeAblationFiles, type LoadFigures } from './load/load.ts';
import { dataLayerScaling } from './per-event/scaling.ts';
import { BUILD, buildVariants, CONTAINER_SIZES, DIST, LEGACY, LEGACY_FILES, ROOT, sizeOf, startWorld, VARIANTS, type Variant } from './lib/setup.ts';

export interface Plan {
  quick: boolean;
  /**
   * Events per event type per sample, each burst from one page task. A round fires the four
   * types, so the "all events" figure of one sample covers 4 × n events.
   */
  n: number;
  samples: number;
  /** Alloy costs ~5-10x more per event: fewer events per burst, still far above the method's floor. */
  alloyN: number;
  singleReps: number;
  /** Page load, CDP at 1×: rounds, each loading every page `loadPasses` times (the order rotates round by round; the second pass goes backwards). */
  loads: number;
  loadPasses: number;
  /** Page load under CPU throttling (CDP) and without DevTools (/proc): rounds of one pass. */
  throttledLoads: number;
  procLoads: number;
  /** Scaling runs (Page View only): samples per figure. */
  scalingSamples: number;
  dataLayerSizes: Array<{ bytes: number; n: number }>;
  containerSizes: typeof CONTAINER_SIZES;
  containerN: number;
  paced: { n: number; gapMs: number };
  /** Clicks per variant on the INP page. */
  inpClicks: number;
  /** CPU throttling rates of the phone figures (a mid-range and a low-end phone), beside 1×. */
  rates: number[];
  /** Whether page load and INP are also measured at those rates (per event always is). */
  throttledLoadAndInp: boolean;
  /** Per event under throttling: rounds, and events per type per burst (alloy: a fifth less, as unthrottled). */
  throttledSamples: number;
  throttledN: number;
}

export const FULL: Plan = {
  quick: false,
  n: 250,
  samples: 9,
  alloyN: 100,
  singleReps: 11,
  loads: 15,
  loadPasses: 2,
  throttledLoads: 5,
  procLoads: 7,
  scalingSamples: 5,
  // The same events per sample at every size: a sample's fixed cost (a few ms at 1 MB,
  // e.g. a GC after the idle gap) would otherwise weigh 10x more per event at 20 events than at 200.
  dataLayerSizes: [
    { bytes: 1_000, n: 200 },
    { bytes: 10_000, n: 200 },
    { bytes: 100_000, n: 200 },
    { bytes: 1_000_000, n: 200 },
  ],
  containerSizes: CONTAINER_SIZES,
  containerN: 200,
  paced: { n: 1000, gapMs: 15 },
  inpClicks: 40,
  rates: [4, 6],
  throttledLoadAndInp: true,
  throttledSamples: 3,
  throttledN: 100,
};

export const QUICK: Plan = {
  quick: true,
  n: 25,
  samples: 2,
  alloyN: 10,
  singleReps: 1,
  loads: 1,
  loadPasses: 1,
  throttledLoads: 1,
  procLoads: 1,
  scalingSamples: 1,
  dataLayerSizes: [
    { bytes: 1_000, n: 25 },
    { bytes: 100_000, n: 3 },
  ],
  containerSizes: [CONTAINER_SIZES[0], CONTAINER_SIZES[1]],
  containerN: 25,
  paced: { n: 20, gapMs: 15 },
  inpClicks: 3,
  rates: [4],
  throttledLoadAndInp: false,
  throttledSamples: 1,
  throttledN: 10,
};


const round = (x: number, d = 4) => (Number.isFinite(x) ? Number(x.toFixed(d)) : null);
const log = (...a: unknown[]) => console.log('[bench]', ...a);

function chromiumVersion(): string {
  try {
    return execFileSync(CHROMIUM_PATH, ['--version'], { encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

/** README.md's bench headline, between its markers, from a run's results (`node bench/run.mjs --render` rewrites it from latest.json). */
export const HEADLINE_START = '<!-- bench:headline (written by npm run bench from bench/results/latest.json) -->';
export const HEADLINE_END = '<!-- /bench:headline -->';
export async function writeHeadline(text: string): Promise<void> {
  const file = `${ROOT}README.md`;
  const readme = await readFile(file, 'utf8');
  const a = readme.indexOf(HEADLINE_START);
  const b = readme.indexOf(HEADLINE_END);
  if (a < 0 || b < a) throw new Error(`README.md has no ${HEADLINE_START} … ${HEADLINE_END} block for the bench headline`);
  await writeFile(file, `${readme.slice(0, a + HEADLINE_START.length)}\n${text}\n${readme.slice(b)}`);
}

export async function runBench(plan: Plan): Promise<{ outDir: string; markdown: string }> {
  const started = Date.now();
  const loadAtStart = loadavg()[0]!.toFixed(1);
  log(plan.quick ? 'quick mode (smoke test: figures are not meaningful)' : 'full run');
  await buildVariants(plan.containerSizes);
  writeAblationFiles();
  const world = await startWorld();
  const results: Record<string, unknown> = {};
  try {
    // ---- 1. per event, per variant: all four pages open, samples interleaved -----------------
    log('per-event cost (method A)…');
    const pages = {} as Record<Variant, OpenPage>;
    for (const v of VARIANTS) {
      pages[v] = await openPage(world, { variant: v });
      await warm(world, pages[v], plan.quick ? 1 : v === 'alloy' ? 2 : 5);
    }
    await installFloor(pages.offtag.page);
    const samples: Record<string, Record<string, Sample[]>> = {};
    const idle: Record<string, Idle[]> = {};
    const floorA: number[] = [];
    const floorB: number[] = [];
    const floorR: number[] = [];
    for (let r = 0; r < plan.samples; r++) {
      for (const v of VARIANTS) {
        (idle[v] ??= []).push(await idleOf(pages[v]));
        for (const id of EVENTS) {
          const s = await sample(world, pages[v], id, v === 'alloy' ? plan.alloyN : plan.n);
          ((samples[v] ??= {})[id] ??= []).push(s);
        }
      }
      floorA.push(await floorSample(pages.offtag, plan.n * 4, 'a'));
      floorB.push(await floorSample(pages.offtag, plan.n * 4, 'b'));
      floorR.push(await floorSample(pages.offtag, plan.n * 4, 'r'));
      log(`  round ${r + 1}/${plan.samples} (${Math.round((Date.now() - started) / 1000)} s)`);
    }
    // Idle correction: the measurement's own fixed cost, and the page's background CPU over the sample's wall time, are not the variant's.
    const idleOfV = Object.fromEntries(VARIANTS.map((v) => [v, medianIdle(idle[v])]));
    const corrected = (v: Variant, s: Sample, n: number) => idleCorrected(s, idleOfV[v], n);
    const nOf = (v: Variant) => (v === 'alloy' ? plan.alloyN : plan.n);
    const perEvent: Record<string, Record<string, Record<string, number | null>>> = {};
    const typeMs = (v: Variant, id: string) => median(samples[v][id].map((s) => corrected(v, s, nOf(v))));
    /** All four types in one figure: per round, the four bursts together (4 × n events). */
    const allMs = (v: Variant) =>
      median(Array.from({ length: plan.samples }, (_, r) => EVENTS.reduce((t, id) => t + corrected(v, samples[v][id][r], 1), 0) / (4 * nOf(v))));
    for (const v of VARIANTS) {
      perEvent[v] = {};
      for (const id of [...EVENTS, 'all']) {
        const xs = id === 'all' ? EVENTS.flatMap((e) => samples[v][e]) : samples[v][id];
        const threadMs = id === 'all' ? allMs(v) : typeMs(v, id);
        const ref = id === 'all' ? allMs('offtag') : typeMs('offtag', id);
        perEvent[v][id] = {
          threadMs: round(threadMs),
          // "all": per round, the four bursts together, as `allMs` (a median over the 36 samples of four types would be a type's figure).
          rawThreadMs: round(
            id === 'all'
              ? median(Array.from({ length: plan.samples }, (_, r) => EVENTS.reduce((t, e) => t + samples[v][e][r].threadMs, 0) / EVENTS.length))
              : median(xs.map((s) => s.threadMs)),
          ),
          taskMs: round(median(xs.map((s) => s.taskMs))),
          // The page renderer's whole process per event (every thread; /proc), not idle-corrected: "all" per round, the four bursts together.
          ...Object.fromEntries(
            (['rendererMs', 'workerMs', 'senderMs'] as const).map((k) => [
              k,
              round(id === 'all' ? median(Array.from({ length: plan.samples }, (_, r) => EVENTS.reduce((t, e) => t + (samples[v][e][r][k] ?? NaN), 0) / EVENTS.length)) : median(xs.map((s) => s[k] ?? NaN))),
            ]),
          ),
          eventsPerSec: round(median(xs.map((s) => s.eventsPerSec)), 0),
          ...(v === 'offtag' ? { bridgeMs: round(median(xs.map((s) => s.bridgeMs ?? NaN))) } : {}),
          ratio: round(threadMs / ref, 2),
        };
      }
    }
    const floorMs = median(floorA);
    const floorBMs = median(floorB);
    const floorRMs = median(floorR);
    results.perEvent = perEvent;
    results.idleMsPerSec = Object.fromEntries(VARIANTS.map((v) => [v, round(idleOfV[v].msPerSec, 2)]));
    results.idleFixedMs = Object.fromEntries(VARIANTS.map((v) => [v, round(idleOfV[v].fixedMs, 2)]));
    results.floor = {
      threadMs: round(floorMs),
      bThreadMs: round(floorBMs),
      offtagMultiple: round(allMs('offtag') / floorMs, 1),
      // The goal: Page View and Element Interactions each ≤ 1.5 × floor (b).
      vsB: Object.fromEntries([...EVENTS, 'all'].map((id) => [id, round((id === 'all' ? allMs('offtag') : typeMs('offtag', id)) / floorBMs, 2)])),
      // Floor (r): floor (a) + the beacon's request from a same-origin SharedWorker, which Chromium charges the page's main thread.
      rThreadMs: round(floorRMs),
      vsR: Object.fromEntries([...EVENTS, 'all'].map((id) => [id, round((id === 'all' ? allMs('offtag') : typeMs('offtag', id)) / floorRMs, 2)])),
    };
    log(`  floor (a) ${round(floorMs)} ms, floor (b) ${round(floorBMs)} ms, floor (r) ${round(floorRMs)} ms; Offtag × floor (b): ${JSON.stringify((results.floor as { vsB: unknown }).vsB)}`);
    results.consoleMessages = Object.fromEntries(VARIANTS.map((v) => [v, pages[v].consoleMessages]));

    // ---- 1b. per event on a phone: the same pages under CPU throttling, fewer rounds ---------------
    // Method A′ (`taskSamples`): main-thread task CPU from a trace, minus an event-less window as
    // long; the CDP ThreadTime delta of the same windows, the earlier method, is kept beside it
    // (`rawThreadMs`): the throttler's spin, idle or busy, is in it (docs/bench.md, "Per event on a phone").
    // Also at 1×: the same method unthrottled, beside section 1's ThreadTime (what the tasks leave out: the main thread's wake-ups between them).
    const throttled: Record<string, unknown> = {};
    for (const rate of [1, ...plan.rates]) {
      log(`per-event cost at ${rate}× CPU throttling (main-thread tasks)…`);
      const xs: Record<string, Record<string, Array<{ taskMs: number; threadMs: number; rendererMs: number }>>> = {};
      const nT = (v: Variant) => (v === 'alloy' ? Math.max(1, Math.round((plan.throttledN * plan.alloyN) / plan.n)) : plan.throttledN);
      // Only the page being sampled is throttled: Chromium's throttler spins a throttled main
      // thread even when it is idle, so five throttled pages would spin more than a core of this
      // 2-core machine between them and slow every other variant's sample.
      for (let r = 0; r < plan.throttledSamples; r++)
        for (const v of VARIANTS) {
          await pages[v].cdp.send('Emulation.setCPUThrottlingRate', { rate });
          const got = await taskSamples(world, pages[v], EVENTS, nT(v), rate);
          await pages[v].cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
          for (const id of EVENTS) ((xs[v] ??= {})[id] ??= []).push(got[id]!);
        }
      const of = (v: Variant, id: string, k: 'taskMs' | 'threadMs' | 'rendererMs') =>
        id === 'all' ? EVENTS.reduce((a, e) => a + median(xs[v][e].map((x) => x[k])), 0) / EVENTS.length : median(xs[v][id].map((x) => x[k]));
      throttled[rate] = Object.fromEntries(
        VARIANTS.map((v) => [
          v,
          Object.fromEntries(
            [...EVENTS, 'all'].map((id) => [
              id,
              {
                threadMs: round(of(v, id, 'taskMs')),
                ratio: round(of(v, id, 'taskMs') / of('offtag', id, 'taskMs'), 2),
                rawThreadMs: round(of(v, id, 'threadMs')),
                rawRatio: round(of(v, id, 'threadMs') / of('offtag', id, 'threadMs'), 2),
                rendererMs: round(of(v, id, 'rendererMs')),
                method: 'tasks',
              },
            ]),
          ),
        ]),
      );
    }
    results.perEventThrottled = throttled;

    // ---- single events (method B) -------------------------------------------------------------
    log('single events (method B, trace)…');
    const single: Record<string, unknown> = {};
    for (const v of VARIANTS) {
      const t = await singleEvents(world, pages[v], plan.singleReps);
      single[v] = { noopMs: round(t.noopMs), ...Object.fromEntries(EVENTS.map((id) => [id, round(t.perEvent[id])])) };
    }
    results.single = single;
    for (const v of VARIANTS) await pages[v].close();

    // ---- 2. page load (bench/load/load.ts) ------------------------------------------------------------
    // Every variant, and the load floors (setup.ts FLOOR_LABEL): floor (d) is what the load goals are against.
    const cases = [...variantCases(LOAD_VARIANTS), ...floorCases()];
    const loadCdpByRate: Record<string, LoadFigures> = {};
    const loadRates = [1, ...(plan.throttledLoadAndInp ? plan.rates : [])];
    for (const rate of loadRates) {
      log(`page load, ${rate}× CPU throttling (CDP)…`);
      loadCdpByRate[rate] = await loadCdp(world, cases, rate === 1 ? plan.loads : plan.throttledLoads, rate, (m) => log(`  ${m}`), rate === 1 ? plan.loadPasses : 1);
    }
    log('page load without DevTools (/proc)…');
    const proc = await loadProc(world, cases, plan.procLoads, (m) => log(`  ${m}`));
    const r1 = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([v, x]) => [v, round(x, 1)]));
    const figures = (f: LoadFigures) => ({
      noneMs: round(f.none, 1),
      rendererNoneMs: round(f.rendererNone, 1),
      overNone: r1(f.overNone),
      // The page renderer's whole process (its worker and sender threads too), beside its main thread (docs/bench.md, "Page load").
      rendererOverNone: r1(f.rendererOverNone),
      toLoadOverNone: r1(f.toLoadOverNone),
      ci: Object.fromEntries(Object.entries(f.ci).map(([v, c]) => [v, { main: c.main.map((x) => round(x, 1)), renderer: c.renderer.map((x) => round(x, 1)) }])),
      samples: Object.fromEntries(Object.entries(f.samples).map(([v, xs]) => [v, xs.map((x) => round(x.threadMs, 1))])),
      rendererSamples: Object.fromEntries(Object.entries(f.samples).map(([v, xs]) => [v, xs.map((x) => round(x.rendererMs ?? NaN, 1))])),
      workerMs: Object.fromEntries(Object.entries(f.samples).map(([v, xs]) => [v, round(median(xs.map((x) => x.workerMs ?? NaN)), 1)])),
      senderMs: Object.fromEntries(Object.entries(f.samples).map(([v, xs]) => [v, round(median(xs.map((x) => x.senderMs ?? NaN)), 1)])),
    });
    results.load = {
      floor: FLOOR_D,
      cdp: Object.fromEntries(Object.entries(loadCdpByRate).map(([rate, f]) => [rate, figures(f)])),
      proc: {
        ...figures(proc),
        otherRenderersMs: r1(proc.otherMs),
      },
      longestTaskMs: Object.fromEntries(LOAD_VARIANTS.map((v) => [v, round(Math.max(0, ...loadCdpByRate[1].samples[v].map((x) => x.longestTaskMs)), 0)])),
      loadEventMs: Object.fromEntries(LOAD_VARIANTS.map((v) => [v, round(median(loadCdpByRate[1].samples[v].map((x) => x.loadEventMs)), 0)])),
    };
    results.bytes = {
      offtag: { mainThread: await sizeOf(`${DIST}/offtag.js`), worker: await sizeOf(`${DIST}/offtag-worker.js`) },
      'main-thread': { mainThread: await sizeOf(`${BUILD}/main-thread.js`) },
      turbine: { mainThread: await sizeOf(`${BUILD}/turbine.js`) },
      alloy: { mainThread: await sizeOf(`${BUILD}/alloy.js`) },
      ...(LEGACY_FILES
        ? {
            legacy: {
              // VisitorAPI.js and AppMeasurement.js as served, with the turbine bundle of the container.
              mainThread: [LEGACY_FILES['VisitorAPI.js'], LEGACY_FILES['AppMeasurement.js']].reduce(
                (a, text) => ({ raw: a.raw + Buffer.byteLength(text), gzip: a.gzip + gzipSync(text, { level: 9 }).length }),
                await sizeOf(`${BUILD}/legacy.js`),
              ),
            },
          }
        : {}),
    };

    // ---- 4a. data layer size ------------------------------------------------------------------
    log('data layer scaling…');
    results.dataLayer = await dataLayerScaling(world, plan.dataLayerSizes, plan.scalingSamples, (m) => log(`  ${m}`));

    // ---- 4b. container size -------------------------------------------------------------------
    log('container scaling…');
    const dlVariants: Variant[] = ['offtag', 'main-thread', 'turbine'];
    const container: Array<Record<string, unknown>> = [];
    for (const size of plan.containerSizes) {
      const ps = {} as Record<Variant, OpenPage>;
      for (const v of dlVariants) {
        ps[v] = await openPage(world, { variant: v, synthetic: size });
        await warm(world, ps[v], 1);
      }
      const idles: Record<string, Idle[]> = {};
      const xs: Record<string, Sample[]> = {};
      for (let r = 0; r < plan.scalingSamples; r++) {
        for (const v of dlVariants) {
          (idles[v] ??= []).push(await idleOf(ps[v]));
          (xs[v] ??= []).push(await sample(world, ps[v], EVENTS[0], plan.containerN));
        }
      }
      const rates = Object.fromEntries(dlVariants.map((v) => [v, medianIdle(idles[v])]));
      const row: Record<string, unknown> = { syntheticDataElements: size.dataElements, syntheticRules: size.rules };
      for (const v of dlVariants) {
        row[v] = { threadMs: round(median(xs[v].map((s) => idleCorrected(s, rates[v], plan.containerN)))), eventsPerSec: round(median(xs[v].map((s) => s.eventsPerSec)), 0) };
      }
      container.push(row);
      for (const v of dlVariants) await ps[v].close();
      log(`  ${size.dataElements} data elements / ${size.rules} rules done`);
    }
    results.container = container;

    // ---- 4c + 5. latency, paced events, long tasks -----------------------------------------------
    log('latency and long tasks (paced events)…');
    const paced: Record<string, unknown> = {};
    for (const v of VARIANTS) {
      const r = await latencyRun(world, { variant: v }, plan.paced.n, plan.paced.gapMs);
      paced[v] = { ...r, latencyMedianMs: round(r.latencyMedianMs, 1), latencyP95Ms: round(r.latencyP95Ms, 1), longestTaskMs: round(r.longestTaskMs, 1), longestFrameMs: round(r.longestFrameMs, 1) };
    }
    results.paced = paced;

    // ---- 6. INP on a small React page -------------------------------------------------------------
    log('INP (React page, Event Timing)…');
    const inpByRate: Record<string, Record<string, unknown>> = {};
    for (const rate of loadRates) {
      const inp: Record<string, unknown> = (inpByRate[rate] = {});
      for (const v of VARIANTS) {
        const x = await inpRun(world, v, plan.inpClicks, rate);
        inp[v] = { ...x, durationMedianMs: round(x.durationMedianMs, 0), durationP98Ms: round(x.durationP98Ms, 0), durationMaxMs: round(x.durationMaxMs, 0), handlerMedianMs: round(x.handlerMedianMs, 3) };
      }
    }
    // `inp`: the 4× figures, as the bench always reported it; `inpByRate`: every rate.
    results.inp = inpByRate[4] ?? inpByRate[1];
    results.inpByRate = inpByRate;
  } finally {
    await world.close();
  }

  const meta = {
    date: new Date().toISOString(),
    quick: plan.quick,
    machine: {
      nproc: Number(execFileSync('nproc', { encoding: 'utf8' }).trim()),
      cpu: cpus()[0]?.model ?? 'unknown',
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      chromium: chromiumVersion(),
      node: process.version,
    },
    plan,
    durationSec: Math.round((Date.now() - started) / 1000),
    loadAverage: `${loadAtStart} → ${loadavg()[0]!.toFixed(1)}`,
  };
  // Which variant the "legacy" figures and goals are against (setup.ts LEGACY).
  const out = { meta, legacy: LEGACY, ...results };
  const outDir = `${ROOT}bench/results${plan.quick ? '/quick' : ''}`;
  await mkdir(outDir, { recursive: true });
  const markdown = renderMarkdown(out as never);
  await writeFile(`${outDir}/latest.json`, JSON.stringify(out, null, 2) + '\n');
  await writeFile(`${outDir}/latest.md`, markdown);
  await writeFile(`${outDir}/chart.svg`, renderChart(out as never));
  // The README's headline comes from the same run (a full one only).
  if (!plan.quick) await writeHeadline(renderHeadline(out as never));
  return { outDir, markdown };
}

/** Writes the bench results as markdown (tables + what they mean) and a hand-made SVG chart. */
import { mkdir, writeFile } from 'node:fs/promises';
import { EVENTS } from './measure.ts';
import { FLOOR_LABEL, VARIANT_LABEL, type Floor, type Variant } from './setup.ts';

type Num = number | null;
/** The throttled per-event figures are main-thread task CPU (`taskSamples`), not the CDP ThreadTime with the throttler's spin. */
const throttledByTasks = (r: Results) => Object.values(r.perEventThrottled ?? {}).some((byV) => Object.values(byV).some((byId) => Object.values(byId).some((x) => x?.method === 'tasks')));
/** A throttled per-event figure and its ratio to Offtag, by the run's method (older results: ThreadTime, not idle-corrected). */
const throttledRow = (r: Results, rate: string, v: Variant, id: string): { threadMs: Num; ratio: Num } => {
  const x = r.perEventThrottled?.[rate]?.[v]?.[id];
  return x?.method === 'tasks' ? { threadMs: x.threadMs, ratio: x.ratio } : { threadMs: x?.rawThreadMs ?? null, ratio: x?.rawRatio ?? null };
};
interface Cell {
  threadMs: Num;
  rawThreadMs: Num;
  taskMs: Num;
  eventsPerSec: Num;
  bridgeMs?: Num;
  ratio: Num;
  /** The page renderer's whole process per event (every thread), and Offtag's worker and sender threads of it (absent before these were measured). */
  rendererMs?: Num;
  workerMs?: Num;
  senderMs?: Num;
}
export interface Results {
  meta: {
    date: string;
    quick: boolean;
    machine: { nproc: number; cpu: string; memoryGiB: number; chromium: string; node: string };
    plan: {
      n: number;
      samples: number;
      alloyN: number;
      singleReps: number;
      loads: number;
      loadPasses?: number;
      throttledLoads?: number;
      procLoads?: number;
      containerN: number;
      paced: { n: number; gapMs: number };
      throttledSamples?: number;
      throttledN?: number;
    };
    durationSec: number;
    /** The 1-minute load average at the run's start and end (a shared machine's figures are read with it). */
    loadAverage?: string;
  };
  perEvent: Record<Variant, Record<string, Cell>>;
  /** The variant the legacy figures and goals are against: `legacy` (AppMeasurement + VisitorAPI) when the bench had them, else `turbine` standing in. */
  legacy?: Variant;
  floor: { threadMs: Num; bThreadMs?: Num; offtagMultiple: Num; vsB?: Record<string, Num>; rThreadMs?: Num; vsR?: Record<string, Num> };
  inp?: Record<Variant, { clicks: number; durationMedianMs: Num; durationP98Ms: Num; durationMaxMs: Num; handlerMedianMs: Num; reported: number }>;
  idleMsPerSec: Record<Variant, Num>;
  /** The measurement's own cost per sample (two `getMetrics` calls), subtracted once per sample. */
  idleFixedMs?: Record<Variant, Num>;
  consoleMessages: Record<Variant, number>;
  single: Record<Variant, Record<string, Num>>;
  load: LoadResults;
  /** Per event under CPU throttling, by rate. */
  /**
   * Per event under CPU throttling, by rate. `method: 'tasks'`: `threadMs` is main-thread task CPU
   * from a trace (`taskSamples` in measure.ts) and `rawThreadMs` the CDP ThreadTime of the same
   * windows; results written before it have only the ThreadTime figures, read as `rawThreadMs`.
   */
  perEventThrottled?: Record<string, Record<Variant, Record<string, { threadMs: Num; ratio: Num; rawThreadMs?: Num; rawRatio?: Num; rendererMs?: Num; method?: 'tasks' }>>>;
  inpByRate?: Record<string, Record<Variant, { clicks: number; durationMedianMs: Num; durationP98Ms: Num; durationMaxMs: Num; handlerMedianMs: Num; reported: number }>>;
  bytes: Record<Variant, { mainThread: { raw: number; gzip: number }; worker?: { raw: number; gzip: number } }>;
  dataLayer: Array<{ bytes: number; eventsPerSample: number; offtag: Num; 'main-thread': Num; turbine: Num; floor: Num }>;
  container: Array<{ syntheticDataElements: number; syntheticRules: number } & Record<'offtag' | 'main-thread' | 'turbine', { threadMs: Num; eventsPerSec: Num }>>;
  paced: Record<Variant, { events: number; latencyMedianMs: Num; latencyP95Ms: Num; longTasks: number; longestTaskMs: Num; longFrames: number; longestFrameMs: Num; blamed: string[] }>;
}

/** Section 2 (bench/load/load.ts): over no tag, median of per-round differences, by method. */
interface LoadFiguresJson {
  noneMs: Num;
  rendererNoneMs?: Num;
  overNone: Record<string, Num>;
  rendererOverNone?: Record<string, Num>;
  toLoadOverNone: Record<string, Num>;
  /** Bootstrap 95% intervals of the two medians over no tag. */
  ci?: Record<string, { main: Num[]; renderer: Num[] }>;
  samples: Record<string, Num[]>;
  workerMs?: Record<string, Num>;
  senderMs?: Record<string, Num>;
}
export interface LoadResults {
  /** The load floor the goals are against (bench/load/load.ts FLOOR_D), when the run had the floors. */
  floor?: string;
  /** CDP ThreadTime, by CPU throttling rate. */
  cdp: Record<string, LoadFiguresJson>;
  /** Without DevTools: Chromium by hand, the page renderer's main thread from /proc. */
  proc: LoadFiguresJson & { otherRenderersMs: Record<string, Num>; rendererOverNone?: Record<string, Num> };
  longestTaskMs: Record<string, Num>;
  loadEventMs: Record<string, Num>;
}

const ms = (x: Num, d = 3) => (x === null ? '—' : x.toFixed(d));
const times = (x: Num) => (x === null ? '—' : x >= 10 ? `${x.toFixed(0)}×` : `${x.toFixed(1)}×`);
const kb = (b: number) => (b >= 1e6 ? `${(b / 1e6).toFixed(0)} MB` : `${(b / 1e3).toFixed(0)} KB`);
const mean = (xs: Num[]) => {
  const ys = xs.filter((x): x is number => x !== null);
  return ys.length ? ys.reduce((a, b) => a + b, 0) / ys.length : NaN;
};

/** The variants of a run, in the bench's order (a results file says which it had). */
const variantsOf = (r: Results): Variant[] => (['offtag', 'main-thread', 'turbine', 'alloy', 'legacy'] as Variant[]).filter((v) => r.perEvent[v]);
const FLOOR_D_NAME = 'floor:post';
const plus = (x: Num | undefined) => (x === null || x === undefined || !Number.isFinite(x) ? '—' : `${x >= 0 ? '+' : ''}${x.toFixed(1)}`);
const ci = (x: Num[] | undefined) => (x && x[0] != null && x[1] != null ? ` {${x[0].toFixed(1)}–${x[1].toFixed(1)}}` : '');
const div = (a: Num | undefined, b: Num | undefined): Num => (a == null || b == null || !b ? null : a / b);
/** A ratio goal: unresolved (null) when either side is not above zero (a difference to no tag within the noise). */
const ratioMet = (a: Num | undefined, b: Num | undefined, ok: (x: number) => boolean): boolean | null => (a == null || b == null || a <= 0 || b <= 0 ? null : ok(a / b));

export interface Goal {
  figure: string;
  value: string;
  goal: string;
  met: boolean | null;
}

/**
 * The issue's goals, from one run: load (main thread ≤ 1.5 × floor (d); whole renderer ≤ the
 * legacy stack's), per event (Page View and Element Interactions ≥ 25× less main-thread time than
 * the legacy stack, ≤ 0.3× its renderer CPU), each at 1×, 4× and 6×, and offtag.js's size.
 */
export function goals(r: Results): Goal[] {
  const legacy = r.legacy ?? 'turbine';
  const out: Goal[] = [];
  const cdp = r.load.cdp ?? {};
  for (const rate of Object.keys(cdp)) {
    const f = cdp[rate]!;
    const fd = f.overNone[FLOOR_D_NAME] ?? null;
    const main = div(f.overNone.offtag ?? null, fd);
    if (fd !== null) out.push({ figure: `load, main thread ÷ floor (d), ${rate}× (CDP)`, value: `${plus(f.overNone.offtag)} / ${plus(fd)} ms = ${times(main)}`, goal: '≤ 1.5×', met: ratioMet(f.overNone.offtag, fd, (x) => x <= 1.5) });
    const ren = div(f.rendererOverNone?.offtag ?? null, f.rendererOverNone?.[legacy] ?? null);
    if (f.rendererOverNone) out.push({ figure: `load, whole renderer ÷ ${legacy}'s, ${rate}× (CDP)`, value: `${plus(f.rendererOverNone.offtag)} / ${plus(f.rendererOverNone[legacy])} ms = ${times(ren)}`, goal: '≤ 1×', met: ratioMet(f.rendererOverNone.offtag, f.rendererOverNone[legacy], (x) => x <= 1) });
  }
  const p = r.load.proc;
  if (p?.rendererOverNone) {
    const main = div(p.overNone.offtag ?? null, p.overNone[FLOOR_D_NAME] ?? null);
    if (main !== null) out.push({ figure: 'load, main thread ÷ floor (d), without DevTools', value: `${plus(p.overNone.offtag)} / ${plus(p.overNone[FLOOR_D_NAME])} ms = ${times(main)}`, goal: '≤ 1.5×', met: ratioMet(p.overNone.offtag, p.overNone[FLOOR_D_NAME], (x) => x <= 1.5) });
    const ren = div(p.rendererOverNone.offtag ?? null, p.rendererOverNone[legacy] ?? null);
    out.push({ figure: `load, whole renderer ÷ ${legacy}'s, without DevTools`, value: `${plus(p.rendererOverNone.offtag)} / ${plus(p.rendererOverNone[legacy])} ms = ${times(ren)}`, goal: '≤ 1×', met: ratioMet(p.rendererOverNone.offtag, p.rendererOverNone[legacy], (x) => x <= 1) });
  }
  for (const id of ['Page View', 'Element Interactions']) {
    const rates: Array<[string, (v: Variant) => { main: Num; renderer: Num }]> = [
      ['1', (v) => ({ main: r.perEvent[v]?.[id]?.threadMs ?? null, renderer: r.perEvent[v]?.[id]?.rendererMs ?? null })],
      ...Object.keys(r.perEventThrottled ?? {}).filter((rate) => rate !== '1').map((rate): [string, (v: Variant) => { main: Num; renderer: Num }] => [
        rate,
        (v) => ({ main: throttledRow(r, rate, v, id).threadMs, renderer: r.perEventThrottled![rate]?.[v]?.[id]?.rendererMs ?? null }),
      ]),
    ];
    for (const [rate, at] of rates) {
      const o = at('offtag');
      const l = at(legacy);
      const less = div(l.main, o.main);
      out.push({ figure: `per event, ${id}: ${legacy}'s main thread ÷ Offtag's, ${rate}×`, value: `${ms(l.main)} / ${ms(o.main)} ms = ${times(less)}`, goal: '≥ 25×', met: ratioMet(l.main, o.main, (x) => x >= 25) });
      const ren = div(o.renderer, l.renderer);
      if (o.renderer !== null) out.push({ figure: `per event, ${id}: Offtag's whole renderer ÷ ${legacy}'s, ${rate}×`, value: `${ms(o.renderer)} / ${ms(l.renderer)} ms = ${times(ren)}`, goal: '≤ 0.3×', met: ratioMet(o.renderer, l.renderer, (x) => x <= 0.3) });
    }
  }
  const gz = r.bytes.offtag?.mainThread.gzip;
  if (gz) out.push({ figure: 'offtag.js, gzip -9', value: `${gz} B`, goal: '≤ 3072 B', met: gz <= 3072 });
  return out;
}

const legacyNote = (r: Results) =>
  (r.legacy ?? 'turbine') === 'legacy'
    ? 'The legacy stack is Adobe\'s real AppMeasurement.js 2.27.0 and VisitorAPI.js 5.5.0 under turbine with the storefront container (bench/variants/legacy.ts).'
    : 'This run had no AppMeasurement repository (OFFTAG_APPMEASUREMENT_REPO): the legacy figures are the turbine variant\'s, whose beacons are Offtag\'s own code on the main thread (a stand-in lighter than the real libraries).';

/** The README's headline (bench/run.mjs writes it between its markers after a full run): main thread and whole renderer side by side. */
export function renderHeadline(r: Results): string {
  const m = r.meta;
  const legacy = r.legacy ?? 'turbine';
  const L: string[] = [];
  const load = r.load.cdp?.['1'];
  const vs = variantsOf(r);
  // No date here: the README carries no dated runs (tests/unit/docs/house.test.ts); latest.md has the run's date.
  L.push(`From one run (\`npm run bench\`, ${m.durationSec} s, ${m.machine.nproc} cores${m.loadAverage ? `, load average ${m.loadAverage}` : ''}, headless ${m.machine.chromium.replace(/ built on.*$/, '')}; bench/results/latest.md). ${legacyNote(r)}`);
  L.push('');
  L.push(`| main thread \\| whole renderer (ms) | Offtag | ${vs.filter((v) => v !== 'offtag').map((v) => VARIANT_LABEL[v]).join(' | ')} |`);
  L.push(`|---|---:|${vs.filter((v) => v !== 'offtag').map(() => '---:').join('|')}|`);
  const pair = (a: Num | undefined, b: Num | undefined, d = 3) => `${a == null ? '—' : a.toFixed(d)} \\| ${b == null ? '—' : b.toFixed(d)}`;
  for (const id of ['Page View', 'Element Interactions', 'all']) {
    L.push(`| per event, ${id === 'all' ? 'all four' : id} | ${vs.map((v) => pair(r.perEvent[v][id]?.threadMs, r.perEvent[v][id]?.rendererMs)).join(' | ')} |`);
  }
  if (load) {
    L.push(`| page load over no tag, CDP (median of ${m.plan.loads} × ${m.plan.loadPasses ?? 1}) | ${vs.map((v) => `${plus(load.overNone[v])} \\| ${plus(load.rendererOverNone?.[v])}`).join(' | ')} |`);
    const fd = load.overNone[FLOOR_D_NAME];
    if (fd != null) L.push(`| the same, floor (d): \`new Worker\` + one 2 KB \`postMessage\` | ${plus(fd)} \\| ${plus(load.rendererOverNone?.[FLOOR_D_NAME])} | ${vs.filter((v) => v !== 'offtag').map(() => '').join(' | ')} |`);
  }
  const p = r.load.proc;
  if (p) L.push(`| page load over no tag, without DevTools (median of ${m.plan.procLoads ?? m.plan.loads}) | ${vs.map((v) => `${plus(p.overNone[v])} \\| ${plus(p.rendererOverNone?.[v])}`).join(' | ')} |`);
  L.push('');
  L.push(
    `Goals, ${legacy === 'legacy' ? 'against the real AppMeasurement + VisitorAPI stack' : 'against turbine standing in for the legacy stack'} (—: a difference within the noise; the throttled loads' ratios are unresolved whichever way they fall, their single loads spreading by hundreds of ms):`,
  );
  L.push('');
  L.push('| goal | this run | |');
  L.push('|---|---:|---|');
  for (const g of goals(r)) L.push(`| ${g.figure} ${g.goal} | ${g.value} | ${g.met === null ? '—' : g.met ? 'met' : '**not met**'} |`);
  return L.join('\n');
}

export function renderMarkdown(r: Results): string {
  const m = r.meta;
  const VARIANTS = variantsOf(r);
  const L: string[] = [];
  L.push(`# Offtag bench: main-thread cost side by side${m.quick ? ' (QUICK smoke run: figures not meaningful)' : ''}`);
  L.push('');
  L.push(`| run | |`);
  L.push(`|---|---|`);
  L.push(`| date | ${m.date.replace('T', ' ').slice(0, 16)} UTC |`);
  L.push(`| machine | ${m.machine.nproc} cores (\`nproc\`), ${m.machine.cpu}, ${m.machine.memoryGiB} GiB, ${m.machine.chromium}, headless, Node ${m.machine.node} |`);
  L.push(
    `| method | CDP \`Performance.getMetrics\` ThreadTime delta over a burst of ${m.plan.n} events of one type fired from one page task (alloy: ${m.plan.alloyN}), until every beacon reached the collector, minus the measurement's own cost (an empty window) and the page's idle CPU over the same wall time; one round fires the four types (${4 * m.plan.n} events, the "all four" row); median of ${m.plan.samples} rounds, variants interleaved round by round. Single events: Chrome trace, \`RunTask\` thread time between \`performance.mark\`s, median of ${m.plan.singleReps}, minus the empty-window floor |`,
  );
  L.push(`| command | \`npm run bench\` (${m.durationSec} s) |`);
  if (m.loadAverage) L.push(`| load average (start → end) | ${m.loadAverage} |`);
  L.push('');
  L.push('![main-thread CPU per event](chart.svg)');
  L.push('');
  L.push(`## Goals, from this run`);
  L.push('');
  L.push(
    `${legacyNote(r)} Load: section 2's CDP figures (and without DevTools); per event: section 1 (throttled: the phone table's, ${throttledByTasks(r) ? 'main-thread task CPU from a trace' : 'not idle-corrected'}). Under 4× and 6× throttling a load's main thread spreads by hundreds of ms (the throttler spins it) over ${m.plan.throttledLoads ?? m.plan.loads} rounds: read those load ratios as unresolved, whichever way they fall.`,
  );
  L.push('');
  L.push('| figure | this run | goal | |');
  L.push('|---|---:|---|---|');
  for (const g of goals(r)) L.push(`| ${g.figure} | ${g.value} | ${g.goal} | ${g.met === null ? '—' : g.met ? 'met' : '**not met**'} |`);
  L.push('');
  L.push('## 1. Main-thread CPU per event (ms), and × Offtag');
  L.push('');
  L.push(`| event | ${VARIANTS.map((v) => VARIANT_LABEL[v]).join(' | ')} |`);
  L.push(`|---|${VARIANTS.map(() => '---:').join('|')}|`);
  for (const id of [...EVENTS, 'all']) {
    L.push(`| ${id === 'all' ? '**all four**' : id} | ${VARIANTS.map((v) => `${ms(r.perEvent[v][id].threadMs)}${v === 'offtag' ? '' : ` (${times(r.perEvent[v][id].ratio)})`}`).join(' | ')} |`);
  }
  L.push(`| not idle-corrected, all four | ${VARIANTS.map((v) => ms(r.perEvent[v].all.rawThreadMs)).join(' | ')} |`);
  L.push(`| single event, trace (median, ms) | ${VARIANTS.map((v) => ms(mean(EVENTS.map((id) => r.single[v][id])))).join(' | ')} |`);
  L.push(`| beacons per second, burst of ${m.plan.n} Page Views | ${VARIANTS.map((v) => String(r.perEvent[v][EVENTS[0]].eventsPerSec ?? '—')).join(' | ')} |`);
  L.push('');
  if (r.perEvent.offtag.all.rendererMs != null) {
    L.push(
      `**The page renderer's whole process per event** (ms; every thread of it, from \`/proc/<pid>/task/*/schedstat\` over the same samples: the main thread, Offtag's worker and sender, Chromium's IO and compositor threads; not idle-corrected), and × Offtag:`,
    );
    L.push('');
    L.push(`| event | ${VARIANTS.map((v) => VARIANT_LABEL[v]).join(' | ')} |`);
    L.push(`|---|${VARIANTS.map(() => '---:').join('|')}|`);
    for (const id of [...EVENTS, 'all']) {
      const o = r.perEvent.offtag[id].rendererMs ?? null;
      L.push(
        `| ${id === 'all' ? '**all four**' : id} | ${VARIANTS.map((v) => `${ms(r.perEvent[v][id].rendererMs ?? null)}${v === 'offtag' ? ` (worker ${ms(r.perEvent.offtag[id].workerMs ?? null)}, sender ${ms(r.perEvent.offtag[id].senderMs ?? null)})` : ` (${times(div(r.perEvent[v][id].rendererMs ?? null, o))})`}`).join(' | ')} |`,
      );
    }
    L.push('');
  }
  L.push(
    (r.idleFixedMs ? `Subtracted above, per sample: the measurement's own cost (two \`getMetrics\` calls over an empty window) ${VARIANTS.map((v) => `${VARIANT_LABEL[v]} ${ms(r.idleFixedMs![v], 2)}`).join(', ')} ms, and each page's idle main-thread CPU over the sample's wall time: ` : `Idle main-thread CPU of each page (subtracted above): `) +
    `${VARIANTS.map((v) => `${VARIANT_LABEL[v]} ${ms(r.idleMsPerSec[v], 1)}`).join(', ')} ms per second. ` +
      `Offtag's bridge timed itself at ${ms(mean(EVENTS.map((id) => r.perEvent.offtag[id].bridgeMs ?? null)))} ms per event (snapshot + post + applying the effect batch; \`offtag.metrics()\`). ` +
      `The physical floor (read \`document.cookie\`, the two sessionStorage keys, post the data layer to a worker) is ${ms(r.floor.threadMs)} ms: Offtag's per-event cost is **${times(r.floor.offtagMultiple)}** the floor.`,
  );
  if (r.floor.vsB && r.floor.bThreadMs != null) {
    L.push('');
    L.push(
      `**Against the physical floor** (docs/bench.md): floor (a) = read \`document.cookie\` and the two sessionStorage keys, post them with a 2 KB data layer to an idle worker: **${ms(r.floor.threadMs)} ms**; floor (b) = floor (a) + 6 cookie writes of ~65 bytes + one small message back: **${ms(r.floor.bThreadMs)} ms** per event. Goal: Page View and Element Interactions each ≤ 1.5 × floor (b).`,
    );
    L.push('');
    const vsR = r.floor.vsR;
    L.push(`| event | Offtag (ms) | × floor (b) | goal ≤ 1.5× |${vsR ? ' × floor (r) |' : ''}`);
    L.push(`|---|---:|---:|---|${vsR ? '---:|' : ''}`);
    for (const id of [...EVENTS, 'all']) {
      const x = r.floor.vsB[id] ?? null;
      L.push(`| ${id === 'all' ? '**all four**' : id} | ${ms(r.perEvent.offtag[id].threadMs)} | ${times(x)} | ${x === null ? '—' : x <= 1.5 ? 'met' : 'not met'} |${vsR ? ` ${times(vsR[id] ?? null)} |` : ''}`);
    }
    if (vsR && r.floor.rThreadMs != null) {
      const lv = r.legacy ?? 'turbine';
      const legacy = r.perEvent[lv];
      const rMs = r.floor.rThreadMs;
      const best = legacy ? ['Page View', 'Element Interactions'].map((id) => `${id} ${times(legacy[id]?.threadMs != null && rMs ? legacy[id].threadMs! / rMs : null)}`).join(', ') : '';
      L.push('');
      L.push(
        `Floor (r) = floor (a) + the event's beacon request, made from a same-origin SharedWorker as Offtag's sender makes it: **${ms(r.floor.rThreadMs)} ms** per event. The page makes no request, yet Chromium charges its main thread one task per request made in its renderer process; no worker design that sends a beacon per event pays less.${best ? ` ${VARIANT_LABEL[lv]}'s main thread ÷ floor (r), the most any such design can be cheaper than it: ${best} (the goal asks ≥ 25×).` : ''}`,
      );
    }
  }
  if (r.inp) {
    L.push('');
    L.push(
      '**INP on a small React page** (a product card; its button\'s click handler updates React state and calls `_satellite.track(\'Element Interactions\')`; Playwright clicks it, 4× CPU throttling as a mid-range phone; Event Timing `duration` of the click, click to next paint, which Chrome rounds to 8 ms and reports from 16 ms; the handler\'s own time by `performance.now()` around the whole handler):',
    );
    L.push('');
    L.push('| variant | clicks | Event Timing duration, median / p98 / max (ms) | entries ≥ 16 ms | click handler, median (ms) |');
    L.push('|---|---:|---:|---:|---:|');
    for (const v of VARIANTS) {
      const x = r.inp[v];
      if (x) L.push(`| ${VARIANT_LABEL[v]} | ${x.clicks} | ${ms(x.durationMedianMs, 0)} / ${ms(x.durationP98Ms, 0)} / ${ms(x.durationMaxMs, 0)} | ${x.reported} | ${ms(x.handlerMedianMs, 2)} |`);
    }
  }
  L.push('');
  if (r.perEventThrottled && r.inpByRate) {
    L.push('## Phone figures: per event, load and the click, at 1×, 4× and 6× CPU throttling');
    L.push('');
    L.push(
      `4× is a mid-range phone, 6× a low-end one (Chrome's \`Emulation.setCPUThrottlingRate\` on this server CPU). Per event: ${throttledByTasks(r) ? 'the section 1 bursts' : 'the section 1 method'} on the same pages, ${m.plan.throttledSamples ?? '—'} rounds of ${m.plan.throttledN ?? '—'} events per type when throttled (fewer than unthrottled: wider spread). Load: section 2's CDP figure, over no tag. Click: the INP page's click handler, median. ${
        throttledByTasks(r)
          ? "Throttled per-event figures are the CPU of the page's main-thread tasks (`RunTask` thread time in a Chrome trace over the same bursts), minus a window without events as long as the bursts: Chrome's throttler spins the main thread whether it works or idles, so the CDP ThreadTime delta of a burst charges each page the spin over its wall time (longer for a page whose worker delivers the beacons) and its idle correction zeroes figures. The spin while idle falls outside tasks; the stall inside a task, the emulated slower CPU, is in it. The row \"1×, tasks\" is the same method unthrottled: against section 1's 1× row it shows what tasks leave out (the main thread's CPU between them: wake-ups, the message pump), a larger share of Offtag's figure than of a page that works in one long task, so compare the throttled rows with it, not with the 1× row. The rows \"ThreadTime, spin included\" are the CDP figure of the same windows (the earlier method), for comparison."
          : "Throttled per-event figures are ThreadTime per event *not* idle-corrected (under throttling the page's idle CPU is the throttler's own spin, and subtracting it zeroed most figures)."
      }`,
    );
    L.push('');
    L.push(`| figure | rate | ${VARIANTS.map((v) => VARIANT_LABEL[v]).join(' | ')} |`);
    L.push(`|---|---:|${VARIANTS.map(() => '---:|').join('')}`);
    // Rate '1' of the throttled figures: the task method unthrottled, a row of its own beside section 1's.
    const allRates = ['1', ...Object.keys(r.perEventThrottled)];
    const rateLabel = (rate: string, i: number) => (i > 0 && rate === '1' ? '1×, tasks' : `${rate}×`);
    for (const id of ['Page View', 'Element Interactions', 'all']) {
      for (const [i, rate] of allRates.entries()) {
        const row = (v: Variant) => (i === 0 ? r.perEvent[v][id] : throttledRow(r, rate, v, id));
        L.push(
          `| per event, ${id === 'all' ? 'all four' : id} (ms) | ${rateLabel(rate, i)} | ${VARIANTS.map((v) => `${ms(row(v)?.threadMs ?? null)}${v === 'offtag' ? '' : ` (${times(row(v)?.ratio ?? null)})`}`).join(' | ')} |`,
        );
      }
      // The earlier method on the same windows, for comparison.
      if (throttledByTasks(r))
        for (const rate of Object.keys(r.perEventThrottled).filter((rate) => rate !== '1')) {
          const x = (v: Variant) => r.perEventThrottled![rate]?.[v]?.[id];
          L.push(
            `| per event, ${id === 'all' ? 'all four' : id}, ThreadTime, spin included (ms) | ${rate}× | ${VARIANTS.map((v) => `${ms(x(v)?.rawThreadMs ?? null)}${v === 'offtag' ? '' : ` (${times(x(v)?.rawRatio ?? null)})`}`).join(' | ')} |`,
          );
        }
    }
    for (const rate of Object.keys(r.load.cdp)) {
      const o = r.load.cdp[rate].overNone.offtag;
      L.push(`| load, over no tag (ms) | ${rate}× | ${VARIANTS.map((v) => `${ms(r.load.cdp[rate].overNone[v], 1)}${v === 'offtag' || !o ? '' : ` (${times((r.load.cdp[rate].overNone[v] ?? NaN) / o)})`}`).join(' | ')} |`);
    }
    for (const rate of Object.keys(r.inpByRate)) {
      const o = r.inpByRate[rate].offtag?.handlerMedianMs;
      L.push(`| click handler, median (ms) | ${rate}× | ${VARIANTS.map((v) => `${ms(r.inpByRate![rate][v]?.handlerMedianMs ?? null, 2)}${v === 'offtag' || !o ? '' : ` (${times((r.inpByRate![rate][v]?.handlerMedianMs ?? NaN) / o)})`}`).join(' | ')} |`);
    }
    for (const rate of Object.keys(r.inpByRate))
      L.push(`| INP: click to next paint, median / p98 (ms) | ${rate}× | ${VARIANTS.map((v) => `${ms(r.inpByRate![rate][v]?.durationMedianMs ?? null, 0)} / ${ms(r.inpByRate![rate][v]?.durationP98Ms ?? null, 0)}`).join(' | ')} |`);
    L.push('');
  }
  L.push('## 2. Page load (navigation to window load + 1 s): main thread and whole renderer');
  L.push('');
  const ld = r.load;
  const rates = Object.keys(ld.cdp);
  const one = ld.cdp['1'];
  L.push(
    `A product page that fires one Page View right after the tag (the no-tag page fires nothing); a fresh browser context per load (a first visit); the figure is the median of the per-round differences to the no-tag page, with its bootstrap 95% interval in braces (bench/load/load.ts). **CDP** (DevTools attached): \`Performance.getMetrics\` ThreadTime from a same-origin blank page to load + 1 s, ${m.plan.loads} rounds × ${m.plan.loadPasses ?? 1}, each loading every page in an order that rotates round by round; beside it the page renderer's whole process from \`/proc/<pid>/task/*/schedstat\` over the same window (every thread: Offtag's worker and sender are threads of the page's renderer); under \`Emulation.setCPUThrottlingRate\` 4× and 6× (the phone columns), ${m.plan.throttledLoads ?? m.plan.loads} rounds (throttling spins the main thread, so its CPU grows with the rate). **Without DevTools**: Chromium started by hand, a new browser and profile per load, ${m.plan.procLoads ?? m.plan.loads} rounds; the page renderer's main thread and whole process from /proc, read when the page fetches a marker URL 1 s after its load event. The floors (setup.ts \`FLOOR_LABEL\`) are pages with a script of offtag.js's size that does nothing, then \`new Worker\` of an empty file, then one 2 KB \`postMessage\` to it: what any tag that moves its work to a worker pays at least. The ID-sync iframe is on another site than the page (\`*.demdex.net\`, as on a real site).`,
  );
  L.push('');
  if (one) {
    const fd = one.overNone[FLOOR_D_NAME] ?? null;
    const fdr = one.rendererOverNone?.[FLOOR_D_NAME] ?? null;
    const pages: Array<[string, string]> = [
      ...(['script', 'worker', 'post'] as Floor[]).map((f): [string, string] => [`floor:${f}`, FLOOR_LABEL[f]]),
      ...VARIANTS.map((v): [string, string] => [v, VARIANT_LABEL[v]]),
    ].filter(([k]) => one.overNone[k] !== undefined);
    L.push(`| page | main thread, CDP 1× (ms) | × floor (d) | whole renderer, CDP 1× (ms) | × floor (d) | main thread \\| renderer, without DevTools (ms) | ${rates.filter((x) => x !== '1').map((x) => `main thread \\| renderer, CDP ${x}× (ms)`).join(' | ')} | main-thread script (raw / gzip) |`);
    L.push(`|---|---:|---:|---:|---:|---:|${rates.filter((x) => x !== '1').map(() => '---:|').join('')}---:|`);
    L.push(
      `| ${VARIANT_LABEL.none} (absolute) | ${ms(one.noneMs, 1)} | — | ${ms(one.rendererNoneMs ?? null, 1)} | — | ${ms(ld.proc.noneMs, 1)} \\| ${ms(ld.proc.rendererNoneMs ?? null, 1)} | ${rates.filter((x) => x !== '1').map((x) => `${ms(ld.cdp[x].noneMs, 1)} \\| ${ms(ld.cdp[x].rendererNoneMs ?? null, 1)}`).join(' | ')} | — |`,
    );
    for (const [k, label] of pages) {
      const b = r.bytes[k as Variant];
      const worker = b?.worker ? ` (+ worker ${(b.worker.raw / 1e3).toFixed(0)} KB / ${(b.worker.gzip / 1e3).toFixed(1)} KB gzip, off the main thread)` : '';
      const offtagWorker = k === 'offtag' ? `; its worker thread ${ms(one.workerMs?.offtag ?? null, 1)}, sender ${ms(one.senderMs?.offtag ?? null, 1)}` : '';
      L.push(
        `| ${k === 'offtag' ? `**${label}**` : label} | ${plus(one.overNone[k])}${ci(one.ci?.[k]?.main)} | ${k === FLOOR_D_NAME ? '1×' : times(div(one.overNone[k] ?? null, fd))} | ${plus(one.rendererOverNone?.[k])}${ci(one.ci?.[k]?.renderer)}${offtagWorker} | ${k === FLOOR_D_NAME ? '1×' : times(div(one.rendererOverNone?.[k] ?? null, fdr))} | ${plus(ld.proc.overNone[k])} \\| ${plus(ld.proc.rendererOverNone?.[k])} | ${rates.filter((x) => x !== '1').map((x) => `${plus(ld.cdp[x].overNone[k])} \\| ${plus(ld.cdp[x].rendererOverNone?.[k])}`).join(' | ')} | ${b ? `${(b.mainThread.raw / 1e3).toFixed(1)} KB / ${(b.mainThread.gzip / 1e3).toFixed(1)} KB${worker}` : '—'} |`,
      );
    }
    L.push('');
  }
  L.push(
    `Per-load figures without DevTools (ms, round by round): ${[...VARIANTS, FLOOR_D_NAME].map((v) => `${v} ${ld.proc.samples[v]?.map((x) => ms(x, 0)).join(' ') ?? '—'}`).join('; ')}; no tag ${ld.proc.samples.none?.map((x) => ms(x, 0)).join(' ')}. Longest task at load (ms, CDP, the \`longtask\` observer): ${VARIANTS.map((v) => `${v} ${ms(ld.longestTaskMs[v] ?? null, 0)}`).join(', ')}; load event (ms): ${VARIANTS.map((v) => `${v} ${ms(ld.loadEventMs[v] ?? null, 0)}`).join(', ')}. The other renderer processes (Chromium's spare renderer, the cross-site ID-sync iframe's), whole processes, median per load: ${Object.entries(ld.proc.otherRenderersMs).map(([v, x]) => `${v} ${ms(x, 1)}`).join(', ')} ms.`,
  );
  L.push('');
  L.push('## 3. Scaling');
  L.push('');
  L.push('Data layer size (Page View, main-thread ms per event):');
  L.push('');
  L.push('| data layer | Offtag | same engine, main thread | turbine | floor (read + post) |');
  L.push('|---:|---:|---:|---:|---:|');
  for (const row of r.dataLayer) L.push(`| ${kb(row.bytes)} | ${ms(row.offtag)} | ${ms(row['main-thread'])} | ${ms(row.turbine)} | ${ms(row.floor)} |`);
  L.push('');
  L.push('Container size (the storefront plus synthetic data elements and rules; Page View, ms per event on the main thread, and beacons per second in a burst):');
  L.push('');
  L.push('| + data elements / rules | Offtag (bridge) | Offtag beacons/s (worker) | same engine, main thread | turbine |');
  L.push('|---:|---:|---:|---:|---:|');
  for (const row of r.container) {
    L.push(
      `| ${row.syntheticDataElements} / ${row.syntheticRules} | ${ms(row.offtag.threadMs)} | ${row.offtag.eventsPerSec ?? '—'} | ${ms(row['main-thread'].threadMs)} (${row['main-thread'].eventsPerSec}/s) | ${ms(row.turbine.threadMs)} (${row.turbine.eventsPerSec}/s) |`,
    );
  }
  L.push('');
  L.push(`## 4. Latency and long tasks (fresh page: load, then ${m.plan.paced.n} Page Views one per task, ${m.plan.paced.gapMs} ms apart)`);
  L.push('');
  L.push('| variant | track → beacon at collector, median / p95 (ms) | long tasks > 50 ms | longest (ms) | long animation frames | blamed scripts |');
  L.push('|---|---:|---:|---:|---:|---|');
  for (const v of VARIANTS) {
    const p = r.paced[v];
    L.push(`| ${VARIANT_LABEL[v]} | ${ms(p.latencyMedianMs, 1)} / ${ms(p.latencyP95Ms, 1)} | ${p.longTasks} | ${ms(p.longestTaskMs, 0)} | ${p.longFrames} | ${[...new Set(p.blamed.map((b) => b.split(' ')[0]))].join(', ') || '—'} |`);
  }
  L.push('');
  L.push('## What the numbers mean');
  L.push('');
  L.push(explain(r));
  L.push('');
  L.push('Variants: **Offtag** is the built `dist/offtag.js` (its worker, `dist/offtag-worker.js`, runs the container). **Same engine, main thread** bundles the same `createEngine` + storefront + services + host with the bridge\'s `applyEffects` and `fetch`, no worker (`bench/variants/main-thread.ts`). **Adobe Tags runtime** is `@adobe/reactor-turbine` with minimal Core modules written in `bench/variants/turbine-container.ts`: turbine resolves the storefront\'s data elements and runs its rules; the custom code builds and sends the beacon with Offtag\'s own hit builders, visitor service and tracker on the main thread (stand-ins for VisitorAPI.js and AppMeasurement.js, so the beacon work is equal). **Adobe Web SDK** is `@adobe/alloy` `sendEvent` with a comparable XDM + analytics payload read from the data layer, answered by a routed local edge. **Legacy** (when the bench has Adobe\'s AppMeasurement repository, `OFFTAG_APPMEASUREMENT_REPO`) is the same turbine container with Adobe\'s real VisitorAPI.js 5.5.0 and AppMeasurement.js 2.27.0 on the page doing the visitor ids and the beacons (`bench/variants/legacy-services.ts`). Every variant sees the same page, data layer and consent cookie, and each beacon was checked to arrive.');
  L.push('');
  return L.join('\n');
}

function explain(r: Results): string {
  const s: string[] = [];
  const ratio = (v: Variant) => r.perEvent[v].all.ratio;
  const behind = (v: Variant) => EVENTS.filter((id) => (r.perEvent[v][id].ratio ?? Infinity) < 1);
  s.push(
    `Per event, over the four storefront events, Offtag costs the main thread ${ms(r.perEvent.offtag.all.threadMs)} ms; the same engine on the main thread costs ${times(ratio('main-thread'))} that, Adobe's tag runtime doing the same work ${times(ratio('turbine'))}, and the Web SDK ${times(ratio('alloy'))}.`,
  );
  for (const v of ['main-thread', 'turbine', 'alloy'] as Variant[]) {
    const b = behind(v);
    if (b.length) s.push(`**Not yet ahead:** ${VARIANT_LABEL[v]} is cheaper than Offtag on ${b.join(', ')}.`);
  }
  s.push(
    `Offtag's cost is what the bridge does on every event — reading \`document.cookie\` and the session keys, letting \`postMessage\` structured-clone the data layer, and applying the effect batch that comes back (cookies, sessionStorage, the values behind \`getVar\`). That is ${times(r.floor.offtagMultiple)} the bare floor of reading and posting; the rest is the snapshot object, the message dispatch and the returning batch.`,
  );
  const first = r.dataLayer[0];
  const last = r.dataLayer[r.dataLayer.length - 1];
  if (first && last && last !== first) {
    const flat = (last.offtag ?? Infinity) <= 1.2 * (first.offtag ?? 0);
    const dearer = (['main-thread', 'turbine'] as const).filter((v) => r.dataLayer.some((row) => (row.offtag ?? 0) > (row[v] ?? Infinity)));
    s.push(
      (flat
        ? `Offtag's cost stays flat in the data layer's size (${ms(first.offtag)} ms at ${kb(first.bytes)}, ${ms(last.offtag)} ms at ${kb(last.bytes)}): the bridge copies only the paths the container's data elements read (the read set), where posting the whole layer would cost ${ms(last.floor)} ms at ${kb(last.bytes)} before any other work. `
        : `**Not yet flat:** Offtag's cost grows with the data layer (${ms(first.offtag)} ms at ${kb(first.bytes)}, ${ms(last.offtag)} ms at ${kb(last.bytes)}, ${times((last.offtag ?? 0) / (first.offtag ?? 1))}; the goal is 1.2×). `) +
        `Turbine reads the data layer in place (${ms(first.turbine)} → ${ms(last.turbine)} ms)` +
        (dearer.length ? `; **at some size Offtag is dearer than ${dearer.join(' and ')}**.` : `; Offtag is cheaper than every other variant at every size.`),
    );
  }
  if (r.floor.vsB) {
    const miss = ['Page View', 'Element Interactions'].filter((id) => (r.floor.vsB?.[id] ?? Infinity) > 1.5);
    if (miss.length) {
      s.push(
        `**Not yet at the floor:** ${miss.map((id) => `${id} costs ${times(r.floor.vsB?.[id] ?? null)} floor (b)`).join(', ')} (goal 1.5×). What is left is the snapshot object, the message dispatch, the effect batch (its cookie writes and the \`getVar\` values) and what is left of each beacon request's cost to the page now that they leave from the SharedWorker sender (docs/delivery.md, "The sender"; docs/bench.md).`,
      );
    }
  }
  const c0 = r.container[0];
  const c1 = r.container[r.container.length - 1];
  if (c0 && c1 && c1 !== c0) {
    const grew = (c1.offtag.threadMs ?? 0) > 1.5 * (c0.offtag.threadMs ?? 0);
    s.push(
      (grew
        ? `**Not yet ahead of its own promise:** container size does reach Offtag's main thread (${ms(c0.offtag.threadMs)} → ${ms(c1.offtag.threadMs)} ms per event from +${c0.syntheticDataElements}/${c0.syntheticRules} to +${c1.syntheticDataElements}/${c1.syntheticRules} data elements/rules): the effect batches the page applies grow with the container. `
        : `Container size barely reaches the main thread with Offtag (${ms(c0.offtag.threadMs)} → ${ms(c1.offtag.threadMs)} ms per event from +${c0.syntheticDataElements}/${c0.syntheticRules} to +${c1.syntheticDataElements}/${c1.syntheticRules} data elements/rules). `) +
        `The worker pays the evaluation (${c0.offtag.eventsPerSec} → ${c1.offtag.eventsPerSec} beacons/s). On the main thread it is paid in full: the same engine goes ${ms(c0['main-thread'].threadMs)} → ${ms(c1['main-thread'].threadMs)} ms, turbine ${ms(c0.turbine.threadMs)} → ${ms(c1.turbine.threadMs)} ms.`,
    );
  }
  const lt = r.paced.offtag;
  s.push(
    `Long tasks: across page load and ${lt.events} paced events, Offtag's page had ${lt.longTasks} long task(s) over 50 ms (longest ${ms(lt.longestTaskMs, 0)} ms; an observer guard, not a meter: it sees nothing under 50 ms).` +
      ` The price of the worker is latency, not main-thread time: track → beacon takes ${ms(lt.latencyMedianMs, 1)} ms median (p95 ${ms(lt.latencyP95Ms, 1)}) against ${ms(r.paced['main-thread'].latencyMedianMs, 1)} ms for the same engine on the main thread; and its throughput in a burst is bounded by the worker (${r.perEvent.offtag[EVENTS[0]].eventsPerSec} beacons/s here).`,
  );
  const legacy = r.legacy ?? 'turbine';
  const one = r.load.cdp['1'];
  if (one) {
    const fd = one.overNone[FLOOR_D_NAME];
    s.push(
      `At load (CDP, with the page renderer's whole process beside it), Offtag adds ${plus(one.overNone.offtag)} ms of main thread over a page with no tag${fd != null ? ` (floor (d), a worker started and one message posted, ${plus(fd)} ms: ${times(div(one.overNone.offtag ?? null, fd))})` : ''} and ${plus(one.rendererOverNone?.offtag)} ms of renderer; ${VARIANT_LABEL[legacy]} ${plus(one.overNone[legacy])} and ${plus(one.rendererOverNone?.[legacy])} ms (${(r.bytes.offtag.mainThread.gzip / 1e3).toFixed(1)} KB gzip of Offtag on the main thread). Where the rest of Offtag's load goes, part by part, and what cannot go: docs/bench.md, "Page load". Single loads spread by ±10 ms or more on a shared 2-core machine: read the intervals.`,
    );
  }
  s.push(
    'Absolute milliseconds drift ±20–30 % between runs on these machines; the ratios, taken within one run with the variants interleaved, are the result. Headless Chromium on a server CPU: a mid-range phone is several times slower on every figure alike.',
  );
  return s.join(' ');
}

/** Grouped bars, one group per event, one bar per variant, log scale; plus the floor as a line. */
export function renderChart(r: Results): string {
  const W = 860;
  const H = 440;
  const left = 70;
  const right = 20;
  const top = 70;
  const bottom = 90;
  const plotW = W - left - right;
  const plotH = H - top - bottom;
  const colors: Record<Variant, string> = { offtag: '#1a9850', 'main-thread': '#4575b4', turbine: '#f46d43', alloy: '#a50026', legacy: '#7b3294' };
  const GROUPS = [...EVENTS, 'all'];
  const groupLabel = (id: string) => (id === 'all' ? 'All four' : id);
  const VARIANTS = variantsOf(r);
  const values = VARIANTS.flatMap((v) => GROUPS.map((id) => r.perEvent[v][id].threadMs ?? 0)).filter((x) => x > 0);
  const floor = r.floor.threadMs ?? 0;
  const lo = Math.pow(10, Math.floor(Math.log10(Math.min(...values, floor || Infinity))));
  const hi = Math.pow(10, Math.ceil(Math.log10(Math.max(...values))));
  const y = (x: number) => top + plotH - ((Math.log10(Math.max(x, lo)) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * plotH;
  const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const o: string[] = [];
  o.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`);
  o.push(`<rect width="${W}" height="${H}" fill="#fff"/>`);
  o.push(`<text x="${left}" y="24" font-size="16" font-weight="600">Main-thread CPU per storefront event (ms, log scale; lower is better)</text>`);
  o.push(
    `<text x="${left}" y="44" fill="#555">${esc(`${r.meta.date.slice(0, 10)} · ${r.meta.machine.nproc} cores · ${r.meta.machine.chromium.replace(/^(Chromium [\d.]+).*$/, '$1')} · median of ${r.meta.plan.samples} rounds × ${r.meta.plan.n} events per type${r.meta.quick ? ' · QUICK smoke run' : ''}`)}</text>`,
  );
  for (let e = Math.log10(lo); e <= Math.log10(hi) + 1e-9; e++) {
    const v = Math.pow(10, e);
    o.push(`<line x1="${left}" x2="${W - right}" y1="${y(v).toFixed(1)}" y2="${y(v).toFixed(1)}" stroke="#ddd"/>`);
    o.push(`<text x="${left - 8}" y="${(y(v) + 4).toFixed(1)}" text-anchor="end" fill="#555">${v >= 1 ? v.toFixed(0) : v.toString()}</text>`);
  }
  const groupW = plotW / GROUPS.length;
  const barW = (groupW * 0.8) / VARIANTS.length;
  GROUPS.forEach((id, gi) => {
    const gx = left + gi * groupW + groupW * 0.1;
    VARIANTS.forEach((v, vi) => {
      const val = r.perEvent[v][id].threadMs ?? 0;
      const x = gx + vi * barW;
      const yy = y(val);
      o.push(`<rect x="${x.toFixed(1)}" y="${yy.toFixed(1)}" width="${(barW - 3).toFixed(1)}" height="${(top + plotH - yy).toFixed(1)}" fill="${colors[v]}"><title>${esc(`${VARIANT_LABEL[v]}, ${id}: ${val.toFixed(3)} ms`)}</title></rect>`);
      const label = v === 'offtag' ? val.toFixed(3) : `${(r.perEvent[v][id].ratio ?? 0).toFixed((r.perEvent[v][id].ratio ?? 0) >= 10 ? 0 : 1)}×`;
      o.push(`<text x="${(x + (barW - 3) / 2).toFixed(1)}" y="${(yy - 4).toFixed(1)}" text-anchor="middle" font-size="10" fill="#222">${label}</text>`);
    });
    o.push(`<text x="${(left + gi * groupW + groupW / 2).toFixed(1)}" y="${top + plotH + 18}" text-anchor="middle" font-weight="600">${esc(groupLabel(id))}</text>`);
  });
  if (floor > 0) {
    o.push(`<line x1="${left}" x2="${W - right}" y1="${y(floor).toFixed(1)}" y2="${y(floor).toFixed(1)}" stroke="#000" stroke-dasharray="5 4"/>`);
    o.push(`<text x="${W - right - 4}" y="${(y(floor) - 4).toFixed(1)}" text-anchor="end" fill="#000" stroke="#fff" stroke-width="4" paint-order="stroke">physical floor (read cookie + session, post data layer): ${floor.toFixed(3)} ms</text>`);
  }
  o.push(`<line x1="${left}" x2="${W - right}" y1="${top + plotH}" y2="${top + plotH}" stroke="#333"/>`);
  let lx = left;
  VARIANTS.forEach((v) => {
    o.push(`<rect x="${lx}" y="${H - 44}" width="12" height="12" fill="${colors[v]}"/>`);
    o.push(`<text x="${lx + 18}" y="${H - 34}">${esc(VARIANT_LABEL[v])}</text>`);
    lx += 18 + VARIANT_LABEL[v].length * 6.6 + 24;
  });
  o.push(`<text x="${left}" y="${H - 12}" fill="#555">Bars above Offtag show × Offtag, measured in the same run. Source: bench/results/latest.json</text>`);
  o.push('</svg>');
  return o.join('\n') + '\n';
}

/** Writes `bench/results/<name>`, making the folder when it is missing (the runs of their own). */
export async function saveResult(name: string, text: string): Promise<void> {
  await mkdir(new URL('../results/', import.meta.url), { recursive: true });
  await writeFile(new URL(`../results/${name}`, import.meta.url), text);
}

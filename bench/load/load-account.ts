/**
 * Where a page load's main-thread time goes, by part (docs/bench.md "Page load"): the
 * bench's product page (one Page View right after the tag) for each variant, a fresh context per
 * load, a Chrome trace from navigation to load + 1 s, loads interleaved round by round. Every
 * task of the page renderer's main thread (`CrRendererMain`) is split by what ran in it:
 * - the scripts, by file (`EvaluateScript`, `FunctionCall`, `v8.compile`… by URL): offtag.js's
 *   first run (its evaluation: `start()`, with `new Worker` and the early snapshots) apart from its
 *   later calls (the worker's hello and the init message with the sender's creation, the effect
 *   batches, the load event's snapshot), offtag-effects.js (the cookie-domain probe on a first
 *   visit, the ID-sync iframe's insertion and messages, sync pixels);
 * - the ID-sync iframe's document (a task that parses or runs `dest5.html`): on this bench its
 *   origin is same-site with the page, so it runs on the page's main thread;
 * - garbage collection inside the tasks (`MinorGC`, `MajorGC`, `V8.GC_*`, Blink's; the trace's
 *   `disabled-by-default-v8.gc` category records them: a page task that allocates a few MB shows
 *   `MinorGC` and `V8.GC_SCAVENGER`);
 * - the rest: Chromium's own work for the page (parsing, style, layout, paint, IPC: messages,
 *   cookies, requests).
 * Prints, per part, the median over loads of each variant and its difference to no tag. Tracing
 * itself adds to every task (these light categories little: the total over no tag stays near
 * bench/load/load.ts's untraced figure), so read the parts beside `bench/load/load.ts`'s figures.
 * Run: `npx tsx bench/load/load-account.ts [--loads 7] [--variants none,offtag,turbine] [--repeat] [--detail]`
 * (`--repeat`: a returning visitor: the page loaded once before in the same context, so its
 * cookies, the cached cookie domain and the ID-sync records are there). dist/ and the variants
 * built (`npx tsx bench/load/load.ts` builds them). Never asserted.
 */
import { median, type TraceEvent } from '../lib/measure.ts';
import { startWorld, writeFloorFiles, type Floor, type Variant } from '../lib/setup.ts';
import { rotated } from './load.ts';

const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? d : process.argv[i + 1];
};
const loads = Number(arg('--loads', '7'));
/** Variants, and load floors as `floor:<floor>` (bench/load/load.ts `floorCases`). */
const variants = arg('--variants', 'none,offtag,turbine').split(',');
const pageOf = (v: string) => (v.startsWith('floor:') ? { variant: 'none' as const, floor: v.slice(6) as Floor } : { variant: v as Variant | 'none' });
const repeat = process.argv.includes('--repeat');
/** `--detail`: the rows split further (offtag.js's later calls by function, Chromium's own tasks by their largest event). */
const detail = process.argv.includes('--detail');

const JS = new Set(['EvaluateScript', 'FunctionCall', 'v8.compile', 'v8.compileModule', 'CompileScript', 'v8.run', 'TimerFire', 'FireIdleCallback', 'FireAnimationFrame']);
const GC = (n: string) => n === 'MinorGC' || n === 'MajorGC' || n.startsWith('V8.GC_') || n === 'BlinkGC.AtomicPhase' || n === 'CppGC.AtomicPhase';
const urlOf = (e: TraceEvent) => e.args?.data?.url || e.args?.data?.stackTrace?.[0]?.url || e.args?.beginData?.url || '';
const fileOf = (url: string) => (url.includes('dest5') ? 'ID-sync iframe document' : url.match(/\/(offtag[\w-]*\.js|[\w-]+\.js)(\?|$)/)?.[1] ?? '');

/** Main-thread CPU ms by part, for one trace. */
function account(trace: Buffer, pageUrl: string): Record<string, number> {
  const evs = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const mains = evs.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const main = mains.find((m) => evs.some((e) => e.pid === m.pid && e.tid === m.tid && e.name === 'ParseHTML' && urlOf(e).startsWith(pageUrl.slice(0, 30))));
  if (!main) throw new Error('no page main thread in the trace');
  const mine = evs.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  const tasks = mine.filter((e) => e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask');
  const out: Record<string, number> = { TOTAL: 0 };
  const add = (k: string, ms: number) => (out[k] = (out[k] ?? 0) + ms);
  let offtagRan = false;
  for (const t of tasks) {
    const ms = (t.tdur ?? 0) / 1000;
    out.TOTAL += ms;
    const end = t.ts + (t.dur ?? 0);
    const inside = mine.filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= end);
    // GC: the outermost GC events inside the task.
    const gcs = inside.filter((e) => GC(e.name));
    const gc = gcs.filter((g) => !gcs.some((o) => o !== g && o.ts <= g.ts && o.ts + (o.dur ?? 0) >= g.ts + (g.dur ?? 0) && (o.dur ?? 0) > (g.dur ?? 0)));
    const gcMs = gc.reduce((a, g) => a + (g.tdur ?? 0) / 1000, 0);
    add('garbage collection', gcMs);
    let rest = ms - gcMs;
    if (inside.some((e) => e.name === 'ParseHTML' && urlOf(e).includes('dest5')) || inside.some((e) => JS.has(e.name) && urlOf(e).includes('dest5'))) {
      add('ID-sync iframe document', rest);
      continue;
    }
    // Scripts: the outermost JS events, by file (their GC already counted).
    const js = inside.filter((e) => JS.has(e.name) && fileOf(urlOf(e)));
    const top = js.filter((j) => !js.some((o) => o !== j && o.ts <= j.ts && o.ts + (o.dur ?? 0) >= j.ts + (j.dur ?? 0) && (o.dur ?? 0) > (j.dur ?? 0)));
    for (const j of top) {
      let f = fileOf(urlOf(j));
      if (f === 'offtag.js') f = j.name === 'EvaluateScript' || !offtagRan ? 'offtag.js: first run (start(), new Worker, early snapshots)' : 'offtag.js: later calls (hello + init + sender, batches, load event)';
      const jgc = gc.filter((g) => g.ts >= j.ts && g.ts <= j.ts + (j.dur ?? 0)).reduce((a, g) => a + (g.tdur ?? 0) / 1000, 0);
      const x = Math.max(0, (j.tdur ?? 0) / 1000 - jgc);
      add(f, x);
      if (detail && f.includes('later')) {
        const d = (j.args?.data ?? {}) as { functionName?: string; columnNumber?: number };
        add(`  · ${j.name} ${d.functionName ?? ''}@${d.columnNumber ?? ''}`, x);
      }
      rest -= x;
      if (f.startsWith('offtag.js: first')) offtagRan ||= j.name === 'EvaluateScript';
    }
    add("Chromium's own (parse, style, layout, paint, IPC, requests)", Math.max(0, rest));
    if (detail && !top.length) {
      const kids = inside.filter((k) => !inside.some((o) => o !== k && o.ts <= k.ts && o.ts + (o.dur ?? 0) >= k.ts + (k.dur ?? 0) && (o.dur ?? 0) > (k.dur ?? 0)));
      const name = kids.sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0))[0]?.name ?? '(none)';
      add(`  · ${name}`, rest);
    }
  }
  return out;
}

await writeFloorFiles();
const world = await startWorld();
try {
  const by: Record<string, Record<string, number[]>> = {};
  for (let r = 0; r < loads; r++) {
    for (const v of rotated(variants, r)) {
      const ctx = await world.browser.newContext();
      const page = await ctx.newPage();
      const url = world.pageUrl({ ...pageOf(v), pageView: true, tail: `<script>addEventListener('load', () => setTimeout(() => { window.__done = 1 }, 1000));</script>` });
      if (repeat) {
        await page.goto(url, { waitUntil: 'load' });
        await page.waitForFunction(() => (window as unknown as { __done?: number }).__done === 1);
      }
      await page.goto(`${world.base}/blank`);
      await world.browser.startTracing(page, { categories: ['toplevel', 'devtools.timeline', 'v8.execute', 'disabled-by-default-v8.gc'] });
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForFunction(() => (window as unknown as { __done?: number }).__done === 1, undefined, { polling: 50 });
      const parts = account(await world.browser.stopTracing(), url);
      by[v] ??= {};
      for (const [k, x] of Object.entries(parts)) (by[v][k] ??= []).push(x);
      await ctx.close();
    }
    console.log(`round ${r + 1}/${loads}`);
  }
  const keys = [...new Set(Object.values(by).flatMap((x) => Object.keys(x)))].sort((a, b) => (a === 'TOTAL' ? 1 : b === 'TOTAL' ? -1 : a.localeCompare(b)));
  const m = (v: string, k: string) => median((by[v]?.[k] ?? []).concat(Array(Math.max(0, loads - (by[v]?.[k]?.length ?? 0))).fill(0)));
  console.log(`\nmain-thread CPU under tracing, median of ${loads} loads${repeat ? ' (returning visitor)' : ' (first visit)'}, ms (over no tag in brackets):`);
  console.log(`${'part'.padEnd(72)} ${variants.map((v) => v.padStart(16)).join(' ')}`);
  for (const k of keys)
    console.log(`${k.padEnd(72)} ${variants.map((v) => `${m(v, k).toFixed(1)}${v === 'none' ? '' : ` (${m(v, k) - m('none', k) >= 0 ? '+' : ''}${(m(v, k) - m('none', k)).toFixed(1)})`}`.padStart(16)).join(' ')}`);
} finally {
  await world.close();
}

/**
 * Where a variant's per-event main-thread time goes ("per event"): a Chrome trace over
 * bursts of `n` events of one type fired from one page task (the bench's section 1 sample:
 * `sample` in bench/lib/measure.ts), until every beacon reached the collector, + 60 ms. Every
 * `RunTask` on the page's main thread between two `performance.mark`s is attributed to what it
 * ran: the burst task (`_satellite.track` × n), message events (Offtag's effect batches and
 * acknowledgements), timers, GC, network completions (the main-thread variants' `fetch`), or the
 * task's posting site (`src_func`) when it ran no script. GC that runs inside a script task is also
 * summed apart. Thread time (`tdur`), ms per event, median over rounds, beside the trace's total and
 * a round with no events (`noop`: the same wait with nothing fired).
 * Run: `npx tsx bench/per-event/per-event-trace.ts [--n 250] [--rounds 3] [--variants offtag,turbine]
 * [--events 'Element Interactions,Page View'] [--dist <dir>]` (dist/ built; --dist serves another
 * offtag.js). DevTools tracing is attached: the figures are its attribution, not a measure without
 * DevTools (bench/per-event/floor-probe.ts without --cdp is). Never asserted.
 */
import { readFileSync } from 'node:fs';
import { arrived, median, openPage, topLevelTasks, warm, waitFor, type OpenPage, type TraceEvent } from '../lib/measure.ts';
import { buildVariants, startWorld, type Variant } from '../lib/setup.ts';

const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? d : process.argv[i + 1];
};
const N = Number(arg('--n', '250'));
const ROUNDS = Number(arg('--rounds', '3'));
const VARS = arg('--variants', 'offtag').split(',') as Variant[];
const EVS = arg('--events', 'Element Interactions,Page View').split(',');
const DIST_DIR = arg('--dist', '');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const GC = /^(MinorGC|MajorGC|V8\.GC|BlinkGC|ThreadState::|V8\.GCScavenger|V8\.GCFinalizeMC|V8\.GCIncrementalMarking)/;

/** A label for one task from its children. */
function label(task: TraceEvent, kids: TraceEvent[], base: string): string {
  const short = (u: unknown) => String(u ?? '').replace(base, '').replace(/\?.*/, '');
  for (const k of kids) {
    if (k.name === 'TimerFire') return 'timer (the burst task, or a page timer)';
    if (k.name === 'EventDispatch') return `event: ${k.args?.data?.type}`;
    if (k.name === 'ResourceReceiveResponse' || k.name === 'ResourceFinish' || k.name === 'ResourceReceivedData') return 'network: ' + k.name;
    if (k.name === 'FunctionCall') return `script: ${short(k.args?.data?.url)} ${k.args?.data?.functionName ?? ''}`.trim();
    if (k.name === 'RunMicrotasks') return 'microtasks';
  }
  if (kids.length && kids.every((k) => GC.test(k.name))) return 'GC';
  const inner = kids.find((k) => k.name === 'ThreadControllerImpl::RunTask' && k.args && Object.keys(k.args).length);
  if (process.env.PET_DEBUG && !task.args?.src_func) console.error(JSON.stringify(task.args), JSON.stringify(inner?.args), kids.map((k) => k.name + ':' + JSON.stringify(k.args ?? {}).slice(0, 200)).slice(0, 6));
  const names = [...new Set(kids.filter((k) => k.name !== 'RunTask').map((k) => k.name))].slice(0, 3).join(', ');
  // The posting site: the task's own, or (an outer `RunTask`) its inner task's.
  const at = task.args?.src_func ? task.args : (inner?.args ?? {});
  return `no script: ${at.src_file ? String(at.src_file).split('/').slice(-2).join('/') + ' ' : ''}${at.src_func ?? ''}${names ? ` [${names}]` : ''}`;
}

function attribute(events: TraceEvent[], base: string, windows: Array<{ key: string; id: string }>) {
  const marks = new Map<string, TraceEvent>();
  for (const e of events) if (e.name.startsWith('pet:') && (e.cat ?? '').includes('user_timing')) marks.set(e.name, e);
  const any = marks.values().next().value as TraceEvent;
  const main = events.filter((e) => e.pid === any.pid && e.tid === any.tid && e.ph === 'X').sort((a, b) => a.ts - b.ts);
  // Top-level tasks only: counting a nested `ThreadControllerImpl::RunTask` too counted such a task
  // twice (once as its own label, once as "no script").
  const tasks = topLevelTasks(events, any);
  const out: Array<{ id: string; parts: Record<string, number>; gcInside: number; total: number }> = [];
  for (const w of windows) {
    const s = marks.get(`pet:s:${w.key}`)!;
    const e = marks.get(`pet:e:${w.key}`)!;
    const parts: Record<string, number> = {};
    let gcInside = 0;
    let total = 0;
    for (const t of tasks) {
      if (t.ts < s.ts || t.ts + (t.dur ?? 0) > e.ts) continue;
      const kids = main.filter((k) => k !== t && k.ts >= t.ts && k.ts + (k.dur ?? 0) <= t.ts + (t.dur ?? 0) && k.name !== 'RunTask');
      const ms = (t.tdur ?? t.dur ?? 0) / 1000;
      const l = label(t, kids, base);
      parts[l] = (parts[l] ?? 0) + ms;
      total += ms;
      if (l !== 'GC') for (const k of kids) if (/^(MinorGC|MajorGC)$/.test(k.name)) gcInside += (k.tdur ?? k.dur ?? 0) / 1000;
    }
    out.push({ id: w.id, parts, gcInside, total });
  }
  return out;
}

const world = await startWorld();
try {
  if (VARS.some((v) => v !== 'offtag')) await buildVariants([]);
  const pages: Partial<Record<Variant, OpenPage>> = {};
  for (const v of VARS) {
    const p = await openPage(world, { variant: v });
    if (v === 'offtag' && DIST_DIR)
      await p.ctx.route('**/dist/*.js', (r) => r.fulfill({ contentType: 'text/javascript', body: readFileSync(`${DIST_DIR}/${new URL(r.request().url()).pathname.split('/').pop()}`, 'utf8') }));
    if (v === 'offtag' && DIST_DIR) await p.page.reload({ waitUntil: 'load' });
    await warm(world, p, v === 'alloy' ? 2 : 5);
    pages[v] = p;
  }
  const results: Record<string, Array<ReturnType<typeof attribute>[number]>> = {};
  /** The last burst's wall time: the noop window waits as long. */
  let lastWall = 800;
  for (let r = 0; r < ROUNDS; r++)
    for (const v of VARS) {
      const p = pages[v]!;
      await world.browser.startTracing(p.page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8', 'toplevel', 'disabled-by-default-v8.gc', 'blink_gc'],
      });
      const windows: Array<{ key: string; id: string }> = [];
      for (const id of [...EVS, 'noop']) {
        const key = `${r}-${v}-${windows.length}`;
        const c0 = arrived(world, v);
        await p.page.evaluate(
          ([id, n, key]) => {
            performance.mark(`pet:s:${key}`);
            setTimeout(() => {
              const s = (window as unknown as { _satellite: { track(id: string): void } })._satellite;
              if (id !== 'noop') for (let i = 0; i < (n as number); i++) s.track(id as string);
            }, 0);
          },
          [id, N, key] as const,
        );
        const t0 = Date.now();
        if (id !== 'noop') await waitFor(() => arrived(world, v) >= c0 + N, 120_000, `${N} beacons from ${v}`);
        else await sleep(lastWall);
        if (id !== 'noop') lastWall = Date.now() - t0;
        await sleep(60);
        await p.page.evaluate((key) => performance.mark(`pet:e:${key}`), key);
        windows.push({ key, id });
      }
      const buf = await world.browser.stopTracing();
      const trace = JSON.parse(buf.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
      for (const x of attribute(Array.isArray(trace) ? trace : trace.traceEvents, world.base, windows)) (results[`${v}|${x.id}`] ??= []).push(x);
    }
  for (const v of VARS)
    for (const id of [...EVS, 'noop']) {
      const xs = results[`${v}|${id}`];
      const per = id === 'noop' ? 1 : N;
      const keys = [...new Set(xs.flatMap((x) => Object.keys(x.parts)))];
      console.log(`${v}, ${id}${id === 'noop' ? ' (ms per window)' : ` (ms per event, n = ${N})`}: total ${(median(xs.map((x) => x.total)) / per).toFixed(4)}, of which GC inside script tasks ${(median(xs.map((x) => x.gcInside)) / per).toFixed(4)}`);
      for (const k of keys.sort((a, b) => median(xs.map((x) => x.parts[b] ?? 0)) - median(xs.map((x) => x.parts[a] ?? 0)))) {
        const m = median(xs.map((x) => x.parts[k] ?? 0)) / per;
        if (m > 0) console.log(`  ${m.toFixed(4).padStart(8)}  ${k}`);
      }
    }
  for (const p of Object.values(pages)) await p!.close();
} finally {
  await world.close();
}

/**
 * Page load (issue 26): what each variant costs the page's main thread from navigation to window
 * load + 1 s, on a product page that fires one Page View right after the tag (the no-tag page
 * fires nothing). A fresh browser context per load (a first visit), rounds interleaved: each round
 * loads every variant once, in an order that rotates round by round, so drift falls on every
 * variant alike. The figure per variant is the median over rounds of (variant − the same round's
 * no-tag load), and its ratio to Offtag's.
 *
 * Two methods, one function each:
 * - `loadCdp` (the bench's section 2): Playwright, CDP `Performance.getMetrics` ThreadTime from a
 *   same-origin blank page to load + 1 s, optionally under `Emulation.setCPUThrottlingRate` (the
 *   phone figures). DevTools is attached.
 * - `loadProc` (the check without DevTools): Chromium started by hand, a new browser and profile
 *   per load, no DevTools protocol, no Playwright; the renderer main thread's
 *   CPU read from `/proc/<pid>/task/<pid>/schedstat` (nanoseconds) when the page, 1 s after its
 *   load event, fetches `/done`. A renderer process starts for the page, so its main thread's CPU
 *   is navigation (and the renderer's own start, the same for every variant) to load + 1 s.
 *   Beside it, the whole renderer process (every thread: Offtag's worker and sender run there
 *   too, off the main thread). Linux only.
 * `loadCdp` also reads the page renderer's main thread from /proc around the same window as
 * ThreadTime (`procMs`): the two methods' figures for the same load, side by side.
 *
 * Run alone: `npx tsx bench/load.ts [--rounds 7] [--methods cdp,proc] [--throttle 1,4,6]
 * [--variants none,offtag,turbine] [--account] [--ablations <names>] [--no-build]` (`--account` adds `ABLATIONS`, `--ablations` the ones named; dist/ built: `npm run bench` builds them, or
 * `node tools/build.mjs` and a bench run). Never asserted (docs/bench.md).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { median, metrics, arrived, waitFor } from './measure.ts';
import { writeFileSync } from 'node:fs';
import { BUILD, buildVariants, startWorld, VARIANTS, type PageOptions, type Variant, type World } from './setup.ts';

export type LoadVariant = Variant | 'none';
export const LOAD_VARIANTS: LoadVariant[] = ['none', ...VARIANTS];
/** A page to load: a variant's bench page, or an ablation of Offtag's (the account, `ABLATIONS`). */
export interface LoadCase {
  name: string;
  page: PageOptions;
  /** A returning visitor: the same page loaded once before, in the same profile (its cookies, the cached cookie domain, the ID-sync records); compared with `none:returning`. */
  repeat?: boolean;
}
/** `idSyncOrigin: CROSS_SITE` in a case's config: the ID-sync iframe from the bench's ID service on another site (`localhost` against the page's `127.0.0.1`), as `*.demdex.net` is on a real site. */
export const CROSS_SITE = 'cross-site';
const urlFor = (world: World, c: LoadCase, tail: string) => {
  const idSyncOrigin = c.page.config?.idSyncOrigin === CROSS_SITE ? world.idService.url.replace('127.0.0.1', 'localhost') : undefined;
  return world.pageUrl({ pageView: true, ...c.page, ...(idSyncOrigin ? { config: { ...c.page.config, idSyncOrigin } } : {}), tail });
};
export const variantCases = (vs: LoadVariant[]): LoadCase[] => vs.map((v) => ({ name: v, page: { variant: v } }));

/**
 * Offtag's page with one part of its load taken away or changed, for the account of its load cost
 * (docs/bench.md, "Page load"): each differs from `offtag` by the part named.
 */
export const ABLATIONS: LoadCase[] = [
  // The cookie domain already cached (a repeat visit's): no offtag-effects.js fetch and probe at hello.
  { name: 'offtag:domain-cached', page: { variant: 'offtag', head: `localStorage['offtag:cd'] = '';` } },
  // No SharedWorker: the worker sends the beacons itself; no sender created.
  { name: 'offtag:no-sender', page: { variant: 'offtag', head: `delete window.SharedWorker;` } },
  // A worker that never says hello: offtag.js's run, the Worker's creation and the snapshots of Library Loaded and the Page View; no init, no batch, no iframe.
  { name: 'offtag:silent-worker', page: { variant: 'offtag', config: { workerUrl: '/build/silent-worker.js' } } },
  // No Page View at load.
  { name: 'offtag:no-page-view', page: { variant: 'offtag', pageView: false } },
  // The ID-sync iframe on another site than the page (as on a real site): its document runs in a renderer of its own (site isolation, desktop Chrome).
  { name: 'offtag:frame-cross-site', page: { variant: 'offtag', config: { idSyncOrigin: CROSS_SITE } } },
  { name: 'turbine:frame-cross-site', page: { variant: 'turbine', config: { idSyncOrigin: CROSS_SITE } } },
  // A returning visitor (the page loaded once before in the same profile), each against the no-tag page's second load.
  { name: 'none:returning', page: { variant: 'none' }, repeat: true },
  { name: 'offtag:returning', page: { variant: 'offtag' }, repeat: true },
  { name: 'turbine:returning', page: { variant: 'turbine' }, repeat: true },
];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** Round r's order: the variants rotated by r (the no-tag page moves through every position too). */
export const rotated = <T>(xs: T[], r: number) => xs.map((_, i) => xs[(i + r) % xs.length]);

/** The page's own signal: 1 s after its load event it calls `__loadDone()` (CDP) or fetches `/done` (proc). */
const TAIL = (done: string, atLoad = '') =>
  `<script>addEventListener('load', () => { ${atLoad}; setTimeout(() => { ${done} }, 1000); });</script>`;

export interface LoadSample {
  /** Main-thread CPU, navigation to load + 1 s (ms). */
  threadMs: number;
  /** `loadCdp` only: CDP TaskDuration, the wall time of the main thread's tasks (ms). */
  taskMs?: number;
  /** `loadProc` only: main-thread CPU from navigation to the load event (ms). */
  toLoadMs?: number;
  /** `loadProc` only: the page renderer's whole process, every live thread (ms): the main thread, the workers, compositor, IO… */
  rendererMs?: number;
  /** `loadProc` only: of it, the dedicated worker threads (Offtag's worker) and the SharedWorker threads (its sender) (ms). */
  workerMs?: number;
  senderMs?: number;
  /** `loadCdp` only: the page renderer's main thread from /proc over the same window as ThreadTime (ms): the cross-check of the two methods. */
  procMs?: number;
  loadEventMs: number;
  /** The longest `longtask` entry (ms, wall; 0: none). */
  longestTaskMs: number;
}

export interface LoadFigures {
  /** Per variant: the samples, round by round. */
  samples: Record<string, LoadSample[]>;
  /** Per variant: median of (variant − the round's no-tag), and the no-tag page's own median. */
  overNone: Record<string, number>;
  none: number;
  /** The same to the load event (`loadProc` only). */
  toLoadOverNone: Record<string, number>;
  /** The same for the page renderer's whole process (`loadProc` only) and for the /proc main thread beside ThreadTime (`loadCdp` only). */
  rendererOverNone: Record<string, number>;
  procOverNone: Record<string, number>;
}

export function summarize(samples: Record<string, LoadSample[]>): LoadFigures {
  const none = samples.none ?? [];
  const overNone: Record<string, number> = {};
  const toLoadOverNone: Record<string, number> = {};
  const rendererOverNone: Record<string, number> = {};
  const procOverNone: Record<string, number> = {};
  for (const [v, xs] of Object.entries(samples)) {
    if (v === 'none' || v === 'none:returning') continue;
    // A returning visitor's load against the no-tag page's returning load.
    const base = (v.endsWith(':returning') && samples['none:returning']) || none;
    const over = (ys: LoadSample[], k: keyof LoadSample) => median(ys.map((x, r) => ((x[k] as number | undefined) ?? NaN) - ((base[r]?.[k] as number | undefined) ?? NaN)));
    overNone[v] = median(xs.map((x, r) => x.threadMs - (base[r]?.threadMs ?? 0)));
    toLoadOverNone[v] = over(xs, 'toLoadMs');
    rendererOverNone[v] = over(xs, 'rendererMs');
    procOverNone[v] = over(xs, 'procMs');
  }
  return { samples, overNone, none: median(none.map((x) => x.threadMs)), toLoadOverNone, rendererOverNone, procOverNone };
}

/** One load with CDP attached: fresh context, blank page, ThreadTime to load + 1 s; the Page View's beacon must arrive. */
export async function loadOnceCdp(world: World, c: LoadCase, throttle = 1): Promise<LoadSample> {
  const v = c.page.variant;
  const ctx = await world.browser.newContext();
  try {
    const page = await ctx.newPage();
    page.on('pageerror', (e) => console.error(`[${c.name}] page error: ${e.message}`));
    await page.addInitScript({
      content: `globalThis.__name = (f) => f; window.__longest = 0; try { new PerformanceObserver((l) => { for (const e of l.getEntries()) __longest = Math.max(__longest, e.duration); }).observe({ type: 'longtask', buffered: true }); } catch {}`,
    });
    if (v === 'alloy')
      await page.route('https://edge.bench.test/**', (route) => {
        world.edgeHits.push(Date.now());
        return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ requestId: 'bench', handle: [] }) });
      });
    const url = urlFor(world, c, TAIL('window.__done = 1'));
    const before = v === 'none' ? 0 : arrived(world, v);
    if (c.repeat) {
      await page.goto(url, { waitUntil: 'load' });
      await page.waitForFunction(() => (window as unknown as { __done?: number }).__done === 1, undefined, { polling: 50, timeout: 30_000 });
      if (expectsBeacon(c)) await waitFor(() => arrived(world, v as Variant) >= before + 1, 30_000, `the first load's Page View from ${c.name}`);
    }
    await page.goto(`${world.base}/blank`);
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Performance.enable');
    if (throttle !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    const c0 = v === 'none' ? 0 : arrived(world, v);
    // Playwright's Chromium is this process's child: its renderers' /proc figures beside ThreadTime.
    const p0 = rendererCpu(process.pid);
    const m0 = await metrics(cdp);
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForFunction(() => (window as unknown as { __done?: number }).__done === 1, undefined, { polling: 50, timeout: 30_000 });
    const m1 = await metrics(cdp);
    const procMs = (pageRenderer(p0, rendererCpu(process.pid))?.[1].main ?? NaN) / 1e6;
    if (expectsBeacon(c)) await waitFor(() => arrived(world, v as Variant) >= c0 + 1, 30_000, `the load's Page View from ${c.name}`);
    if (throttle !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const { loadEventMs, longestTaskMs } = await page.evaluate(() => ({
      loadEventMs: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd,
      longestTaskMs: (window as unknown as { __longest: number }).__longest,
    }));
    // The blank page and the bench page share the renderer (same origin); a new one would have restarted the count.
    const d = (k: string) => (m1[k] - (m1[k] < m0[k] ? 0 : m0[k])) * 1000;
    return { threadMs: d('ThreadTime'), taskMs: d('TaskDuration'), procMs, loadEventMs, longestTaskMs };
  } finally {
    await ctx.close();
  }
}

/** A Page View fired and a worker that answers: its beacon must arrive before the load counts. */
const expectsBeacon = (c: LoadCase) => c.page.variant !== 'none' && c.page.pageView !== false && !c.page.config?.workerUrl;

export async function loadCdp(world: World, cases: LoadCase[], rounds: number, throttle = 1, log?: (m: string) => void): Promise<LoadFigures> {
  const samples: Record<string, LoadSample[]> = Object.fromEntries(cases.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const c of rotated(cases, r)) samples[c.name].push(await loadOnceCdp(world, c, throttle));
    log?.(`load ${throttle}x round ${r + 1}/${rounds}`);
  }
  return summarize(samples);
}

// ---- without DevTools: Chromium by hand, /proc ------------------------------------------------------

const PROFILE_TAG = 'offtag-load-';

/** The processes under `root` (the browser's zygotes and their children). */
export function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d)))
    try {
      const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
      parent.set(Number(pid), Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* ended */
    }
  const out = [root];
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, pp] of parent) if (out.includes(pp) && !out.includes(pid)) out.push(pid), (grew = true);
  }
  return out;
}

/**
 * One renderer process's CPU (ns), from `/proc/<pid>/task/<tid>/schedstat`: its main thread, the
 * whole process (every live thread), and the worker threads by name. The main thread is the one
 * whose tid is the pid: Chromium names its threads (`CrRendererMain`, `DedicatedWorker`,
 * `SharedWorker th…`, `Compositor`, `Chrome_ChildIOThread`, …) with prctl, but not the process's
 * first thread, which would rename the process; so the main thread's comm stays `chromium`, and a
 * Chrome trace of the same renderer (bench/load.ts `loadCdp`'s /proc figure beside ThreadTime) names
 * that tid `CrRendererMain`. `--no-sandbox` (chromium.ts): no PID namespace, so these are the
 * system's pids.
 */
export interface RendererCpu {
  main: number;
  all: number;
  /** `DedicatedWorker` threads: Offtag's worker (and any other dedicated worker of the page). */
  dedicated: number;
  /** `SharedWorker th…` threads: Offtag's sender, which Chromium runs in the page's own renderer when it can. */
  shared: number;
}

function cpuOf(pid: number): RendererCpu {
  const ns = (tid: string) => Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
  const out: RendererCpu = { main: ns(String(pid)), all: 0, dedicated: 0, shared: 0 };
  for (const tid of readdirSync(`/proc/${pid}/task`))
    try {
      const t = ns(tid);
      out.all += t;
      const comm = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8');
      if (comm.startsWith('DedicatedWorker')) out.dedicated += t;
      if (comm.startsWith('SharedWorker')) out.shared += t;
    } catch {
      /* the thread ended (its time is lost to the whole-process sum) */
    }
  return out;
}

/** The CPU of each of the browser's renderer processes (its page renderers, not headless Chromium's own WebUI one), by pid. */
export function rendererCpu(browser: number): Map<number, RendererCpu> {
  const out = new Map<number, RendererCpu>();
  for (const pid of descendants(browser)) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer') || cmd.includes('--top-chrome-webui')) continue;
      out.set(pid, cpuOf(pid));
    } catch {
      /* the process ended */
    }
  }
  return out;
}

/** The page's renderer: the one whose main thread ran longest between `a` and `b` (the others are Chromium's spare renderer and out-of-process frames). */
export function pageRenderer(a: Map<number, RendererCpu> | undefined, b: Map<number, RendererCpu>): [number, RendererCpu] | undefined {
  const zero: RendererCpu = { main: 0, all: 0, dedicated: 0, shared: 0 };
  const d = [...b].map(([pid, x]): [number, RendererCpu] => {
    const y = a?.get(pid) ?? zero;
    return [pid, { main: x.main - y.main, all: x.all - y.all, dedicated: x.dedicated - y.dedicated, shared: x.shared - y.shared }];
  });
  return d.sort((p, q) => q[1].main - p[1].main)[0];
}

/**
 * Loads without DevTools. Servers of its own (the bench's collector and ID service are reused from
 * `world` for the pages' setup); each load a new Chromium on a new profile, straight on the page.
 * The page's renderer is the one whose main thread ran longest; each sample has its main thread
 * (the figure) and its whole process (`rendererMs`: the page's dedicated worker and, as Chromium
 * runs it in the page's renderer when it can, the sender's SharedWorker are threads of it). The
 * other renderers (Chromium's spare one; an out-of-process frame) are reported apart as `otherMs`,
 * whole processes.
 */
export async function loadProc(world: World, cases: LoadCase[], rounds: number, log?: (m: string) => void): Promise<LoadFigures & { otherMs: Record<string, number> }> {
  let waiting: { browser: number; primed?: Map<number, RendererCpu>; atLoad?: Map<number, RendererCpu>; resolve(cpu: Map<number, RendererCpu>): void } | undefined;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    // A returning visitor's first load is over: the figure counts from here.
    if (url.pathname === '/primed') {
      if (waiting) waiting.primed = rendererCpu(waiting.browser);
      return void res.writeHead(204).end();
    }
    if (url.pathname === '/at-load') {
      if (waiting) waiting.atLoad = rendererCpu(waiting.browser);
      return void res.writeHead(204).end();
    }
    if (url.pathname === '/done') {
      const w = waiting;
      if (w) w.resolve(rendererCpu(w.browser));
      return void res.writeHead(204).end();
    }
    // Everything else from the bench's own server.
    const r = await fetch(world.base + req.url);
    res.writeHead(r.status, Object.fromEntries([...r.headers].filter(([k]) => !['content-encoding', 'content-length', 'transfer-encoding'].includes(k))));
    res.end(Buffer.from(await r.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const samples: Record<string, LoadSample[]> = Object.fromEntries(cases.map((c) => [c.name, []]));
  const others: Record<string, number[]> = Object.fromEntries(cases.map((c) => [c.name, []]));
  try {
    for (let r = 0; r < rounds; r++) {
      for (const c of rotated(cases, r)) {
        const v = c.page.variant;
        const profile = mkdtempSync(join(tmpdir(), PROFILE_TAG));
        const c0 = v === 'none' ? 0 : arrived(world, v);
        const url = urlFor(world, c, TAIL(`fetch('/done')`, `fetch('/at-load')`)).replace(world.base, base);
        // A returning visitor: the page once before, which then (1 s after its load) goes to the measured load.
        const first = c.repeat ? urlFor(world, c, TAIL(`fetch('/primed').then(() => { location.href = ${JSON.stringify(url)}; })`)).replace(world.base, base) : url;
        const chrome = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, '--headless=new', `--user-data-dir=${profile}`, first], { stdio: 'ignore', detached: true });
        const done = new Promise<Map<number, RendererCpu>>((resolve) => (waiting = { browser: chrome.pid!, resolve }));
        try {
          const ns = await Promise.race([done, sleep(60_000).then(() => Promise.reject(new Error(`load: no /done from ${v}`)))]);
          // (Alloy's edge is routed by Playwright only: without it its request fails, after the window.)
          if (expectsBeacon(c) && v !== 'alloy') await waitFor(() => arrived(world, v as Variant) >= c0 + (c.repeat ? 2 : 1), 30_000, `the load's Page View from ${c.name}`);
          const primed = waiting?.primed;
          const [pid, cpu] = pageRenderer(primed, ns) ?? [-1, { main: NaN, all: NaN, dedicated: NaN, shared: NaN }];
          const atLoad = (waiting?.atLoad?.get(pid)?.main ?? NaN) - (primed?.get(pid)?.main ?? 0);
          samples[c.name].push({
            threadMs: cpu.main / 1e6,
            toLoadMs: atLoad / 1e6,
            rendererMs: cpu.all / 1e6,
            workerMs: cpu.dedicated / 1e6,
            senderMs: cpu.shared / 1e6,
            loadEventMs: NaN,
            longestTaskMs: NaN,
          });
          // Where the sender ran: a SharedWorker thread in another renderer would show here.
          others[c.name].push([...ns].reduce((a, [p, x]) => a + (p === pid ? 0 : x.all - (primed?.get(p)?.all ?? 0)), 0) / 1e6);
        } finally {
          waiting = undefined;
          const exited = new Promise((res) => chrome.once('exit', res));
          process.kill(-chrome.pid!, 'SIGKILL');
          await exited;
          await sleep(200);
          rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
        }
      }
      log?.(`load (no DevTools) round ${r + 1}/${rounds}`);
    }
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
  return { ...summarize(samples), otherMs: Object.fromEntries(Object.entries(others).map(([v, xs]) => [v, median(xs)])) };
}

// ---- alone ------------------------------------------------------------------------------------------

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name: string, d: string) => {
    const i = process.argv.indexOf(name);
    return i < 0 ? d : process.argv[i + 1];
  };
  const rounds = Number(arg('--rounds', '7'));
  const methods = arg('--methods', 'cdp,proc').split(',');
  const throttles = arg('--throttle', '1').split(',').map(Number);
  const variants = arg('--variants', LOAD_VARIANTS.join(',')).split(',') as LoadVariant[];
  // `--ablations a,b`: only these of `ABLATIONS` (by name), e.g. `none:returning,offtag:returning,turbine:returning`.
  const only = arg('--ablations', '');
  const ablations = only ? ABLATIONS.filter((c) => only.split(',').includes(c.name)) : process.argv.includes('--account') ? ABLATIONS : [];
  const cases = [...variantCases(variants), ...ablations];
  if (!process.argv.includes('--no-build')) await buildVariants([]);
  writeFileSync(`${BUILD}/silent-worker.js`, '// says nothing (bench/load.ts ABLATIONS)\n');
  const world = await startWorld();
  const fx = (x: number | undefined, plus = true) => (x === undefined || !Number.isFinite(x) ? '—' : `${plus && x >= 0 ? '+' : ''}${x.toFixed(1)}`);
  /** A table per method: over no tag, median of per-round differences; "Offtag ÷" is Offtag's figure over this variant's (issue 26's goal: ≤ 0.10 against the legacy stack). */
  const show = (name: string, f: LoadFigures) => {
    const med = (v: string, k: keyof LoadSample) => median(f.samples[v].map((x) => (x[k] as number | undefined) ?? NaN));
    console.log(`\n${name}: no tag ${f.none.toFixed(1)} ms (main thread)${Number.isFinite(med('none', 'rendererMs')) ? `, ${med('none', 'rendererMs').toFixed(1)} ms (whole renderer)` : ''}; over no tag, median of per-round differences (ms):`);
    console.log(`  ${'page'.padEnd(22)} | main thread | Offtag ÷ | to load | whole renderer | Offtag ÷ | worker thr. | sender thr. | /proc main (CDP window) | raw main thread`);
    const o = f.overNone.offtag;
    const ro = f.rendererOverNone.offtag;
    for (const [v, x] of Object.entries(f.overNone).filter(([, y]) => Number.isFinite(y)))
      console.log(
        `  ${v.padEnd(22)} | ${fx(x).padStart(11)} | ${fx(o / x, false).padStart(8)} | ${fx(f.toLoadOverNone[v]).padStart(7)} | ${fx(f.rendererOverNone[v]).padStart(14)} | ${fx(ro / f.rendererOverNone[v], false).padStart(8)} | ${fx(med(v, 'workerMs'), false).padStart(11)} | ${fx(med(v, 'senderMs'), false).padStart(11)} | ${fx(f.procOverNone[v]).padStart(23)} | ${f.samples[v].map((y) => y.threadMs.toFixed(1)).join(' ')}`,
      );
    console.log(`  ${'none'.padEnd(22)} | raw ${f.samples.none.map((y) => y.threadMs.toFixed(1)).join(' ')}${Number.isFinite(med('none', 'procMs')) ? ` | /proc ${f.samples.none.map((y) => (y.procMs ?? NaN).toFixed(1)).join(' ')}` : ''}`);
  };
  try {
    if (methods.includes('proc')) {
      const f = await loadProc(world, cases, rounds, console.log);
      show('without DevTools (/proc schedstat, renderer main thread)', f);
      console.log('  other renderers (whole processes: the spare renderer, out-of-process frames), median ms:', JSON.stringify(f.otherMs));
    }
    if (methods.includes('cdp')) for (const t of throttles) show(`CDP ThreadTime, ${t}x CPU throttling`, await loadCdp(world, cases, rounds, t, console.log));
  } finally {
    await world.close();
  }
}

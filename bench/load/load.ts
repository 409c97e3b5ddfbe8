/**
 * Page load: what each variant costs the page's main thread from navigation to window
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
 * Run alone: `npx tsx bench/load/load.ts [--rounds 7] [--methods cdp,proc] [--throttle 1,4,6]
 * [--variants none,offtag,turbine] [--floors script,worker,post] [--dists name=dir,…] [--returning] [--account] [--ablations <names>] [--no-build]` (`--account` adds `ABLATIONS`, `--ablations` the ones named; dist/ built: `npm run bench` builds them, or
 * `node tools/build.mjs` and a bench run). Never asserted (docs/bench.md).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { bootstrapCi, median, metrics, arrived, waitFor } from '../lib/measure.ts';
import { writeFileSync } from 'node:fs';
import { pageRenderer, rendererCpu, type RendererCpu } from '../lib/proc.ts';
import { BUILD, buildVariants, FLOOR_LABEL, startWorld, VARIANTS, writeFloorFiles, type Floor, type PageOptions, type Variant, type World } from '../lib/setup.ts';

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

/** The load floors (setup.ts `FLOOR_LABEL`), named `floor:<floor>`: the no-tag page with a floor's script. */
export const FLOORS = Object.keys(FLOOR_LABEL) as Floor[];
export const floorCases = (fs: Floor[] = FLOORS): LoadCase[] => fs.map((f) => ({ name: `floor:${f}`, page: { variant: 'none', floor: f } }));
/** The floor the load goals are measured against: `new Worker` + one 2 KB `postMessage`. */
export const FLOOR_D = 'floor:post';

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
  // The worker file loaded by a wrapper with `importScripts` (the wrappers below' own cost), and the same wrapper with a worker
  // that never says hello (the worker script's fetch, compile and top-level run; no init), and with `indexedDB` taken away
  // (the queue on its in-memory store: what the durable store costs at load).
  { name: 'offtag:wrapped', page: { variant: 'offtag', config: { workerUrl: '/build/wrapped-worker.js' } } },
  { name: 'offtag:quiet-worker', page: { variant: 'offtag', config: { workerUrl: '/build/quiet-worker.js' } } },
  { name: 'offtag:no-idb', page: { variant: 'offtag', config: { workerUrl: '/build/noidb-worker.js' } } },
  // No Page View at load.
  { name: 'offtag:no-page-view', page: { variant: 'offtag', pageView: false } },
  // The ID-sync iframe on another site than the page (as on a real site): its document runs in a renderer of its own (site isolation, desktop Chrome).
  { name: 'offtag:frame-cross-site', page: { variant: 'offtag', config: { idSyncOrigin: CROSS_SITE } } },
  { name: 'turbine:frame-cross-site', page: { variant: 'turbine', config: { idSyncOrigin: CROSS_SITE } } },
  // The three above at once: the cookie domain cached, no sender, the ID-sync iframe on another site.
  { name: 'offtag:lean', page: { variant: 'offtag', head: `localStorage['offtag:cd'] = ''; delete window.SharedWorker;`, config: { idSyncOrigin: CROSS_SITE } } },
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
  /** The page renderer's whole process, every live thread (ms): the main thread, the workers, compositor, IO… (`loadCdp`: over the same window as ThreadTime). */
  rendererMs?: number;
  /** Of it, the dedicated worker threads (Offtag's worker) and the SharedWorker threads (its sender) (ms). */
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
  /** Bootstrap 95% intervals of the two medians over no tag (`bootstrapCi`): the main thread's and the whole renderer's. */
  ci: Record<string, { main: [number, number]; renderer: [number, number] }>;
  /** The no-tag page's whole renderer, median (ms). */
  rendererNone: number;
}

export function summarize(samples: Record<string, LoadSample[]>): LoadFigures {
  const none = samples.none ?? [];
  const overNone: Record<string, number> = {};
  const toLoadOverNone: Record<string, number> = {};
  const rendererOverNone: Record<string, number> = {};
  const procOverNone: Record<string, number> = {};
  const ci: LoadFigures['ci'] = {};
  for (const [v, xs] of Object.entries(samples)) {
    if (v === 'none' || v === 'none:returning') continue;
    // A returning visitor's load against the no-tag page's returning load.
    const base = (v.endsWith(':returning') && samples['none:returning']) || none;
    const diffs = (ys: LoadSample[], k: keyof LoadSample) => ys.map((x, r) => ((x[k] as number | undefined) ?? NaN) - ((base[r]?.[k] as number | undefined) ?? NaN));
    const over = (ys: LoadSample[], k: keyof LoadSample) => median(diffs(ys, k));
    overNone[v] = median(xs.map((x, r) => x.threadMs - (base[r]?.threadMs ?? 0)));
    toLoadOverNone[v] = over(xs, 'toLoadMs');
    rendererOverNone[v] = over(xs, 'rendererMs');
    procOverNone[v] = over(xs, 'procMs');
    ci[v] = { main: bootstrapCi(diffs(xs, 'threadMs')), renderer: bootstrapCi(diffs(xs, 'rendererMs')) };
  }
  return {
    samples,
    overNone,
    none: median(none.map((x) => x.threadMs)),
    toLoadOverNone,
    rendererOverNone,
    procOverNone,
    ci,
    rendererNone: median(none.map((x) => x.rendererMs ?? NaN)),
  };
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
    const proc = pageRenderer(p0, rendererCpu(process.pid))?.[1];
    if (expectsBeacon(c)) await waitFor(() => arrived(world, v as Variant) >= c0 + 1, 30_000, `the load's Page View from ${c.name}`);
    if (throttle !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const { loadEventMs, longestTaskMs } = await page.evaluate(() => ({
      loadEventMs: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd,
      longestTaskMs: (window as unknown as { __longest: number }).__longest,
    }));
    // The blank page and the bench page share the renderer (same origin); a new one would have restarted the count.
    const d = (k: string) => (m1[k] - (m1[k] < m0[k] ? 0 : m0[k])) * 1000;
    const ms = (k: keyof RendererCpu) => (proc?.[k] ?? NaN) / 1e6;
    return {
      threadMs: d('ThreadTime'),
      taskMs: d('TaskDuration'),
      procMs: ms('main'),
      rendererMs: ms('all'),
      workerMs: ms('dedicated'),
      senderMs: ms('shared'),
      loadEventMs,
      longestTaskMs,
    };
  } finally {
    await ctx.close();
  }
}

/** A Page View fired and a worker that answers: its beacon must arrive before the load counts. */
const expectsBeacon = (c: LoadCase) => c.page.variant !== 'none' && c.page.pageView !== false && !/silent|quiet/.test(String(c.page.config?.workerUrl ?? ''));

/** The ablations' worker files (`ABLATIONS`), in bench/.build/. */
export function writeAblationFiles(): void {
  const load = `importScripts('/dist/offtag-worker.js');\n`;
  writeFileSync(`${BUILD}/silent-worker.js`, '// says nothing (bench/load/load.ts ABLATIONS)\n');
  writeFileSync(`${BUILD}/wrapped-worker.js`, load);
  writeFileSync(`${BUILD}/quiet-worker.js`, `self.postMessage = function () {};\n${load}`);
  writeFileSync(`${BUILD}/noidb-worker.js`, `Object.defineProperty(self, 'indexedDB', { value: undefined, configurable: true });\n${load}`);
}

/** `passes`: each round loads every case that many times, the order rotated by the round and every second pass backwards. */
export async function loadCdp(world: World, cases: LoadCase[], rounds: number, throttle = 1, log?: (m: string) => void, passes = 1): Promise<LoadFigures> {
  const samples: Record<string, LoadSample[]> = Object.fromEntries(cases.map((c) => [c.name, []]));
  for (let r = 0; r < rounds; r++) {
    for (let pass = 0; pass < passes; pass++) {
      const order = rotated(cases, r);
      for (const c of pass % 2 ? order.reverse() : order) samples[c.name].push(await loadOnceCdp(world, c, throttle));
    }
    log?.(`load ${throttle}x round ${r + 1}/${rounds}`);
  }
  return summarize(samples);
}

// ---- without DevTools: Chromium by hand, /proc ------------------------------------------------------

const PROFILE_TAG = 'offtag-load-';

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
        const chrome = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, ...world.chromiumArgs, '--headless=new', `--user-data-dir=${profile}`, first], { stdio: 'ignore', detached: true });
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
  // `--passes 2`: each CDP round loads every page twice (the bench's 1× figure: 15 rounds × 2).
  const passes = Number(arg('--passes', '1'));
  const methods = arg('--methods', 'cdp,proc').split(',');
  const throttles = arg('--throttle', '1').split(',').map(Number);
  const variants = arg('--variants', LOAD_VARIANTS.join(',')).split(',') as LoadVariant[];
  // `--ablations a,b`: only these of `ABLATIONS` (by name), e.g. `none:returning,offtag:returning,turbine:returning`.
  const only = arg('--ablations', '');
  const ablations = only ? ABLATIONS.filter((c) => only.split(',').includes(c.name)) : process.argv.includes('--account') ? ABLATIONS : [];
  // `--floors script,worker,post` (default all; `--floors ''` none): the load floors, `floor:<name>`.
  const floors = arg('--floors', FLOORS.join(',')).split(',').filter(Boolean) as Floor[];
  // `--dists before=/tmp/x,after=dist`: Offtag builds side by side, as `offtag@<name>` (each copied to bench/.build/dist-<name>/).
  const dists = arg('--dists', '').split(',').filter(Boolean).map((d) => d.split('=') as [string, string]);
  for (const [name, dir] of dists) {
    mkdirSync(`${BUILD}/dist-${name}`, { recursive: true });
    for (const f of readdirSync(dir).filter((x) => /^offtag.*\.js$/.test(x))) copyFileSync(`${dir}/${f}`, `${BUILD}/dist-${name}/${f}`);
  }
  const distCases: LoadCase[] = dists.map(([name]) => ({ name: `offtag@${name}`, page: { variant: 'offtag', script: `/build/dist-${name}/offtag.js` } }));
  // `--returning`: each build also as a returning visitor (`offtag@<name>:returning`), against the no-tag page's second load.
  if (process.argv.includes('--returning'))
    distCases.push(
      ...(ablations.some((c) => c.name === 'none:returning') ? [] : ABLATIONS.filter((c) => c.name === 'none:returning')),
      ...distCases.map((c) => ({ ...c, name: `${c.name}:returning`, repeat: true })),
    );
  const cases = [...variantCases(variants), ...floorCases(floors), ...distCases, ...ablations];
  if (!process.argv.includes('--no-build')) await buildVariants([]);
  else await writeFloorFiles();
  writeAblationFiles();
  const world = await startWorld();
  const fx = (x: number | undefined, plus = true) => (x === undefined || !Number.isFinite(x) ? '—' : `${plus && x >= 0 ? '+' : ''}${x.toFixed(1)}`);
  /** A table per method: over no tag, median of per-round differences with its bootstrap 95% interval; "÷ floor (d)" and "Offtag ÷" are ratios of those medians. */
  const show = (name: string, f: LoadFigures) => {
    const med = (v: string, k: keyof LoadSample) => median(f.samples[v].map((x) => (x[k] as number | undefined) ?? NaN));
    const ci = (x: [number, number] | undefined) => (x && Number.isFinite(x[0]) ? `{${x[0].toFixed(1)}–${x[1].toFixed(1)}}` : '');
    console.log(`\n${name}: no tag ${f.none.toFixed(1)} ms (main thread)${Number.isFinite(f.rendererNone) ? `, ${f.rendererNone.toFixed(1)} ms (whole renderer)` : ''}; over no tag, median of per-round differences (ms) {bootstrap 95%}:`);
    console.log(`  ${'page'.padEnd(22)} | main thread {95%}        | ÷ floor (d) | Offtag ÷ | to load | whole renderer {95%}     | Offtag ÷ | worker thr. | sender thr. | /proc main (CDP window) | raw main thread`);
    const o = f.overNone.offtag;
    const ro = f.rendererOverNone.offtag;
    const fd = f.overNone[FLOOR_D];
    for (const [v, x] of Object.entries(f.overNone).filter(([, y]) => Number.isFinite(y)))
      console.log(
        `  ${v.padEnd(22)} | ${`${fx(x)} ${ci(f.ci[v]?.main)}`.padEnd(24)} | ${fx(x / fd, false).padStart(11)} | ${fx(o / x, false).padStart(8)} | ${fx(f.toLoadOverNone[v]).padStart(7)} | ${`${fx(f.rendererOverNone[v])} ${ci(f.ci[v]?.renderer)}`.padEnd(24)} | ${fx(ro / f.rendererOverNone[v], false).padStart(8)} | ${fx(med(v, 'workerMs'), false).padStart(11)} | ${fx(med(v, 'senderMs'), false).padStart(11)} | ${fx(f.procOverNone[v]).padStart(23)} | ${f.samples[v].map((y) => y.threadMs.toFixed(1)).join(' ')}`,
      );
    console.log(`  ${'none'.padEnd(22)} | raw ${f.samples.none.map((y) => y.threadMs.toFixed(1)).join(' ')}${Number.isFinite(med('none', 'procMs')) ? ` | /proc ${f.samples.none.map((y) => (y.procMs ?? NaN).toFixed(1)).join(' ')}` : ''}`);
  };
  try {
    if (methods.includes('proc')) {
      const f = await loadProc(world, cases, rounds, console.log);
      show('without DevTools (/proc schedstat, renderer main thread)', f);
      console.log('  other renderers (whole processes: the spare renderer, out-of-process frames), median ms:', JSON.stringify(f.otherMs));
    }
    if (methods.includes('cdp')) for (const t of throttles) show(`CDP ThreadTime, ${t}x CPU throttling`, await loadCdp(world, cases, rounds, t, console.log, passes));
  } finally {
    await world.close();
  }
}

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
 *   CPU read from `/proc/<pid>/task/<tid>/schedstat` (nanoseconds) when the page, 1 s after its
 *   load event, fetches `/done`. A renderer process starts for the page, so its main thread's CPU
 *   is navigation (and the renderer's own start, the same for every variant) to load + 1 s.
 *   Linux only.
 *
 * Run alone: `npx tsx bench/load.ts [--rounds 7] [--methods cdp,proc] [--throttle 1,4,6]
 * [--variants none,offtag,turbine] [--account] [--no-build]` (`--account` adds `ABLATIONS`; dist/ built: `npm run bench` builds them, or
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
}
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
}

export function summarize(samples: Record<string, LoadSample[]>): LoadFigures {
  const none = samples.none ?? [];
  const overNone: Record<string, number> = {};
  const toLoadOverNone: Record<string, number> = {};
  for (const [v, xs] of Object.entries(samples)) {
    if (v === 'none') continue;
    overNone[v] = median(xs.map((x, r) => x.threadMs - (none[r]?.threadMs ?? 0)));
    toLoadOverNone[v] = median(xs.map((x, r) => (x.toLoadMs ?? NaN) - (none[r]?.toLoadMs ?? NaN)));
  }
  return { samples, overNone, none: median(none.map((x) => x.threadMs)), toLoadOverNone };
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
    await page.goto(`${world.base}/blank`);
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Performance.enable');
    if (throttle !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
    const c0 = v === 'none' ? 0 : arrived(world, v);
    const m0 = await metrics(cdp);
    await page.goto(world.pageUrl({ pageView: true, ...c.page, tail: TAIL('window.__done = 1') }), { waitUntil: 'load' });
    await page.waitForFunction(() => (window as unknown as { __done?: number }).__done === 1, undefined, { polling: 50, timeout: 30_000 });
    const m1 = await metrics(cdp);
    if (expectsBeacon(c)) await waitFor(() => arrived(world, v as Variant) >= c0 + 1, 30_000, `the load's Page View from ${c.name}`);
    if (throttle !== 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    const { loadEventMs, longestTaskMs } = await page.evaluate(() => ({
      loadEventMs: (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd,
      longestTaskMs: (window as unknown as { __longest: number }).__longest,
    }));
    // The blank page and the bench page share the renderer (same origin); a new one would have restarted the count.
    const d = (k: string) => (m1[k] - (m1[k] < m0[k] ? 0 : m0[k])) * 1000;
    return { threadMs: d('ThreadTime'), taskMs: d('TaskDuration'), loadEventMs, longestTaskMs };
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
function descendants(root: number): number[] {
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

/** CPU ns of the main thread of each of the browser's renderer processes, by pid. */
function rendererMainNs(browser: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of descendants(browser)) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      // Headless Chromium's own WebUI renderer is not a page's.
      if (!cmd.includes('--type=renderer') || cmd.includes('--top-chrome-webui')) continue;
      // The main thread is the process's first (its comm stays the process's name, not CrRendererMain).
      out.set(pid, Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      /* the process ended */
    }
  }
  return out;
}

/**
 * Loads without DevTools. Servers of its own (the bench's collector and ID service are reused from
 * `world` for the pages' setup); each load a new Chromium on a new profile, straight on the page.
 * The page's renderer is the one whose main thread ran longest (the others, the sender's
 * SharedWorker and Chromium's spare renderer, idle at a few ms): reported apart as `otherMs`.
 */
export async function loadProc(world: World, cases: LoadCase[], rounds: number, log?: (m: string) => void): Promise<LoadFigures & { otherMs: Record<string, number> }> {
  let waiting: { browser: number; atLoad?: Map<number, number>; resolve(ns: Map<number, number>): void } | undefined;
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/at-load') {
      if (waiting) waiting.atLoad = rendererMainNs(waiting.browser);
      return void res.writeHead(204).end();
    }
    if (url.pathname === '/done') {
      const w = waiting;
      if (w) w.resolve(rendererMainNs(w.browser));
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
        const url = world.pageUrl({ pageView: true, ...c.page, tail: TAIL(`fetch('/done')`, `fetch('/at-load')`) }).replace(world.base, base);
        const chrome = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, '--headless=new', `--user-data-dir=${profile}`, url], { stdio: 'ignore', detached: true });
        const done = new Promise<Map<number, number>>((resolve) => (waiting = { browser: chrome.pid!, resolve }));
        try {
          const ns = await Promise.race([done, sleep(60_000).then(() => Promise.reject(new Error(`load: no /done from ${v}`)))]);
          // (Alloy's edge is routed by Playwright only: without it its request fails, after the window.)
          if (expectsBeacon(c) && v !== 'alloy') await waitFor(() => arrived(world, v as Variant) >= c0 + 1, 30_000, `the load's Page View from ${c.name}`);
          const pageRenderer = [...ns.entries()].sort((a, b) => b[1] - a[1])[0];
          const atLoad = waiting?.atLoad?.get(pageRenderer?.[0] ?? -1);
          samples[c.name].push({ threadMs: (pageRenderer?.[1] ?? NaN) / 1e6, toLoadMs: (atLoad ?? NaN) / 1e6, loadEventMs: NaN, longestTaskMs: NaN });
          others[c.name].push([...ns.values()].reduce((a, b) => a + b, 0) / 1e6 - (pageRenderer?.[1] ?? 0) / 1e6);
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
  const cases = [...variantCases(variants), ...(process.argv.includes('--account') ? ABLATIONS : [])];
  if (!process.argv.includes('--no-build')) await buildVariants([]);
  writeFileSync(`${BUILD}/silent-worker.js`, '// says nothing (bench/load.ts ABLATIONS)\n');
  const world = await startWorld();
  const show = (name: string, f: LoadFigures) => {
    console.log(`\n${name}: no tag ${f.none.toFixed(1)} ms; over no tag (median of per-round differences):`);
    for (const [v, ms] of Object.entries(f.overNone).filter(([, x]) => Number.isFinite(x)))
      console.log(
        `  ${v.padEnd(22)} +${ms.toFixed(1)} ms (tasks' wall +${median(f.samples[v].map((x, r) => (x.taskMs ?? NaN) - (f.samples.none[r]?.taskMs ?? NaN))).toFixed(1)})  (${(ms / f.overNone.offtag).toFixed(1)}× Offtag)${Number.isFinite(f.toLoadOverNone[v]) ? `, to load +${f.toLoadOverNone[v].toFixed(1)} ms` : ''}  raw ${f.samples[v].map((x) => x.threadMs.toFixed(1)).join(' ')}`,
      );
    console.log(`  none         raw ${f.samples.none.map((x) => x.threadMs.toFixed(1)).join(' ')}`);
  };
  try {
    if (methods.includes('proc')) {
      const f = await loadProc(world, cases, rounds, console.log);
      show('without DevTools (/proc schedstat, renderer main thread)', f);
      console.log('  other renderers\' main threads, median ms:', JSON.stringify(f.otherMs));
    }
    if (methods.includes('cdp')) for (const t of throttles) show(`CDP ThreadTime, ${t}x CPU throttling`, await loadCdp(world, cases, rounds, t, console.log));
  } finally {
    await world.close();
  }
}

/**
 * One side of a corpus page, twice:
 * - `readSide` (Playwright, DevTools attached): the page loads, its steps run one by one, and the
 *   readings are taken — rule completions (turbine: `_satellite._monitors`; Offtag: the worker's
 *   devtools feed, read after each step, as the e2e tests read it), `_satellite.getVar` for every
 *   data element, the beacons the world received, console errors;
 * - `costOnce` (no DevTools, no Playwright: Chromium started by hand on a new profile, as
 *   bench/load/load.ts `loadProc` does): the page runs its steps by itself and posts `/__corpus/done`
 *   a second after the last one settled; the page renderer's main thread and whole process CPU
 *   from /proc (bench/load/load.ts `rendererCpu`, `pageRenderer`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, CDPSession, Page } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { pageRenderer, rendererCpu } from '../lib/proc.ts';
import { errorKey, launchRuleName } from './compare.ts';
import type { PagePlan } from './plan.ts';
import type { Current, RecordedBeacon, World } from './world.ts';
import type { CpuProfile } from './attribute.ts';

export interface StepResult {
  matched: boolean;
  timedOut: boolean;
  error?: string;
  ms: number;
}

export interface SideRun {
  ready: { timedOut: boolean; ms: number };
  steps: StepResult[];
  completed: string[];
  /** Rules whose condition failed, and (actionFailed) whose action failed, by count: turbine's monitors, Offtag's devtools feed. */
  failed: number;
  actionFailed: number;
  values: Record<string, string | null>;
  beacons: RecordedBeacon[];
  errors: string[];
  /** Requests the world answered 404 (`host/path`). */
  missing: string[];
  /** Every request the world received. */
  requests: string[];
  /** Rules whose condition was not met or whose action failed, by name. */
  notCompleted: string[];
  /** AppMeasurement trackers on the page at the end (turbine's) and whether each was ready to track. */
  trackers: Array<{ account: string; ready: boolean; optIn: string | null }>;
  /** Offtag: the devtools feed overflowed between two reads (completions may be missing). */
  feedLost?: boolean;
  /** Beacons still in flight when the wait for them ended. */
  beaconsPending?: number;
}

export interface FeedEntry {
  name: string;
  data: unknown;
}

/** The worker keeps the latest 500 feed entries (src/worker-engine/shell/api.ts MONITOR_LIMIT). */
export const FEED_LIMIT = 500;

/**
 * Joins feed reads: a read shorter than the limit is the whole feed; a full one is the feed's
 * latest window, which overlaps the entries already read (the longest such overlap).
 */
export function mergeFeed(acc: FeedEntry[], read: FeedEntry[], limit = FEED_LIMIT): { merged: FeedEntry[]; lost: boolean } {
  if (read.length < limit) return { merged: read, lost: false };
  const key = (e: FeedEntry) => JSON.stringify(e);
  const a = acc.map(key);
  const b = read.map(key);
  for (let k = Math.min(a.length, b.length); k > 0; k--) {
    let ok = true;
    for (let x = 0; x < k && ok; x++) ok = a[a.length - k + x] === b[x];
    if (ok) return { merged: [...acc, ...read.slice(k)], lost: false };
  }
  return { merged: [...acc, ...read], lost: true };
}

const COMLINK = createRequire(import.meta.url).resolve('comlink/dist/umd/comlink.min.js');

/** A method of the worker's API (protocol.ts WorkerApi) over offtag.js's Comlink port. */
async function workerApi<T>(page: Page, method: 'monitor' | 'beaconsIdle' | 'pendingBeacons'): Promise<T> {
  if (!(await page.evaluate(() => 'Comlink' in window))) await page.addScriptTag({ path: COMLINK });
  return page.evaluate(async (m) => {
    const w = window as unknown as { Comlink: { wrap(p: MessagePort): Record<string, () => Promise<unknown>> }; offtag: { apiPort: MessagePort }; __corpusApi?: Record<string, () => Promise<unknown>> };
    w.__corpusApi ??= w.Comlink.wrap(w.offtag.apiPort);
    return w.__corpusApi[m]!();
  }, method) as Promise<T>;
}

/** How long no new beacon must arrive before a side's beacons count as all sent. */
const QUIET_MS = 1000;

const within = <T>(p: Promise<T>, ms: number, fallback: T): Promise<T> => Promise.race([p, new Promise<T>((r) => setTimeout(() => r(fallback), ms))]);

type CorpusWindow = {
  __corpus: {
    ready(): Promise<{ timedOut: boolean; ms: number }>;
    step(i: number): Promise<StepResult>;
    values(names: string[]): Array<string | null>;
    trackers(): SideRun['trackers'];
    monitor: { completed: string[]; failed: string[]; actionFailed: string[] };
  };
  offtag?: unknown;
};

export interface ReadOptions {
  side: 'turbine' | 'offtag';
  current: Current;
  names: string[];
  stepLimitMs: number;
  log?: (m: string) => void;
}

export async function readSide(browser: Browser, world: World, plan: PagePlan, o: ReadOptions): Promise<SideRun> {
  const ctx = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 720 } });
  const errors: string[] = [];
  let inFlight = 0;
  try {
    const page = await ctx.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(errorKey(m.text(), m.location().url));
    });
    page.on('pageerror', (e) => errors.push(errorKey(`uncaught ${e.name}: ${e.message}`)));
    const isBeacon = (u: string) => u.includes('/b/ss/');
    page.on('request', (r) => void (isBeacon(r.url()) && inFlight++));
    page.on('requestfinished', (r) => void (isBeacon(r.url()) && inFlight--));
    page.on('requestfailed', (r) => void (isBeacon(r.url()) && inFlight--));
    world.reset();
    world.set(o.current);
    await page.goto(plan.url, { waitUntil: 'load', timeout: 90_000 });
    const guard = o.stepLimitMs + 10_000;
    const late = { timedOut: true, ms: guard };
    const ready = await within(page.evaluate(() => (window as unknown as CorpusWindow).__corpus.ready()), guard, late);
    let feed: FeedEntry[] = [];
    let feedLost = false;
    const readFeed = async () => {
      if (o.side !== 'offtag' || !(await page.evaluate(() => !!(window as unknown as CorpusWindow).offtag))) return;
      const r = mergeFeed(feed, await within(workerApi<FeedEntry[]>(page, 'monitor'), guard, feed));
      feed = r.merged;
      feedLost ||= r.lost;
    };
    await readFeed();
    const steps: StepResult[] = [];
    for (let i = 0; i < plan.steps.length; i++) {
      steps.push(await within(page.evaluate((n) => (window as unknown as CorpusWindow).__corpus.step(n), i), guard, { matched: false, timedOut: true, ms: guard }));
      await readFeed();
    }
    // The beacons: turbine's requests in flight answered; Offtag's durable queue empty. Then a
    // quiet second with no new beacon (a tracker may hold a hit until the visitor's IDs arrive;
    // nothing on the page says it is holding one), the wait starting again at each beacon.
    let beaconsPending: number | undefined;
    const drained = async () => {
      if (o.side === 'turbine') {
        const t0 = Date.now();
        while (inFlight > 0 && Date.now() - t0 < o.stepLimitMs) await page.waitForTimeout(50);
        return inFlight;
      }
      if (!(await page.evaluate(() => !!(window as unknown as CorpusWindow).offtag))) return 0;
      await within(workerApi<void>(page, 'beaconsIdle'), o.stepLimitMs, undefined);
      return within(workerApi<number>(page, 'pendingBeacons'), 5_000, -1);
    };
    const t0 = Date.now();
    for (let seen = -1; seen !== world.beacons.length && Date.now() - t0 < 3 * o.stepLimitMs; ) {
      seen = world.beacons.length;
      beaconsPending = (await drained()) || undefined;
      await page.waitForTimeout(QUIET_MS);
    }
    await readFeed();
    const raw = await page.evaluate((ns) => (window as unknown as CorpusWindow).__corpus.values(ns), o.names);
    const trackers = await page.evaluate(() => (window as unknown as CorpusWindow).__corpus.trackers());
    const values = Object.fromEntries(o.names.map((n, i) => [n, raw[i] ?? null]));
    let completed: string[];
    let notCompleted: string[];
    let failed = 0;
    let actionFailed = 0;
    if (o.side === 'turbine') {
      const m = await page.evaluate(() => (window as unknown as CorpusWindow).__corpus.monitor);
      completed = m.completed;
      notCompleted = [...m.failed, ...m.actionFailed];
      failed = m.failed.length;
      actionFailed = m.actionFailed.length;
    } else {
      const name = (e: FeedEntry) => launchRuleName(String((e.data as { rule?: unknown }).rule));
      completed = feed.filter((e) => e.name === 'rule-completed').map(name);
      const actions = feed.filter((e) => e.name === 'rule-action-failed').map(name);
      notCompleted = [...feed.filter((e) => e.name === 'rule-condition-failed').map(name), ...actions];
      failed = notCompleted.length - actions.length;
      actionFailed = actions.length;
    }
    return { ready, steps, completed, failed, actionFailed, values, beacons: [...world.beacons], errors, missing: [...world.missing], requests: [...world.requests], notCompleted, trackers, ...(feedLost ? { feedLost } : {}), ...(beaconsPending ? { beaconsPending } : {}) };
  } finally {
    world.set(undefined);
    await ctx.close();
  }
}

export interface CostSample {
  /** The page renderer's main thread, from its start to `/__corpus/done` (ms). */
  mainMs: number;
  /** The whole page renderer process, every thread (Offtag's worker and, when Chromium runs it there, its sender) (ms). */
  rendererMs: number;
  /** Of it, dedicated worker and SharedWorker threads (ms). */
  workerMs: number;
  sharedMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One page load without DevTools; undefined when the page did not say it was done within `limitMs`. */
export async function costOnce(world: World, plan: PagePlan, current: Current, limitMs: number): Promise<CostSample | undefined> {
  const profile = mkdtempSync(join(tmpdir(), 'offtag-corpus-'));
  world.reset();
  world.set(current);
  const done = world.nextDone();
  const chrome = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, ...world.chromiumArgs, '--headless=new', '--window-size=1280,720', `--user-data-dir=${profile}`, plan.url], { stdio: 'ignore', detached: true });
  try {
    const ok = await Promise.race([done.then(() => true), sleep(limitMs).then(() => false)]);
    if (!ok) return undefined;
    const [, cpu] = pageRenderer(undefined, rendererCpu(chrome.pid!)) ?? [];
    if (!cpu) return undefined;
    return { mainMs: cpu.main / 1e6, rendererMs: cpu.all / 1e6, workerMs: cpu.dedicated / 1e6, sharedMs: cpu.shared / 1e6 };
  } finally {
    world.set(undefined);
    const exited = chrome.exitCode !== null || chrome.signalCode !== null ? Promise.resolve() : new Promise((r) => chrome.once('exit', r));
    try {
      process.kill(-chrome.pid!, 'SIGKILL');
    } catch {
      /* already gone */
    }
    await exited;
    await sleep(200);
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

/**
 * One load of the plan's page with DevTools attached, from a page of the same origin (a 404
 * document: the same renderer, so the CDP session set up there sees the load): `before` sets the
 * session up, `after` reads it once the page said it was done (`ok`: within `limitMs`).
 */
async function cdpLoad<T>(browser: Browser, world: World, plan: PagePlan, current: Current, limitMs: number, before: (cdp: CDPSession) => Promise<void>, after: (cdp: CDPSession, ok: boolean) => Promise<T | undefined>): Promise<T | undefined> {
  const ctx = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1280, height: 720 } });
  world.reset();
  world.set(current);
  try {
    const page = await ctx.newPage();
    await page.goto(new URL('/__offtag-corpus-blank', plan.url).href).catch(() => undefined);
    const cdp: CDPSession = await ctx.newCDPSession(page);
    const done = world.nextDone();
    await before(cdp);
    await page.goto(plan.url, { waitUntil: 'load', timeout: limitMs });
    const ok = await Promise.race([done.then(() => true), sleep(limitMs).then(() => false)]);
    return await after(cdp, ok);
  } finally {
    world.set(undefined);
    await ctx.close();
  }
}

/**
 * One page load under `Emulation.setCPUThrottlingRate` `rate` (the phone figures: 4× a mid-range
 * phone, 6× a low-end one): CDP ThreadTime of the page's main thread and the page renderer's whole
 * process from /proc, to `/__corpus/done`; undefined when the page did not say it was done.
 */
export async function costCdp(browser: Browser, world: World, plan: PagePlan, current: Current, limitMs: number, rate: number): Promise<CostSample | undefined> {
  const threadTime = async (cdp: CDPSession) => ((await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> }).metrics.find((m) => m.name === 'ThreadTime')!.value * 1000;
  let t0 = 0;
  let p0: ReturnType<typeof rendererCpu> | undefined;
  return cdpLoad(
    browser,
    world,
    plan,
    current,
    limitMs,
    async (cdp) => {
      await cdp.send('Performance.enable');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate });
      p0 = rendererCpu(process.pid);
      t0 = await threadTime(cdp);
    },
    async (cdp, ok) => {
      if (!ok) return undefined;
      const t1 = await threadTime(cdp);
      const [, cpu] = pageRenderer(p0, rendererCpu(process.pid)) ?? [];
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      return { mainMs: t1 - t0, rendererMs: (cpu?.all ?? NaN) / 1e6, workerMs: (cpu?.dedicated ?? NaN) / 1e6, sharedMs: (cpu?.shared ?? NaN) / 1e6 };
    },
  );
}

/**
 * One page load at 1× with V8's sampling profiler on (100 µs), to `/__corpus/done`: the main
 * thread's CPU profile, for attribute.ts to sum by whose code ran. Undefined when the page did not
 * say it was done.
 */
export async function profileOnce(browser: Browser, world: World, plan: PagePlan, current: Current, limitMs: number): Promise<CpuProfile | undefined> {
  return cdpLoad(
    browser,
    world,
    plan,
    current,
    limitMs,
    async (cdp) => {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    },
    async (cdp, ok) => {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
      return ok ? profile : undefined;
    },
  );
}

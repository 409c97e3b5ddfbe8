/**
 * The measurements (docs/bench.md, "Methods"): CDP `Performance.getMetrics` ThreadTime deltas over bursts
 * of events started from a page task (median of the samples), a Chrome trace summing `RunTask`
 * thread time between `performance.mark`s for single events, and a long-task / LoAF observer as a
 * guard. Every ratio is computed from figures of this one run.
 */
import { pageRenderer, rendererCpu } from './proc.ts';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright';
import { DIRECT_CALLS } from '../../containers/storefront/rules.ts';
import { VARIANTS, type PageOptions, type Variant, type World } from './setup.ts';

export const EVENTS = Object.values(DIRECT_CALLS);
export type EventName = (typeof EVENTS)[number];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
export const median = (xs: number[]) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/**
 * The bootstrap 95% interval of the median of `xs` (percentiles 2.5 and 97.5 of the medians of
 * `reps` resamples with replacement); a fixed seed, so a results file re-renders the same.
 */
export function bootstrapCi(xs: number[], reps = 2000, seed = 1): [number, number] {
  const ys = xs.filter(Number.isFinite);
  if (ys.length < 2) return [NaN, NaN];
  let t = seed >>> 0;
  // mulberry32
  const rand = () => {
    t = (t + 0x6d2b79f5) >>> 0;
    let r = Math.imul(t ^ (t >>> 15), 1 | t);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
  const meds = Array.from({ length: reps }, () => median(Array.from(ys, () => ys[Math.floor(rand() * ys.length)])));
  return [quantile(meds, 0.025), quantile(meds, 0.975)];
}
export const quantile = (xs: number[], q: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))];
};

/** Collects long tasks and long animation frames (with script attribution) from the start of the page. */
const OBSERVER = () => {
  const w = window as unknown as { __long: Array<{ type: string; duration: number; start: number; scripts?: string[] }> };
  w.__long = [];
  const observe = (type: string) => {
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as Array<PerformanceEntry & { scripts?: Array<{ sourceURL?: string; invoker?: string }> }>) {
          w.__long.push({
            type,
            duration: e.duration,
            start: e.startTime,
            scripts: e.scripts?.map((s) => `${s.invoker ?? ''} ${s.sourceURL ?? ''}`.trim()),
          });
        }
      }).observe({ type, buffered: true });
    } catch {
      /* entry type not supported */
    }
  };
  observe('longtask');
  observe('long-animation-frame');
};

export interface OpenPage {
  variant: Variant | 'none';
  ctx: BrowserContext;
  page: Page;
  cdp: CDPSession;
  /** Main-thread metrics of navigation to window load (+ settle). */
  load: { threadMs: number; taskMs: number; scriptMs: number; loadEventMs: number };
  consoleMessages: number;
  /** The page's latest console messages (for a bench error). */
  lastConsole: string[];
  close(): Promise<void>;
}

export async function metrics(cdp: CDPSession): Promise<Record<string, number>> {
  const { metrics: list } = (await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  return Object.fromEntries(list.map((m) => [m.name, m.value]));
}

/** Beacons (or, for alloy, edge requests) that have arrived so far. */
export const arrived = (world: World, variant: Variant | 'none') =>
  variant === 'alloy' ? world.edgeHits.length : world.collector.beacons.length;

export async function waitFor(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`bench: timed out waiting for ${what}`);
    await sleep(5);
  }
}

/**
 * Waits for a burst's `n` beacons. When they do not come, says what the page had done before the
 * error ends the run: how many arrived, offtag.js's metrics (events posted, acknowledged), whether
 * more came in the next 30 s (slow, not stuck), and the page's last console messages.
 */
async function waitForBurst(world: World, p: OpenPage, c0: number, n: number, timeoutMs: number): Promise<void> {
  const variant = p.variant;
  try {
    await waitFor(() => arrived(world, variant) >= c0 + n, timeoutMs, `${n} beacons from ${variant}`);
  } catch (e) {
    const got = arrived(world, variant) - c0;
    const state = await Promise.race([
      p.page.evaluate(() => JSON.stringify((window as unknown as { offtag?: { metrics(): unknown } }).offtag?.metrics() ?? 'no window.offtag')).catch(String),
      sleep(10_000).then(() => 'the page did not answer in 10 s'),
    ]);
    await sleep(30_000);
    console.error(
      `[bench] ${variant}: ${got} of ${n} beacons after ${timeoutMs / 1000} s, ${arrived(world, variant) - c0} 30 s later; offtag.metrics(): ${state}; ` +
        `last console messages: ${JSON.stringify(p.lastConsole)}`,
    );
    throw e;
  }
}

export async function openPage(world: World, o: PageOptions, settleMs = 600): Promise<OpenPage> {
  const ctx = await world.browser.newContext();
  const page = await ctx.newPage();
  let consoleMessages = 0;
  const lastConsole: string[] = [];
  page.on('console', (m) => {
    consoleMessages++;
    if (lastConsole.push(`${m.type()}: ${m.text().slice(0, 300)}`) > 8) lastConsole.shift();
  });
  page.on('pageerror', (e) => console.error(`[${o.variant}] page error: ${e.message}`));
  // tsx wraps named functions in `__name(...)`; the page has no such helper, so give it one.
  await page.addInitScript({ content: `globalThis.__name = (f) => f;\n(${OBSERVER.toString()})();` });
  if (o.variant === 'alloy') {
    await page.route('https://edge.bench.test/**', (route) => {
      world.edgeHits.push(Date.now());
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ requestId: 'bench', handle: [] }) });
    });
  }
  // Same-origin blank first, so the measured navigation stays in one renderer process.
  await page.goto(`${world.base}/blank`);
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Performance.enable');
  const m0 = await metrics(cdp);
  await page.goto(world.pageUrl(o), { waitUntil: 'load' });
  await sleep(settleMs);
  const m1 = await metrics(cdp);
  const d = (k: string) => ((m1[k] ?? 0) - (m1[k] < m0[k] ? 0 : m0[k] ?? 0)) * 1000;
  const loadEventMs = await page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).loadEventEnd);
  return {
    variant: o.variant,
    ctx,
    page,
    cdp,
    load: { threadMs: d('ThreadTime'), taskMs: d('TaskDuration'), scriptMs: d('ScriptDuration'), loadEventMs },
    get consoleMessages() {
      return consoleMessages;
    },
    lastConsole,
    close: () => ctx.close(),
  };
}

/** Fires `n` events from one page task (the bench's burst; it returns once they are scheduled). */
export const burst = (page: Page, id: string, n: number) =>
  page.evaluate(
    ([id, n]) => {
      setTimeout(() => {
        const s = (window as unknown as { _satellite: { track(id: string): void } })._satellite;
        for (let i = 0; i < n; i++) s.track(id);
      }, 0);
    },
    [id, n] as const,
  );

export interface Sample {
  /** Main-thread CPU per event (ms): ThreadTime delta / n. */
  threadMs: number;
  /** The ThreadTime delta (ms) and wall time (ms) of the whole sample. */
  totalMs: number;
  wallMs: number;
  taskMs: number;
  scriptMs: number;
  /** Events per second from the page task to the last beacon at the collector. */
  eventsPerSec: number;
  /** Offtag only: the bridge's own timing (post + apply) per event. */
  bridgeMs?: number;
  /**
   * The page renderer's whole process per event (ms), from /proc over the same window (bench/lib/proc.ts):
   * every thread, so Offtag's worker and sender too; and those two apart.
   */
  rendererMs?: number;
  workerMs?: number;
  senderMs?: number;
}

/** One sample: `n` events of `id` in one page task; waits for every beacon, then a quiet moment. */
export async function sample(world: World, p: OpenPage, id: string, n: number): Promise<Sample> {
  const variant = p.variant as Variant;
  const bridge0 = variant === 'offtag' ? await bridgeMetrics(p.page) : undefined;
  const c0 = arrived(world, variant);
  // Playwright's Chromium is this process's child; the sampled page's renderer is the one whose main thread ran most.
  const r0 = rendererCpu(process.pid);
  const m0 = await metrics(p.cdp);
  const t0 = Date.now();
  await burst(p.page, id, n);
  await waitForBurst(world, p, c0, n, 120_000);
  const t1 = Date.now();
  await sleep(variant === 'alloy' ? 150 : 60);
  const m1 = await metrics(p.cdp);
  const r = pageRenderer(r0, rendererCpu(process.pid))?.[1];
  const bridge1 = variant === 'offtag' ? await bridgeMetrics(p.page) : undefined;
  const d = (k: string) => ((m1[k] - m0[k]) * 1000) / n;
  return {
    threadMs: d('ThreadTime'),
    totalMs: (m1.ThreadTime - m0.ThreadTime) * 1000,
    wallMs: Date.now() - t0,
    taskMs: d('TaskDuration'),
    scriptMs: d('ScriptDuration'),
    eventsPerSec: n / Math.max(1e-3, (t1 - t0) / 1000),
    rendererMs: (r?.all ?? NaN) / 1e6 / n,
    workerMs: (r?.dedicated ?? NaN) / 1e6 / n,
    senderMs: (r?.shared ?? NaN) / 1e6 / n,
    ...(bridge0 && bridge1
      ? { bridgeMs: (bridge1.postMs + bridge1.applyMs - bridge0.postMs - bridge0.applyMs) / (bridge1.events - bridge0.events) }
      : {}),
  };
}

const bridgeMetrics = (page: Page) =>
  page.evaluate(() => (window as unknown as { offtag: { metrics(): { events: number; postMs: number; applyMs: number } } }).offtag.metrics());

/**
 * What a sample's ThreadTime delta holds besides its events: the measurement's own
 * cost, a fixed amount per sample (the two `Performance.getMetrics` calls: ~0.4 ms of main thread,
 * the same over an empty window as over 3 s, `npx tsx bench/per-event/idle-windows.ts`), and the page's own
 * CPU per second of doing nothing, which a sample pays over its wall time. Measured as an empty
 * window and a `ms` window; take the median over rounds (`medianIdle`), as one window can catch a GC.
 */
export interface Idle {
  fixedMs: number;
  msPerSec: number;
}
export async function idleOf(p: OpenPage, ms = 500): Promise<Idle> {
  const delta = async (w: number) => {
    const m0 = await metrics(p.cdp);
    if (w) await sleep(w);
    const m1 = await metrics(p.cdp);
    return (m1.ThreadTime - m0.ThreadTime) * 1000;
  };
  const fixedMs = await delta(0);
  return { fixedMs, msPerSec: Math.max(0, (await delta(ms)) - fixedMs) / (ms / 1000) };
}
export const medianIdle = (xs: Idle[]): Idle => ({ fixedMs: median(xs.map((x) => x.fixedMs)), msPerSec: median(xs.map((x) => x.msPerSec)) });

/**
 * Per-event ms of a sample, minus what is not its events: the measurement's fixed cost and the
 * page's idle CPU over the sample's wall time. (Earlier the bench subtracted a rate taken
 * from one 300 ms window, which held the fixed cost too, times the sample's wall time: 1–5 s for
 * Offtag's worker-bound bursts, so 3–15× the fixed cost was subtracted, and a single window that
 * caught a GC took tens of ms off one page's figures: docs/bench.md, "Scaling".)
 */
export const idleCorrected = (s: Sample, idle: Idle, n: number) => Math.max(0, s.totalMs - idle.fixedMs - (idle.msPerSec * s.wallMs) / 1000) / n;

/** Fires events and waits for their beacons: the visitor ID call done, code warm. */
export async function warm(world: World, p: OpenPage, perEvent: number): Promise<void> {
  for (const id of EVENTS) {
    const c0 = arrived(world, p.variant);
    await burst(p.page, id, perEvent);
    await waitFor(() => arrived(world, p.variant) >= c0 + perEvent, 60_000, `warm-up beacons from ${p.variant}`);
  }
  await sleep(100);
}

/**
 * The physical floor, measured on the Offtag page itself (same cookies, same session keys):
 * - floor (a): read `document.cookie` and the container's two sessionStorage keys, and post them
 *   with a 2 KB data layer to an idle worker;
 * - floor (b): floor (a) plus what a Page View cannot avoid once a visit is warm: 6 cookie writes
 *   of ~65 bytes each (values that change), and receiving one small message back from the worker.
 * - floor (r): floor (a) plus the event's beacon request, made as Offtag's sender makes it: the
 *   worker hands a ~1 KB URL to a same-origin SharedWorker, which `fetch`es it (`keepalive`,
 *   credentials included). The page's main thread makes no request, yet pays one task per request
 *   in Chromium 150 (an `AsyncMemoryConsumerRegistration` posted to the renderer's main thread; a
 *   request a dedicated worker makes costs it more): what any worker design that sends a beacon
 *   per event pays there (docs/bench.md, "Per event: the floor with the beacon").
 * (`whole`, for the data layer scaling: floor (a) posting the page's whole data layer instead.)
 * No worker design pays less per event. The cookies are written on the path /__floor, so they
 * never reach the Offtag page's own `document.cookie`; the requests go to /__floor/b (the page's
 * server answers 404), never to the collector.
 */
export type FloorKind = 'a' | 'b' | 'r' | 'whole';
export async function installFloor(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as Record<string, unknown>;
    // The worker forwards a floor (r) message's URL to the SharedWorker (its port is the third), which
    // fetches it and, once it has the answers it was told to expect, says so to the page (`back`: one message per burst).
    const worker = new Worker(
      URL.createObjectURL(
        new Blob([
          'onmessage = (e) => { const s = e.ports[2]; e.ports[0].onmessage = (m) => { if (m.data.url) s.postMessage(m.data.url); else if (m.data.expect) s.postMessage(m.data); }; const b = e.ports[1]; b.onmessage = () => b.postMessage(0); };',
        ]),
      ),
    );
    const sender = new SharedWorker(
      URL.createObjectURL(
        new Blob([
          "onconnect = (c) => { const p = c.ports[0]; let want = 0, got = 0, done; p.onmessage = (e) => { if (e.data.port) return void (done = e.data.port); if (e.data.expect) return void ((want = e.data.expect), (got = 0)); fetch(e.data, { credentials: 'include', keepalive: true }).then((r) => void r.body?.cancel(), () => 0).then(() => { if (++got === want) done.postMessage(0); }); }; };",
        ]),
      ),
    );
    const a = new MessageChannel();
    const b = new MessageChannel();
    const back = new MessageChannel();
    sender.port.postMessage({ port: back.port2 }, [back.port2]);
    worker.postMessage(null, [a.port2, b.port2, sender.port]);
    // A beacon's URL as long as the storefront's (~1 KB).
    const beaconUrl = `${location.origin}/__floor/b?AQB=1&pageName=${'p'.repeat(900)}&r=`;
    const keys = ['acmeUserData', 'acmePreviousPageName'];
    // A 2 KB data layer (JSON length), the size of the storefront's.
    const small = { page: { pageInfo: { pageType: 'product detail', pageUID: 'product 4km91', language: 'en' } }, items: [] as unknown[] };
    for (let i = 0; JSON.stringify(small).length < 2000; i++) small.items.push({ id: `item-${i}`, name: `product ${i}`, price: i * 1.5 });
    const expires = new Date(Date.now() + 864e5).toUTCString();
    let k = 0;
    const read = () => {
      const session: Record<string, string | null> = {};
      for (const key of keys) session[key] = sessionStorage.getItem(key);
      return { cookie: document.cookie, session };
    };
    let replies = 0;
    let allBack: (() => void) | undefined;
    let expected = 0;
    b.port1.onmessage = () => {
      if (++replies === expected) allBack?.();
    };
    back.port1.onmessage = () => allBack?.();
    // Runs `n` events of a kind from one task; resolves once they are done: for floor (b), once every
    // reply came back (a fixed wait undercounted them and let their tail fall into the next measurement).
    w.__floorRun = (kind: string, n: number) =>
      new Promise<void>((resolve) => {
        replies = 0;
        expected = kind === 'b' ? n : 0;
        allBack = resolve;
        // Floor (r) resolves once the SharedWorker has every answer (told through the worker, before the burst's task).
        if (kind === 'r') a.port1.postMessage({ expect: n });
        setTimeout(() => {
          const f = (w.__floor as Record<string, () => void>)[kind]!;
          for (let i = 0; i < n; i++) f();
          if (kind !== 'b' && kind !== 'r') resolve();
        }, 0);
      });
    w.__floor = {
      a: () => a.port1.postMessage({ ...read(), dataLayer: small }),
      whole: () => a.port1.postMessage({ ...read(), dataLayer: w.digitalData }),
      r: () => a.port1.postMessage({ ...read(), dataLayer: small, url: beaconUrl + k++ }),
      b: () => {
        b.port1.postMessage({ ...read(), dataLayer: small });
        k++;
        for (let i = 0; i < 6; i++) document.cookie = `floor_${i}=${k}|${'v'.repeat(20)}; path=/__floor; expires=${expires}`;
      },
    };
  });
}

export async function floorSample(p: OpenPage, n: number, kind: FloorKind = 'a'): Promise<number> {
  const m0 = await metrics(p.cdp);
  await p.page.evaluate(([n, kind]) => (window as unknown as { __floorRun(k: string, n: number): Promise<void> }).__floorRun(kind, n), [n, kind] as const);
  await sleep(20);
  const m1 = await metrics(p.cdp);
  return ((m1.ThreadTime - m0.ThreadTime) * 1000) / n;
}

/** One event of a Chrome trace (the fields the bench's trace readers use). */
export interface TraceEvent {
  name: string;
  cat?: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: {
    name?: string;
    data?: Record<string, unknown> & { url?: string; frame?: string; stackTrace?: Array<{ url?: string }> };
    beginData?: { url?: string };
    src_func?: string;
    src_file?: string;
  } & Record<string, unknown>;
}

/**
 * Per event under CPU throttling (method A′, docs/bench.md "Per event on a phone"): the same
 * bursts as `sample` (n events of each type from one page task, until every beacon arrived, + a
 * quiet moment), measured as the thread time of the page's main-thread *tasks* in a Chrome trace
 * (`RunTask` wholly between two `performance.mark`s), minus a window with no events as long as
 * the bursts (median wall). Chrome's throttler stalls the main thread by spinning it, busy or
 * idle: ThreadTime then grows with the wall time whatever the page does (an idle bench page
 * reads 300–500 ms per second at 4×, about 600 at 6×), so neither the raw ThreadTime delta (it charges a page the
 * spin over its burst's wall time, longer where a worker delivers the beacons) nor its idle
 * correction (the spin's share changes with the machine's load, and subtracting it zeroes
 * figures) measures the page's work. The spin while idle falls outside tasks; the stall inside a
 * task — the emulated slower CPU — is in it. Beside it, per window, the CDP ThreadTime delta (the
 * earlier method, for comparison) and the renderer's whole process (/proc), not corrected.
 */
export async function taskSamples(world: World, p: OpenPage, ids: readonly string[], n: number, rate = 1): Promise<Record<string, { taskMs: number; threadMs: number; rendererMs: number }>> {
  const variant = p.variant as Variant;
  const windows: Array<{ id: string; taskMs: number; threadMs: number; rendererMs: number; wallMs: number }> = [];
  const walls: number[] = [];
  for (const id of [...ids, 'noop']) {
    // One trace per window, its events delivered as they are collected (`startTrace`): Playwright's
    // tracing reads the whole trace back as one stream at the end, and at 6× that read failed in full
    // runs (IO.read "Read failed"), leaving Playwright's tracing on for good.
    const trace = await startTrace(world.browser, ['disabled-by-default-devtools.timeline', 'toplevel', 'blink.user_timing']);
    const key = `pet:${windows.length}:${Math.random()}`;
    await p.page.evaluate((key) => performance.mark(`${key}:s`), key);
    const c0 = arrived(world, variant);
    const r0 = rendererCpu(process.pid);
    const m0 = await metrics(p.cdp);
    const t0 = Date.now();
    if (id === 'noop') await sleep(median(walls));
    else {
      await burst(p.page, id, n);
      await waitForBurst(world, p, c0, n, 300_000);
      walls.push(Date.now() - t0);
    }
    await sleep(variant === 'alloy' ? 150 : 60);
    const m1 = await metrics(p.cdp);
    const r = pageRenderer(r0, rendererCpu(process.pid))?.[1];
    await p.page.evaluate((key) => performance.mark(`${key}:e`), key);
    const wallMs = Date.now() - t0;
    // The trace is collected unthrottled (the window's marks are in it already). A window whose
    // trace still cannot be had counts as not measured (NaN), not as a crash of the whole run.
    if (rate !== 1) await p.cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    let taskMs = NaN;
    try {
      taskMs = windowTaskMs(await trace.stop(), key);
    } catch (e) {
      console.warn(`[bench] ${variant} at ${rate}×: the trace of a ${id} window could not be had (${String(e).split('\n')[0]}); that window is not measured`);
    }
    if (rate !== 1) await p.cdp.send('Emulation.setCPUThrottlingRate', { rate });
    windows.push({ id, taskMs, threadMs: (m1.ThreadTime - m0.ThreadTime) * 1000, rendererMs: (r?.all ?? NaN) / 1e6, wallMs });
  }
  const noopTaskMs = windows.at(-1)!.taskMs;
  return Object.fromEntries(
    windows.slice(0, -1).map((w) => [
      w.id,
      { taskMs: Math.max(0, w.taskMs - noopTaskMs) / n, threadMs: w.threadMs / n, rendererMs: w.rendererMs / n },
    ]),
  );
}

/**
 * The top-level tasks of the thread `on` ran on, in time order: Chromium 150 runs a
 * `ThreadControllerImpl::RunTask` inside a `RunTask`, and some without one; each task once.
 */
export function topLevelTasks(events: TraceEvent[], on: TraceEvent): TraceEvent[] {
  const tasks: TraceEvent[] = [];
  let end = -Infinity;
  for (const e of events
    .filter((e) => (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && e.ph === 'X' && e.pid === on.pid && e.tid === on.tid)
    .sort((a, b) => a.ts - b.ts))
    if (e.ts >= end) {
      tasks.push(e);
      end = e.ts + (e.dur ?? 0);
    }
  return tasks;
}

/**
 * A browser-wide Chrome trace of `categories` whose events the DevTools protocol hands over in
 * chunks while it runs (`Tracing.dataCollected`), on a session of its own, closed by `stop`:
 * no stream to read back at the end, and no tracing state left behind if a trace fails.
 */
export async function startTrace(browser: Browser, categories: string[]): Promise<{ stop(): Promise<TraceEvent[]> }> {
  const cdp = await browser.newBrowserCDPSession();
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => void events.push(...(value as unknown as TraceEvent[])));
  try {
    await cdp.send('Tracing.start', { transferMode: 'ReportEvents', traceConfig: { includedCategories: categories } });
  } catch (e) {
    await cdp.detach().catch(() => {});
    throw e;
  }
  return {
    async stop() {
      try {
        await Promise.all([new Promise((done) => cdp.once('Tracing.tracingComplete', done)), cdp.send('Tracing.end')]);
        return events;
      } finally {
        await cdp.detach().catch(() => {});
      }
    },
  };
}

/** The thread time of the page's main-thread tasks wholly between the marks `<key>:s` and `<key>:e` of a trace. */
function windowTaskMs(trace: TraceEvent[], key: string): number {
  const { events, marks, any } = traceMarks(trace, 'pet:');
  const tasks = topLevelTasks(events, any);
  const s = marks.get(`${key}:s`)!;
  const e = marks.get(`${key}:e`)!;
  let us = 0;
  for (const t of tasks) if (t.ts >= s.ts && t.ts + (t.dur ?? 0) <= e.ts) us += t.tdur ?? 0;
  return us / 1000;
}

/**
 * Single events, method B: marks around each event (and around nothing, the floor of the
 * method), `RunTask` thread time on the page's main thread for tasks wholly between the marks.
 * Returns per event type the median cost minus the median of the empty windows.
 */
export async function singleEvents(world: World, p: OpenPage, reps: number): Promise<{ perEvent: Record<string, number>; noopMs: number }> {
  const variant = p.variant as Variant;
  const browser = world.browser;
  await browser.startTracing(p.page, {
    categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute'],
  });
  const windows: Array<{ id: string; k: number }> = [];
  let k = 0;
  for (let r = 0; r < reps; r++) {
    for (const id of [...EVENTS, 'noop']) {
      const key = k++;
      const c0 = arrived(world, variant);
      await p.page.evaluate(
        ([id, key]) => {
          performance.mark(`bench:s:${key}`);
          setTimeout(() => {
            if (id !== 'noop') (window as unknown as { _satellite: { track(id: string): void } })._satellite.track(id as string);
          }, 0);
        },
        [id, key] as const,
      );
      if (id !== 'noop') await waitFor(() => arrived(world, variant) >= c0 + 1, 30_000, `a beacon from ${variant}`);
      await sleep(variant === 'alloy' ? 120 : 60);
      await p.page.evaluate((key) => performance.mark(`bench:e:${key}`), key);
      windows.push({ id, k: key });
    }
  }
  const { events, marks, any } = traceMarks(await browser.stopTracing(), 'bench:');
  const tasks = events.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === any.pid && e.tid === any.tid);
  const cost = (key: number) => {
    const s = marks.get(`bench:s:${key}`);
    const e = marks.get(`bench:e:${key}`);
    if (!s || !e) return NaN;
    let us = 0;
    for (const t of tasks) if (t.ts >= s.ts && t.ts + (t.dur ?? 0) <= e.ts) us += t.tdur ?? t.dur ?? 0;
    return us / 1000;
  };
  const by: Record<string, number[]> = {};
  for (const w of windows) (by[w.id] ??= []).push(cost(w.k));
  const noopMs = median(by.noop.filter(Number.isFinite));
  const perEvent: Record<string, number> = {};
  for (const id of EVENTS) perEvent[id] = median(by[id].filter(Number.isFinite)) - noopMs;
  return { perEvent, noopMs };
}

export interface LatencyRun {
  events: number;
  latencyMedianMs: number;
  latencyP95Ms: number;
  longTasks: number;
  longestTaskMs: number;
  longFrames: number;
  longestFrameMs: number;
  /** Scripts LoAF blames for frames over 50 ms. */
  blamed: string[];
}

/**
 * A fresh page: load, then `n` Page View events one per page task, `gapMs` apart (a site firing
 * events, not a bench loop). Latency from `track` to the beacon at the collector (alloy: at the
 * routed edge), and every long task / long animation frame since navigation.
 */
export async function latencyRun(world: World, o: PageOptions, n: number, gapMs: number): Promise<LatencyRun> {
  const variant = o.variant as Variant;
  const p = await openPage(world, o);
  try {
    await warm(world, p, 1);
    const c0 = arrived(world, variant);
    await p.page.evaluate(
      ([n, gap]) => {
        const w = window as unknown as { __sent: number[]; _satellite: { track(id: string): void } };
        w.__sent = [];
        let i = 0;
        const tick = () => {
          w.__sent.push(Date.now());
          w._satellite.track('Page View');
          if (++i < n) setTimeout(tick, gap);
        };
        setTimeout(tick, 0);
      },
      [n, gapMs] as const,
    );
    await waitFor(() => arrived(world, variant) >= c0 + n, 120_000, `${n} paced beacons from ${variant}`);
    await sleep(200);
    const sent = await p.page.evaluate(() => (window as unknown as { __sent: number[] }).__sent);
    const got = variant === 'alloy' ? world.edgeHits.slice(c0, c0 + n) : world.collector.beacons.slice(c0, c0 + n).map((b) => b.receivedAt);
    const lat = sent.map((t, i) => got[i] - t).filter(Number.isFinite);
    const long = await p.page.evaluate(
      () => (window as unknown as { __long: Array<{ type: string; duration: number; scripts?: string[] }> }).__long,
    );
    const tasks = long.filter((e) => e.type === 'longtask');
    const frames = long.filter((e) => e.type === 'long-animation-frame');
    return {
      events: n,
      latencyMedianMs: median(lat),
      latencyP95Ms: quantile(lat, 0.95),
      longTasks: tasks.length,
      longestTaskMs: Math.max(0, ...tasks.map((t) => t.duration)),
      longFrames: frames.length,
      longestFrameMs: Math.max(0, ...frames.map((t) => t.duration)),
      blamed: [...new Set(frames.flatMap((f) => f.scripts ?? []).map((s) => s.replace(/\?.*$/, '').replace(world.base, '')))].slice(0, 8),
    };
  } finally {
    await p.close();
  }
}

export { VARIANTS };

/**
 * INP on a small React page: `clicks` trusted clicks (Playwright) on a button whose handler updates
 * React state and calls `_satellite.track('Element Interactions')`, with `rate`× CPU throttling (4: a mid-range phone). Each
 * click waits for its beacon and a quiet moment. Event Timing reports entries from 16 ms (Chrome's
 * minimum `durationThreshold`), rounded to 8 ms; a click with no entry counts as 0 here ("< 16").
 */
export async function inpRun(world: World, variant: Variant, clicks: number, rate = 4) {
  const p = await openPage(world, { variant, react: true });
  try {
    await warm(world, p, 1);
    await p.page.evaluate(() => {
      const w = window as unknown as { __inp: Array<{ id: number; d: number }> };
      w.__inp = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as Array<PerformanceEntry & { interactionId?: number }>) {
          if (e.interactionId) w.__inp.push({ id: e.interactionId, d: e.duration });
        }
      }).observe({ type: 'event', durationThreshold: 16, buffered: true } as PerformanceObserverInit);
    });
    await p.cdp.send('Emulation.setCPUThrottlingRate', { rate });
    for (let i = 0; i < clicks; i++) {
      const c0 = arrived(world, variant);
      await p.page.click('#add');
      await waitFor(() => arrived(world, variant) >= c0 + 1, 30_000, `the click's beacon from ${variant}`);
      await sleep(40);
    }
    await p.cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await sleep(200);
    const { entries, handler } = await p.page.evaluate(() => {
      const w = window as unknown as { __inp: Array<{ id: number; d: number }>; __inpHandlerMs: number[] };
      return { entries: w.__inp, handler: w.__inpHandlerMs };
    });
    const byInteraction = new Map<number, number>();
    for (const e of entries) byInteraction.set(e.id, Math.max(byInteraction.get(e.id) ?? 0, e.d));
    const durations = [...byInteraction.values()];
    while (durations.length < clicks) durations.push(0);
    return {
      clicks,
      durationMedianMs: median(durations),
      durationP98Ms: quantile(durations, 0.98),
      durationMaxMs: Math.max(...durations),
      reported: byInteraction.size,
      handlerMedianMs: median(handler),
    };
  } finally {
    await p.close();
  }
}

/** A Chrome trace's events, its `performance.mark`s whose names begin with `prefix`, and one of them (the page's main thread). */
function traceMarks(from: Buffer | TraceEvent[], prefix: string): { events: TraceEvent[]; marks: Map<string, TraceEvent>; any: TraceEvent } {
  const trace = Array.isArray(from) ? from : (JSON.parse(from.toString('utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[]);
  const events = Array.isArray(trace) ? trace : trace.traceEvents;
  const marks = new Map<string, TraceEvent>();
  for (const e of events) if (e.name.startsWith(prefix) && (e.cat ?? '').includes('user_timing')) marks.set(e.name, e);
  const any = marks.values().next().value as TraceEvent | undefined;
  if (!any) throw new Error('bench: no performance.mark found in the trace');
  return { events, marks, any };
}

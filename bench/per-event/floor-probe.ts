/**
 * Where Offtag's per-event main-thread time goes beyond the bridge's own code, with no
 * DevTools domain enabled (only Playwright's connection, used between the measured windows).
 *
 * 1. Messages: an init script wraps every `MessagePort` `onmessage` handler of the bench's Offtag
 *    page and counts, per burst, what the worker posts back to offtag.js (effect batches by their
 *    effect types, empty batches, acknowledgements) and the time spent in the handlers, and the
 *    page's `document.cookie` writes.
 * 2. Stolen time: the page keeps its main thread busy with back-to-back 1 ms tasks (a
 *    MessageChannel loop, as `bench/delivery/request-cost.ts`) while a burst runs, from one task: n Page
 *    Views or n Element Interactions until every beacon reached the collector (+60 ms, as the
 *    bench's samples), or n floor (a) / floor (b) calls (`installFloor`, bench/lib/measure.ts) until
 *    their replies are back. What the loop did not get, beyond the share of a round with no burst
 *    (`none`, as long as the last Page View round), divided by n, is each event's main-thread time
 *    with everything counted: the bridge, the message tasks, Chrome's own work for the page
 *    (the requests the workers make, storage), GC. Rounds interleaved, medians.
 *
 * `--dists dir1,dir2`: folders each holding a build's offtag.js, offtag-worker.js,
 * offtag-sender.js and offtag-effects.js, copied to bench/.build/probe-<i>/ and loaded from there
 * by a page of their own (one browser context each), interleaved round by round; the floor runs
 * on the first. `--cdp`: no busy loop; instead the CDP `Performance` domain's ThreadTime over the
 * same windows (the bench's measure; the domain is enabled only then), minus the CPU per ms of
 * wall of the rounds with no burst (which pay the two `getMetrics` calls too): CPU per event.
 * Run: `npx tsx bench/per-event/floor-probe.ts [--n 250] [--rounds 7] [--dists …] [--cdp]` (dist/ built). Never asserted.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import type { CDPSession, Page } from 'playwright';
import { installFloor, median, metrics, waitFor } from '../lib/measure.ts';
import { BUILD, DIST, startWorld } from '../lib/setup.ts';

const opt = (name: string, d: string) => {
  const i = process.argv.indexOf(name);
  return Number(i < 0 ? d : process.argv[i + 1]);
};
const DISTS = (process.argv.includes('--dists') ? process.argv[process.argv.indexOf('--dists') + 1].split(',') : [DIST]).map((d) => d.replace(/\/$/, ''));
const CDP = process.argv.includes('--cdp');
const N = opt('--n', '250');
const ROUNDS = opt('--rounds', '7');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Counts what reaches every MessagePort handler (the bridge's, the floor's); the busy loop's own port is left alone. */
const HOOKS = () => {
  const w = window as unknown as Record<string, unknown>;
  const counts: Record<string, number> = {};
  let handlerMs = 0;
  w.__counts = () => ({ ...counts, handlerMs });
  const d = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage')!;
  Object.defineProperty(MessagePort.prototype, 'onmessage', {
    configurable: true,
    get: d.get,
    set(f: ((e: MessageEvent) => void) | null) {
      if (!f || (this as { __loop?: boolean }).__loop) return d.set!.call(this, f);
      d.set!.call(this, (e: MessageEvent) => {
        const data = e.data as { effects?: Array<{ type: string }>; a?: number } | null;
        let kind = 'other';
        if (data && Array.isArray(data.effects))
          kind = data.effects.length ? `batch: ${[...new Set(data.effects.map((x) => x.type))].sort().join('+')}` : data.a ? 'ack (empty batch)' : 'empty batch';
        if (data && Array.isArray(data.effects) && data.a && data.effects.length) kind += ' + ack';
        counts[kind] = (counts[kind] ?? 0) + 1;
        const t0 = performance.now();
        try {
          return f.call(this, e);
        } finally {
          handlerMs += performance.now() - t0;
        }
      });
    },
  });
  // Cookie writes (`document.cookie = …`): per-event coalescing (the worker's `holdEffects`) shows here.
  const c = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
  Object.defineProperty(Document.prototype, 'cookie', {
    configurable: true,
    get: c.get,
    set(v: string) {
      counts['cookie writes'] = (counts['cookie writes'] ?? 0) + 1;
      c.set!.call(this, v);
    },
  });
  // The busy loop: 1 ms tasks back to back until stopped; `fire` runs in one of them.
  w.__probe = (fire: () => void) => {
    if (w.__noLoop) {
      const t0 = performance.now();
      setTimeout(fire, 0);
      w.__stop = () => ({ wall: performance.now() - t0, busy: 0 });
      return;
    }
    const ch = new MessageChannel();
    (ch.port1 as unknown as { __loop: boolean }).__loop = true;
    let stop = false;
    let busy = 0;
    let fired = false;
    const t0 = performance.now();
    const done = new Promise<{ wall: number; busy: number }>((resolve) => {
      ch.port1.onmessage = () => {
        if (stop) return resolve({ wall: performance.now() - t0, busy });
        if (!fired) {
          fired = true;
          fire();
        }
        const s = performance.now();
        while (performance.now() - s < 1);
        busy += performance.now() - s;
        ch.port2.postMessage(0);
      };
    });
    ch.port2.postMessage(0);
    w.__stop = () => ((stop = true), done);
  };
};

const world = await startWorld();
try {
  type Kind = 'none' | 'Page View' | 'Element Interactions' | 'floor a' | 'floor b' | 'floor r';
  interface P { label: string; page: Page; cdp?: CDPSession; kinds: Kind[] }
  const ps: P[] = [];
  for (const [i, dir] of DISTS.entries()) {
    const ctx = await world.browser.newContext();
    const page = await ctx.newPage();
    await page.addInitScript({ content: `globalThis.__name = (f) => f;\n(${HOOKS.toString()})();` });
    // The build's four files go to bench/.build/probe-<i>/, and the page loads offtag.js from there
    // (offtag.js finds the worker, the sender and offtag-effects.js beside itself).
    await mkdir(`${BUILD}/probe-${i}`, { recursive: true });
    for (const f of ['offtag.js', 'offtag-worker.js', 'offtag-sender.js', 'offtag-effects.js']) await copyFile(`${dir}/${f}`, `${BUILD}/probe-${i}/${f}`);
    await page.route('**/page?*', async (r) => {
      const res = await r.fetch();
      r.fulfill({ response: res, body: (await res.text()).replace('/dist/offtag.js', `/build/probe-${i}/offtag.js`) });
    });
    await page.goto(world.pageUrl({ variant: 'offtag' }), { waitUntil: 'load' });
    await sleep(500);
    if (CDP) await page.evaluate('window.__noLoop = true');
    const cdp = CDP ? await ctx.newCDPSession(page) : undefined;
    await cdp?.send('Performance.enable');
    if (i === 0) await installFloor(page);
    ps.push({ label: dir, page, cdp, kinds: i === 0 ? ['none', 'Page View', 'Element Interactions', 'floor a', 'floor b', 'floor r'] : ['none', 'Page View', 'Element Interactions'] });
  }
  const beacons = () => world.collector.beacons.length;
  const round = async ({ page, cdp }: P, kind: Kind, noneMs: number) => {
    const c0 = beacons();
    const m0 = (await page.evaluate('window.__counts()')) as Record<string, number>;
    const t0 = cdp ? (await metrics(cdp)).ThreadTime : 0;
    if (kind === 'Page View' || kind === 'Element Interactions') {
      await page.evaluate(`window.__probe(() => { for (let i = 0; i < ${N}; i++) _satellite.track(${JSON.stringify(kind)}); })`);
      await waitFor(() => beacons() >= c0 + N, 120_000, `${N} beacons`);
      await sleep(60);
    } else if (kind === 'none') {
      await page.evaluate(`window.__probe(() => {})`);
      await sleep(noneMs);
    } else {
      await page.evaluate(`window.__floorDone = new Promise((r) => window.__probe(() => window.__floorRun(${JSON.stringify(kind.slice(-1))}, ${N}).then(r)))`);
      await page.evaluate('window.__floorDone');
      await sleep(20);
    }
    const r = (await page.evaluate('window.__stop()')) as { wall: number; busy: number };
    const cpu = cdp ? ((await metrics(cdp)).ThreadTime - t0) * 1000 : NaN;
    const m1 = (await page.evaluate('window.__counts()')) as Record<string, number>;
    const msgs: Record<string, number> = {};
    for (const k of Object.keys(m1)) if (k !== 'handlerMs' && m1[k] !== (m0[k] ?? 0)) msgs[k] = (m1[k] - (m0[k] ?? 0)) / N;
    return { ...r, cpu, msgs, handlerMs: (m1.handlerMs - m0.handlerMs) / N };
  };
  type R = Awaited<ReturnType<typeof round>>;
  const rows: Record<string, R[]> = {};
  // Warm: every path once.
  for (const p of ps) for (const k of p.kinds) await round(p, k, 300);
  let noneMs = 1000;
  for (let r = 0; r < ROUNDS; r++)
    for (const p of ps)
      for (const k of p.kinds) {
        const x = await round(p, k, noneMs);
        if (k === 'Page View') noneMs = x.wall;
        (rows[`${p.label}|${k}`] ??= []).push(x);
      }
  const share = (x: { wall: number; busy: number }) => 1 - x.busy / x.wall;
  console.log(`n = ${N} per burst, ${ROUNDS} rounds`);
  for (const p of ps) {
    const none = rows[`${p.label}|none`];
    const base = median(none.map(share));
    // CPU of a round with no burst, per ms of wall: what any window costs anyway.
    const baseCpu = median(none.map((x) => x.cpu / x.wall));
    console.log(`${p.label}: baseline ${(base * 100).toFixed(1)}% of the wall time not the loop's`);
    const stolen: Record<string, number> = {};
    const cpu: Record<string, number> = {};
    for (const k of p.kinds.slice(1)) {
      const xs = rows[`${p.label}|${k}`];
      stolen[k] = CDP ? NaN : median(xs.map((x) => ((share(x) - base) * x.wall) / N));
      cpu[k] = median(xs.map((x) => (x.cpu - baseCpu * x.wall) / N));
      const msgs: Record<string, number[]> = {};
      for (const x of xs) for (const [m, v] of Object.entries(x.msgs)) (msgs[m] ??= []).push(v);
      const per = Object.entries(msgs).map(([m, v]) => `${m} ${median(v).toFixed(2)}`).join(', ');
      console.log(
        `  ${k}: ${CDP ? `CPU ${cpu[k].toFixed(3)}` : `stolen ${stolen[k].toFixed(3)}`} ms per event (wall ${median(xs.map((x) => x.wall)).toFixed(0)} ms); handlers ${median(xs.map((x) => x.handlerMs)).toFixed(3)} ms per event; messages per event: ${per || 'none'}`,
      );
    }
    const f = CDP ? cpu : stolen;
    if (f['floor b']) console.log(`  ÷ floor (b): Page View ${(f['Page View'] / f['floor b']).toFixed(2)}, Element Interactions ${(f['Element Interactions'] / f['floor b']).toFixed(2)}`);
    if (f['floor r']) console.log(`  ÷ floor (r): Page View ${(f['Page View'] / f['floor r']).toFixed(2)}, Element Interactions ${(f['Element Interactions'] / f['floor r']).toFixed(2)}`);
  }
} finally {
  await world.close();
}

/**
 * Main-thread CPU per event without DevTools ("per event"): the bench's section 1
 * sample (a burst of `n` events of one type fired from one page task, until every beacon reached
 * the collector, + 60 ms) on pages opened by a Chromium started by hand, with no DevTools protocol
 * and no Playwright, as `loadProc` in bench/load/load.ts. The page renderer's main-thread CPU is read
 * from `/proc/<pid>/task/<pid>/schedstat` when the page asks for a window's start and end: the
 * page fetches `/s` before its burst and `/e` after it, and the server answers `/e` only once
 * the burst's beacons have all arrived (+ 60 ms). Each round also has a window with no events,
 * as long as the round's last burst (`noop`); a type's figure is (its window − the noop window) / n.
 * One browser per variant, all open at once; a round runs every variant's windows in turn (the
 * order rotates round by round), so the machine's drift falls on every variant alike. Round 0
 * warms up and is not counted. The per-request tasks a DevTools-attached page pays for its
 * worker's requests (bench/per-event/per-event-trace.ts) are in the bench's CDP figure; this one has none.
 * The main-thread variants lose beacons here: their bursts of `keepalive` fetches from the page
 * (bench/variants) were cut short without DevTools (2026-11-25: main-thread 125 of 250, 57 of
 * 100; turbine 15 of 100 arrived), so by default only Offtag runs, and its ratios come from
 * bench/per-event/per-event.ts.
 * Run: `npx tsx bench/per-event/per-event-proc.ts [--n 100] [--rounds 7] [--variants offtag]
 * [--events 'Element Interactions,Page View'] [--no-build]` (dist/ built; alloy needs Playwright's
 * routed edge, so it is not offered). Never asserted.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { descendants } from '../lib/proc.ts';
import { median, waitFor } from '../lib/measure.ts';
import { buildVariants, startWorld, type Variant } from '../lib/setup.ts';

const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? d : process.argv[i + 1];
};
const N = Number(arg('--n', '100'));
const ROUNDS = Number(arg('--rounds', '7'));
const VARS = arg('--variants', 'offtag').split(',') as Variant[];
const EVS = arg('--events', 'Element Interactions,Page View').split(',');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** CPU ns of each renderer's main thread (the process's first thread), by pid. */
function rendererMainNs(browser: number): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of descendants(browser))
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      if (!cmd.includes('--type=renderer') || cmd.includes('--top-chrome-webui')) continue;
      out.set(pid, Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      /* the process ended */
    }
  return out;
}

/** The page's driver: asks for its turn, then per type a window `/s` … burst … `/e`, then a noop window. */
const DRIVER = (v: string, events: string[], n: number, collector: string) => `<script>addEventListener('load', () => setTimeout(async () => {
  const v = ${JSON.stringify(v)}, E = ${JSON.stringify([...events, 'noop'])}, n = ${n};
  // 'sender GETs': n beacon-like GETs to the collector from a SharedWorker of the page's own, one at a time (what the sender's requests cost the page without the engine).
  const U = ${JSON.stringify(collector + '/b/ss/bench/1/JS-2.27.0/s0?AQB=1&AQE=1')};
  let sw;
  const gets = () => { sw ??= new SharedWorker(URL.createObjectURL(new Blob(['onconnect = (c) => { const p = c.ports[0]; p.onmessage = async ({ data: n }) => { for (let i = 0; i < n; i++) (await fetch(' + JSON.stringify(U) + ' + "&i=" + i, { credentials: "include", keepalive: true })).body?.cancel(); }; };']))); sw.port.postMessage(n); };
  const bridge = () => { const m = window.offtag && offtag.metrics(); return m ? m.postMs + m.applyMs : 0; };
  while ((await (await fetch('/go?v=' + v)).text()) == 'run')
    for (const id of E) {
      await fetch('/s?v=' + v + '&k=' + encodeURIComponent(id));
      const b0 = bridge();
      setTimeout(() => { if (id == 'sender GETs') gets(); else if (id != 'noop') for (let i = 0; i < n; i++) _satellite.track(id); }, 0);
      await fetch('/e?v=' + v + '&k=' + encodeURIComponent(id) + '&n=' + (id == 'noop' ? 0 : n));
      await fetch('/b?v=' + v + '&k=' + encodeURIComponent(id) + '&ms=' + (bridge() - b0));
    }
}, 1000));</script>`;

if (!process.argv.includes('--no-build')) await buildVariants([]);
const world = await startWorld();
const go: Partial<Record<string, (answer: string) => void>> = {};
const browsers: Record<string, number> = {};
/** Per variant: the page renderer's pid (the busiest renderer at its first window). */
const pageRenderer: Record<string, number> = {};
const at: Record<string, { ns: number; other: number; c0: number; t0: number }> = {};
const lastWall: Record<string, number> = {};
const windows: Array<{ v: string; k: string; round: number; ms: number; otherMs: number; bridgeMs?: number }> = [];
let round = -1;
const read = (v: string) => {
  const ns = rendererMainNs(browsers[v]);
  pageRenderer[v] ??= [...ns.entries()].sort((a, b) => b[1] - a[1])[0][0];
  const page = ns.get(pageRenderer[v]) ?? NaN;
  return { ns: page, other: [...ns.values()].reduce((a, b) => a + b, 0) - page };
};
const server = createServer(async (req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  const v = url.searchParams.get('v') ?? '';
  const k = url.searchParams.get('k') ?? '';
  if (url.pathname === '/go') return void (go[v] = (answer) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end(answer));
  if (url.pathname === '/b') {
    const w = [...windows].reverse().find((x) => x.v === v && x.k === k);
    if (w) w.bridgeMs = Number(url.searchParams.get('ms'));
    return void res.writeHead(204).end();
  }
  if (url.pathname === '/s') {
    at[v + k] = { ...read(v), c0: world.collector.beacons.length, t0: Date.now() };
    return void res.writeHead(204).end();
  }
  if (url.pathname === '/e') {
    const n = Number(url.searchParams.get('n'));
    const s = at[v + k];
    if (n) await waitFor(() => world.collector.beacons.length >= s.c0 + n, 120_000, `${n} beacons from ${v}`).catch((e) => { console.error(`${v} ${k}: ${world.collector.beacons.length - s.c0} of ${n} beacons`); throw e; });
    else await sleep(lastWall[v] ?? 1000);
    if (n) lastWall[v] = Date.now() - s.t0;
    await sleep(60);
    const e = read(v);
    windows.push({ v, k, round, ms: (e.ns - s.ns) / 1e6, otherMs: (e.other - s.other) / 1e6 });
    return void res.writeHead(204).end();
  }
  const r = await fetch(world.base + req.url);
  res.writeHead(r.status, Object.fromEntries([...r.headers].filter(([h]) => !['content-encoding', 'content-length', 'transfer-encoding'].includes(h))));
  res.end(Buffer.from(await r.arrayBuffer()));
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const profiles: string[] = [];
const kids: number[] = [];
try {
  for (const v of VARS) {
    const profile = mkdtempSync(join(tmpdir(), 'offtag-per-event-'));
    profiles.push(profile);
    const url = world.pageUrl({ variant: v, tail: DRIVER(v, EVS, N, world.collector.url) }).replace(world.base, base);
    const chrome = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, ...world.chromiumArgs, '--headless=new', `--user-data-dir=${profile}`, ...(process.env.PEP_LOG ? ['--enable-logging=stderr'] : []), url], { stdio: ['ignore', 'ignore', process.env.PEP_LOG ? 'inherit' : 'ignore'], detached: true });
    browsers[v] = chrome.pid!;
    kids.push(chrome.pid!);
  }
  for (round = 0; round <= ROUNDS; round++) {
    for (const v of VARS.map((_, i) => VARS[(i + round) % VARS.length])) {
      await waitFor(() => !!go[v], 60_000, `${v}'s page to ask for its turn`);
      const release = go[v]!;
      delete go[v];
      release('run');
      // Its windows are done when it asks again.
      await waitFor(() => !!go[v], 600_000, `${v}'s windows`);
    }
    console.log(`round ${round}${round ? '' : ' (warm-up)'} done`);
  }
  for (const v of VARS) go[v]?.('stop');
  console.log(`\nMain-thread CPU per event without DevTools (/proc schedstat of the page renderer's main thread), n = ${N}, median of ${ROUNDS} rounds:`);
  const per = (v: string, k: string) => {
    const xs: number[] = [];
    const os: number[] = [];
    const bs: number[] = [];
    for (let r = 1; r <= ROUNDS; r++) {
      const w = windows.find((x) => x.v === v && x.k === k && x.round === r);
      const z = windows.find((x) => x.v === v && x.k === 'noop' && x.round === r);
      if (w && z) xs.push((w.ms - z.ms) / N), os.push((w.otherMs - z.otherMs) / N), bs.push((w.bridgeMs ?? NaN) / N);
    }
    return { ms: median(xs), other: median(os), bridge: median(bs), xs };
  };
  for (const k of EVS) {
    const o = k === 'sender GETs' ? NaN : per('offtag', k).ms;
    console.log(`  ${k}:`);
    for (const v of VARS) {
      const p = per(v, k);
      console.log(`    ${v.padEnd(12)} ${p.ms.toFixed(3)} ms${v !== 'offtag' && VARS.includes('offtag') ? ` (${(p.ms / o).toFixed(1)}× Offtag)` : ''}; other renderers' main threads ${p.other.toFixed(3)} ms${v === 'offtag' && p.bridge ? `; the bridge's own timing ${p.bridge.toFixed(3)} ms` : ''}; rounds ${p.xs.map((x) => x.toFixed(3)).join(' ')}`);
    }
  }
  for (const v of VARS) console.log(`  noop window, ${v}: ${median(windows.filter((x) => x.v === v && x.k === 'noop' && x.round > 0).map((x) => x.ms)).toFixed(2)} ms`);
} finally {
  for (const pid of kids)
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      /* gone */
    }
  await sleep(300);
  for (const p of profiles) rmSync(p, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  server.closeAllConnections();
  server.close();
  await world.close();
}

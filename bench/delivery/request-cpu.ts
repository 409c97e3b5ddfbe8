/**
 * `npm run bench:request-cpu`: what one beacon request costs the machine in CPU, all processes
 * together, with no DevTools protocol and no Playwright: Chromium is started by hand on a page that
 * fires its own bursts, and the CPU time of every thread of Chromium's processes and of this
 * Node process (the collector) is read from /proc before and after each burst (Linux only).
 *
 * Variants, interleaved round by round, each a burst of 250 beacons:
 * - offtag: 250 Page Views through Offtag (worker engine, durable queue, SharedWorker sender);
 * - offtag-no-idb: the same build in a browser of its own, its worker served with `indexedDB`
 *   taken away (the queue on its in-memory store): what the durable store costs;
 * - serial: no engine, a SharedWorker making 250 beacon GETs one at a time (ordered sending): the
 *   URLs Offtag's burst of the round before delivered (like for like, as bench:burst's ceiling);
 * - four: the same, 4 at a time (unordered).
 * Rate: beacons per second between the first and the last beacon's arrival at the collector (the
 * page polls for its go, so the time before the first beacon is left out for every variant).
 * The bound: with C cores, a variant cannot exceed C × 1000 / (CPU ms per beacon) beacons per
 * second however its sending is arranged. Writes bench/results/request-cpu.md (docs/delivery.md,
 * "Throughput").
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { startCollector } from '../../tools/collector/server.ts';
import { startIdService } from '../../tools/id-service/server.ts';
import { serveStatic } from '../../tools/static.ts';
import { median } from '../lib/measure.ts';
import { CEILING_WORKER, DIST, pageSetup } from '../lib/setup.ts';
import { saveResult } from '../lib/report.ts';

const N = 250;
const ROUNDS = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9)) || 5;
const MODES = ['offtag', 'offtag-no-idb', 'serial', 'four'] as const;
type Mode = (typeof MODES)[number];
const CORES = cpus().length;
const HZ = 100; // /proc/…/stat ticks (USER_HZ on Linux)

const collector = await startCollector({ port: 0, quiet: true });
const idService = await startIdService({ port: 0 });
/** What the page should do next: a mode and a round tag; the page polls it. */
let order = { k: 0, mode: 'offtag' as Mode, tag: '', n: N };
/**
 * The no-engine modes replay the beacon URLs Offtag's last burst delivered (≈ 1 KB each, a new
 * random hit segment each), like for like with bench:burst's ceiling; the page fetches them once
 * per order from /urls. Before Offtag's first burst, short made-up URLs.
 */
let replay: string[] = [];

const page = (dist: string) => `<!doctype html><html><head><meta charset="utf-8"><title>request cpu</title><script>
${pageSetup(collector.url, idService.url)}
</script><script src="/${dist}/offtag.js"></script></head><body><script>
const raw = new SharedWorker(URL.createObjectURL(new Blob([${JSON.stringify(CEILING_WORKER)}], { type: 'text/javascript' })));
raw.port.start();
let done = 0;
setInterval(async () => {
  const o = await (await fetch('/order', { cache: 'no-store' })).json();
  if (o.k <= done) return;
  done = o.k;
  if (o.mode.startsWith('offtag')) for (let i = 0; i < o.n; i++) _satellite.track('Page View');
  else {
    const urls = await (await fetch('/urls', { cache: 'no-store' })).json();
    raw.port.postMessage({ window: o.mode === 'four' ? 4 : 1, urls: urls.length >= o.n ? urls.slice(0, o.n) : Array.from({ length: o.n }, (_, i) => ${JSON.stringify(collector.url)} + '/b/ss/raw/1/JS-2.27.0/s' + o.tag + '-' + i + '?AQB=1&pageName=' + o.tag + '-' + i + '&AQE=1') });
  }
}, 50);
</script></body></html>`;

const dist = `${DIST}/`;
const server = createServer(async (req, res) => {
  if (req.url === '/urls')
    return void res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(replay.map((u, i) => u.replace(/\/s[^/?]*\?/, `/s${order.tag}x${i}?`))));
  if (req.url === '/order') return void res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(order));
  if (req.url === '/' || req.url === '/?no-idb')
    return void res.writeHead(200, { 'Content-Type': 'text/html', 'Cache-Control': 'no-cache' }).end(page(req.url === '/' ? 'dist' : 'dist-no-idb'));
  // The same build, its worker without IndexedDB (the queue on its in-memory store): what the store costs.
  if (req.url === '/dist-no-idb/offtag-worker.js')
    return void res
      .writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-cache' })
      .end(`Object.defineProperty(globalThis, 'indexedDB', { value: undefined, configurable: true });\n${readFileSync(`${dist}offtag-worker.js`, 'utf8')}`);
  if ((await serveStatic(req, res, dist, '/dist/')) || (await serveStatic(req, res, dist, '/dist-no-idb/'))) return;
  res.writeHead(404).end();
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const PROFILE_TAG = 'offtag-request-cpu-';
/** A Chromium of its own for each round, with a new profile: Chromium slows every request of a profile down some thousands of requests in (docs/delivery.md, "Throughput"). */
async function withChromium(path: string, run: () => Promise<void>): Promise<void> {
  const profile = mkdtempSync(join(tmpdir(), PROFILE_TAG));
  const chrome = spawn(CHROMIUM_PATH, [...CHROMIUM_ARGS, `--host-resolver-rules=MAP *.demdex.net ${new URL(idService.url).host}`, '--headless=new', `--user-data-dir=${profile}`, `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`], { stdio: 'ignore', detached: true });
  try {
    await run();
    // The variants are what they say: Offtag's worker wrote its queue to IndexedDB, the no-idb one did not.
    const idb = join(profile, 'Default', 'IndexedDB');
    const used = existsSync(idb) && readdirSync(idb).some((f) => f.startsWith('http_127.0.0.1_'));
    if (used !== (path === '/')) throw new Error(`request-cpu: the page at ${path} ${used ? 'used' : 'did not use'} IndexedDB`);
  } finally {
    const exited = new Promise((r) => chrome.once('exit', r));
    process.kill(-chrome.pid!, 'SIGKILL'); // the whole process group: the browser and its children
    await exited;
    await sleep(300);
    rmSync(profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** CPU ms so far per process kind: Chromium's processes (by --type; the network and storage services apart) and this process. */
function cpuByProcess(): Map<string, number> {
  const out = new Map<string, number>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    let cmd = '';
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      continue;
    }
    const me = Number(pid) === process.pid;
    if (!me && !cmd.includes(PROFILE_TAG)) continue;
    const kind = me
      ? 'node (collector)'
      : cmd.includes('network.mojom')
        ? 'network service'
        : cmd.includes('storage.mojom')
          ? 'storage service'
          : (cmd.match(/--type=([\w-]+)/)?.[1] ?? 'browser');
    try {
      const st = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = st.slice(st.lastIndexOf(')') + 2).split(' ');
      out.set(kind, (out.get(kind) ?? 0) + ((Number(f[11]) + Number(f[12])) * 1000) / HZ);
    } catch {
      /* the process ended */
    }
  }
  return out;
}

/** Each beacon's path and query length, per mode: the replay is as long as Offtag's. */
const lengths = Object.fromEntries(MODES.map((m) => [m, [] as number[]])) as Record<Mode, number[]>;
const rates = Object.fromEntries(MODES.map((m) => [m, [] as number[]])) as Record<Mode, number[]>;
const cpu = Object.fromEntries(MODES.map((m) => [m, new Map<string, number>()])) as Record<Mode, Map<string, number>>;
async function burst(mode: Mode, round: number, n = N): Promise<void> {
  const c0 = collector.beacons.length;
  const a = cpuByProcess();
  order = { k: order.k + 1, mode, tag: `${mode}${round}`, n };
  const end = Date.now() + 60_000;
  while (collector.beacons.length < c0 + n) {
    if (Date.now() > end) throw new Error(`request-cpu: ${mode}: only ${collector.beacons.length - c0} of ${n} beacons in 60 s`);
    await sleep(5);
  }
  await sleep(100); // answers, deletes and acknowledgements of the last beacons
  if (n !== N) return; // a warm-up
  const b = cpuByProcess();
  const got = collector.beacons.slice(c0, c0 + N);
  lengths[mode].push(...got.map((x) => x.path.length + x.query.length));
  if (mode === 'offtag') replay = got.filter((x) => x.method !== 'POST').map((x) => `${collector.url}${x.path}?${x.query}`);
  rates[mode].push(((N - 1) * 1000) / Math.max(1, got[N - 1]!.receivedAt - got[0]!.receivedAt));
  for (const [k, v] of b) cpu[mode].set(k, (cpu[mode].get(k) ?? 0) + v - (a.get(k) ?? 0));
}

try {
  for (let r = 0; r < ROUNDS; r++)
    for (const [path, modes] of [['/', MODES.filter((m) => m !== 'offtag-no-idb')], ['/?no-idb', ['offtag-no-idb']]] as const)
      await withChromium(path, async () => {
        // A warm-up of each mode first (the page picks its order up once it has loaded).
        for (const mode of modes) await burst(mode, r, 50);
        for (const mode of modes) await burst(mode, r);
      });
} finally {
  await collector.close();
  await idService.close();
  server.close();
}

const kinds = [...new Set(MODES.flatMap((m) => [...cpu[m].keys()]))].sort((x, y) => (cpu.serial.get(y) ?? 0) - (cpu.serial.get(x) ?? 0));
const per = (m: Mode, k: string) => (cpu[m].get(k) ?? 0) / (ROUNDS * N);
const total = (m: Mode) => kinds.reduce((s, k) => s + per(m, k), 0);
const md = [
  `# CPU per beacon request, all processes, no DevTools`,
  '',
  `\`npm run bench:request-cpu\` · ${new Date().toISOString().slice(0, 10)} · Chromium without Playwright (a new browser and profile each round), ${CORES} cores, ${ROUNDS} rounds of ${N} beacons per variant, interleaved`,
  '',
  `| | ${MODES.join(' | ')} |`,
  `|---|${MODES.map(() => '---:').join('|')}|`,
  `| beacons/s, median (first to last arrival) | ${MODES.map((m) => Math.round(median(rates[m]))).join(' | ')} |`,
  `| request length (path and query, median bytes) | ${MODES.map((m) => Math.round(median(lengths[m]))).join(' | ')} |`,
  `| beacons/s, each round | ${MODES.map((m) => rates[m].map((x) => Math.round(x)).join(', ')).join(' | ')} |`,
  ...kinds.map((k) => `| CPU ms per beacon: ${k} | ${MODES.map((m) => per(m, k).toFixed(2)).join(' | ')} |`),
  `| **CPU ms per beacon, all** | ${MODES.map((m) => `**${total(m).toFixed(2)}**`).join(' | ')} |`,
  `| bound: ${CORES} cores × 1000 / CPU per beacon | ${MODES.map((m) => Math.round((CORES * 1000) / total(m))).join(' | ')} |`,
  '',
  `offtag: 250 Page Views through Offtag (engine, durable IndexedDB queue, the SharedWorker sender, one request at a time). offtag-no-idb: the same build in a browser of its own, its worker served with \`indexedDB\` taken away (the queue on its in-memory store, as where IndexedDB is missing): what the durable store costs. serial / four: no engine, a SharedWorker making 250 beacon GETs to the same collector one at a time / 4 at a time, replaying the URLs Offtag's burst of the round delivered (a new random hit segment each). CPU from /proc (utime + stime of each process, ${HZ} Hz ticks) between the burst's order and 100 ms after its last beacon arrived; node (collector) is this process (collector, ID service, page server).`,
  '',
].join('\n');
await saveResult('request-cpu.md', md);
console.log(md);
process.exit(0);

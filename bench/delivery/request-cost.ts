/**
 * `npm run bench:requests`: what one beacon request costs the page's main thread, by who sends
 * it — a dedicated worker (Offtag's sender), a SharedWorker, or the page itself — measured with
 * no DevTools protocol attached (to confirm a CDP trace's figures).
 *
 * The probe: the page keeps its main thread busy with back-to-back 1 ms tasks (a MessageChannel
 * loop) for the whole burst and records how much of the wall time its own tasks got. Whatever
 * else the main thread does in that time (Chrome reporting the worker's requests to the page,
 * the page's own fetches, scheduling) is the rest. A round without requests gives the baseline
 * share; a request's cost is the extra time taken from the loop, divided by the requests.
 * Senders send serially (the way the beacon queue does), each request a `keepalive` GET with
 * credentials, like a beacon. Variants are interleaved round by round; the median is reported.
 * Writes bench/results/request-cost.md.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { saveResult } from '../lib/report.ts';
import { median } from '../lib/measure.ts';

const N = Number(process.argv.find((a) => a.startsWith('--n='))?.slice(4)) || 200;
const ROUNDS = Number(process.argv.find((a) => a.startsWith('--rounds='))?.slice(9)) || 9;
type Kind = 'none' | 'dedicated' | 'dedicated-plain' | 'shared' | 'page';
const KINDS: Kind[] = ['none', 'dedicated', 'dedicated-plain', 'shared', 'page'];
const LABEL: Record<Kind, string> = {
  none: 'none (baseline: the probe alone)',
  dedicated: 'dedicated worker (Offtag today)',
  'dedicated-plain': 'dedicated worker, without `keepalive`',
  shared: 'SharedWorker',
  page: 'the page itself',
};

const SENDER = `
async function burst(n, keepalive = true) {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fetch('/b?i=' + i, { keepalive, credentials: 'include' });
  return performance.now() - t0;
}`;
const FILES: Record<string, [string, string]> = {
  '/': ['text/html', '<!doctype html><meta charset="utf-8"><title>request cost</title><p>request cost probe</p><script src="/probe.js"></script>'],
  // Plain script text: the page runs it as it is (no bundler helpers in the page).
  '/probe.js': [
    'text/javascript',
    `${SENDER}
const dedicated = new Worker('/dedicated.js');
const shared = new SharedWorker('/shared.js');
shared.port.start();
const ask = (target, n) => new Promise((r) => { target.onmessage = (e) => r(e.data); target.postMessage(n); });
/* Busy 1 ms tasks until the sender is done (or for ms when there is nothing to wait for). */
window.probe = (kind, n, ms) => new Promise((resolve) => {
  const ch = new MessageChannel();
  let finished = false, busy = 0, tasks = 0;
  const t0 = performance.now();
  ch.port1.onmessage = () => {
    const s = performance.now();
    while (performance.now() - s < 1);
    busy += performance.now() - s;
    tasks++;
    if (finished) return resolve({ wall: performance.now() - t0, busy, tasks });
    ch.port2.postMessage(0);
  };
  ch.port2.postMessage(0);
  const done = kind.startsWith('dedicated') ? ask(dedicated, { n, keepalive: kind === 'dedicated' }) : kind === 'shared' ? ask(shared.port, { n, keepalive: true }) : kind === 'page' ? burst(n) : new Promise((r) => setTimeout(r, ms));
  done.then(() => (finished = true));
});`,
  ],
  '/dedicated.js': ['text/javascript', `${SENDER}\nonmessage = async (e) => postMessage(await burst(e.data.n, e.data.keepalive));`],
  '/shared.js': ['text/javascript', `${SENDER}\nonconnect = (c) => { const port = c.ports[0]; port.onmessage = async (e) => port.postMessage(await burst(e.data.n, e.data.keepalive)); };`],
};

let requests = 0;
const server: Server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0]!;
  const file = FILES[path];
  if (file) return void res.writeHead(200, { 'Content-Type': file[0], 'Cache-Control': 'no-store' }).end(file[1]);
  requests++;
  res.writeHead(200, { 'Content-Type': 'image/gif' }).end('GIF89a');
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
const page = await (await browser.newContext()).newPage();
await page.goto(`${origin}/`);
await page.waitForFunction(() => 'probe' in window);
type Probe = { wall: number; busy: number; tasks: number };
const run = (kind: Kind, ms = 0) => page.evaluate(`window.probe(${JSON.stringify(kind)}, ${N}, ${ms})`) as Promise<Probe>;

// Warm every path once.
for (const k of KINDS) await run(k, 200);
const per = Object.fromEntries(KINDS.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
const walls = Object.fromEntries(KINDS.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
for (let r = 0; r < ROUNDS; r++) {
  // The baseline round lasts as long as the previous round's dedicated burst.
  const last = walls.dedicated.at(-1) ?? 500;
  for (const k of KINDS) {
    const p = await run(k, last);
    walls[k].push(p.wall);
    per[k].push((p.wall - p.busy) / p.wall);
  }
}
await browser.close();
server.close();

const baseline = median(per.none);
const row = (k: Kind) => {
  const stolen = per[k].map((share, i) => ((share - per.none[i]!) * walls[k][i]!) / N);
  const ms = median(stolen);
  return `| ${LABEL[k]} | ${Math.round(N / (median(walls[k]) / 1000))} | ${(median(per[k]) * 100).toFixed(1)}% | ${ms.toFixed(3)} |`;
};
const md = [
  '# Main-thread cost of one beacon request, by sender (no DevTools protocol attached)',
  '',
  `\`npm run bench:requests\` · ${new Date().toISOString().slice(0, 10)} · ${N} serial keepalive GETs per round, ${ROUNDS} rounds interleaved, median`,
  '',
  '| sender | requests/s | main thread not running the probe | ms of main thread per request |',
  '|---|---:|---:|---:|',
  `| ${LABEL.none} | — | ${(baseline * 100).toFixed(1)}% | — |`,
  ...KINDS.slice(1).map(row),
  '',
  'The probe keeps the main thread busy with back-to-back 1 ms tasks while the sender sends; the share of wall time its tasks did not get, minus the baseline share of a round without requests, times the wall time, divided by the requests, is what each request cost the page. "page": the page sends with `fetch` itself (the cost of the fetch calls is included).',
  '',
].join('\n');
await saveResult('request-cost.md', md);
console.log(md);
console.log(`(${requests} requests answered)`);

/**
 * `npx tsx bench/delivery/request-tasks.ts [--n=200]`: which tasks a SharedWorker's requests put
 * on the page's main thread, request option by request option. A page starts a SharedWorker that
 * makes `n` requests one after another (the beacon queue's way) with each set of options, or with
 * XMLHttpRequest; a Chrome trace (DevTools attached, events handed over as they are collected)
 * lists the page's main-thread tasks in that window by where Chromium posted them from, and their
 * thread time. It answers whether any way of making the request avoids the per-request main-thread
 * task that floor (r) pays (docs/internals.md, "Per event"). Console only.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { startTrace, topLevelTasks } from '../lib/measure.ts';

const N = Number(process.argv.find((a) => a.startsWith('--n='))?.slice(4)) || 200;
const VARIANTS: Array<[string, Record<string, unknown>]> = [
  ["fetch, keepalive, credentials, the answer's body cancelled (the sender)", { cancel: true }],
  ["fetch, keepalive, credentials, the answer's body left unread", {}],
  ['fetch without keepalive', { keepalive: false }],
  ["fetch, cache: 'no-store'", { cache: 'no-store' }],
  ["fetch, mode: 'no-cors'", { mode: 'no-cors' }],
  ["fetch, priority: 'low'", { priority: 'low' }],
  ['XMLHttpRequest', { xhr: true }],
];

const SENDER = `onconnect = (c) => { const port = c.ports[0]; port.onmessage = async ({ data: { n, opts } }) => {
  for (let i = 0; i < n; i++) {
    if (opts.xhr) await new Promise((r) => { const x = new XMLHttpRequest(); x.open('GET', '/hit?i=' + i); x.withCredentials = true; x.onloadend = r; x.send(); });
    else { const { cancel, ...init } = opts; const r = await fetch('/hit?i=' + i, { credentials: 'include', keepalive: true, ...init }); if (cancel) r.body?.cancel(); }
  }
  port.postMessage('done');
}; };`;

const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const server = createServer((req, res) => {
  if (req.url!.startsWith('/sender.js')) return void res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(SENDER);
  // The collector's answer to a beacon: a 1×1 GIF (so that cancelling its body is not a no-op).
  if (req.url!.startsWith('/hit')) return void res.writeHead(200, { 'Content-Type': 'image/gif' }).end(GIF);
  res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>requests</title><script>window.sender = new SharedWorker("/sender.js"); sender.port.start();</script>');
});
await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
try {
  for (const [label, opts] of VARIANTS) {
    const page = await browser.newPage();
    await page.goto(`${base}/`);
    const run = (n: number) =>
      page.evaluate(
        ({ n, opts }) =>
          new Promise((done) => {
            const port = (window as unknown as { sender: SharedWorker }).sender.port;
            port.onmessage = done;
            port.postMessage({ n, opts });
          }),
        { n, opts },
      );
    await run(5);
    const trace = await startTrace(browser, ['toplevel', 'disabled-by-default-devtools.timeline', 'blink.user_timing']);
    await page.evaluate(() => performance.mark('req:s'));
    await run(N);
    await page.evaluate(() => performance.mark('req:e'));
    const events = await trace.stop();
    const s = events.find((e) => e.name === 'req:s')!;
    const e = events.find((e) => e.name === 'req:e')!;
    const tasks = topLevelTasks(events, s).filter((t) => t.ts >= s.ts && t.ts + (t.dur ?? 0) <= e.ts);
    // Where a task was posted from: its own `src_file`, or that of the `ThreadControllerImpl::RunTask` inside it.
    const named = events.filter((x) => x.name === 'ThreadControllerImpl::RunTask' && x.pid === s.pid && x.tid === s.tid && x.args?.src_file);
    const from = new Map<string, { n: number; us: number }>();
    for (const t of tasks) {
      const src = t.args?.src_file ? t : named.find((x) => x.ts >= t.ts && x.ts <= t.ts + (t.dur ?? 0));
      const k = src ? `${src.args!.src_file}:${src.args!.src_func}` : '(not named)';
      const x = from.get(k) ?? { n: 0, us: 0 };
      x.n++;
      x.us += t.tdur ?? 0;
      from.set(k, x);
    }
    const us = tasks.reduce((a, t) => a + (t.tdur ?? 0), 0);
    console.log(`\n${label}: ${tasks.length} main-thread tasks for ${N} requests, ${(us / 1000 / N).toFixed(3)} ms of main thread per request`);
    for (const [k, x] of [...from].sort((a, b) => b[1].n - a[1].n).slice(0, 4)) console.log(`  ${x.n} × ${k} (${(x.us / 1000).toFixed(1)} ms)`);
    await page.close();
  }
} finally {
  await browser.close();
  server.close();
}

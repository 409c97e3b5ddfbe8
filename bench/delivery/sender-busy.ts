/**
 * `npx tsx bench/delivery/sender-busy.ts`: where a burst's time goes once beacons leave from the origin's
 * SharedWorker sender (docs/delivery.md, "Throughput"). 250 Page Views from one page task, as
 * `npm run bench:burst`; inside the sender, every `fetch` is timed (a wrapper installed through
 * the DevTools protocol before the samples, no change to Offtag's code): how much of the burst the
 * sender had a request in flight (busy), its requests' round trips, and the gaps between them. Beside
 * it, in the same run, the same figures for the no-engine ceiling (a SharedWorker making 250 beacon
 * GETs one at a time). Writes bench/results/sender-busy.md.
 *
 * Reading it: a sender busy nearly all the burst means the queue feeds it as fast as it can send;
 * what is left is each request's round trip while the engine, the page and the collector share
 * the machine's cores with it.
 */
import type { CDPSession } from 'playwright';
import { saveResult } from '../lib/report.ts';
import { median, openPage, sample, warm } from '../lib/measure.ts';
import { buildVariants, CONTAINER_SIZES, startWorld, type World } from '../lib/setup.ts';

const N = 250;
const SAMPLES = Number(process.argv.find((a) => a.startsWith('--samples='))?.slice(10)) || 5;

/** Wraps `fetch` in a worker: per request its start and end (ms, the worker's clock). */
const WRAP = `(() => { if (self.__timed) return 'again'; self.__timed = []; const f = self.fetch;
  self.fetch = function (...a) { const t = performance.now(); return f.apply(this, a).finally(() => self.__timed.push([t, performance.now()])); };
  return 'ok'; })()`;

interface Figures {
  perSec: number;
  busy: number;
  rttP50: number;
  rttP90: number;
  gapMs: number;
}

/** Busy share of `wallMs`, round trips and the sum of gaps, from a list of [start, end] in order. */
function figures(timed: Array<[number, number]>, wallMs: number): Omit<Figures, 'perSec'> {
  let busy = 0;
  let gaps = 0;
  let until = timed[0]?.[0] ?? 0;
  for (const [a, b] of timed) {
    if (a > until) gaps += a - until;
    busy += Math.max(0, b - Math.max(a, until));
    until = Math.max(until, b);
  }
  const rtts = timed.map(([a, b]) => b - a).sort((x, y) => x - y);
  const q = (f: number) => rtts[Math.min(rtts.length - 1, Math.floor(f * rtts.length))] ?? 0;
  return { busy: busy / wallMs, rttP50: q(0.5), rttP90: q(0.9), gapMs: gaps };
}

/** Runtime.evaluate in a shared worker, through the browser's CDP session (flat sessions are not exposed for them). */
async function inWorker(cdp: CDPSession, sessionId: string, expression: string): Promise<unknown> {
  const id = Math.floor(Math.random() * 1e9);
  const answer = new Promise<unknown>((resolve) => {
    const on = (e: { sessionId: string; message: string }) => {
      const m = JSON.parse(e.message) as { id?: number; result?: { result?: { value?: unknown } } };
      if (e.sessionId !== sessionId || m.id !== id) return;
      cdp.off('Target.receivedMessageFromTarget', on);
      resolve(m.result?.result?.value);
    };
    cdp.on('Target.receivedMessageFromTarget', on);
  });
  await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method: 'Runtime.evaluate', params: { expression, returnByValue: true } }) });
  return answer;
}

const CEILING = `onconnect = (c) => { const port = c.ports[0]; port.onmessage = async ({ data: urls }) => {
  const timed = []; const t0 = performance.now();
  for (const u of urls) { const t = performance.now(); (await fetch(u, { credentials: 'include', keepalive: true })).body?.cancel(); timed.push([t, performance.now()]); }
  port.postMessage({ ms: performance.now() - t0, timed });
}; };`;

async function ceiling(world: World, round: number): Promise<Figures> {
  const page = await (await world.browser.newContext()).newPage();
  await page.goto(`${world.base}/blank`);
  const urls = Array.from({ length: N }, (_, i) => `${world.collector.url}/b/ss/ceiling/1/JS-2.27.0/sb${round}x${i}?AQB=1&pageName=busy-${i}&AQE=1`);
  const r = await page.evaluate(
    ([code, urls]) =>
      new Promise<{ ms: number; timed: Array<[number, number]> }>((resolve) => {
        const w = new SharedWorker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
        w.port.onmessage = (e) => resolve(e.data);
        w.port.postMessage(urls);
      }),
    [CEILING, urls] as const,
  );
  await page.context().close();
  return { perSec: N / (r.ms / 1000), ...figures(r.timed, r.ms) };
}

await buildVariants([CONTAINER_SIZES[0]]);
const world = await startWorld();
const rows: Record<'offtag' | 'ceiling', Figures[]> = { offtag: [], ceiling: [] };
try {
  const p = await openPage(world, { variant: 'offtag' });
  await warm(world, p, 5);
  const cdp = await world.browser.newBrowserCDPSession();
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ targetId: string; type: string; url: string }> };
  const sender = targetInfos.find((t) => t.type === 'shared_worker' && t.url.includes('offtag-sender'));
  if (!sender) throw new Error('no offtag-sender.js shared worker: the page sends without the sender');
  const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: sender.targetId, flatten: false })) as { sessionId: string };
  await inWorker(cdp, sessionId, WRAP);
  for (let s = 0; s < SAMPLES; s++) {
    await inWorker(cdp, sessionId, 'self.__timed.length = 0');
    const t0 = Date.now();
    const r = await sample(world, p, 'Page View', N);
    const wall = r.wallMs ?? Date.now() - t0;
    const timed = (await inWorker(cdp, sessionId, 'self.__timed')) as Array<[number, number]>;
    // The burst's own span in the sender: first request out to last answer.
    const span = timed.length ? timed[timed.length - 1]![1] - timed[0]![0] : wall;
    rows.offtag.push({ perSec: r.eventsPerSec, ...figures(timed, span) });
    rows.ceiling.push(await ceiling(world, s));
  }
  await cdp.detach();
  await p.page.close();
} finally {
  await world.close();
}
const med = (v: 'offtag' | 'ceiling', k: keyof Figures) => median(rows[v].map((r) => r[k]));
const row = (v: 'offtag' | 'ceiling', label: string) =>
  `| ${label} | ${Math.round(med(v, 'perSec'))} | ${Math.round(med(v, 'busy') * 100)}% | ${med(v, 'rttP50').toFixed(2)} / ${med(v, 'rttP90').toFixed(2)} | ${Math.round(med(v, 'gapMs'))} |`;
const md = [
  `# Where a burst's time goes in the sender: ${N} Page Views from one page task`,
  '',
  `\`npx tsx bench/delivery/sender-busy.ts\` · ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · median of ${SAMPLES} samples, interleaved · load average at the end: ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`,
  '',
  '| sending | beacons/s | sender busy (a request in flight) | round trip in the sender, p50 / p90 (ms) | gaps between requests, sum (ms) |',
  '|---|---:|---:|---:|---:|',
  row('offtag', "Offtag: the worker's queue, the origin's sender, one at a time"),
  row('ceiling', 'no engine: a SharedWorker, one GET at a time'),
  '',
  "Busy: the share of the span from the sender's first request to its last answer with a request in flight. Offtag's sender is measured by wrapping its `fetch` through the DevTools protocol (attached before the samples, so the samples run with it attached); the ceiling times its own requests. Per sample: " +
    rows.offtag.map((r, i) => `${Math.round(r.perSec)}/${Math.round(rows.ceiling[i]!.perSec)} per s, busy ${Math.round(r.busy * 100)}%, p50 ${r.rttP50.toFixed(1)}/${rows.ceiling[i]!.rttP50.toFixed(1)} ms`).join('; ') +
    '.',
  '',
].join('\n');
await saveResult('sender-busy.md', md);
console.log(md);

/**
 * `npm run bench:burst`: beacons per second in a burst of 250 Page Views, Offtag's worker (the
 * durable IndexedDB queue, requests from the origin's SharedWorker sender) beside the bare
 * ceiling, in one run, sample by sample (docs/bench.md, "Burst throughput"; docs/delivery.md,
 * "Throughput").
 *
 * The ceiling is like for like in what reaches the collector: a SharedWorker with no engine and no
 * queue replays the very requests Offtag's burst of the same sample delivered (same URLs, lengths,
 * methods and bodies; only the hit's random path segment is new), one at a time in the order
 * made, `credentials: 'include'`, `keepalive` and the answer's body cancelled as Offtag's sender. Both are timed the same way:
 * from the bench's order to the page (Node's clock) to the collector's arrival time of the last
 * beacon. The goal: Offtag ≥ 90% of it, the ratio taken sample by sample.
 * Beside them: the same engine on the main thread (bare `fetch`, no queue, all at once) and the
 * same replay 4 at a time (unordered: with how many arrived out of order).
 *
 * Each sample opens fresh browser contexts (`--same-context`: one set for the whole run, as before
 * 2026-11-24). `--dists=a,b`: Offtag builds side by side (folders under bench/.build/ holding a
 * copy of dist/'s offtag*.js, or `dist`), each its own row and ratio; only the default run writes
 * bench/results/burst.md. The offtag figure is also the "beacons per second" row of the full bench
 * (bench/results/latest.md, measured there with measure.ts `sample`).
 */
import type { Page } from 'playwright';
import { saveResult } from '../lib/report.ts';
import { burst as fire, median, openPage, warm, type OpenPage } from '../lib/measure.ts';
import { buildVariants, CONTAINER_SIZES, startWorld, type World } from '../lib/setup.ts';
import type { CollectedBeacon } from '../../tools/collector/server.ts';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
const N = Number(arg('n')) || 250;
const SAMPLES = Number(arg('samples')) || 7;
const SAME_CONTEXT = process.argv.includes('--same-context');
/** Offtag builds to compare: `dist` (the one `npm run bench:burst` builds) or a folder of bench/.build/. */
const DISTS = (arg('dists') ?? 'dist').split(',');
const AB = DISTS.length > 1 || DISTS[0] !== 'dist';

/** A request as Offtag's sender makes it. */
interface Replay {
  url: string;
  method: string;
  body?: string;
}

/**
 * The bare ceiling: a SharedWorker making the requests it is sent, `window` at a time, in the order
 * given, with the options of Offtag's sender; it answers once all are done.
 */
const REPLAY_WORKER = `onconnect = (c) => { const port = c.ports[0]; port.onmessage = async ({ data: { reqs, window } }) => {
  let next = 0;
  const lane = async () => { while (next < reqs.length) { const r = reqs[next++];
    (await fetch(r.url, { method: r.method, body: r.body, headers: r.body ? { 'Content-Type': 'application/x-www-form-urlencoded' } : undefined, credentials: 'include', keepalive: true })).body?.cancel(); } };
  await Promise.all(Array.from({ length: window }, lane));
  port.postMessage('done');
}; }; `;

/** Waits until `n` beacons arrived after `from`; their arrival order, and the last arrival (epoch ms). */
async function arrivals(world: World, from: number, n: number): Promise<CollectedBeacon[]> {
  const end = Date.now() + 120_000;
  while (world.collector.beacons.length < from + n) {
    if (Date.now() > end) throw new Error(`bench: timed out waiting for ${n} beacons`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return world.collector.beacons.slice(from, from + n);
}

const rate = (t0: number, got: CollectedBeacon[]) => got.length / (Math.max(1, got[got.length - 1]!.receivedAt - t0) / 1000);

/** One burst of `N` Page Views from one page task; its beacons' rate, and the requests as delivered. */
async function burst(world: World, p: OpenPage): Promise<{ perSec: number; reqs: Replay[] }> {
  const from = world.collector.beacons.length;
  const t0 = Date.now();
  await fire(p.page, 'Page View', N);
  const got = await arrivals(world, from, N);
  const reqs = got.map((b) => ({ url: `${world.collector.url}${b.path}${b.method === 'POST' ? '' : `?${b.query}`}`, method: b.method ?? 'GET', body: b.method === 'POST' ? b.query : undefined }));
  return { perSec: rate(t0, got), reqs };
}

/** The ceiling's SharedWorker in a blank page, connected before it is timed. */
async function replayer(page: Page): Promise<void> {
  await page.evaluate((code) => {
    const w = new SharedWorker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
    (window as unknown as { replay: MessagePort }).replay = w.port;
    w.port.start();
  }, REPLAY_WORKER);
}

/** Offtag's requests replayed `lanes` at a time, each with a new random path segment (the collector keys hits by it). */
async function ceiling(world: World, page: Page, reqs: Replay[], lanes: number, tag: string): Promise<{ perSec: number; outOfOrder: number }> {
  const fresh = reqs.map((r, i) => ({ ...r, url: r.url.replace(/\/s[^/?]*(\?|$)/, `/s${tag}x${i}$1`) }));
  const from = world.collector.beacons.length;
  const t0 = Date.now();
  await page.evaluate(
    ([reqs, lanes]) => (window as unknown as { replay: MessagePort }).replay.postMessage({ reqs, window: lanes }),
    [fresh, lanes] as const,
  );
  const got = await arrivals(world, from, N);
  // Out of order: a beacon that arrived after one made later than it.
  let highest = -1;
  let outOfOrder = 0;
  for (const b of got) {
    const i = Number(/x(\d+)$/.exec(b.path)?.[1]);
    if (i < highest) outOfOrder++;
    highest = Math.max(highest, i);
  }
  return { perSec: rate(t0, got), outOfOrder };
}

await buildVariants([CONTAINER_SIZES[0]]);
const world = await startWorld();
const rows = AB ? DISTS : ['offtag', 'main-thread'];
const rates: Record<string, number[]> = Object.fromEntries([...rows, 'serial', 'four'].map((k) => [k, []]));
const ratios: Record<string, number[]> = Object.fromEntries(rows.filter((k) => k !== 'main-thread').map((k) => [k, []]));
const reordered: number[] = [];
const open = (row: string) =>
  openPage(world, row === 'main-thread' ? { variant: 'main-thread' } : { variant: 'offtag', config: row === 'offtag' || row === 'dist' ? {} : { workerUrl: `/build/${row}/offtag-worker.js` } });
try {
  // Each sample in fresh browser contexts unless --same-context: Chromium slowed every request of a
  // context down ~2-3x some thousands of requests in while answers were left unread (docs/delivery.md,
  // "Throughput"); fresh contexts keep a sample from measuring what earlier ones left.
  const fresh = async () => {
    const pages = await Promise.all(rows.map(open));
    const blank = await (await world.browser.newContext()).newPage();
    await blank.goto(`${world.base}/blank`);
    await replayer(blank);
    for (const p of pages) await warm(world, p, 5);
    return { pages, blank, close: async () => { for (const p of pages) await p.close(); await blank.context().close(); } };
  };
  let set = await fresh();
  for (let s = 0; s < SAMPLES; s++) {
    if (s && !SAME_CONTEXT) {
      await set.close();
      set = await fresh();
    }
    let reqs: Replay[] = [];
    const got: Record<string, number> = {};
    for (const [i, row] of rows.entries()) {
      const b = await burst(world, set.pages[i]!);
      rates[row]!.push((got[row] = b.perSec));
      if (row !== 'main-thread' && !reqs.length) reqs = b.reqs;
    }
    const serial = (await ceiling(world, set.blank, reqs, 1, `c1r${s}`)).perSec;
    rates.serial!.push(serial);
    for (const row of rows) if (row !== 'main-thread') ratios[row]!.push(got[row]! / serial);
    const four = await ceiling(world, set.blank, reqs, 4, `c4r${s}`);
    rates.four!.push(four.perSec);
    reordered.push(four.outOfOrder);
  }
  await set.close();
} finally {
  await world.close();
}
const pct = (x: number) => `${Math.round(x * 100)}%`;
const row = (v: string, label = v) =>
  `| ${label} | ${Math.round(median(rates[v]!))} | ${ratios[v] ? `**${pct(median(ratios[v]!))}** (${ratios[v]!.map(pct).join(', ')})` : ''} | ${rates[v]!.map((r) => Math.round(r)).join(', ')} |`;
const label: Record<string, string> = {
  offtag: "Offtag: worker engine, durable IndexedDB queue, the origin's SharedWorker sender, one at a time",
  'main-thread': 'the same engine on the main thread, bare `fetch` (no queue, all at once)',
};
const md = [
  `# Burst throughput: ${N} Page Views from one page task, until the last beacon reached the collector`,
  '',
  `\`npm run bench:burst${SAME_CONTEXT ? ' -- --same-context' : ''}${AB ? ` -- --dists=${DISTS.join(',')}` : ''}\` · ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC · median of ${SAMPLES} samples, variants interleaved, ${SAME_CONTEXT ? 'every sample in the same browser contexts' : 'each sample in fresh browser contexts'} · load average at the end ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`,
  '',
  '| variant | beacons/s (median) | of the bare ceiling, per sample (median) | samples |',
  '|---|---:|---|---|',
  ...rows.map((r) => row(r, label[r] ?? `Offtag, build ${r}`)),
  row('serial', "bare ceiling: a SharedWorker replaying Offtag's requests, one at a time in order"),
  row('four', 'the same replay, 4 at a time (unordered)'),
  '',
  `The bare ceiling sends the requests Offtag delivered in the same sample (the same URLs, lengths, methods and bodies, to the same collector; a new random hit segment each), with the options of Offtag's sender (\`credentials: 'include'\`, \`keepalive\`), from a SharedWorker connected before the clock starts; it has no engine, no store and no messages between threads. Offtag does, on the same two cores: 250 Page Views computed in its worker, each beacon committed to IndexedDB with its page's acknowledgement marker before it is sent and deleted after, and handed to the sender in runs. Both clocks run from the bench's order to the page to the collector's arrival time of the last beacon. 4 at a time: beacons that arrived after one made later than them, per sample: ${reordered.join(', ')} of ${N}.`,
  '',
].join('\n');
if (!AB) await saveResult('burst.md', md);
console.log(md);

/**
 * `npx tsx bench/delivery/burst-counts.ts [--samples=3] [--dist=folder]`: what a burst of 250 Page Views does
 * inside Offtag's worker, counted (docs/delivery.md, "Throughput"): IndexedDB
 * transactions, puts and deletes, and messages posted on MessagePorts by kind (to the sender, to
 * the page, the engine's own next-task hops), through wrappers installed in the worker with
 * Playwright after the warm-up. Counts, not timings: a loaded machine does not change them (the
 * rate and times it prints do change). `--dist=folder`: a build copied to bench/.build/folder
 * (as `bench:burst -- --dists`). Writes no result file.
 */
import { burst, median, openPage, warm } from '../lib/measure.ts';
import { buildVariants, CONTAINER_SIZES, startWorld } from '../lib/setup.ts';

const N = 250;
const SAMPLES = Number(process.argv.find((a) => a.startsWith('--samples='))?.slice(10)) || 3;
const DIST = process.argv.find((a) => a.startsWith('--dist='))?.slice(7);

/** Installed in the worker: counts and times (epoch ms) in `self.__counts`. */
const HOOK = `(() => {
  const C = self.__counts = { tx: [], put: 0, del: 0, messages: {} };
  const now = () => performance.timeOrigin + performance.now();
  const tx = IDBDatabase.prototype.transaction;
  IDBDatabase.prototype.transaction = function (...a) { const t = tx.apply(this, a); const r = [now(), 0]; C.tx.push(r); t.addEventListener('complete', () => (r[1] = now())); return t; };
  const put = IDBObjectStore.prototype.put;
  IDBObjectStore.prototype.put = function (...a) { C.put++; return put.apply(this, a); };
  const del = IDBObjectStore.prototype.delete;
  IDBObjectStore.prototype.delete = function (...a) { C.del++; return del.apply(this, a); };
  const post = MessagePort.prototype.postMessage;
  MessagePort.prototype.postMessage = function (...a) {
    const d = a[0];
    const kind = d && typeof d === 'object' ? ('run' in d || 'url' in d ? 'to the sender' : 'to the page') : 'engine next-task hop';
    C.messages[kind] = (C.messages[kind] || 0) + 1;
    return post.apply(this, a);
  };
})()`;

await buildVariants([CONTAINER_SIZES[0]]);
const world = await startWorld();
try {
  for (let s = 0; s < SAMPLES; s++) {
    const p = await openPage(world, { variant: 'offtag', config: DIST ? { workerUrl: `/build/${DIST}/offtag-worker.js` } : {} });
    await warm(world, p, 5);
    const worker = p.page.workers()[0];
    if (!worker) throw new Error('burst-counts: the page has no worker');
    await worker.evaluate(HOOK);
    const from = world.collector.beacons.length;
    const t0 = Date.now();
    await burst(p.page, 'Page View', N);
    while (world.collector.beacons.length < from + N) await new Promise((r) => setTimeout(r, 5));
    // The deletes after the line emptied, and the last acknowledgement.
    await new Promise((r) => setTimeout(r, 300));
    const c = (await worker.evaluate('self.__counts')) as { tx: Array<[number, number]>; put: number; del: number; messages: Record<string, number> };
    const got = world.collector.beacons.slice(from, from + N);
    const lastTx = c.tx.at(-1)?.[0] ?? t0;
    console.log(
      `sample ${s + 1}: ${Math.round(N / ((got[N - 1]!.receivedAt - t0) / 1000))} beacons/s; IndexedDB transactions ${c.tx.length} ` +
        `(median ${median(c.tx.map(([a, b]) => b - a)).toFixed(1)} ms each, the last started ${Math.round(lastTx - got[N - 1]!.receivedAt)} ms after the last arrival), ` +
        `puts ${c.put}, deletes ${c.del}; messages: ${Object.entries(c.messages).map(([k, v]) => `${k} ${v}`).join(', ')}`,
    );
    await p.close();
  }
} finally {
  await world.close();
}

/**
 * `npx tsx bench/delivery/many-beacons.ts [--n=17000] [--dist=folder]`: one Offtag page sends `n`
 * Page Views, 250 per page task, each burst waited for at the collector before the next; it
 * prints how many arrived and when, and stops at the first burst whose beacons do not all arrive
 * within 60 s (docs/delivery.md, "Many beacons from one page"). It guards against Chromium's
 * limit on answers nobody read: one SharedWorker's 16,384th request neither answered nor failed
 * while the sender left its answers' bodies unread. `--dist=folder`: a build copied to
 * bench/.build/folder (as `bench:burst -- --dists`). Console only; about 2 minutes.
 */
import { burst, openPage, warm } from '../lib/measure.ts';
import { buildVariants, CONTAINER_SIZES, startWorld } from '../lib/setup.ts';

const N = Number(process.argv.find((a) => a.startsWith('--n='))?.slice(4)) || 17_000;
const DIST = process.argv.find((a) => a.startsWith('--dist='))?.slice(7);
const BURST = 250;

await buildVariants([CONTAINER_SIZES[0]]);
const world = await startWorld();
let failed = false;
try {
  const p = await openPage(world, { variant: 'offtag', config: DIST ? { workerUrl: `/build/${DIST}/offtag-worker.js` } : {} });
  await warm(world, p, 5);
  const from = world.collector.beacons.length;
  const t0 = Date.now();
  for (let sent = 0; sent < N && !failed; ) {
    const n = Math.min(BURST, N - sent);
    await burst(p.page, 'Page View', n);
    sent += n;
    const end = Date.now() + 60_000;
    while (world.collector.beacons.length < from + sent && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    const arrived = world.collector.beacons.length - from;
    if (arrived < sent) {
      failed = true;
      const metrics = await p.page.evaluate(() => (window as unknown as { offtag: { metrics(): unknown } }).offtag.metrics());
      console.log(`STOPPED: ${arrived} of ${sent} beacons arrived, none of the missing ones within 60 s; offtag.metrics(): ${JSON.stringify(metrics)}`);
    } else if (sent % 2000 < BURST || sent === N) console.log(`${sent} sent, ${arrived} arrived, ${Math.round((Date.now() - t0) / 1000)} s`);
  }
  await p.close();
} finally {
  await world.close();
}
console.log(failed ? 'many-beacons: delivery stopped' : `many-beacons: all ${N} beacons arrived`);
process.exitCode = failed ? 1 : 0;

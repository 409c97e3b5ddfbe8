/**
 * Events fired one at a time, as a page fires them (a click, a Page View after a route change),
 * not in the bench's bursts: `--k` events of a type, each from its own page task, `--gap` ms
 * apart, each waited for until its beacon arrived; the page's main-thread CPU over the whole
 * window (CDP `Performance.getMetrics` ThreadTime) minus a window as long with no event, per event;
 * and the messages offtag.js's ports received per event (effect batches, acknowledgements: each
 * one a task of the page's main thread). `--dists a,b`: builds side by side (folders holding a
 * build's offtag*.js), each on a page of its own, interleaved round by round.
 * Run: `npx tsx bench/per-event/lone-events.ts [--k 20] [--gap 60] [--rounds 5] [--events 'Element Interactions,Page View'] [--dists dist]`
 * (dist/ built). Never asserted.
 */
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import type { CDPSession, Page } from 'playwright';
import { median, metrics, waitFor } from '../lib/measure.ts';
import { BUILD, DIST, startWorld } from '../lib/setup.ts';

const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? d : process.argv[i + 1];
};
const K = Number(arg('--k', '20'));
const GAP = Number(arg('--gap', '60'));
const ROUNDS = Number(arg('--rounds', '5'));
const EVS = arg('--events', 'Element Interactions,Page View').split(',');
const DISTS = arg('--dists', DIST).split(',').map((d) => d.replace(/\/$/, ''));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Counts the messages offtag.js's ports receive. */
const HOOKS = () => {
  const w = window as unknown as Record<string, unknown>;
  let n = 0;
  w.__messages = () => n;
  const d = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage')!;
  Object.defineProperty(MessagePort.prototype, 'onmessage', {
    configurable: true,
    get: d.get,
    set(f: ((e: MessageEvent) => void) | null) {
      d.set!.call(this, f && ((e: MessageEvent) => (n++, f.call(this, e))));
    },
  });
};

const world = await startWorld();
try {
  const ps: Array<{ label: string; page: Page; cdp: CDPSession }> = [];
  for (const [i, dir] of DISTS.entries()) {
    const ctx = await world.browser.newContext();
    const page = await ctx.newPage();
    await page.addInitScript({ content: `globalThis.__name = (f) => f;\n(${HOOKS.toString()})();` });
    await mkdir(`${BUILD}/lone-${i}`, { recursive: true });
    for (const f of (await readdir(dir)).filter((x) => /^offtag.*\.js$/.test(x))) await copyFile(`${dir}/${f}`, `${BUILD}/lone-${i}/${f}`);
    await page.route('**/page?*', async (r) => {
      const res = await r.fetch();
      r.fulfill({ response: res, body: (await res.text()).replace('/dist/offtag.js', `/build/lone-${i}/offtag.js`) });
    });
    await page.goto(world.pageUrl({ variant: 'offtag' }), { waitUntil: 'load' });
    await sleep(1500);
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Performance.enable');
    ps.push({ label: dir, page, cdp });
  }
  const beacons = () => world.collector.beacons.length;
  /** K lone events (or none: `id` null), each from its own task once the one before has its beacon; CPU and messages over the window. */
  const window = async ({ page, cdp }: (typeof ps)[number], id: string | null) => {
    const t0 = (await metrics(cdp)).ThreadTime;
    const m0 = (await page.evaluate('window.__messages()')) as number;
    for (let i = 0; i < K; i++) {
      const c0 = beacons();
      if (id) await page.evaluate(`setTimeout(() => _satellite.track(${JSON.stringify(id)}), 0)`);
      else await page.evaluate('setTimeout(() => 0, 0)');
      if (id) await waitFor(() => beacons() > c0, 30_000, `the beacon of a lone ${id}`);
      await sleep(GAP);
    }
    return { cpu: ((await metrics(cdp)).ThreadTime - t0) * 1000, messages: ((await page.evaluate('window.__messages()')) as number) - m0 };
  };
  const rows: Record<string, Array<{ cpu: number; messages: number }>> = {};
  // Warm: each path once.
  for (const p of ps) for (const id of EVS) await window(p, id);
  for (let r = 0; r < ROUNDS; r++)
    for (const p of r % 2 ? [...ps].reverse() : ps)
      for (const id of [...EVS, null]) (rows[`${p.label}|${id ?? 'none'}`] ??= []).push(await window(p, id));
  console.log(`${K} lone events per window, ${GAP} ms apart after each beacon, ${ROUNDS} rounds; main-thread CPU per event over a window with no event, and messages to offtag.js per event:`);
  for (const p of ps) {
    const none = median(rows[`${p.label}|none`].map((x) => x.cpu));
    for (const id of EVS) {
      const xs = rows[`${p.label}|${id}`];
      console.log(`  ${p.label.padEnd(24)} ${id.padEnd(22)} CPU ${((median(xs.map((x) => x.cpu)) - none) / K).toFixed(3)} ms, messages ${(median(xs.map((x) => x.messages)) / K).toFixed(2)} per event`);
    }
  }
} finally {
  await world.close();
}

/**
 * What the synchronous part of `_satellite.track` costs inside a click handler ("The
 * click handler"), and what its pieces cost: on the bench's Offtag page, CPU throttled (4× by
 * default, as the INP section), Playwright clicks a button whose handler either calls
 * `_satellite.track('Element Interactions')` or does, one at a time, what the bridge's snapshot
 * and post do (read `document.cookie`, the two sessionStorage keys, the viewport, the URL and
 * referrer; narrow the data layer; post a snapshot-sized message to a worker). Clicks alternate
 * between the two handlers, each waits for its beacon (or a quiet moment) and 40 ms, so every
 * measured call meets the same state. `performance.now()` around each piece; median over clicks.
 * Wall time (what INP sees), on a shared machine descheduled time included.
 * Run: `npx tsx bench/per-event/track-sync.ts [--clicks 30] [--throttle 4] [--dist <dir with offtag.js>]`
 * (dist/ built first). Never asserted (docs/bench.md).
 */
import { median, metrics, arrived, waitFor } from '../lib/measure.ts';
import { startWorld } from '../lib/setup.ts';

const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? d : process.argv[i + 1];
};
const clicks = Number(arg('--clicks', '30'));
const throttle = Number(arg('--throttle', '4'));
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** `--profile`: every click calls `track`, under the CDP sampling profiler (20 µs); prints the time under `track` by function. */
const PROFILE = process.argv.includes('--profile');

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * The samples under the probe's click listener, by the function they were in (self time) and by
 * the offtag.js function on the stack nearest to them, ms per click. Minified names: the
 * column in dist/offtag.js is printed beside them.
 */
function printProfile(profile: Profile, n: number): void {
  const byId = new Map(profile.nodes.map((x) => [x.id, x]));
  const parent = new Map<number, number>();
  for (const x of profile.nodes) for (const c of x.children ?? []) parent.set(c, x.id);
  const name = (x: ProfileNode) => `${x.callFrame.functionName || '(anonymous)'} ${x.callFrame.url.replace(/^.*\//, '')}${x.callFrame.url ? ':' + x.callFrame.columnNumber : ''}`;
  const self: Record<string, number> = {};
  const nearest: Record<string, number> = {};
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const dt = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    let x = byId.get(profile.samples[i]);
    const leaf = x;
    let inTrack = false;
    let near: ProfileNode | undefined;
    for (; x; x = byId.get(parent.get(x.id) ?? -1)) {
      if (!near && x.callFrame.url.endsWith('offtag.js')) near = x;
      if (x.callFrame.url === '' && x.callFrame.functionName === '' ) continue;
      if (x.callFrame.functionName === 'track') inTrack = true;
    }
    if (!inTrack || !leaf) continue;
    total += dt;
    self[name(leaf)] = (self[name(leaf)] ?? 0) + dt;
    if (near) nearest[name(near)] = (nearest[name(near)] ?? 0) + dt;
  }
  const show = (t: Record<string, number>) =>
    Object.entries(t)
      .sort((a, b) => b[1] - a[1])
      .filter(([, v]) => v / n >= 0.001)
      .map(([k, v]) => `    ${(v / n).toFixed(3)}  ${k}`)
      .join('\n');
  console.log(`profile: ${(total / n).toFixed(3)} ms per click under \`track\` (sampled), by function (self):\n${show(self)}\n  by the nearest offtag.js function on the stack:\n${show(nearest)}`);
}

/** In the page: the button and its two handlers; each click pushes its laps to `__laps`. */
const INSTALL = () => {
  const w = window as unknown as Record<string, unknown> & { __laps: Array<Record<string, number>>; __mode: string };
  w.__laps = [];
  // The snapshot-sized message goes to a worker, as the bridge's does (a port whose other end is on the page's own thread costs less to post to).
  const sink = new MessageChannel();
  new Worker(URL.createObjectURL(new Blob(['onmessage = (e) => { e.ports[0].onmessage = () => {}; };']))).postMessage(0, [sink.port2]);
  const b = document.createElement('button');
  b.id = 'probe';
  b.textContent = 'probe';
  document.body.append(b);
  const keys = ['acmeUserData', 'acmePreviousPageName'];
  b.addEventListener('click', () => {
    const laps: Record<string, number> = {};
    let t = performance.now();
    const start = t;
    const lap = (k: string) => {
      const n = performance.now();
      laps[k] = n - t;
      t = n;
    };
    if (w.__mode === 'track') {
      const m = (w.offtag as { metrics(): { postMs: number } }).metrics;
      const p0 = m().postMs;
      t = performance.now();
      (w._satellite as { track(id: string): void }).track('Element Interactions');
      lap('track');
      laps['of it, send (bridge timing)'] = m().postMs - p0;
    } else {
      const cookie = document.cookie;
      lap('document.cookie');
      const session: Record<string, string | null> = {};
      for (const k of keys) session[k] = sessionStorage.getItem(k);
      lap('sessionStorage ×2');
      const viewport = { width: innerWidth, height: innerHeight };
      lap('viewport');
      const page = { time: Date.now(), url: location.href, referrer: document.referrer, gpc: (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true };
      lap('url, referrer, time');
      const dl = w.digitalData as Record<string, unknown>;
      const narrowed = { page: { pageInfo: (dl.page as Record<string, unknown>).pageInfo, category: (dl.page as Record<string, unknown>).category }, user: dl.user, cart: dl.cart };
      lap('data layer (narrow)');
      sink.port1.postMessage({ type: 'event', event: { type: 'direct-call', id: 'Element Interactions' }, snapshot: { seq: 1, applied: 0, ...page, dataLayer: narrowed, problems: [], cookie, session, viewport } });
      lap('postMessage');
      laps['the pieces, whole'] = performance.now() - start;
    }
    w.__laps.push(laps);
  });
};

const world = await startWorld();
try {
  const ctx = await world.browser.newContext();
  const page = await ctx.newPage();
  const dist = arg('--dist', '');
  if (dist) await page.route('**/dist/offtag.js', async (r) => r.fulfill({ contentType: 'text/javascript', body: (await import('node:fs')).readFileSync(`${dist}/offtag.js`, 'utf8') }));
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  await page.goto(world.pageUrl({ variant: 'offtag', pageView: true }), { waitUntil: 'load' });
  await waitFor(() => world.collector.beacons.length >= 1, 30_000, 'the Page View');
  await page.evaluate(INSTALL);
  const cdp = await ctx.newCDPSession(page);
  await metrics(cdp);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });
  if (PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 20 });
    await cdp.send('Profiler.start');
  }
  for (let i = 0; i < clicks * 2; i++) {
    const mode = PROFILE || i % 2 == 0 ? 'track' : 'pieces';
    await page.evaluate((m) => ((window as unknown as { __mode: string }).__mode = m), mode);
    const c0 = arrived(world, 'offtag');
    await page.click('#probe');
    if (mode === 'track') await waitFor(() => arrived(world, 'offtag') >= c0 + 1, 30_000, 'the click beacon');
    await sleep(40);
  }
  if (PROFILE) printProfile(((await cdp.send('Profiler.stop')) as { profile: Profile }).profile, clicks * 2);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  const laps = await page.evaluate(() => (window as unknown as { __laps: Array<Record<string, number>> }).__laps);
  const keys = [...new Set(laps.flatMap((l) => Object.keys(l)))];
  console.log(`_satellite.track('Element Interactions') in a click handler, ${throttle}× CPU throttling, ${clicks} clicks each, wall ms (median / max):`);
  for (const k of keys) {
    const xs = laps.map((l) => l[k]).filter((x) => x !== undefined);
    console.log(`  ${k.padEnd(22)} ${median(xs).toFixed(3)} / ${Math.max(...xs).toFixed(3)}`);
  }
  const m = await page.evaluate(() => (window as unknown as { offtag: { metrics(): { events: number; postMs: number } } }).offtag.metrics());
  console.log(`  offtag.metrics(): ${m.events} events, postMs per event ${(m.postMs / m.events).toFixed(3)} (unthrottled load events included)`);
  const L = await page.evaluate(() => (window as unknown as { __L?: Record<string, number[]> }).__L);
  // With --dist pointing at a build with laps spliced in (window.__L), the laps of send().
  if (L) for (const [k, xs] of Object.entries(L)) console.log(`  lap ${k.padEnd(18)} ${median(xs.slice(2)).toFixed(3)} / ${Math.max(...xs.slice(2)).toFixed(3)}`);
  await ctx.close();
} finally {
  await world.close();
}

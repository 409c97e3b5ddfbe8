/**
 * What each piece of `send` costs the main thread ("per event"): on the bench's Offtag
 * page, after warm-up, each piece runs in a loop of 2000 calls from one page task, and the CDP
 * ThreadTime delta around the loop, minus an empty loop, gives CPU µs per call (median of 5
 * loops), at 1× and 4× CPU throttling. The snapshot posted is the bridge's own (the first event's
 * input, caught by wrapping `MessagePort.prototype.postMessage` before the page ran), posted to a
 * worker of the script's own. `track (whole)`: 250 `_satellite.track` calls per loop at 1×
 * (the worker's beacons that start before the loop ends are in it). Loops, so the code is hot:
 * a click's single call pays more (bench/per-event/track-sync.ts).
 * Run: `npx tsx bench/per-event/send-pieces.ts` (dist/ built). Never asserted.
 */
import { startWorld } from '../lib/setup.ts';
import { openPage, warm, metrics, median } from '../lib/measure.ts';
const world = await startWorld();
try {
  const p = await openPage(world, { variant: 'offtag' });
  await p.page.evaluate(() => {
    const w = window as any; const orig = MessagePort.prototype.postMessage;
    MessagePort.prototype.postMessage = function (this: MessagePort, m: any, ...r: any[]) { if (m?.type === 'event' && !w.__cap) w.__cap = m; return orig.call(this, m, ...r); } as any;
  });
  await warm(world, p, 2);
  await p.page.evaluate(() => {
    const w = window as any; const input = w.__cap;
    const wk = new Worker(URL.createObjectURL(new Blob(['onmessage = (e) => { e.ports[0].onmessage = () => {}; }'])));
    const ch = new MessageChannel(); wk.postMessage(0, [ch.port2]);
    const { dataLayer, ...rest } = input.snapshot;
    const json = JSON.stringify(input);
    w.__cases = {
      empty: () => {},
      'postMessage(input)': () => ch.port1.postMessage(input),
      'structuredClone(input)': () => structuredClone(input),
      'JSON.stringify(input)': () => JSON.stringify(input),
      'postMessage(JSON string)': () => ch.port1.postMessage(json),
      'postMessage(JSON.stringify(input))': () => ch.port1.postMessage(JSON.stringify(input)),
      'postMessage(snapshot w/o data layer)': () => ch.port1.postMessage(rest),
      'postMessage(data layer)': () => ch.port1.postMessage(dataLayer),
      'postMessage([event, JSON(rest), dataLayer])': () => ch.port1.postMessage([input.event, JSON.stringify(rest), dataLayer]),
      'postMessage(0)': () => ch.port1.postMessage(0),
      'document.cookie': () => document.cookie,
      'sessionStorage.getItem ×2': () => { sessionStorage.getItem('acmeUserData'); sessionStorage.getItem('acmePreviousPageName'); },
      'innerWidth, innerHeight': () => innerWidth + innerHeight,
      'location.href, referrer, Date.now': () => location.href + document.referrer + Date.now(),
      'track (whole, beacons)': () => w._satellite.track('Element Interactions'),
    };
    w.__loop = (k: string, n: number) => { const f = w.__cases[k]; for (let i = 0; i < n; i++) f(); };
  });
  const keys = await p.page.evaluate(() => Object.keys((window as any).__cases));
  const N = 2000;
  for (const rate of [1, 4]) {
    await p.cdp.send('Emulation.setCPUThrottlingRate', { rate });
    const res: Record<string, number[]> = {};
    for (let r = 0; r < 5; r++) for (const k of keys) {
      if (k.startsWith('track') && rate > 1) continue;
      const n = k.startsWith('track') ? 250 : N;
      const m0 = await metrics(p.cdp);
      await p.page.evaluate(([k, n]) => (window as any).__loop(k, n), [k, n] as const);
      const m1 = await metrics(p.cdp);
      (res[k] ??= []).push(((m1.ThreadTime - m0.ThreadTime) * 1e6) / n);
      await new Promise((r) => setTimeout(r, k.startsWith('track') ? 1500 : 50));
    }
    const e = median(res.empty);
    console.log(`${rate}x, main-thread CPU µs per call (CDP ThreadTime, median of 5 loops of ${N}, minus an empty loop ${e.toFixed(1)}):`);
    for (const k of keys) if (res[k]) console.log(`  ${(median(res[k]) - e).toFixed(1).padStart(7)}  ${k}`);
    await p.cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
  }
  await p.close();
} finally { await world.close(); }

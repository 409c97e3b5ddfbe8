/**
 * What the long tasks of a page load are: loads the bench's page for each variant in a
 * fresh context, as `npm run bench` section 2 does, and prints every `longtask` entry (with its
 * attribution: which frame) and every `long-animation-frame` entry (with the scripts LoAF blames),
 * seen by a PerformanceObserver in the page. No DevTools protocol session is attached unless
 * `--cdp` (a session with `Performance.enable`, as the bench's load figures take) or `--trace` (a
 * Chrome trace of each load, written to bench/results/raw/) is given.
 * Run: `npx tsx bench/load/load-tasks.ts [--loads 5] [--variants none,offtag] [--cdp] [--trace]`. Never asserted.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { buildVariants, startWorld, ROOT, type Variant } from '../lib/setup.ts';

const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? d : process.argv[i + 1];
};
const loads = Number(arg('--loads', '5'));
const variants = arg('--variants', 'none,offtag,main-thread').split(',') as Array<Variant | 'none'>;
const trace = process.argv.includes('--trace');
const cdp = process.argv.includes('--cdp');

const OBSERVE = () => {
  const w = window as unknown as { __entries: unknown[] };
  w.__entries = [];
  for (const type of ['longtask', 'long-animation-frame'])
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries() as any[])
          w.__entries.push({
            type,
            start: Math.round(e.startTime),
            duration: Math.round(e.duration),
            attribution: e.attribution?.map((a: any) => `${a.containerType} ${a.containerSrc || a.containerName || ''} ${a.name}`.trim()),
            blocking: e.blockingDuration,
            scripts: e.scripts?.map((s: any) => `${s.invoker} ${s.sourceURL} ${Math.round(s.duration)}ms (compile+run ${Math.round(s.executionStart - s.startTime)} before run)`),
          });
      }).observe({ type, buffered: true });
    } catch {
      /* not supported */
    }
};

await buildVariants([]);
const world = await startWorld();
try {
  for (const v of variants) {
    for (let i = 0; i < loads; i++) {
      const ctx = await world.browser.newContext();
      const page = await ctx.newPage();
      await page.addInitScript({ content: `globalThis.__name = (f) => f;\n(${OBSERVE.toString()})();` });
      await page.goto(`${world.base}/blank`);
      // As `npm run bench` section 2 measures: a CDP session with the Performance domain enabled.
      if (cdp) await (await ctx.newCDPSession(page)).send('Performance.enable');
      if (trace) await world.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'toplevel', 'blink', 'loading'] });
      await page.goto(world.pageUrl({ variant: v }), { waitUntil: 'load' });
      await page.waitForTimeout(1000);
      const entries = await page.evaluate(() => (window as unknown as { __entries: unknown[] }).__entries);
      const frames = page.frames().map((f) => f.url());
      if (trace) {
        await mkdir(`${ROOT}bench/results/raw`, { recursive: true });
        const file = `${ROOT}bench/results/raw/load-${v}-${i}.json`;
        await writeFile(file, await world.browser.stopTracing());
        console.log(`trace: ${file}`);
      }
      console.log(`${v} #${i}: frames ${JSON.stringify(frames)}\n  ${entries.map((e) => JSON.stringify(e)).join('\n  ') || '(no long task)'}`);
      await ctx.close();
    }
  }
} finally {
  await world.close();
}

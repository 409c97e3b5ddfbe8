import { startWorld } from './setup.ts';
const world = await startWorld();
const v = (process.argv[2] ?? 'offtag') as 'offtag';
const agg: Record<string, number[]> = {};
for (let i = 0; i < Number(process.argv[3] ?? 3); i++) {
  const ctx = await world.browser.newContext();
  const page = await ctx.newPage();
  await page.goto(`${world.base}/blank`);
  await world.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'v8.execute', 'blink', 'loading', 'toplevel', 'disabled-by-default-v8.gc'] });
  await page.goto(world.pageUrl({ variant: v, pageView: true, tail: `<script>addEventListener('load', () => setTimeout(() => { window.__done = 1 }, 1000));</script>` }), { waitUntil: 'load' });
  await page.waitForFunction(() => (window as any).__done === 1);
  const buf = await world.browser.stopTracing();
  const t = JSON.parse(buf.toString());
  const ev = (t.traceEvents ?? t) as any[];
  const main = ev.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && ev.some((x) => x.pid === e.pid && x.tid === e.tid && x.name === 'ParseHTML' ));
  const mine = ev.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const tasks = mine.filter((e) => e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask');
  const sums: Record<string, number> = {};
  let total = 0;
  for (const task of tasks) {
    total += (task.tdur ?? 0) / 1000;
    // the largest direct child names the task
    const kids = mine.filter((e) => e !== task && e.ts >= task.ts && e.ts + (e.dur ?? 0) <= task.ts + task.dur && e.name !== 'RunTask');
    const top = kids.filter((k) => !kids.some((o) => o !== k && o.ts <= k.ts && o.ts + o.dur >= k.ts + k.dur && o.dur > k.dur));
    let named = 0;
    for (const k of top) {
      const url = k.args?.data?.url ?? k.args?.data?.stackTrace?.[0]?.url ?? k.args?.data?.frame ?? '';
      const key = `${k.name} ${String(url).replace(world.base, '').replace(/\?.*/, '').slice(0, 50)}`;
      sums[key] = (sums[key] ?? 0) + (k.tdur ?? 0) / 1000;
      named += (k.tdur ?? 0) / 1000;
    }
    sums['(task overhead)'] = (sums['(task overhead)'] ?? 0) + (task.tdur ?? 0) / 1000 - named;
  }
  sums['TOTAL'] = total;
  for (const [k, x] of Object.entries(sums)) (agg[k] ??= []).push(x);
  await ctx.close();
}
const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
for (const [k, xs] of Object.entries(agg).sort((a, b) => med(b[1]) - med(a[1]))) if (med(xs) > 0.2) console.log(med(xs).toFixed(2).padStart(8), xs.length, k);
await world.close();

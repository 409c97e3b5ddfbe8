/**
 * offtag.js start-up, measured in the page ("start() ≤ 2 ms"): `performance.now()`
 * around the inline offtag.js script, inside its own script element (its run, which is `start()`),
 * on a fresh browser context each time (a first visit: storage not yet opened, no cookie-domain
 * cache; or a repeat visit: the page loaded once before in that context), median of `reps` loads
 * per case. Run: `npx tsx bench/load/startup.ts [--reps 15] [--old <file> …]`; each
 * `--old` file (an earlier offtag.js) is measured interleaved with dist/offtag.js, so the ratio
 * comes from one run. Two cases:
 * - desktop: the tag in the head of a small page (as the README embeds it);
 * - phone: mobile emulation (a viewport-enabled page, where reading `innerWidth` forces a layout),
 *   the tag after 1500 elements (as an `async` tag meets a half-parsed page).
 * The host is a name (`www.bench.test`, mapped to 127.0.0.1), not an IP, so a cookie-domain probe
 * really writes its two cookies. Not part of `npm test`; never asserted (docs/bench.md).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { startCollector } from '../../tools/collector/server.ts';
import { startIdService } from '../../tools/id-service/server.ts';
import { serveStatic } from '../../tools/static.ts';
import { median } from '../lib/measure.ts';
import { DIST } from '../lib/setup.ts';

export interface StartupCase {
  name: string;
  mobile: boolean;
  /** Elements parsed before the tag. */
  before: number;
  /** A repeat visit: the same page loaded once before in the same browser context (storage open, cookie domain cached). */
  repeat: boolean;
}
export const STARTUP_CASES: StartupCase[] = [
  { name: 'desktop, tag in the head, first visit', mobile: false, before: 0, repeat: false },
  { name: 'desktop, tag in the head, repeat visit', mobile: false, before: 0, repeat: true },
  { name: 'phone emulation, tag after 1500 elements, repeat visit', mobile: true, before: 1500, repeat: true },
];

const page = (script: string, c: StartupCase, collector: string, id: string) => `<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width"><title>start-up</title>
<style>.c{padding:2px;border:1px solid #ccc;display:flex}</style>
<script>
document.cookie = 'sat_track=true; path=/';
window.offtagConfig = ${JSON.stringify({ trackingServer: collector, idServiceHost: id, idSyncOrigin: id })};
window.digitalData = { page: { pageInfo: { pageName: 'startup', pageType: 'probe' } } };
</script>
${c.before ? '' : SCRIPT_TAGS(script)}</head><body>${'<div class="c">item</div>'.repeat(c.before)}${c.before ? SCRIPT_TAGS(script) : ''}</body></html>`;

// The clock reads share offtag.js's own script element: nothing else (a parser yield, a rendering
// update of the elements above) can run between them.
const SCRIPT_TAGS = (script: string) => `<script>window.__t0 = performance.now();\n${script}\nwindow.__startMs = performance.now() - window.__t0;</script>\n`;

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  tid: number;
  args?: { data?: { url?: string } };
}

/** From a Chrome trace of the measured load: the inline offtag.js script's evaluation (the longest `EvaluateScript` of the page), its CPU time and the layouts and style recalcs inside it. */
function fromTrace(trace: Buffer): { cpuMs: number; layouts: number } {
  const events = (JSON.parse(trace.toString()) as { traceEvents: TraceEvent[] }).traceEvents;
  const runs = events.filter((e) => e.name === 'EvaluateScript' && e.ph === 'X' && e.args?.data?.url?.includes('/dist/startup'));
  const run = runs.sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0))[0];
  if (!run) return { cpuMs: NaN, layouts: NaN };
  const inside = (e: TraceEvent) => e.tid === run.tid && e.ts >= run.ts && e.ts <= run.ts + (run.dur ?? 0);
  return {
    cpuMs: (run.tdur ?? 0) / 1000,
    layouts: events.filter((e) => (e.name === 'Layout' || e.name === 'UpdateLayoutTree') && e.ph !== 'E' && inside(e)).length,
  };
}

/**
 * Median start-up per script and case; scripts are { label: source }. `wallMs` is the in-page
 * clock (it counts time the main thread was not running too: on a shared machine, noise),
 * `cpuMs` the script's thread time from a Chrome trace, `layouts` the style and layout passes
 * forced inside it.
 */
export async function startupRun(scripts: Record<string, string>, reps: number, log = console.log): Promise<Record<string, Record<string, { wallMs: number; cpuMs: number; layouts: number }>>> {
  const collector = await startCollector({ port: 0, quiet: true });
  const idService = await startIdService({ port: 0 });
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    // Served from /dist/ so that offtag.js (inline, no src) finds offtag-worker.js and offtag-effects.js beside the page.
    if (url.pathname === '/dist/startup') {
      const c = STARTUP_CASES[Number(url.searchParams.get('case'))];
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      return void res.end(page(scripts[url.searchParams.get('s')!], c, collector.url, idService.url));
    }
    if (await serveStatic(req, res, `${DIST}/`, '/dist/')) return;
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--host-resolver-rules=MAP *.bench.test 127.0.0.1'],
    headless: true,
  });
  const out: Record<string, Record<string, { wallMs: number; cpuMs: number; layouts: number }>> = {};
  try {
    for (let ci = 0; ci < STARTUP_CASES.length; ci++) {
      const c = STARTUP_CASES[ci];
      const xs: Record<string, Array<{ wallMs: number; cpuMs: number; layouts: number }>> = {};
      for (let r = 0; r < reps; r++) {
        for (const label of Object.keys(scripts)) {
          const ctx = await browser.newContext(c.mobile ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 } : {});
          const p = await ctx.newPage();
          const url = `http://www.bench.test:${port}/dist/startup?case=${ci}&s=${encodeURIComponent(label)}`;
          if (c.repeat) {
            await p.goto(url);
            await p.waitForTimeout(300);
          }
          await browser.startTracing(p, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute'] });
          await p.goto(url);
          const ms = await p.waitForFunction(() => (window as unknown as { __startMs?: number }).__startMs).then((h) => h.jsonValue());
          (xs[label] ??= []).push({ wallMs: ms as number, ...fromTrace(await browser.stopTracing()) });
          await ctx.close();
        }
      }
      const med = (v: Array<{ wallMs: number; cpuMs: number; layouts: number }>, k: 'wallMs' | 'cpuMs' | 'layouts') => Number(median(v.map((x) => x[k])).toFixed(2));
      out[c.name] = Object.fromEntries(Object.entries(xs).map(([k, v]) => [k, { wallMs: med(v, 'wallMs'), cpuMs: med(v, 'cpuMs'), layouts: med(v, 'layouts') }]));
      log(`[startup] ${c.name}: ${Object.entries(out[c.name]).map(([k, v]) => `${k}: CPU ${v.cpuMs} ms, wall ${v.wallMs} ms, ${v.layouts} forced style/layout`).join('; ')}`);
    }
  } finally {
    await browser.close();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await collector.close();
    await idService.close();
  }
  return out;
}

if (process.argv[1]?.endsWith('startup.ts')) {
  const arg = (name: string) => process.argv.flatMap((a, i) => (a === name ? [process.argv[i + 1]] : []));
  const scripts: Record<string, string> = { 'offtag.js': readFileSync(`${DIST}/offtag.js`, 'utf8') };
  for (const f of arg('--old')) scripts[`${basename(f)} (${f})`] = readFileSync(f, 'utf8');
  const reps = Number(arg('--reps')[0] ?? 15);
  const r = await startupRun(scripts, reps);
  console.log(JSON.stringify(r, null, 2));
}

/**
 * offtag.js start-up, measured in the page (issue 12, "start() ≤ 2 ms"): `performance.now()`
 * around the inline offtag.js script (its compile and run, which is `start()`), on a fresh browser
 * context each time (first visit: storage not yet opened, no cookie-domain cache), median of
 * `reps` loads per case. Run: `npx tsx bench/startup.ts [--reps 15] [--old <file> …]`; each
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
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium.ts';
import { startCollector } from '../tools/collector/server.ts';
import { startIdService } from '../tools/id-service/server.ts';
import { serveStatic } from '../tools/static.ts';
import { median } from './measure.ts';
import { DIST } from './setup.ts';

export interface StartupCase {
  name: string;
  mobile: boolean;
  /** Elements parsed before the tag. */
  before: number;
}
export const STARTUP_CASES: StartupCase[] = [
  { name: 'desktop, tag in the head', mobile: false, before: 0 },
  { name: 'phone emulation, tag after 1500 elements', mobile: true, before: 1500 },
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

const SCRIPT_TAGS = (script: string) =>
  `<script>window.__t0 = performance.now();</script>\n<script>${script}</script>\n<script>window.__startMs = performance.now() - window.__t0;</script>\n`;

/** Median start-up ms per script and case; scripts are { label: source }. */
export async function startupRun(scripts: Record<string, string>, reps: number, log = console.log): Promise<Record<string, Record<string, number>>> {
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
  const out: Record<string, Record<string, number>> = {};
  try {
    for (let ci = 0; ci < STARTUP_CASES.length; ci++) {
      const c = STARTUP_CASES[ci];
      const xs: Record<string, number[]> = {};
      for (let r = 0; r < reps; r++) {
        for (const label of Object.keys(scripts)) {
          const ctx = await browser.newContext(c.mobile ? { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 3 } : {});
          const p = await ctx.newPage();
          await p.goto(`http://www.bench.test:${port}/dist/startup?case=${ci}&s=${encodeURIComponent(label)}`);
          const ms = await p.waitForFunction(() => (window as unknown as { __startMs?: number }).__startMs).then((h) => h.jsonValue());
          (xs[label] ??= []).push(ms as number);
          await ctx.close();
        }
      }
      out[c.name] = Object.fromEntries(Object.entries(xs).map(([k, v]) => [k, Number(median(v).toFixed(2))]));
      log(`[startup] ${c.name}: ${Object.entries(out[c.name]).map(([k, v]) => `${k} ${v} ms`).join(', ')}`);
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

/**
 * Where offtag.js's start-up time goes, in the page: dist/offtag.js with
 * `performance.now()` laps spliced into its minified text (by pattern: it throws when the build no
 * longer has one), served instead of the real file on the bench's Offtag page, a fresh browser
 * context per load (a first visit; `--repeat`: the page loaded once before in the same context).
 * Prints the median and max wall milliseconds of each step over the loads (each lap is the time
 * since the previous one). "dl" and "session" time the data-layer read and the two
 * sessionStorage reads of the first snapshot that makes them: the snapshots taken
 * before the worker said hello (Library Loaded's among them) skip the session and cookie reads,
 * so during start-up the lap after Library Loaded is the data layer, the snapshot object, the
 * post and the pagehide copy. Wall time: on a
 * shared machine it counts descheduled time too. Never asserted.
 * Run: `npx tsx bench/load/startup-laps.ts [loads] [--repeat]` (dist/ built first).
 */
import { readFileSync } from 'node:fs';
import { DIST, startWorld } from '../lib/setup.ts';
let src = readFileSync(`${DIST}/offtag.js`, 'utf8');
// Patterns with the minifier's names captured, so a rebuild that renames them keeps working.
const rep = (a: RegExp, b: string) => { if (!a.test(src)) throw new Error(String(a)); src = src.replace(a, b); };
rep(/\(\(\)=>\{(\w+)=new URL\("\.",document\.currentScript/, '(()=>{__lap("begin");$1=new URL(".",document.currentScript');
rep(/(\w+)=new MessageChannel/, '__T0=__lap("config+urls"),$1=new MessageChannel');
rep(/(\w+)\.onmessage=(\w+),(\w+)\(\);let (\w+)=/, '$1.onmessage=$2,__lap("channels+listener"),$3(),__lap("new Worker");let $4=');
rep(/(\w+)\(\{type:"library-loaded"\}\)/, '__lap("satellite+offtag"),$1({type:"library-loaded"}),__lap("library-loaded: snapshot, post, copy")');
// The snapshots taken before hello skip the session reads: these laps then appear only for later events.
rep(/try\{for\(let (\w+) of (\w+)\)(\w+)\[\1\]=sessionStorage\.getItem\(\1\)\}/, '{__lap("dl");try{for(let $1 of $2)$3[$1]=sessionStorage.getItem($1)}catch{}__lap("session")}try{}');
rep(/(\w+)&&(\w+)\(\{type:"click",link:\1\}\)\},!0\)\}\)\((\w+)\)/, '$1&&$2({type:"click",link:$1})},!0)})($3),__lap("rest")');
const pre = `window.__L=[];let __t=performance.now();window.__lap=(k)=>{const n=performance.now();__L.push(k+' '+(n-__t).toFixed(2));__t=n};`;
const world = await startWorld();
try {
const rows: Record<string, number[]> = {};
for (let i = 0; i < Number(process.argv[2] ?? 8); i++) {
  const ctx = await world.browser.newContext();
  const page = await ctx.newPage();
  await page.route('**/dist/offtag.js', (r) => r.fulfill({ contentType: 'text/javascript', body: pre + src }));
  await page.goto(`${world.base}/blank`);
  if (process.argv.includes('--repeat')) { await page.goto(world.pageUrl({ variant: 'offtag' })); await page.waitForTimeout(300); }
  await page.goto(world.pageUrl({ variant: 'offtag' }), { waitUntil: 'load' });
  const L = await page.evaluate(() => (window as any).__L as string[]);
  const seen = new Set<string>();
  for (const l of L) { const [k, v] = [l.slice(0, l.lastIndexOf(' ')), Number(l.slice(l.lastIndexOf(' ') + 1))]; if (seen.has(k)) continue; seen.add(k); (rows[k] ??= []).push(v); }
  await ctx.close();
}
const med = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
for (const [k, v] of Object.entries(rows)) console.log(k.padEnd(24), 'median', med(v).toFixed(2), 'max', Math.max(...v).toFixed(2));
} finally {
  await world.close();
}

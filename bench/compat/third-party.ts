/**
 * The third-party compatibility matrix (docs/third-party.md): the same scripted session
 * (tests/e2e/insights-session.ts) on the same /insights page, with each tag in each mode, and what
 * reached the local intake, plus the main-thread CPU of the whole session (CDP
 * `Performance.getMetrics` TaskDuration from the navigation to the end of the session, median of
 * the runs, minus the same page without any third-party tag).
 *
 *   npm run bench:third-party            (builds dist/ first; 5 runs per mode)
 *   tsx bench/compat/third-party.ts --runs 3
 *
 * Writes bench/results/third-party.md and bench/results/third-party.json. It checks no number:
 * it measures.
 */
import { saveResult } from '../lib/report.ts';
import { cpus } from 'node:os';
import { chromium, type BrowserContext } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { localConfig, startServers } from '../../tools/dev-server.ts';
import { SECRET, SESSION_PAGE, driveInsightsSession, leave } from '../../tests/e2e/insights-session.ts';

const argRuns = process.argv.indexOf('--runs');
const RUNS = argRuns > 0 ? Number(process.argv[argRuns + 1]) : 5;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const servers = await startServers({ quiet: true });
const local = localConfig(servers);
/** OneTrust's targeting group off: the container declines Datadog (docs/spec-coverage.md §5). */
const NO_RUM = { name: 'OptanonConsent', value: 'groups=C0001:1,C0007:0' };
const CONSENT = { name: 'sat_track', value: 'true' };

interface Mode {
  name: string;
  cookies: Array<{ name: string; value: string }>;
  config: Record<string, unknown>;
  partytown?: Record<string, unknown>;
}

const MODES: Mode[] = [
  { name: 'no third-party tag', cookies: [NO_RUM], config: {} },
  { name: 'Datadog RUM, main thread', cookies: [{ name: 'community', value: 'pros' }], config: {} },
  {
    name: 'Datadog RUM, Partytown',
    cookies: [{ name: 'community', value: 'pros' }],
    config: { rum: { ...local.rum, partytown: true } },
    // Without it the SDK refuses to start in Partytown's worker.
    partytown: { strictProxyHas: true },
  },
  { name: 'Amplitude, Partytown', cookies: [NO_RUM, CONSENT], config: {} },
  { name: 'Amplitude, main thread', cookies: [NO_RUM, CONSENT], config: { amplitude: { ...local.amplitude, partytown: false } } },
];

type Row = Record<string, number>;

async function get<T>(path: string): Promise<T> {
  return (await fetch(`${servers.rumUrl}${path}`)).json() as Promise<T>;
}

async function run(ctx: BrowserContext, mode: Mode): Promise<Row> {
  await fetch(`${servers.rumUrl}/__reset`, { method: 'POST' });
  await ctx.addCookies(mode.cookies.map((c) => ({ ...c, url: servers.pageUrl })));
  await ctx.addInitScript(
    ([config, partytown]) => {
      (window as any).offtagConfig = config;
      if (partytown) (window as any).partytown = partytown;
    },
    [mode.config, mode.partytown] as const,
  );
  const page = await ctx.newPage();
  const cdp = await ctx.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto(`${servers.pageUrl}/test/blank.html`);
  const task = async () =>
    ((await cdp.send('Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> }).metrics.find((m) => m.name === 'TaskDuration')!.value;
  const t0 = await task();
  await page.goto(`${servers.pageUrl}${SESSION_PAGE}`);
  await page.waitForLoadState('load');
  await driveInsightsSession(page);
  // Partytown's tags get the time the main-thread ones had before the session ended.
  await page.waitForTimeout(1500);
  const cpuMs = ((await task()) - t0) * 1000;
  await leave(page, `${servers.pageUrl}/test/blank.html`);
  await sleep(3000);
  await page.close();

  const events = await get<Array<Record<string, any>>>('/__events');
  const replay = await get<Array<{ records: unknown[] }>>('/__replay');
  const calls = await get<Array<{ path: string; headers: Record<string, string> }>>('/__calls');
  const amplitude = await get<unknown[]>('/__amplitude');
  const of = (t: string) => events.filter((e) => e.type === t);
  const views = of('view').filter((e) => String(e.view?.url).endsWith(SESSION_PAGE));
  const last = views.at(-1);
  const resources = of('resource');
  const everything = JSON.stringify({ events, replay, amplitude });
  return {
    'main-thread CPU of the session, ms': cpuMs,
    'view events': views.length,
    'view: first contentful paint': last?.view?.first_contentful_paint > 0 ? 1 : 0,
    'view: largest contentful paint': last?.view?.largest_contentful_paint > 0 ? 1 : 0,
    'view: interaction to next paint': last?.view?.interaction_to_next_paint > 0 ? 1 : 0,
    'view: loading time': last?.view?.loading_time > 0 ? 1 : 0,
    'actions (6 clicks)': of('action').length,
    'resources: the two fetches': resources.filter((e) => /\/echo\/(traced|plain)\//.test(e.resource?.url)).length,
    'resources: page and SDK files': resources.filter((e) => !/\/echo\/|~partytown/.test(e.resource?.url)).length,
    'resources: Partytown’s own requests': resources.filter((e) => /~partytown/.test(e.resource?.url)).length,
    'errors: the thrown error': of('error').filter((e) => String(e.error?.message).includes('report failed to render')).length,
    'long tasks': of('long_task').length,
    'replay segments': replay.length,
    'replay records': replay.reduce((n, s) => n + s.records.length, 0),
    'cookie context on events': events.some((e) => e.context?.cookies?.community === 'pros') ? 1 : 0,
    'trace header to the allowed host': calls.some((c) => c.path.startsWith('/echo/traced') && c.headers['x-datadog-trace-id']) ? 1 : 0,
    'trace header to the other host': calls.some((c) => c.path.startsWith('/echo/plain') && c.headers['x-datadog-trace-id']) ? 1 : 0,
    'typed text reached the intake': everything.includes(SECRET) ? 1 : 0,
    'Amplitude events (the Page View)': amplitude.length,
  };
}

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
const results: Record<string, Row[]> = {};
try {
  // Modes in turn within each round, so drift falls on every mode alike.
  for (let r = 0; r < RUNS; r++) {
    for (const mode of MODES) {
      const ctx = await browser.newContext();
      try {
        (results[mode.name] ??= []).push(await run(ctx, mode));
      } finally {
        await ctx.close();
      }
      process.stdout.write('.');
    }
  }
} finally {
  await browser.close();
  await servers.close();
}
console.log('');

const metrics = Object.keys(results[MODES[0].name][0]);
const summary: Record<string, Row> = {};
for (const mode of MODES) {
  summary[mode.name] = Object.fromEntries(metrics.map((m) => [m, median(results[mode.name].map((row) => row[m]))]));
}
const base = summary['no third-party tag']['main-thread CPU of the session, ms'];
const fmt = (m: string, v: number, mode: string) => {
  if (m.startsWith('main-thread CPU')) return mode === 'no third-party tag' ? `${v.toFixed(0)}` : `${v.toFixed(0)} (+${(v - base).toFixed(0)})`;
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
};
const shown = MODES.filter((m) => m.name !== 'no third-party tag').map((m) => m.name);
const lines = [
  '# Third-party compatibility matrix',
  '',
  `Measured by \`bench/compat/third-party.ts\` on ${new Date().toISOString().slice(0, 10)} (${cpus().length} cores, headless Chromium), ` +
    `${RUNS} runs per mode, medians. The session: tests/e2e/insights-session.ts. Method: docs/third-party.md.`,
  '',
  `| | no tag | ${shown.join(' | ')} |`,
  `|---|---|${shown.map(() => '---').join('|')}|`,
  ...metrics.map((m) => `| ${m} | ${fmt(m, summary['no third-party tag'][m], 'no third-party tag')} | ${shown.map((s) => fmt(m, summary[s][m], s)).join(' | ')} |`),
  '',
];
await saveResult('third-party.md', lines.join('\n'));
await saveResult('third-party.json', JSON.stringify({ runs: RUNS, results, summary }, null, 2));
console.log(lines.join('\n'));

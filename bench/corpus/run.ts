/**
 * The corpus runner (a development command, not part of `npm test`): for each deployed Launch
 * library in a folder, `offtag import`, `offtag build`, then the page states generated from the
 * container (plan.ts) under the library itself (turbine) and under the Offtag build, in Chromium,
 * on the library's own site origin (world.ts); the two sides' readings compared (compare.ts) and
 * written as a table per library (report.ts).
 *
 *   npm run corpus -- --libs <dir> [--assets <dir>] [--only <file>[,<file>]] [--out <dir>]
 *                     [--rounds 3] [--step-limit 20000] [--mirror <dir>] [--write-docs]
 *
 * `--rounds`: cost runs per side without DevTools (0: none); `--rates` (default 4,6): the phone
 * figures, the same pages under CDP CPU throttling, `--throttled-rounds` (default 1) per side and rate. `--out`: where corpus.md and
 * corpus.json go (default bench/results, or dist/corpus with `--only`). `--turbine-runs N` (default 1):
 * the turbine side read N times; a beacon field turbine itself gives otherwise between its runs is
 * marked so where Offtag differs on it (a race of the page's own, not a difference of Offtag's). `--write-docs`: also
 * rewrite the table in docs/import.md. `--render <corpus.json>`: write corpus.md (and with
 * `--write-docs` the docs' table) again from a run's results, without running anything. `--mirror` (or OFFTAG_APPMEASUREMENT_REPO): a clone of
 * github.com/adobe/appmeasurement, bare or not, whose AppMeasurement.js the world serves.
 * OFFTAG_PORT_BASE + 10…12: the world's ports.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { chromium } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import type { RecordedBeacon } from './world.ts';
import { median } from '../lib/measure.ts';
import { rotated } from '../load/load.ts';
import { buildLibrary } from '../../tools/build/build.ts';
import { runImport, SITE_BUNDLE } from '../../tools/import/command.ts';
import { readLibrary, type LaunchContainer } from '../../tools/import/read.ts';
import { compareBeacons, compareRules, compareValues, extraErrors, turbineVariation } from './compare.ts';
import { pageHtml, type Side } from './page.ts';
import { planPage, type PagePlan } from './plan.ts';
import { markdown, withTable, type LibraryResult, type RunInfo, type SideSummary } from './report.ts';
import { costCdp, costOnce, profileOnce, readSide, type CostSample, type SideRun } from './sides.ts';
import { pageCodeStart, partOf, PARTS, selfTime, type Part } from './attribute.ts';
import { BUILD_PREFIX, LIBRARY_HOST, startWorld, type Current, type World } from './world.ts';

const ROOT = resolve(new URL('../..', import.meta.url).pathname);
const USAGE = 'usage: npm run corpus -- --libs <dir> [--assets <dir>] [--only <file>[,<file>]] [--out <dir>] [--rounds N] [--rates 4,6] [--throttled-rounds N] [--turbine-runs N] [--profile N] [--step-limit ms] [--mirror <appmeasurement git dir>] [--write-docs] | --render <corpus.json> [--write-docs]';

interface Options {
  libs: string;
  assets?: string;
  only?: string[];
  out: string;
  rounds: number;
  /** CPU throttling rates of the phone figures (CDP), and their rounds per side. */
  rates: number[];
  throttledRounds: number;
  /** Runs of the turbine side: past the first, they tell which beacon fields turbine itself varies on. */
  turbineRuns: number;
  stepLimitMs: number;
  mirror: string;
  writeDocs: boolean;
  /** Profiled loads per side (attribute.ts: the main thread by whose code ran); 0: none. */
  profile: number;
}

export function parseArgs(argv: string[]): Options | string {
  const o: Partial<Options> & { writeDocs: boolean } = { writeDocs: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--write-docs') {
      o.writeDocs = true;
      continue;
    }
    const v = argv[i + 1];
    if (!['--libs', '--assets', '--only', '--out', '--rounds', '--step-limit', '--mirror', '--rates', '--throttled-rounds', '--turbine-runs', '--profile'].includes(a)) return `corpus: unknown argument ${a}. ${USAGE}`;
    if (v === undefined || v.startsWith('--')) return `corpus: ${a} needs a value. ${USAGE}`;
    i++;
    if (a === '--libs') o.libs = v;
    if (a === '--assets') o.assets = v;
    if (a === '--only') o.only = v.split(',').filter(Boolean);
    if (a === '--out') o.out = v;
    if (a === '--mirror') o.mirror = v;
    if (a === '--rates') {
      // `--rates 0`: no phone figures.
      o.rates = v.split(',').filter(Boolean).map(Number).filter((x) => x !== 0);
      if (o.rates.some((x) => !(x >= 1))) return `corpus: --rates takes CPU throttling rates, e.g. 4,6. ${USAGE}`;
    }
    if (a === '--throttled-rounds' || a === '--turbine-runs') {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 1) return `corpus: ${a} must be a whole number above 0; got ${v}.`;
      if (a === '--throttled-rounds') o.throttledRounds = n;
      else o.turbineRuns = n;
    }
    if (a === '--rounds' || a === '--step-limit' || a === '--profile') {
      const n = Number(v);
      if (!Number.isInteger(n) || n < 0) return `corpus: ${a} must be a whole number; got ${v}.`;
      if (a === '--rounds') o.rounds = n;
      else if (a === '--profile') o.profile = n;
      else o.stepLimitMs = n;
    }
  }
  if (!o.libs) return `corpus: give the folder of libraries with --libs. ${USAGE}`;
  const mirror = o.mirror ?? process.env.OFFTAG_APPMEASUREMENT_REPO;
  if (!mirror) return `corpus: give a clone of github.com/adobe/appmeasurement with --mirror (or OFFTAG_APPMEASUREMENT_REPO): the libraries load AppMeasurement.js from Adobe's host, which the world serves from it. ${USAGE}`;
  return { libs: o.libs, ...(o.assets ? { assets: o.assets } : {}), ...(o.only ? { only: o.only } : {}), out: o.out ?? (o.only ? 'dist/corpus' : 'bench/results'), rounds: o.rounds ?? 3, rates: o.rates ?? [4, 6], throttledRounds: o.throttledRounds ?? 1, turbineRuns: o.turbineRuns ?? 1, stepLimitMs: o.stepLimitMs ?? 20_000, mirror, writeDocs: o.writeDocs, profile: o.profile ?? 0 };
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e)).split('\n')[0]!;

function summary(run: SideRun): SideSummary {
  return {
    readyTimedOut: run.ready.timedOut,
    stepsTimedOut: run.steps.filter((s) => s.timedOut).length,
    unmatched: run.steps.filter((s) => !s.matched).length,
    completed: run.completed.length,
    failed: run.failed,
    actionFailed: run.actionFailed,
    resolved: Object.values(run.values).filter((v) => v !== null).length,
    beacons: run.beacons.length,
    errors: run.errors.length,
    missing: run.missing.length,
    ...(run.feedLost ? { feedLost: true } : {}),
    ...(run.beaconsPending ? { beaconsPending: run.beaconsPending } : {}),
    ...(run.trackers.some((t) => !t.ready) ? { notReady: run.trackers.filter((t) => !t.ready).map((t) => `${t.account}${t.optIn ? ` (adobe.optIn ${t.optIn})` : ''}`) } : {}),
  };
}

interface Prepared {
  container: LaunchContainer;
  /** The rules the import's report says it does not import. */
  notImported?: Set<string>;
  plan: PagePlan;
  libraryText: string;
  importDir?: string;
  buildDir?: string;
}

/** Import and build one library; what failed is in `r`. */
async function prepare(file: string, o: Options, r: LibraryResult, log: (m: string) => void): Promise<Prepared | undefined> {
  const libraryText = readFileSync(file, 'utf8');
  let container: LaunchContainer;
  try {
    container = readLibrary(libraryText, file);
  } catch (e) {
    r.import = { ok: false, error: message(e) };
    return undefined;
  }
  const plan = planPage(container);
  Object.assign(r, {
    site: plan.url,
    environment: container.environment?.stage,
    rules: container.rules?.length ?? 0,
    dataElements: Object.keys(container.dataElements ?? {}).length,
    plan: {
      filled: plan.paths.filled.length,
      skipped: plan.paths.skipped.length,
      tracks: plan.steps.filter((s) => s.kind === 'track').length,
      customs: plan.steps.filter((s) => s.kind === 'custom').length,
      clicks: plan.steps.filter((s) => s.kind === 'click').length,
      unbuildable: plan.unbuildable.length,
    },
  });
  const work = join(ROOT, 'dist/corpus', r.name);
  const importDir = join(work, `import-${r.name}`);
  const notImported = new Set<string>();
  try {
    log(`${r.name}: import`);
    const { lines, files } = runImport({ library: file, out: importDir, ...(o.assets ? { assets: o.assets } : {}) });
    r.import = { ok: true, summary: lines.at(-1), pageCode: files.some((f) => f.endsWith('page-code.js')) };
    for (const l of lines) {
      const m = /^rule ("(?:[^"\\]|\\.)*"): not imported — /.exec(l);
      if (m) notImported.add(JSON.parse(m[1]!) as string);
    }
  } catch (e) {
    r.import = { ok: false, error: message(e) };
    return { container, plan, libraryText };
  }
  const buildDir = join(work, 'build');
  try {
    log(`${r.name}: build`);
    const env = container.environment?.stage;
    const built = await buildLibrary({ container: join(importDir, 'container.ts'), env: env === 'development' || env === 'staging' ? env : 'production', out: buildDir });
    // Each problem without the container file's path it starts with.
    const problems = built.problems.map((x) => x.replace(/^.*?container\.ts: /, ''));
    r.build = problems.length ? { ok: false, error: `${problems.length} problem(s): ${problems.join('; ')}` } : { ok: true, gzip: built.gzip };
  } catch (e) {
    r.build = { ok: false, error: message(e) };
  }
  return { container, plan, libraryText, importDir, notImported, ...(r.build?.ok ? { buildDir } : {}) };
}

function currentFor(p: Prepared, side: Side, name: string, o: Options, auto: boolean): Current {
  const libraryPath = `/offtag-corpus/launch-${name}.min.js`;
  const script = side === 'turbine' ? `https://${LIBRARY_HOST}${libraryPath}` : side === 'offtag' ? `${BUILD_PREFIX}offtag.js` : undefined;
  // A library that came inside a site's bundle: the Offtag side keeps the bundle, without the library, where it was.
  const siteBundle = side === 'offtag' && p.importDir && existsSync(join(p.importDir, SITE_BUNDLE)) ? readFileSync(join(p.importDir, SITE_BUNDLE), 'utf8') : undefined;
  const html = pageHtml(p.plan, { side, ...(script ? { script } : {}), ...(siteBundle ? { siteBundle: `https://${LIBRARY_HOST}${libraryPath}` } : {}), quiet: p.container.environment?.stage === 'development', auto, stepLimitMs: o.stepLimitMs });
  const pageCode = p.importDir && existsSync(join(p.importDir, 'page-code.js')) ? join(p.importDir, 'page-code.js') : undefined;
  const orgId = p.container.company?.orgId;
  return {
    url: p.plan.url,
    html,
    cookies: p.plan.cookies,
    ...(typeof orgId === 'string' ? { orgId } : {}),
    ...(side === 'turbine' ? { library: { path: libraryPath, text: p.libraryText } } : siteBundle ? { library: { path: libraryPath, text: siteBundle } } : {}),
    ...(side === 'offtag' && p.buildDir ? { build: p.buildDir, ...(pageCode ? { pageCode } : {}) } : {}),
  };
}

async function runLibrary(file: string, o: Options, world: World, browser: import('playwright').Browser, log: (m: string) => void): Promise<LibraryResult> {
  const name = basename(file).replace(/\.js$/, '').slice(0, 8);
  const r: LibraryResult = { file: basename(file), name, import: { ok: false } };
  const p = await prepare(file, o, r, log);
  if (!p) return r;
  const names = Object.keys(p.container.dataElements ?? {});
  mkdirSync(join(ROOT, 'dist/corpus', name), { recursive: true });
  try {
    log(`${name}: turbine`);
    const t = await readSide(browser, world, p.plan, { side: 'turbine', current: currentFor(p, 'turbine', name, o, false), names, stepLimitMs: o.stepLimitMs });
    r.turbine = summary(t);
    writeFileSync(join(ROOT, 'dist/corpus', name, 'turbine.json'), JSON.stringify(t, null, 1));
    const againBeacons: RecordedBeacon[][] = [];
    for (let run = 2; run <= o.turbineRuns; run++) {
      log(`${name}: turbine, run ${run}/${o.turbineRuns}`);
      againBeacons.push((await readSide(browser, world, p.plan, { side: 'turbine', current: currentFor(p, 'turbine', name, o, false), names, stepLimitMs: o.stepLimitMs })).beacons);
    }
    if (p.buildDir) {
      log(`${name}: Offtag`);
      const f = await readSide(browser, world, p.plan, { side: 'offtag', current: currentFor(p, 'offtag', name, o, false), names, stepLimitMs: o.stepLimitMs });
      r.offtag = summary(f);
      writeFileSync(join(ROOT, 'dist/corpus', name, 'offtag.json'), JSON.stringify(f, null, 1));
      r.values = compareValues(t.values, f.values);
      // Rules the import adds (the ECID extension's start) are not the library's: named apart.
      const launchRules = new Set((p.container.rules ?? []).map((x) => x.name));
      r.rulesCompared = compareRules(t.completed, f.completed.filter((n) => launchRules.has(n)));
      const skipped = r.rulesCompared.missing.filter((n) => p.notImported?.has(n));
      if (skipped.length) r.notImportedRules = skipped;
      const own = [...new Set(f.completed.filter((n) => !launchRules.has(n)))];
      if (own.length) r.offtagOwnRules = own;
      r.beacons = compareBeacons(t.beacons, f.beacons, turbineVariation([t.beacons, ...againBeacons]));
      r.extraErrors = extraErrors(t.errors, f.errors);
    }
    if (o.rounds && p.buildDir) {
      const samples: Record<string, Array<CostSample | null>> = { none: [], turbine: [], offtag: [] };
      for (let round = 0; round < o.rounds; round++)
        for (const side of rotated<Side>(['none', 'turbine', 'offtag'], round)) {
          log(`${name}: cost round ${round + 1}/${o.rounds}, ${side}`);
          samples[side]!.push((await costOnce(world, p.plan, currentFor(p, side, name, o, true), 180_000)) ?? null);
        }
      const over = (side: string, k: keyof CostSample) => {
        const d = samples[side]!.map((x, i) => (x && samples.none![i] ? x[k] - samples.none![i]![k] : NaN)).filter(Number.isFinite);
        return d.length ? median(d) : undefined;
      };
      const noneMain = samples.none!.filter((x): x is CostSample => !!x).map((x) => x.mainMs);
      // The phone figures: the same loads with DevTools attached, under CPU throttling.
      const byRate: NonNullable<LibraryResult['cost']>['byRate'] = {};
      for (const rate of o.rates) {
        const xs: Record<string, Array<CostSample | null>> = { none: [], turbine: [], offtag: [] };
        for (let round = 0; round < o.throttledRounds; round++)
          for (const side of rotated<Side>(['none', 'turbine', 'offtag'], round)) {
            log(`${name}: cost at ${rate}x, round ${round + 1}/${o.throttledRounds}, ${side}`);
            xs[side]!.push((await costCdp(browser, world, p.plan, currentFor(p, side, name, o, true), 180_000 * rate, rate)) ?? null);
          }
        const d = (side: string, k: keyof CostSample) => {
          const v = xs[side]!.map((x, i) => (x && xs.none![i] ? x[k] - xs.none![i]![k] : NaN)).filter(Number.isFinite);
          return v.length ? median(v) : undefined;
        };
        byRate[rate] = { overNone: { turbine: d('turbine', 'mainMs'), offtag: d('offtag', 'mainMs') }, rendererOverNone: { turbine: d('turbine', 'rendererMs'), offtag: d('offtag', 'rendererMs') } };
      }
      r.cost = {
        rounds: o.rounds,
        samples,
        overNone: { turbine: over('turbine', 'mainMs'), offtag: over('offtag', 'mainMs') },
        rendererOverNone: { turbine: over('turbine', 'rendererMs'), offtag: over('offtag', 'rendererMs') },
        ...(noneMain.length ? { none: median(noneMain) } : {}),
        ...(o.rates.length ? { byRate } : {}),
      };
    }
    if (o.profile && p.buildDir) {
      const pageCodeLine = pageCodeStart(readFileSync(join(p.buildDir, 'offtag.js'), 'utf8'));
      const runs: Record<'turbine' | 'offtag', Array<Record<Part, number>>> = { turbine: [], offtag: [] };
      for (let round = 0; round < o.profile; round++)
        for (const side of rotated<'turbine' | 'offtag'>(['turbine', 'offtag'], round)) {
          log(`${name}: profile ${round + 1}/${o.profile}, ${side}`);
          const profile = await profileOnce(browser, world, p.plan, currentFor(p, side, name, o, true), 180_000);
          if (!profile) continue;
          runs[side].push(selfTime(profile, (f) => partOf(side, f, pageCodeLine)));
          // The raw profile, for DevTools' Performance panel (Load profile…).
          writeFileSync(join(ROOT, 'dist/corpus', name, `${side}-${round + 1}.cpuprofile`), JSON.stringify(profile));
        }
      const med = (xs: Array<Record<Part, number>>) => (xs.length ? (Object.fromEntries(PARTS.map((k) => [k, median(xs.map((x) => x[k]))])) as Record<Part, number>) : undefined);
      const turbine = med(runs.turbine);
      const offtag = med(runs.offtag);
      const bundled = !!p.importDir && existsSync(join(p.importDir, SITE_BUNDLE));
      if (turbine && offtag) r.profile = { loads: Math.min(runs.turbine.length, runs.offtag.length), turbine, offtag, ...(bundled ? { bundled } : {}) };
    }
  } catch (e) {
    r.error = message(e);
  }
  return r;
}

function runInfo(argv: string[]): RunInfo {
  const sh = (cmd: string, args: string[]) => {
    try {
      return execFileSync(cmd, args, { encoding: 'utf8', cwd: ROOT }).trim();
    } catch {
      return '?';
    }
  };
  return {
    // Folders as their last part: the results name no machine's paths.
    command: `npm run corpus -- ${argv.map((a, i) => (a.startsWith('/') && i > 0 && /^--(libs|assets|mirror|out)$/.test(argv[i - 1]!) ? `…/${basename(a)}` : a)).join(' ')}`.trim(),
    date: new Date().toISOString().replace(/:\d\d\.\d+Z$/, ' UTC').replace('T', ' '),
    chromium: sh(CHROMIUM_PATH, ['--version']),
    commit: sh('git', ['rev-parse', '--short', 'HEAD']),
    load: loadavg()[0]!.toFixed(1),
  };
}

/** The results of an earlier run written out again (after a change to the report's form). */
function render(file: string, argv: string[]): number {
  const { results, ...info } = JSON.parse(readFileSync(file, 'utf8')) as RunInfo & { results: LibraryResult[] };
  const out = join(file, '..');
  writeFileSync(join(out, 'corpus.md'), markdown(results, info));
  console.log(`wrote ${join(out, 'corpus.md')} from ${file}`);
  return argv.includes('--write-docs') ? writeDocs(results, info) : 0;
}

function writeDocs(results: LibraryResult[], info: RunInfo): number {
  const docs = join(ROOT, 'docs/import.md');
  const next = withTable(readFileSync(docs, 'utf8'), results, info);
  if (next === undefined) {
    console.error('corpus: docs/import.md has no corpus table markers; not rewritten.');
    return 1;
  }
  writeFileSync(docs, next);
  console.log('rewrote the table in docs/import.md');
  return 0;
}

export async function main(argv: string[]): Promise<number> {
  const r = argv.indexOf('--render');
  if (r >= 0 && argv[r + 1]) return render(argv[r + 1]!, argv);
  const o = parseArgs(argv);
  if (typeof o === 'string') {
    console.error(o);
    return 2;
  }
  let files = readdirSync(o.libs)
    .filter((f) => f.endsWith('.js'))
    .sort()
    .map((f) => join(o.libs, f));
  if (o.only) files = files.filter((f) => o.only!.some((x) => basename(f).startsWith(basename(x))));
  if (!files.length) {
    console.error(`corpus: no library in ${o.libs}${o.only ? ` matching ${o.only.join(', ')}` : ''}.`);
    return 1;
  }
  const info = runInfo(argv);
  const log = (m: string) => console.log(`[corpus ${new Date().toISOString().slice(11, 19)}] ${m}`);
  const base = (Number(process.env.OFFTAG_PORT_BASE) || 4173) + 10;
  const world = await startWorld({ port: base, mirror: o.mirror, ...(o.assets ? { assets: resolve(o.assets) } : {}) });
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...world.chromiumArgs] });
  const results: LibraryResult[] = [];
  try {
    for (const f of files) {
      const r = await runLibrary(f, o, world, browser, log);
      results.push(r);
      log(`${r.name}: done ${JSON.stringify({ import: r.import.ok, build: r.build?.ok, values: r.values && `${r.values.equal}/${r.values.resolved}`, rules: r.rulesCompared && `${r.rulesCompared.same}/${r.rulesCompared.turbine}`, beacons: r.beacons && `${r.beacons.turbine}/${r.beacons.offtag}`, error: r.error })}`);
    }
  } finally {
    await browser.close();
    await world.close();
  }
  mkdirSync(o.out, { recursive: true });
  writeFileSync(join(o.out, 'corpus.md'), markdown(results, info));
  writeFileSync(join(o.out, 'corpus.json'), JSON.stringify({ ...info, results }, null, 1) + '\n');
  console.log(`wrote ${join(o.out, 'corpus.md')} and corpus.json`);
  return o.writeDocs ? writeDocs(results, info) : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await main(process.argv.slice(2));

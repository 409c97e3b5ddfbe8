/**
 * The corpus run's results: one row per library (the table docs/import.md quotes), and per library
 * the differences the team needs to find their causes. Counts, parameter names and values the
 * generated page produced; never a library's code.
 */
import { NORMALISED, NORMALISED_PATH, type BeaconComparison, type ParamDiff, type RuleComparison, type ValueComparison } from './compare.ts';
import type { CostSample } from './sides.ts';
import type { Part } from './attribute.ts';

export interface SideSummary {
  readyTimedOut: boolean;
  stepsTimedOut: number;
  /** Steps whose element did not match its selector. */
  unmatched: number;
  completed: number;
  failed: number;
  actionFailed: number;
  /** Data elements with a value (not undefined). */
  resolved: number;
  beacons: number;
  errors: number;
  missing: number;
  feedLost?: boolean;
  beaconsPending?: number;
  /** AppMeasurement trackers that were not ready to track at the end (they hold their hits). */
  notReady?: string[];
}

export interface LibraryResult {
  file: string;
  /** The file's first 8 characters. */
  name: string;
  site?: string;
  environment?: string;
  rules?: number;
  dataElements?: number;
  import: { ok: boolean; summary?: string; error?: string; pageCode?: boolean };
  build?: { ok: boolean; gzip?: number; error?: string };
  plan?: { filled: number; skipped: number; tracks: number; customs: number; clicks: number; unbuildable: number };
  turbine?: SideSummary;
  offtag?: SideSummary;
  values?: ValueComparison;
  rulesCompared?: RuleComparison;
  /** Rules of the Offtag container that are not the library's (the import's own), which completed. */
  offtagOwnRules?: string[];
  /** Of the rules completed under turbine only, those the import does not import (its report says why). */
  notImportedRules?: string[];
  beacons?: BeaconComparison;
  extraErrors?: string[];
  cost?: {
    rounds: number;
    samples: Record<string, Array<CostSample | null>>;
    overNone: { turbine?: number; offtag?: number };
    rendererOverNone: { turbine?: number; offtag?: number };
    none?: number;
    /** The phone figures (CDP, CPU throttling), by rate: the same differences to the page without tags. */
    byRate?: Record<string, { overNone: { turbine?: number; offtag?: number }; rendererOverNone: { turbine?: number; offtag?: number } }>;
  };
  /** The main thread by whose code ran (attribute.ts), median ms of `loads` profiled loads per side; `bundled`: the library came inside the site's bundle, so under turbine that bundle's own code counts as turbine's. */
  profile?: { loads: number; turbine: Record<Part, number>; offtag: Record<Part, number>; bundled?: boolean };
  /** A failure of the run itself (not of the import or build). */
  error?: string;
}

export const DOCS_START = '<!-- corpus table: npm run corpus -- --write-docs rewrites it -->';
export const DOCS_END = '<!-- end of corpus table -->';

/** Turbine's main thread ÷ Offtag's, when both are above zero (a difference to the page without tags within the noise is not a ratio). */
const times = (t: number | undefined, o: number | undefined) => (t === undefined || o === undefined || !(t > 0) || !(o > 0) ? '—' : `${(t / o).toFixed(1)}×`);
/** Whether the two sides did the same work: as many beacons, every field equal. */
export const sameBeacons = (r: LibraryResult): string => (!r.beacons ? '—' : r.beacons.turbine === r.beacons.offtag && r.beacons.equal === r.beacons.total ? 'yes' : 'no');
const pct = (n: number, d: number) => (d ? `${((100 * n) / d).toFixed(1)}%` : '—');
const ms = (x: number | undefined) => (x === undefined || !Number.isFinite(x) ? '—' : `${x >= 0 ? '+' : ''}${x.toFixed(0)}`);
const clip = (s: string | undefined | null, n = 140) => (s === undefined ? '(absent)' : s === null ? 'undefined' : s.length > n ? `${s.slice(0, n)}…` : s);
const code = (s: string) => '`' + s.replace(/`/g, "'").replace(/\n/g, ' ') + '`';

/** Text in a table cell: its pipes escaped. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function tableRow(r: LibraryResult): string {
  const imp = r.import.ok ? 'ok' : `failed: ${cell(clip(r.import.error, 80))}`;
  const build = !r.import.ok ? '—' : r.build?.ok ? `ok (${r.build.gzip} B gz)` : `failed: ${cell(clip(r.build?.error, 80))}`;
  const v = r.values ? `${r.values.equal}/${r.values.resolved}` : '—';
  const rc = r.rulesCompared;
  const notImported = r.notImportedRules?.length ? `; ${r.notImportedRules.length} not imported` : '';
  const rules = rc ? `${rc.same}/${rc.turbine}${rc.extra.length || notImported ? ` (${rc.extra.length ? `+${rc.extra.length}` : ''}${rc.extra.length ? notImported : notImported.slice(2)})` : ''}` : '—';
  const order = !rc ? '—' : rc.orderSame ? 'yes' : rc.sharedOrderSame && rc.same > 1 ? 'no (the shared ones: yes)' : 'no';
  const b = r.beacons;
  const beacons = b ? `${b.turbine} vs ${b.offtag}` : '—';
  const params = b ? (b.total ? `${b.equal}/${b.total} (${pct(b.equal, b.total)})${b.varies ? `; ${b.equal + b.varies}/${b.total} (${pct(b.equal + b.varies, b.total)}) counting the ${b.varies} on which turbine's own runs differ` : ''}` : '—') : '—';
  const errors = r.extraErrors ? String(r.extraErrors.length) : '—';
  const cost = r.cost ? `${ms(r.cost.overNone.turbine)} / ${ms(r.cost.overNone.offtag)} (${times(r.cost.overNone.turbine, r.cost.overNone.offtag)})` : '—';
  const renderer = r.cost ? `${ms(r.cost.rendererOverNone.turbine)} / ${ms(r.cost.rendererOverNone.offtag)}` : '—';
  const phone = r.cost?.byRate ? Object.entries(r.cost.byRate).map(([rate, x]) => `${rate}×: ${times(x.overNone.turbine, x.overNone.offtag)}`).join(', ') : '—';
  return `| ${r.name} | ${imp} | ${build} | ${v} | ${rules} | ${order} | ${beacons} | ${params} | ${errors} | ${cost} | ${renderer} | ${phone} | ${sameBeacons(r)} |`;
}

export function table(results: LibraryResult[]): string {
  return [
    '| library | import | build | getVar equal | rules completed: same / turbine\'s (+ Offtag only) | same order | beacons, turbine vs Offtag | fields equal | console errors only Offtag has | main thread ms over no tags, turbine / Offtag (turbine ÷ Offtag) | whole renderer ms over no tags, turbine / Offtag | main thread, turbine ÷ Offtag, phones (CDP, CPU throttling) | the same beacons |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...results.map(tableRow),
  ].join('\n');
}

/** What the run normalises, as the output lists it. */
export function normalisations(): string[] {
  return [`path: ${NORMALISED_PATH}`, ...Object.entries(NORMALISED).map(([k, why]) => `\`${k}\`: ${why} (compared for presence only)`)];
}

const side = (label: string, s: SideSummary | undefined) =>
  !s
    ? `- ${label}: not run`
    : `- ${label}: ${s.completed} rule completions, ${s.failed} condition(s) not met${s.actionFailed ? `, ${s.actionFailed} action failure(s)` : ''}; ${s.resolved} data elements with a value; ${s.beacons} beacon(s); ${s.errors} console error(s); ${s.missing} request(s) answered 404` +
      `${s.readyTimedOut ? '; the load did not settle within the limit' : ''}${s.stepsTimedOut ? `; ${s.stepsTimedOut} step(s) reached the limit` : ''}${s.feedLost ? '; the devtools feed overflowed between two reads' : ''}${s.beaconsPending ? `; ${s.beaconsPending} beacon(s) still pending at the end` : ''}` +
      `${s.notReady?.length ? `; AppMeasurement not ready to track at the end, holding its hits: ${s.notReady.join(', ')}` : ''}`;

/**
 * The beacon differences: a difference several pairs share (same field, same two values) once,
 * with how many pairs have it; then each pair's own.
 */
export function beaconLines(b: BeaconComparison): string[] {
  const out = [`Beacons (turbine ${b.turbine}, Offtag ${b.offtag}; ${b.equal} of ${b.total} fields equal${b.varies ? `; ${b.varies} of the differences are fields turbine itself gave otherwise in another run of the page, marked "turbine varies"` : ''}):`, ''];
  const paired = b.pairs.filter((p) => p.turbine !== undefined && p.offtag !== undefined);
  const key = (d: ParamDiff) => JSON.stringify([d.name, d.turbine ?? null, d.offtag ?? null]);
  const count = new Map<string, number>();
  for (const p of paired) for (const d of p.diffs) count.set(key(d), (count.get(key(d)) ?? 0) + 1);
  const diffLine = (d: ParamDiff) => `${code(d.name)}: ${d.turbine === undefined ? '(absent)' : code(clip(d.turbine))} → ${d.offtag === undefined ? '(absent)' : code(clip(d.offtag))}${d.varies ? ' (turbine varies)' : ''}`;
  const shared = [...count].filter(([, n]) => n > 1);
  if (shared.length) {
    out.push(`Differences several pairs share (turbine → Offtag):`, '');
    const seen = new Set<string>();
    for (const p of paired)
      for (const d of p.diffs) {
        const k = key(d);
        if ((count.get(k) ?? 0) > 1 && !seen.has(k)) {
          seen.add(k);
          out.push(`- ${diffLine(d)} (${count.get(k)} of ${paired.length} pairs)`);
        }
      }
    out.push('');
  }
  for (const p of b.pairs) {
    if (p.turbine === undefined) out.push(`- Offtag #${p.offtag! + 1} (${p.kind}): turbine sent none like it`);
    else if (p.offtag === undefined) out.push(`- turbine #${p.turbine + 1} (${p.kind}): Offtag sent none like it`);
    else {
      const own = p.diffs.filter((d) => (count.get(key(d)) ?? 0) <= 1);
      const sharedN = p.diffs.length - own.length;
      const head = `- turbine #${p.turbine + 1} ↔ Offtag #${p.offtag + 1} (${p.kind})`;
      if (!p.diffs.length) out.push(`${head}: every field equal`);
      else if (!own.length) out.push(`${head}: only the shared differences (${sharedN})`);
      else {
        out.push(`${head}: ${sharedN ? `the shared differences (${sharedN}) and ` : ''}${own.length} of its own:`);
        for (const d of own.slice(0, 60)) out.push(`  - ${diffLine(d)}`);
        if (own.length > 60) out.push(`  - … and ${own.length - 60} more (corpus.json)`);
      }
    }
  }
  return out;
}

export function details(r: LibraryResult, limit = 25): string {
  const out: string[] = [`### ${r.name}`, ''];
  if (r.site) out.push(`${r.site} (environment ${r.environment ?? '?'}): ${r.rules ?? '?'} rules, ${r.dataElements ?? '?'} data elements.`, '');
  if (r.error) out.push(`The run failed: ${clip(r.error, 400)}`, '');
  out.push(`- import: ${r.import.ok ? r.import.summary ?? 'ok' : `failed: ${r.import.error}`}${r.import.pageCode ? ' (page-code.js written)' : ''}`);
  if (r.build) out.push(`- build: ${r.build.ok ? `ok, offtag.js ${r.build.gzip} B gzip` : `failed: ${r.build.error}`}`);
  if (r.plan)
    out.push(
      `- page: ${r.plan.filled} data layer paths filled (${r.plan.skipped} left to the browser or the tracker); steps: ${r.plan.tracks} direct calls, ${r.plan.customs} custom events, ${r.plan.clicks} clicks${r.plan.unbuildable ? `; ${r.plan.unbuildable} selector(s) no element could be made for` : ''}` +
        `${r.turbine?.unmatched ? `; ${r.turbine.unmatched} element(s) did not match their selector` : ''}`,
    );
  out.push(side('turbine', r.turbine), side('Offtag', r.offtag));
  if (r.offtagOwnRules?.length) out.push(`- Offtag also completed rules of its own, not the library's (not compared): ${r.offtagOwnRules.map(code).join(', ')}`);
  if (r.values?.differ.length) {
    out.push('', `getVar differs for ${r.values.differ.length} of ${r.values.resolved} values turbine resolves (turbine → Offtag):`, '');
    for (const d of r.values.differ.slice(0, limit)) out.push(`- ${code(d.name)}: ${code(clip(d.turbine))} → ${code(clip(d.offtag))}`);
    if (r.values.differ.length > limit) out.push(`- … and ${r.values.differ.length - limit} more (corpus.json)`);
  }
  const rc = r.rulesCompared;
  if (rc && (rc.missing.length || rc.extra.length || !rc.orderSame)) {
    out.push('');
    const skipped = new Set(r.notImportedRules ?? []);
    const imported = rc.missing.filter((n) => !skipped.has(n));
    if (imported.length) out.push(`Completed under turbine only (${imported.length}): ${imported.slice(0, limit).map(code).join(', ')}${imported.length > limit ? ', …' : ''}`, '');
    const left = rc.missing.filter((n) => skipped.has(n));
    if (left.length) out.push(`Completed under turbine only, rules the import does not import (${left.length}; the import's report says why): ${left.slice(0, limit).map(code).join(', ')}${left.length > limit ? ', …' : ''}`, '');
    if (rc.extra.length) out.push(`Completed under Offtag only (${rc.extra.length}): ${rc.extra.slice(0, limit).map(code).join(', ')}${rc.extra.length > limit ? ', …' : ''}`, '');
    if (!rc.orderSame) out.push(`Order: the sequences first differ at completion #${(rc.firstDifference ?? 0) + 1}; the completions both have come ${rc.sharedOrderSame ? 'in the same order' : 'in another order'}.`, '');
  }
  const b = r.beacons;
  if (b && (b.turbine || b.offtag)) out.push('', ...beaconLines(b));
  if (r.extraErrors?.length) {
    out.push('', `Console errors under Offtag only (${r.extraErrors.length}):`, '');
    for (const e of r.extraErrors.slice(0, 10)) out.push(`- ${code(clip(e, 200))}`);
    if (r.extraErrors.length > 10) out.push(`- … and ${r.extraErrors.length - 10} more`);
  }
  if (r.cost) {
    const f = (xs: Array<CostSample | null> | undefined, k: keyof CostSample) => (xs ?? []).map((x) => (x ? x[k].toFixed(1) : 'failed')).join(' ');
    out.push(
      '',
      `Cost (${r.cost.rounds} round(s) without DevTools, ms per load, renderer start to a second after the last step): main thread — no tags ${f(r.cost.samples.none, 'mainMs')}; turbine ${f(r.cost.samples.turbine, 'mainMs')}; Offtag ${f(r.cost.samples.offtag, 'mainMs')}. ` +
        `Whole renderer over no tags (median): turbine ${ms(r.cost.rendererOverNone.turbine)}, Offtag ${ms(r.cost.rendererOverNone.offtag)} (Offtag's worker threads ${f(r.cost.samples.offtag, 'workerMs')}, sender ${f(r.cost.samples.offtag, 'sharedMs')}). ` +
        `Main thread, turbine ÷ Offtag: ${times(r.cost.overNone.turbine, r.cost.overNone.offtag)}; ${sameBeacons(r) === 'yes' ? 'with the same beacons' : `**not** with the same beacons (${r.beacons ? `${r.beacons.turbine} vs ${r.beacons.offtag}, ${r.beacons.equal}/${r.beacons.total} fields equal` : 'not compared'}): the two sides did not do the same work, so the ratio is not the goal's`}.` +
        (r.cost.byRate
          ? ` Phones (CDP, CPU throttling; main thread | whole renderer over no tags, turbine / Offtag): ${Object.entries(r.cost.byRate)
              .map(([rate, x]) => `${rate}× ${ms(x.overNone.turbine)} / ${ms(x.overNone.offtag)} ms (${times(x.overNone.turbine, x.overNone.offtag)}) | ${ms(x.rendererOverNone.turbine)} / ${ms(x.rendererOverNone.offtag)} ms`)
              .join('; ')}.`
          : ''),
    );
  }
  out.push('');
  return out.join('\n');
}

/**
 * The main thread by whose code ran, per library with a profile. The library's code that runs on
 * the page under Offtag (custom code that needs the DOM, extensions kept on the page) runs under
 * turbine too, so turbine's tag work divided by it is the most any runtime could save there.
 */
export function profileTable(results: LibraryResult[]): string[] {
  const withProfile = results.filter((r) => r.profile);
  if (!withProfile.length) return [];
  const f = (x: number) => x.toFixed(0);
  const rows = withProfile.map((r) => {
    const { turbine: t, offtag: o, loads, bundled } = r.profile!;
    const tagWork = t.turbine + t['tag code on the page'];
    const onPage = o['tag code on the page'];
    return `| ${r.name}${bundled ? ' (in a site bundle)' : ''} | ${loads} | ${f(t.turbine)} | ${f(t['tag code on the page'])} | ${f(t.site)} / ${f(t.browser)} | ${f(o.offtag)} | ${f(onPage)} | ${f(o.site)} / ${f(o.browser)} | ${times(tagWork, o.offtag + onPage)} | ${times(tagWork, onPage)} |`;
  });
  return [
    '## Where the main thread goes',
    '',
    "V8's sampling profiler (100 µs) over one page load per side at 1×, DevTools attached, self time summed by whose code ran, ms (median of the loads). Under turbine: turbine and the extensions' library code with AppMeasurement.js and VisitorAPI.js (custom code written inside the library counts here), and the custom code files a rule loads from the library's host. Under Offtag: offtag.js and its chunks, and the library's code that the import keeps on the page (offtag.js's page code: custom code that needs the DOM, extension modules run by its module host, and the same custom code files). Site: the page's own scripts and the corpus driver; browser: V8 and Blink outside any script. The last column is turbine's tag work divided by the library's code on Offtag's page: the most any runtime could save with that code on the page.",
    '',
    "| library | loads | turbine: turbine + extensions | turbine: custom code files | turbine: site / browser | Offtag: its own | Offtag: the library's code on the page | Offtag: site / browser | turbine's tag work ÷ Offtag's | ÷ the library's code on the page alone |",
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ];
}

export interface RunInfo {
  command: string;
  date: string;
  chromium: string;
  commit: string;
  load: string;
}

export function markdown(results: LibraryResult[], info: RunInfo): string {
  return [
    '# Real Launch libraries: Offtag against turbine',
    '',
    `\`${info.command}\` at ${info.commit}, ${info.date}, ${info.chromium}, 2 cores shared (load average at the start ${info.load}). Generated by bench/corpus/run.ts; docs/import.md ("Real libraries") says what each column means.`,
    '',
    table(results),
    '',
    'Normalised before beacons are compared (values that must differ between two runs):',
    '',
    ...normalisations().map((n) => `- ${n}`),
    '',
    ...profileTable(results),
    '## Per library',
    '',
    ...results.map((r) => details(r)),
  ].join('\n');
}

/** docs/import.md with the table between its markers replaced; undefined when the markers are missing. */
export function withTable(doc: string, results: LibraryResult[], info: RunInfo): string | undefined {
  const a = doc.indexOf(DOCS_START);
  const b = doc.indexOf(DOCS_END);
  if (a < 0 || b < a) return undefined;
  // No date: docs carry no dated runs (tests/unit/docs/for-readers.test.ts); corpus.md has the run's date.
  const body = `\n${table(results)}\n\n(\`${info.command}\` at ${info.commit}: bench/results/corpus.md has the run's date and each library's differences.)\n`;
  return doc.slice(0, a + DOCS_START.length) + body + doc.slice(b);
}

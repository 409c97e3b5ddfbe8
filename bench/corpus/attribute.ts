/**
 * Where a corpus page's main thread goes: a V8 CPU profile of one load (CDP `Profiler`), its samples'
 * self time summed by whose code the sampled function is. The cost rounds say how much each side
 * costs; this says how much of it either side could ever remove. The tag code that must run on the
 * page (custom code that touches the DOM, an extension such as Adobe Target) runs on both sides, so
 * turbine's cost divided by it bounds the ratio any Offtag could reach on that page.
 */
import { PAGE_CODE_COMMENT } from '../../tools/build/page-reads.ts';

/** The parts of a profile the sum needs (CDP `Profiler.Profile`). */
export interface CpuProfile {
  nodes: Array<{ id: number; callFrame: { functionName: string; url: string; lineNumber: number; scriptId?: string }; children?: number[] }>;
  samples?: number[];
  timeDeltas?: number[];
}

export type Part =
  /** offtag.js's own code and its lazy chunks (offtag-effects.js, offtag-triggers.js, …). */
  | 'offtag'
  /** turbine and the extensions' library code, AppMeasurement.js and VisitorAPI.js. */
  | 'turbine'
  /** The library's code that runs on the page under either runtime: custom code, extension modules an import keeps on the page. */
  | 'tag code on the page'
  /** The site's own scripts (its bundle, the corpus page's driver). */
  | 'site'
  /** V8 and Blink outside any script: (program), the garbage collector. */
  | 'browser';

export const PARTS: readonly Part[] = ['offtag', 'turbine', 'tag code on the page', 'site', 'browser'];

/**
 * Whose code a sampled frame is, for one side of a corpus page.
 * - `pageCodeLine`: the 0-based line of offtag.js where the container's page code begins
 *   (tools/build/page-reads.ts `wrapBridge`: the bridge above it, the library's own code below).
 */
export function partOf(side: 'turbine' | 'offtag', frame: { url: string; lineNumber: number; functionName: string }, pageCodeLine: number): Part | undefined {
  const { url, functionName } = frame;
  if (functionName === '(idle)' || functionName === '(root)') return undefined;
  if (!url) return functionName.startsWith('(') ? 'browser' : 'site';
  const file = new URL(url, 'https://x/').pathname.split('/').pop() ?? '';
  // Custom code a rule loads from the library's host: the same file under both runtimes.
  if (/-source(\.min)?\.js$/.test(file)) return 'tag code on the page';
  if (side === 'offtag') {
    if (file === 'offtag.js') return frame.lineNumber >= pageCodeLine ? 'tag code on the page' : 'offtag';
    if (file.endsWith('.page-code.js')) return 'tag code on the page';
    if (/^offtag-.*\.js$/.test(file) || file.startsWith('partytown')) return 'offtag';
    return 'site';
  }
  if (/^launch-.*\.js$/.test(file) || /^(AppMeasurement|VisitorAPI)/.test(file)) return 'turbine';
  return 'site';
}

/**
 * Self time (ms) per part. A sample's time is the delta to the next sample (as DevTools counts it);
 * the last sample has none. A built-in function (no script: `appendChild`, `fetch`) counts as the
 * script that called it. So does code of a script without a URL (an inline script inserted at run
 * time), except under Offtag's own code: offtag.js inserts such scripts only to run the library's
 * custom code (src/page-side/html.ts), so that code is the library's on the page, not Offtag's.
 */
export function selfTime(profile: CpuProfile, part: (frame: CpuProfile['nodes'][number]['callFrame']) => Part | undefined): Record<Part, number> {
  const out = Object.fromEntries(PARTS.map((p) => [p, 0])) as Record<Part, number>;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  let inline = false;
  const caller = (id: number) => {
    let n = byId.get(id);
    inline = false;
    while (n && !n.callFrame.url && !n.callFrame.functionName.startsWith('(') && parent.has(n.id)) {
      inline ||= !!n.callFrame.scriptId && n.callFrame.scriptId !== '0';
      n = byId.get(parent.get(n.id)!);
    }
    return n?.callFrame;
  };
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i + 1 < samples.length; i++) {
    const frame = caller(samples[i]!);
    let p = frame && part(frame);
    if (p === 'offtag' && inline) p = 'tag code on the page';
    if (p) out[p] += (deltas[i + 1] ?? 0) / 1000;
  }
  return out;
}

/** The 0-based line where offtag.js's page code begins, or Infinity for a build without page code. */
export function pageCodeStart(offtagJs: string): number {
  const i = offtagJs.split('\n').indexOf(PAGE_CODE_COMMENT);
  return i < 0 ? Infinity : i;
}

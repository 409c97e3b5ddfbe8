/**
 * What a corpus run compares between turbine and Offtag, as pure functions of the two sides'
 * readings: data element values (`_satellite.getVar`), the rules that completed and their order,
 * the Analytics beacons parameter by parameter, and the console errors.
 */
import type { RecordedBeacon } from './world.ts';

/** What one side of a page gave. */
export interface SideReadings {
  /** Rule names (the Launch rule's), in the order they completed. */
  completed: string[];
  /** `_satellite.getVar(name)` as JSON, `null` for undefined. */
  values: Record<string, string | null>;
  beacons: RecordedBeacon[];
  /** Console errors (and uncaught exceptions) as `compareErrors` keys them. */
  errors: string[];
}

/**
 * The parameters whose values must differ between two runs of the same page, compared for
 * presence only: each has the reason it may differ. Nothing else is normalised.
 */
export const NORMALISED: Record<string, string> = {
  t: 'the local time of the hit (to the second)',
  lrt: "the previous request's round trip in ms",
  sdid: 'the supplemental data id, drawn at random per page',
  fid: 'the fallback visitor id, drawn at random (only without ECID)',
};
/** Also left out: the beacon path's random request id (`/b/ss/…/s<random>`), which is not a parameter. */
export const NORMALISED_PATH = 'the random request id at the end of the beacon path (`s<random>`)';

/** Offtag names the later parts of a rule with several rule orders `<name> (rule order N)` (tools/import/translate.ts `orderSuffix`). */
export const launchRuleName = (offtagName: string) => offtagName.replace(/ \((page bottom, )?rule order -?\d+(\.\d+)?\)$/, '');

export interface ValueComparison {
  /** Data elements whose turbine value is not undefined. */
  resolved: number;
  equal: number;
  differ: Array<{ name: string; turbine: string; offtag: string | null }>;
}

export function compareValues(turbine: Record<string, string | null>, offtag: Record<string, string | null>): ValueComparison {
  const out: ValueComparison = { resolved: 0, equal: 0, differ: [] };
  for (const [name, t] of Object.entries(turbine)) {
    if (t === null) continue;
    out.resolved++;
    const o = offtag[name] ?? null;
    if (o === t) out.equal++;
    else out.differ.push({ name, turbine: t, offtag: o });
  }
  return out;
}

export interface RuleComparison {
  turbine: number;
  offtag: number;
  /** Completions turbine and Offtag share (counted with repeats). */
  same: number;
  missing: string[];
  extra: string[];
  /** The two sequences are equal. */
  orderSame: boolean;
  /** The shared completions come in the same order on both sides. */
  sharedOrderSame: boolean;
  /** The first position where the sequences differ. */
  firstDifference?: number;
}

/** Removes one of each of `b`'s items from `a`. */
function minus(a: string[], b: string[]): string[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(x, (left.get(x) ?? 0) + 1);
  return a.filter((x) => {
    const n = left.get(x) ?? 0;
    if (n > 0) return left.set(x, n - 1), false;
    return true;
  });
}

/** Keeps the items of `a` that are also in `b`, as many times as `b` has them, in `a`'s order. */
function shared(a: string[], b: string[]): string[] {
  const left = new Map<string, number>();
  for (const x of b) left.set(x, (left.get(x) ?? 0) + 1);
  return a.filter((x) => {
    const n = left.get(x) ?? 0;
    if (n > 0) return left.set(x, n - 1), true;
    return false;
  });
}

export function compareRules(turbine: string[], offtag: string[]): RuleComparison {
  const missing = minus(turbine, offtag);
  const extra = minus(offtag, turbine);
  const st = shared(turbine, offtag);
  const so = shared(offtag, turbine);
  let first: number | undefined;
  for (let i = 0; i < Math.max(turbine.length, offtag.length); i++)
    if (turbine[i] !== offtag[i]) {
      first = i;
      break;
    }
  return {
    turbine: turbine.length,
    offtag: offtag.length,
    same: st.length,
    missing,
    extra,
    orderSame: first === undefined,
    sharedOrderSame: st.every((x, i) => so[i] === x),
    ...(first !== undefined ? { firstDifference: first } : {}),
  };
}

/** A beacon's comparable fields: `[host]` and `[path]` (report suite, version) beside its parameters. */
export function fieldsOf(b: RecordedBeacon): Record<string, string> {
  return { '[host]': b.host, '[path]': b.path, ...b.params };
}

export interface ParamDiff {
  name: string;
  turbine?: string;
  offtag?: string;
  /** Turbine itself gave this field of this beacon otherwise in another run of the same page (`turbineVariation`). */
  varies?: true;
}

export interface BeaconDiff {
  equal: number;
  total: number;
  diffs: ParamDiff[];
}

/** Field by field; a normalised parameter is equal when both sides have it. */
export function diffBeacon(t: RecordedBeacon, o: RecordedBeacon): BeaconDiff {
  const a = fieldsOf(t);
  const b = fieldsOf(o);
  const names = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const diffs: ParamDiff[] = [];
  let equal = 0;
  for (const n of names) {
    const inA = n in a;
    const inB = n in b;
    if (inA && inB && (a[n] === b[n] || n in NORMALISED)) equal++;
    else diffs.push({ name: n, ...(inA ? { turbine: a[n] } : {}), ...(inB ? { offtag: b[n] } : {}) });
  }
  return { equal, total: names.length, diffs };
}

/** Beacons of the same kind can pair: page views with page views, link hits of the same link type with each other. */
const kindOf = (b: RecordedBeacon) => b.params.pe ?? 't';

/**
 * Pairs turbine's beacons with Offtag's, in order (neither side's order is crossed), most equal
 * fields first: an alignment of the two sequences that maximises the equal fields of the pairs
 * (each pair also counts one, so pairing beats leaving both unpaired). Then a beacon left unpaired
 * on one side pairs with one the other side sent identically (every field equal) elsewhere in its
 * order: hits of two kinds that one click makes (a rule's link hit, AppMeasurement's exit-link hit)
 * may leave in either order. Pairs are `[turbine index, Offtag index]`; an index alone is a beacon
 * the other side did not send.
 */
export function pairBeacons(t: RecordedBeacon[], o: RecordedBeacon[]): Array<[number | undefined, number | undefined]> {
  const pairs = alignInOrder(t, o);
  const onlyOfftag = pairs.flatMap(([i, j]) => (i === undefined ? [j!] : []));
  const moved = new Map<number, number>();
  for (const [i, j] of pairs) {
    if (j !== undefined) continue;
    const k = onlyOfftag.findIndex((x) => kindOf(o[x]!) === kindOf(t[i!]!) && !diffBeacon(t[i!]!, o[x]!).diffs.length);
    if (k >= 0) moved.set(i!, onlyOfftag.splice(k, 1)[0]!);
  }
  if (!moved.size) return pairs;
  const taken = new Set(moved.values());
  return pairs.flatMap(([i, j]): Array<[number | undefined, number | undefined]> => (i !== undefined && moved.has(i) ? [[i, moved.get(i)!]] : j !== undefined && i === undefined && taken.has(j) ? [] : [[i, j]]));
}

function alignInOrder(t: RecordedBeacon[], o: RecordedBeacon[]): Array<[number | undefined, number | undefined]> {
  const n = t.length;
  const m = o.length;
  const score = (i: number, j: number) => (kindOf(t[i]!) === kindOf(o[j]!) ? 1 + diffBeacon(t[i]!, o[j]!).equal : -1);
  const dp: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = 1; i <= n; i++)
    for (let j = 1; j <= m; j++) {
      const s = score(i - 1, j - 1);
      dp[i]![j] = Math.max(dp[i - 1]![j]!, dp[i]![j - 1]!, s > 0 ? dp[i - 1]![j - 1]! + s : -Infinity);
    }
  const out: Array<[number | undefined, number | undefined]> = [];
  let i = n;
  let j = m;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0) {
      const s = score(i - 1, j - 1);
      if (s > 0 && dp[i]![j] === dp[i - 1]![j - 1]! + s) {
        out.push([i - 1, j - 1]);
        i--, j--;
        continue;
      }
    }
    // Walking backwards, Offtag's unpaired beacon first: in the result, turbine's comes first.
    if (j > 0 && (i === 0 || dp[i]![j] === dp[i]![j - 1])) out.push([undefined, --j]);
    else out.push([--i, undefined]);
  }
  return out.reverse();
}

export interface BeaconComparison {
  turbine: number;
  offtag: number;
  /** Fields equal / fields compared, over the pairs and the unpaired beacons (all of whose fields differ). */
  equal: number;
  total: number;
  pairs: Array<{ turbine?: number; offtag?: number; kind: string; diffs: ParamDiff[] }>;
  /** Of the differing fields, those turbine itself gave otherwise in another run of the page (with `--turbine-runs` above 1). */
  varies?: number;
}

/**
 * The fields of turbine's beacons (the first run's, by index) that turbine gave otherwise in a
 * later run of the same page: the page's own races (which of two rules' steps lands first), not a
 * difference of Offtag's. Beacons paired as `compareBeacons` pairs them; an unpaired one adds nothing.
 */
export function turbineVariation(runs: RecordedBeacon[][]): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  const [first, ...later] = runs;
  for (const run of later)
    for (const [i, j] of pairBeacons(first!, run)) {
      if (i === undefined || j === undefined) continue;
      for (const d of diffBeacon(first![i]!, run[j]!).diffs) {
        if (!out.has(i)) out.set(i, new Set());
        out.get(i)!.add(d.name);
      }
    }
  return out;
}

export function compareBeacons(t: RecordedBeacon[], o: RecordedBeacon[], varies: Map<number, Set<string>> = new Map()): BeaconComparison {
  const out: BeaconComparison = { turbine: t.length, offtag: o.length, equal: 0, total: 0, pairs: [] };
  for (const [i, j] of pairBeacons(t, o)) {
    if (i !== undefined && j !== undefined) {
      const d = diffBeacon(t[i]!, o[j]!);
      out.equal += d.equal;
      out.total += d.total;
      const diffs = d.diffs.map((x) => (varies.get(i)?.has(x.name) ? { ...x, varies: true as const } : x));
      const n = diffs.filter((x) => x.varies).length;
      if (n) out.varies = (out.varies ?? 0) + n;
      out.pairs.push({ turbine: i, offtag: j, kind: kindOf(t[i]!), diffs });
    } else {
      const b = (i !== undefined ? t[i] : o[j!])!;
      out.total += Object.keys(fieldsOf(b)).length;
      out.pairs.push({ ...(i !== undefined ? { turbine: i } : { offtag: j }), kind: kindOf(b), diffs: [] });
    }
  }
  return out;
}

/**
 * A console message as compared: its first line (a logged error's stack differs between any two
 * scripts); a failed resource load also names its URL (the text alone does not), with the query
 * values that must differ between two loads (a random session id, a timestamp: a run of 10 or more
 * hex digits; a JSONP callback's generated name) written `…`; an unhandled rejection as the error it carries (Chromium words the same
 * rejection `Uncaught (in promise) Error: …` or `Error: …` depending on where it was thrown).
 */
export const errorKey = (text: string, url?: string) => {
  const first = text.split('\n')[0]!.replace(/^(uncaught )Uncaught \(in promise\) /, '$1');
  return /^Failed to load resource/.test(first) && url ? `${first} ${url.replace(/=[0-9a-f]{10,}(?=&|$)/gi, '=…').replace(/([?&](?:callback|jsonp)=)[^&]*/gi, '$1…')}` : first;
};

/** Offtag's errors that turbine did not also produce (each of turbine's errors excuses one equal error of Offtag's). */
export const extraErrors = (turbine: string[], offtag: string[]): string[] => minus(offtag, turbine);

/**
 * AppMeasurement variable names and the query keys they travel under (appmeasurement.md §1),
 * with the ranges of SPEC.md §9 carried by the types and the length limits of
 * appmeasurement.md §3 applied to the values.
 */

/** 1..N as a union of number literals (N ≤ 250 stays well inside the compiler's recursion limit). */
type UpTo<N extends number, Acc extends number[] = [], Out extends number = never> = Acc['length'] extends N
  ? Out | N
  : UpTo<N, [...Acc, 0], Acc['length'] extends 0 ? Out : Out | Acc['length']>;

export const PROP_COUNT = 75;
export const EVAR_COUNT = 250;
export const HIER_COUNT = 5;
export const LIST_COUNT = 3;

export type PropIndex = UpTo<typeof PROP_COUNT>;
export type EVarIndex = UpTo<typeof EVAR_COUNT>;
export type HierIndex = UpTo<typeof HIER_COUNT>;
export type ListIndex = UpTo<typeof LIST_COUNT>;

export type PropName = `prop${PropIndex}`;
export type EVarName = `eVar${EVarIndex}`;
export type HierName = `hier${HierIndex}`;
export type ListName = `list${ListIndex}`;
export type NumberedVarName = PropName | EVarName | HierName | ListName;

/** The named (not numbered) variables, in the JS spelling a rule uses, with their query key. */
export const NAMED_VARS = {
  visitorID: 'vid',
  pageName: 'pageName',
  pageURL: 'g',
  referrer: 'r',
  currencyCode: 'cc',
  purchaseID: 'purchaseID',
  variableProvider: 'vvp',
  channel: 'ch',
  server: 'server',
  pageType: 'pageType',
  transactionID: 'xact',
  campaign: 'v0',
  state: 'state',
  zip: 'zip',
  events: 'events',
  products: 'products',
} as const;

export type NamedVarName = keyof typeof NAMED_VARS;
export type TrackerVarName = NamedVarName | NumberedVarName;
/** What a rule may set: the ranges of SPEC.md §9 are part of the type (`eVar251` does not compile). */
export type TrackerVars = Partial<Record<TrackerVarName, string>>;

const NUMBERED = /^(prop|eVar|hier|list)([1-9][0-9]{0,2})$/;
const NUMBERED_LIMITS: Record<string, { count: number; key: string }> = {
  prop: { count: PROP_COUNT, key: 'c' },
  eVar: { count: EVAR_COUNT, key: 'v' },
  hier: { count: HIER_COUNT, key: 'h' },
  list: { count: LIST_COUNT, key: 'l' },
};

/** The runtime twin of the types above, for names that arrive as plain strings. */
export function isTrackerVarName(name: string): name is TrackerVarName {
  return queryKeyOf(name) !== undefined;
}

/** `eVar12` → `v12`, `prop3` → `c3`, `channel` → `ch`; undefined for anything else (e.g. `eVar251`). */
export function queryKeyOf(name: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(NAMED_VARS, name)) return NAMED_VARS[name as NamedVarName];
  const m = NUMBERED.exec(name);
  if (!m) return undefined;
  const spec = NUMBERED_LIMITS[m[1]!]!;
  const n = Number(m[2]);
  return n >= 1 && n <= spec.count ? `${spec.key}${n}` : undefined;
}

/** Byte limits of appmeasurement.md §3 (UTF-8 bytes, as the collection servers count). */
export const LIMIT_PROP = 100;
export const LIMIT_EVAR = 255;
export const LIMIT_HIER = 255;
export const LIMIT_LIST_VALUE = 255;
export const LIMIT_PAGE_NAME = 100;
export const LIMIT_VISITOR_ID = 100;
export const LIMIT_EVENTS = 64 * 1024;
export const LIMIT_PRODUCTS = 64 * 1024;
/** `g` carries the first 255 characters of the page URL; the rest goes in `-g`. */
export const PAGE_URL_SPLIT = 255;
/** The delimiter the storefront joins list values with (DECISIONS.md §3). */
export const LIST_DELIMITER = ',';

/** A `D=` value is a copy instruction for the server (`D=v1`), never a value to cut. */
export function isDynamicCopy(value: string): boolean {
  return value.startsWith('D=');
}

const encoder = new TextEncoder();

/** The longest prefix of `value` that fits in `maxBytes` UTF-8 bytes, never splitting a character. */
export function truncateBytes(value: string, maxBytes: number): string {
  if (value.length * 3 <= maxBytes || encoder.encode(value).length <= maxBytes) return value;
  let bytes = 0;
  let out = '';
  for (const ch of value) {
    const n = encoder.encode(ch).length;
    if (bytes + n > maxBytes) break;
    bytes += n;
    out += ch;
  }
  return out;
}

/** The byte limit for a query key, if it has one. */
export function limitFor(queryKey: string): number | undefined {
  if (queryKey === 'pageName') return LIMIT_PAGE_NAME;
  if (queryKey === 'vid') return LIMIT_VISITOR_ID;
  if (queryKey === 'events') return LIMIT_EVENTS;
  if (queryKey === 'products') return LIMIT_PRODUCTS;
  if (/^c\d+$/.test(queryKey)) return LIMIT_PROP;
  if (/^v\d+$/.test(queryKey)) return LIMIT_EVAR;
  if (/^h\d+$/.test(queryKey)) return LIMIT_HIER;
  return undefined;
}

/**
 * A value as it may go on the wire: cut to its limit (lists per value), `D=` copies untouched.
 * Returns the value and whether it was cut (the tracker says so in the debug log).
 */
export function limitValue(queryKey: string, value: string): { value: string; cut: boolean } {
  if (isDynamicCopy(value)) return { value, cut: false };
  if (/^l\d+$/.test(queryKey)) {
    const parts = value.split(LIST_DELIMITER);
    const cutParts = parts.map((p) => truncateBytes(p, LIMIT_LIST_VALUE));
    const cut = cutParts.some((p, i) => p !== parts[i]);
    return { value: cut ? cutParts.join(LIST_DELIMITER) : value, cut };
  }
  const limit = limitFor(queryKey);
  if (limit === undefined) return { value, cut: false };
  const out = truncateBytes(value, limit);
  return { value: out, cut: out !== value };
}

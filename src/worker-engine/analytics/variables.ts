/**
 * AppMeasurement variable names and the query keys they travel under (AppMeasurement 2.27.0: beacon URL and parameters),
 * with the ranges of docs/spec-coverage.md §9 carried by the types. Values go out whole, as the library sends
 * them (the collection servers truncate); only hierarchies are cut, by the library's own rule.
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

/**
 * Tracker settings AppMeasurement also sends, among the parameters every hit carries: what an
 * imported library's code sets on `s` (`s.cookieDomainPeriods = "3"` goes out as `cdp=3`). Not
 * variables a rule of the authoring API sets.
 */
export const TRACKER_SETTINGS = {
  timestamp: 'ts',
  dynamicVariablePrefix: 'D',
  charSet: 'ce',
  visitorNamespace: 'ns',
  cookieDomainPeriods: 'cdp',
  cookieLifetime: 'cl',
  customerPerspective: 'cp',
} as const;

/** The query key of a tracker setting AppMeasurement sends, or undefined. */
export const settingKeyOf = (name: string): string | undefined =>
  Object.prototype.hasOwnProperty.call(TRACKER_SETTINGS, name) ? TRACKER_SETTINGS[name as keyof typeof TRACKER_SETTINGS] : undefined;
export type TrackerVarName = NamedVarName | NumberedVarName;
/** What a rule may set: the ranges of docs/spec-coverage.md §9 are part of the type (`eVar251` does not compile). */
export type TrackerVars = Partial<Record<TrackerVarName, string>>;

const NUMBERED = /^(prop|eVar|hier|list)([1-9][0-9]{0,2})$/;
const NUMBERED_LIMITS: Record<string, { count: number; key: string }> = {
  prop: { count: PROP_COUNT, key: 'c' },
  eVar: { count: EVAR_COUNT, key: 'v' },
  hier: { count: HIER_COUNT, key: 'h' },
  list: { count: LIST_COUNT, key: 'l' },
};

/** `eVar12` → `v12`, `prop3` → `c3`, `channel` → `ch`; undefined for anything else (e.g. `eVar251`). */
export function queryKeyOf(name: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(NAMED_VARS, name)) return NAMED_VARS[name as NamedVarName];
  const m = NUMBERED.exec(name);
  if (!m) return undefined;
  const spec = NUMBERED_LIMITS[m[1]!]!;
  const n = Number(m[2]);
  // NUMBERED starts at 1: no leading zero, no 0.
  return n <= spec.count ? `${spec.key}${n}` : undefined;
}

/** `g` carries the first 255 characters of the page URL; the rest goes in `-g`. */
export const PAGE_URL_SPLIT = 255;
/**
 * The one length rule AppMeasurement applies to a variable itself: `hier1`–`hier5` are cut to their
 * first 255 characters (`substring(0, 255)`). Everything else (pageName, props, eVars, lists) goes out
 * whole; the collection servers apply the documented limits (AppMeasurement 2.27.0: limits and syntax).
 */
export const HIER_MAX_CHARS = 255;

/** A value as AppMeasurement puts it on the wire: hierarchies cut to 255 characters, the rest untouched. */
export function wireValue(queryKey: string, value: string): string {
  return /^h\d+$/.test(queryKey) ? value.substring(0, HIER_MAX_CHARS) : value;
}

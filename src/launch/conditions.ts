/** The Core extension's conditions, evaluated on the event's snapshot (or read on the page). */
import { safeDecode } from '../worker-engine/core/cookies.ts';
import type { PageRead } from '../worker-engine/core/page-reads.ts';
import { run, type Factory } from './custom-code.ts';
import { globalPath, queryParam } from './data-elements.ts';
import { condition, resolve, type ConditionOptions, type Ctx, type LaunchCondition } from './types.ts';

export type Operator =
  | 'equals' | 'doesNotEqual' | 'contains' | 'doesNotContain' | 'startsWith' | 'doesNotStartWith'
  | 'endsWith' | 'doesNotEndWith' | 'matchesRegex' | 'doesNotMatchRegex' | 'lessThan' | 'lessThanOrEqual'
  | 'greaterThan' | 'greaterThanOrEqual' | 'isTrue' | 'isTruthy' | 'isFalse' | 'isFalsy';

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const fold = (v: unknown, ci: boolean) => (ci && typeof v === 'string' ? v.toLowerCase() : v);
const asText = (v: unknown, ci: boolean) => {
  const f = fold(v, ci);
  return isNum(f) ? String(f) : f;
};
/** `fold`: case-insensitive by lower-casing both sides (Core does so for all but the regular expression, which gets the `i` flag). */
const text = (test: (l: string, r: string, ci: boolean) => boolean, fold = true) => (l: unknown, r: unknown, ci: boolean) => {
  const a = asText(l, fold && ci);
  const b = asText(r, fold && ci);
  return typeof a === 'string' && typeof b === 'string' && test(a, b, ci);
};
const numeric = (test: (l: number, r: number) => boolean) => (l: unknown, r: unknown) => {
  const a = typeof l === 'string' ? Number(l) : l;
  const b = typeof r === 'string' ? Number(r) : r;
  return isNum(a) && isNum(b) && test(a, b);
};

const POSITIVE = {
  // Loose equality, as the Core extension compares ("1" equals 1).
  // eslint-disable-next-line eqeqeq
  equals: (l: unknown, r: unknown, ci: boolean) => fold(l, ci) == fold(r, ci),
  contains: text((l, r) => l.includes(r)),
  startsWith: text((l, r) => l.startsWith(r)),
  endsWith: text((l, r) => l.endsWith(r)),
  matchesRegex: text((l, r, ci) => new RegExp(r, ci ? 'i' : '').test(l), false),
  lessThan: numeric((l, r) => l < r),
  lessThanOrEqual: numeric((l, r) => l <= r),
  greaterThan: numeric((l, r) => l > r),
  greaterThanOrEqual: numeric((l, r) => l >= r),
  isTrue: (l: unknown) => l === true,
  isTruthy: (l: unknown) => Boolean(l),
  isFalse: (l: unknown) => l === false,
  isFalsy: (l: unknown) => !l,
};
const NEGATED: Record<string, keyof typeof POSITIVE> = {
  doesNotEqual: 'equals',
  doesNotContain: 'contains',
  doesNotStartWith: 'startsWith',
  doesNotEndWith: 'endsWith',
  doesNotMatchRegex: 'matchesRegex',
};

/** Every operator of Core's Value Comparison. */
export const OPERATORS: readonly Operator[] = [...(Object.keys(POSITIVE) as Operator[]), ...(Object.keys(NEGATED) as Operator[])];

/** Core's value comparison on two operands (tokens already replaced). */
export function compare(operator: Operator, left: unknown, right: unknown, caseInsensitive: boolean): boolean {
  const positive = NEGATED[operator];
  if (positive) return !POSITIVE[positive](left, right, caseInsensitive);
  return POSITIVE[operator as keyof typeof POSITIVE](left, right, caseInsensitive);
}



export function valueComparison(left: unknown, operator: Operator, right: unknown, caseInsensitive: boolean, o?: ConditionOptions) {
  return condition(`Value Comparison (${operator})`, (ctx) => compare(operator, resolve(ctx, left), resolve(ctx, right), caseInsensitive), o);
}

export interface Match {
  value: string;
  valueIsRegex?: boolean;
}
const matches = (actual: string, m: Match) => (m.valueIsRegex ? new RegExp(m.value, 'i').test(actual) : actual === m.value);
const url = (ctx: Ctx) => new URL(ctx.snapshot.url);
const escapeRegex = (s: string) => s.replace(/[|\\{}()[\]^$+*?.]/g, '\\$&');

export function domain(domains: string[], o?: ConditionOptions) {
  return condition('Domain', (ctx) => domains.some((d) => new RegExp(`(^|\\.)${escapeRegex(d)}$`, 'i').test(url(ctx).hostname)), o);
}

export function path(paths: Match[], o?: ConditionOptions) {
  return condition('Path Without Query String', (ctx) => paths.some((m) => matches(url(ctx).pathname, m)), o);
}

export function pathAndQuerystring(paths: Match[], o?: ConditionOptions) {
  return condition('Path And Query String', (ctx) => paths.some((m) => matches(url(ctx).pathname + url(ctx).search, m)), o);
}

export function subdomain(subdomains: Match[], o?: ConditionOptions) {
  return condition('Subdomain', (ctx) => subdomains.some((m) => matches(url(ctx).hostname, m)), o);
}

export function queryStringParameterIs(name: string, m: Match, o?: ConditionOptions) {
  return condition('Query String Parameter', (ctx) => {
    const v = queryParam(ctx.snapshot.url, name, false);
    return typeof v === 'string' && matches(v, m);
  }, o);
}

export function cookieIs(name: string, m: Match, o?: ConditionOptions) {
  return condition('Cookie', (ctx) => {
    const raw = ctx.cookies.get(name);
    return raw !== undefined && matches(safeDecode(raw), m);
  }, o);
}

export function variableIs(path: string, m: Match, o?: ConditionOptions) {
  return condition('Variable', (ctx) => {
    const v = globalPath({ settings: ctx.settings, snapshot: ctx.snapshot, page: undefined as never }, path);
    return v !== undefined && v !== null && matches(String(v), m);
  }, o);
}

export function customCondition(factory: Factory, o?: ConditionOptions) {
  return condition('Custom Code', (ctx) => Boolean(run(factory, ctx, ctx.rule.name)), o);
}

/**
 * A condition that needs the page: evaluated there with each event of its rule. `source`: a custom
 * code block's function source, kept as text (as `pageCustomCode`'s), called with the event and
 * the element of a page trigger's event as `this`.
 */
export function pageCondition(source: string, o: ConditionOptions = {}, name = 'Custom Code'): LaunchCondition {
  return pageRead(name, { from: 'launch-code', source }, o);
}

/** Another extension's condition: its module, run on the page by offtag.js's module host with each event of its rule. */
export function pageModuleCondition(displayName: string, module: string, settings: unknown, o: ConditionOptions = {}): LaunchCondition {
  return pageRead(displayName, { from: 'module', module, settings }, o);
}

function pageRead(name: string, page: PageRead, o: ConditionOptions): LaunchCondition {
  return {
    name,
    page,
    ...(o.negate ? { negate: true } : {}),
    ...(o.timeout !== undefined ? { timeout: o.timeout } : {}),
  };
}

/**
 * What Core's Browser, Operating System and Device Type conditions detect in the user agent: the
 * first name whose pattern matches, in this order, else "Unknown".
 */
const CLIENT = {
  browser: [
    ['Edge', /Edge/],
    ['Mobile Safari', /Mobile(\/[0-9A-z]+)? Safari/],
    ['Chrome', /Chrome/],
    ['Firefox', /Firefox/],
    ['IE', /MSIE|Trident/],
    ['Safari', /Safari/],
  ],
  operatingSystem: [
    ['iOS', /iPhone|iPad|iPod/],
    ['Android', /Android [0-9.]+;/],
    ['Linux', / Linux /],
    ['Unix', /FreeBSD|OpenBSD|CrOS/],
    ['Windows', /[( ]Windows /],
    ['MacOS', /Macintosh;/],
  ],
  deviceType: [
    ['iPhone', /iPhone/],
    ['iPad', /iPad/],
    ['iPod', /iPod/],
    ['Nokia', /SymbOS|Maemo/],
    ['Windows Phone', /IEMobile/],
    ['Blackberry', /BlackBerry/],
    ['Android', /Android [0-9.]+;/],
    ['Desktop', /.*/],
  ],
} satisfies Record<string, Array<[string, RegExp]>>;

export type ClientFact = keyof typeof CLIENT;
export const clientInfo = (userAgent: string, fact: ClientFact): string => CLIENT[fact].find(([, re]) => re.test(userAgent))?.[0] ?? 'Unknown';

const CLIENT_CONDITION: Record<ClientFact, string> = { browser: 'Browser', operatingSystem: 'Operating System', deviceType: 'Device Type' };

/** Core's Browser, Operating System and Device Type conditions: the page's user agent is one of `names`. */
export function clientIs(fact: ClientFact, names: string[], o?: ConditionOptions) {
  return condition(CLIENT_CONDITION[fact], (ctx) => names.includes(clientInfo(ctx.page.userAgent, fact)), o);
}

/**
 * What an imported Launch container is written with: the Core extension's data elements, events
 * and conditions, the Analytics and Experience Cloud ID extensions' actions and worker-safe custom
 * code, as engine data elements and rules that behave as turbine runs them (a default only for
 * null or undefined, then clean text, then lower case; storage duration; rule order; components
 * in sequence). Each piece reads the event's snapshot only: it runs in the worker.
 */
import { trackingConsented } from '../../src/worker-engine/analytics/consent.ts';
import { getDaysSinceLastVisit } from '../../src/worker-engine/analytics/plugins/days-since-last-visit.ts';
import { getNewRepeat } from '../../src/worker-engine/analytics/plugins/new-repeat.ts';
import { getTimeSinceLastVisit } from '../../src/worker-engine/analytics/plugins/time-since-last-visit.ts';
import { getVisitNumber } from '../../src/worker-engine/analytics/plugins/visit-number.ts';
import { safeDecode } from '../../src/worker-engine/core/cookies.ts';
import { readPath } from '../../src/worker-engine/core/data-layer.ts';
import { safeJson } from '../../src/worker-engine/core/safe-json.ts';
import { storedKey } from '../../src/worker-engine/core/types.ts';
import { pageValue, type PageRead } from '../../src/worker-engine/core/page-reads.ts';
import type { EngineEvent } from '../../src/protocol.ts';
import type { Action, Condition, CookieJar, DataElement, DataElementContext, Rule, RuleContext, RuleEventSpec, SessionStore } from '../../src/worker-engine/core/types.ts';
import type { AnalyticsHit, Services } from '../../src/worker-engine/services.ts';
import type { ElementProperty } from '../../src/protocol.ts';
import type { Settings } from '../../src/worker-engine/core/settings.ts';
import type { VisitorOptions } from '../../src/worker-engine/visitor/service.ts';

type Name = string;
type DCtx = DataElementContext<Name>;
type Ctx = RuleContext<Name, Services>;
export type LaunchDataElement = DataElement<Name>;
export type LaunchRule = Rule<Name, Services>;

export interface Finish {
  defaultValue?: string;
  forceLowerCase?: boolean;
  cleanText?: boolean;
  storageDuration?: 'pageview' | 'session' | 'visitor';
}

// ---- data elements ----------------------------------------------------------------------------

/** turbine's key for a data element kept for the session. */
export const storageKey = storedKey;

const pageviewCaches = new WeakMap<SessionStore, Map<string, unknown>>();
const nameOf = new WeakMap<DataElement<Name>, string>();

/**
 * Turbine's finishing: storage duration, then the default for null or undefined. `page`: the
 * element is read on the page with each event (its `read` looks the value up by the element's name).
 */
function finished(read: (ctx: DCtx, name: string) => unknown, finish: Finish, reads?: string[], sideEffects = false, page?: PageRead): LaunchDataElement {
  const de: LaunchDataElement = {
    type: 'custom',
    ...(reads ? { reads } : {}),
    ...(finish.cleanText ? { cleanText: true } : {}),
    ...(finish.forceLowerCase ? { forceLowerCase: true } : {}),
    ...(sideEffects || finish.storageDuration ? { sideEffects: true } : {}),
    ...(page ? { page } : {}),
    fn: (ctx) => {
      const name = nameOf.get(de) ?? '';
      let value = read(ctx, name);
      if (finish.storageDuration === 'pageview') {
        let cache = pageviewCaches.get(ctx.session);
        if (!cache) pageviewCaches.set(ctx.session, (cache = new Map()));
        if (value != null) cache.set(name, value);
        else value = cache.has(name) ? cache.get(name) : null;
      } else if (finish.storageDuration === 'session') {
        if (value != null) {
          const text = safeJson(value);
          if (text !== undefined) ctx.session.set(storageKey(name), text);
        } else {
          const kept = ctx.session.get(storageKey(name));
          value = kept === null ? null : (JSON.parse(kept) as unknown);
        }
      }
      if (value == null && finish.defaultValue != null) value = finish.defaultValue;
      return value;
    },
  };
  return de;
}

/** Page facts the snapshot carries, by the global path a JavaScript variable reads. */
const PAGE_PATHS: Record<string, (ctx: DCtx) => unknown> = {
  'location.href': (ctx) => ctx.snapshot.url,
  'document.location.href': (ctx) => ctx.snapshot.url,
  'window.location.href': (ctx) => ctx.snapshot.url,
  'location.hostname': (ctx) => new URL(ctx.snapshot.url).hostname,
  'location.pathname': (ctx) => new URL(ctx.snapshot.url).pathname,
  'location.search': (ctx) => new URL(ctx.snapshot.url).search,
  'document.referrer': (ctx) => ctx.snapshot.referrer,
  'navigator.userAgent': (ctx) => ctx.page.userAgent,
  'navigator.language': (ctx) => ctx.page.language,
};

/** Whether the worker can read this global path: the data layer, or a page fact the snapshot carries. */
export function workerReadablePath(path: string, dataLayer: string): boolean {
  const [root] = splitPath(path);
  return root === dataLayer || path in PAGE_PATHS;
}

const splitPath = (path: string) => path.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean);

function globalPath(ctx: { settings: Settings; snapshot: DCtx['snapshot']; page: DCtx['page'] }, path: string): unknown {
  const [root, ...rest] = splitPath(path);
  if (root === ctx.settings.dataLayer) return rest.length ? readPath(ctx.snapshot.dataLayer, rest) : ctx.snapshot.dataLayer;
  const fact = PAGE_PATHS[path];
  if (fact) return fact(ctx as DCtx);
  throw new Error(`"${path}" is not the data layer (${ctx.settings.dataLayer}) and not a page fact the worker receives.`);
}

/** Core JavaScript Variable: a global path; the data layer's part is what the bridge snapshots. */
export function javascriptVariable(path: string, finish: Finish = {}): LaunchDataElement {
  const [, ...rest] = splitPath(path);
  return finished((ctx) => globalPath(ctx, path), finish, rest.length ? [rest.join('.')] : []);
}

/** Core Cookie (decoded, as turbine's cookie module reads). */
export function cookie(name: string, finish: Finish = {}): LaunchDataElement {
  return finished((ctx) => {
    const raw = ctx.cookies.get(name);
    return raw === undefined ? undefined : safeDecode(raw);
  }, finish, []);
}

export function constant(value: unknown, finish: Finish = {}): LaunchDataElement {
  return finished(() => value, finish, []);
}

/** Core Query String Parameter (several values of one name: an array, as turbine's parser gives). */
export function queryStringParameter(name: string, caseInsensitive: boolean, finish: Finish = {}): LaunchDataElement {
  return finished((ctx) => queryParam(ctx.snapshot.url, name, caseInsensitive), finish, []);
}

function queryParam(url: string, name: string, caseInsensitive: boolean): unknown {
  const params = new URL(url).searchParams;
  const key = caseInsensitive ? [...params.keys()].find((k) => k.toLowerCase() === name.toLowerCase()) : name;
  if (key === undefined) return undefined;
  const all = params.getAll(key);
  return all.length === 0 ? undefined : all.length === 1 ? all[0] : all;
}

export type PageAttribute = 'url' | 'hostname' | 'pathname' | 'protocol' | 'referrer';

/** Core Page Info (`title` is not in the snapshot: the importer keeps that one on the page). */
export function pageInfo(attribute: PageAttribute, finish: Finish = {}): LaunchDataElement {
  return finished((ctx) => {
    if (attribute === 'referrer') return ctx.snapshot.referrer;
    const url = new URL(ctx.snapshot.url);
    return attribute === 'url' ? url.href : url[attribute];
  }, finish, []);
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => Object.prototype.toString.call(v) === '[object Object]';
const copyOf = (v: unknown): unknown => (isPlainObject(v) ? mergeInto({}, [v]) : Array.isArray(v) ? mergeInto([], [v]) : v);

/** Core's deep merge: arrays on the same key are concatenated, objects merged, undefined skipped, the rest copied. */
function mergeInto<T extends object>(into: T, sources: unknown[]): T {
  const target = into as Record<string, unknown>;
  for (const source of sources) {
    if (source === null || source === undefined || typeof source !== 'object') continue;
    for (const key of Object.keys(source)) {
      const have = target[key];
      const add = (source as Record<string, unknown>)[key];
      if (add === undefined) continue;
      if (Array.isArray(have) && Array.isArray(add)) target[key] = have.concat(copyOf(add) as unknown[]);
      else if (isPlainObject(have) && isPlainObject(add)) target[key] = mergeInto(have, [add]);
      else target[key] = copyOf(add);
    }
  }
  return into;
}

/** Core Merged Objects: the objects (each a `%data element%` token, or a value) deep-merged into a new one. */
export function mergedObjects(objects: unknown[], finish: Finish = {}): LaunchDataElement {
  return finished((ctx) => mergeInto({}, objects.map((o) => (typeof o === 'string' ? tokenValue(ctx, o) : o))), finish, []);
}

/** A setting's value with tokens replaced as turbine does: one whole token keeps the value's type. */
function tokenValue(ctx: DCtx, text: string): unknown {
  const whole = /^%([^%\n]+)%$/.exec(text);
  if (whole) return ctx.get(whole[1]!);
  return text.replace(/%([^%\n]+)%/g, (_t, n: string) => asString(ctx.get(n)));
}

/**
 * Core Random Number: an integer from `min` to `max` inclusive, drawn from the engine's random
 * source (`env.random`, so a replay can fix it). One value per event: the engine reads a data
 * element once per event, where turbine draws again on each read.
 */
export function randomNumber(min: number, max: number, finish: Finish = {}): LaunchDataElement {
  const lo = Math.ceil(min);
  const hi = Math.floor(max);
  return finished((ctx) => {
    if (!ctx.random) throw new Error('the engine gave this data element no random source');
    return Math.floor(ctx.random() * (hi - lo + 1)) + lo;
  }, finish, [], true);
}

/** Core Session Storage: an item of the page's sessionStorage (the bridge reads the keys the container names). */
export function sessionStorageItem(key: string, finish: Finish = {}): LaunchDataElement {
  return finished((ctx) => ctx.session.get(key), finish, []);
}

// ---- data elements read on the page with each event (src/worker-engine/core/page-reads.ts) --------

/** A data element offtag.js reads on the page when it takes each event's snapshot (the build writes the read in). */
const onPage = (read: PageRead, finish: Finish): LaunchDataElement => finished((ctx, name) => pageValue(ctx.snapshot, 'd', name), finish, [], false, read);

/** Core Local Storage: `localStorage.getItem(name)`, null when localStorage cannot be read. */
export const localStorageItem = (key: string, finish: Finish = {}): LaunchDataElement => onPage({ from: 'local-storage', key }, finish);

/** Core DOM Attribute: the first element matching the selector; `text`, a property, or an attribute. */
export const domAttribute = (elementSelector: string, elementProperty: string, finish: Finish = {}): LaunchDataElement =>
  onPage({ from: 'dom', selector: elementSelector, property: elementProperty }, finish);

/** Core JavaScript Variable outside the data layer: the page global's path, read on the page. */
export const pageVariable = (path: string, finish: Finish = {}): LaunchDataElement => onPage({ from: 'global', path }, finish);

/** Core Page Info `title`: `document.title`. */
export const pageTitle = (finish: Finish = {}): LaunchDataElement => onPage({ from: 'title' }, finish);

/**
 * Custom code that needs the page, run there with each event. `code` is written by the import as
 * `(e) => (block)(launch event of e)`: the block gets a turbine-shaped event (`$type`, a direct
 * call's `identifier` and `detail`) and the page's own globals, `_satellite` among them.
 */
export const pageCustomCode = (code: (event: EngineEvent, element?: Element) => unknown, finish: Finish = {}): LaunchDataElement => onPage({ from: 'code', code }, finish);

/** A custom code condition that needs the page: evaluated on the page with each event of its rule (written as `pageCustomCode`'s code). */
export function pageCondition(code: (event: EngineEvent, element?: Element) => unknown, o: ConditionOptions = {}): Condition<Name, Services> {
  return {
    name: 'Custom Code (page)',
    page: { from: 'code', code },
    ...(o.negate ? { negate: true } : {}),
    ...(o.timeout !== undefined ? { timeout: o.timeout } : {}),
  };
}

/**
 * Custom code that needs nothing of the page (the importer checked it): it gets turbine-shaped
 * `_satellite` and `sessionStorage` made of the engine's context.
 */
export function customCode(factory: Factory, finish: Finish = {}, sideEffects = false, readsDataLayer = false): LaunchDataElement {
  return finished((ctx) => run(factory, ctx, ''), finish, readsDataLayer ? undefined : [], sideEffects);
}

/**
 * What a custom code block is written as: a function of what it gets — turbine-shaped `_satellite`
 * and `sessionStorage`, and a `window` and data layer global that hold only the event's snapshot
 * of the data layer — returning the block itself.
 */
export type Factory = (satellite: SatelliteShim, sessionStorage: StorageShim, window: Record<string, unknown>, dataLayer: unknown) => (this: unknown, event: LaunchEvent) => unknown;

function run(factory: Factory, ctx: DCtx | Ctx, rule: string): unknown {
  const layer = ctx.snapshot.dataLayer;
  return factory(satelliteShim(ctx), storageShim(ctx.session), { [ctx.settings.dataLayer]: layer }, layer).call(undefined, launchEvent(ctx.event, rule));
}

/** Names each data element (storage duration keys by name) and returns the table. */
export function dataElements(table: Record<Name, LaunchDataElement>): Record<Name, LaunchDataElement> {
  for (const [name, de] of Object.entries(table)) nameOf.set(de, name);
  return table;
}

// ---- what custom code gets ----------------------------------------------------------------------

export interface SatelliteShim {
  getVar(name: string): unknown;
  cookie: { get(name: string): string | undefined; set(name: string, value: unknown, options?: { expires?: number; domain?: string; path?: string }): void; remove(name: string): void };
  logger: Record<'log' | 'info' | 'warn' | 'error' | 'debug', (...args: unknown[]) => void>;
  environment: { stage: string };
}

export interface StorageShim {
  getItem(key: string): string | null;
  setItem(key: string, value: unknown): void;
  removeItem(key: string): void;
}

export interface LaunchEvent {
  $type: string;
  $rule: { name: string };
  identifier?: string;
  detail?: unknown;
}

const DAY_MS = 86_400_000;

function satelliteShim(ctx: { get(n: Name): unknown; cookies: CookieJar; settings: Settings; log: DCtx['log'] }): SatelliteShim {
  const text = (args: unknown[]) => args.map((a) => (typeof a === 'string' ? a : safeJson(a))).join(' ');
  return {
    getVar: (name) => ctx.get(name),
    cookie: {
      get: (name) => {
        const raw = ctx.cookies.get(name);
        return raw === undefined ? undefined : safeDecode(raw);
      },
      set: (name, value, o = {}) =>
        ctx.cookies.set(name, encodeURIComponent(String(value)), {
          ...(o.domain ? { domain: o.domain } : {}),
          ...(o.path ? { path: o.path } : {}),
          ...(o.expires ? { expires: Date.now() + o.expires * DAY_MS } : {}),
        }),
      remove: (name) => ctx.cookies.remove(name),
    },
    logger: {
      log: (...a) => ctx.log('log', text(a)),
      info: (...a) => ctx.log('info', text(a)),
      warn: (...a) => ctx.log('warn', text(a)),
      error: (...a) => ctx.log('error', text(a)),
      debug: (...a) => ctx.log('debug', text(a)),
    },
    environment: { stage: ctx.settings.environment },
  };
}

function storageShim(session: SessionStore): StorageShim {
  return {
    getItem: (key) => session.get(key),
    setItem: (key, value) => session.set(key, String(value)),
    removeItem: (key) => session.set(key, null),
  };
}

function launchEvent(event: DCtx['event'], rule: string): LaunchEvent {
  const type = event.type === 'direct-call' ? 'core.direct-call' : `core.${event.type}`;
  return {
    $type: type,
    $rule: { name: rule },
    ...(event.type === 'direct-call' ? { identifier: event.id, detail: event.detail } : {}),
  };
}

// ---- events ---------------------------------------------------------------------------------------

export const libraryLoaded = (): RuleEventSpec => ({ type: 'library-loaded' });
export const domReady = (): RuleEventSpec => ({ type: 'dom-ready' });
export const windowLoaded = (): RuleEventSpec => ({ type: 'window-loaded' });
/**
 * Core Page Bottom: Launch fires it when the page calls `_satellite.pageBottom()` at the end of its
 * body, or at DOMContentLoaded when the page never does. Offtag's bridge loads with the page, so it
 * is the engine's DOM-ready event; its rules take their place among DOM Ready rules by rule order.
 */
export const pageBottom = (): RuleEventSpec => ({ type: 'dom-ready' });
export const directCall = (identifier: string): RuleEventSpec => ({ type: 'direct-call', id: identifier.trim() });

/** Adobe's bubbling options (the Core extension's `createBubbly`), only those the settings give, and its element property filter. */
export interface LaunchBubbling {
  bubbleFireIfParent?: boolean;
  bubbleFireIfChildFired?: boolean;
  bubbleStop?: boolean;
  elementProperties?: ElementProperty[];
}
/** The element property filter as the engine's triggers take it (an empty one is none); the engine checks and normalises each entry (core/triggers.ts). */
const props = (o: { elementProperties?: ElementProperty[] }) => (o.elementProperties?.length ? { properties: o.elementProperties } : {});
const bubbling = (o: LaunchBubbling) => ({
  ...props(o),
  ...(o.bubbleFireIfParent !== undefined ? { bubbleFireIfParent: o.bubbleFireIfParent } : {}),
  ...(o.bubbleFireIfChildFired !== undefined ? { bubbleFireIfChildFired: o.bubbleFireIfChildFired } : {}),
  ...(o.bubbleStop !== undefined ? { bubbleStop: o.bubbleStop } : {}),
});
/**
 * Without a selector, Launch's Core events fire for the event's target only, never for its
 * ancestors: the engine's click needs a selector (without one it is the link-tracking click), so
 * "any element" is `*` fired for the target only.
 */
const anyElement = { selector: '*', bubbleFireIfParent: false } as const;

/**
 * Core Custom Event: Launch listens on `window` in the capture phase, so an event of that type
 * dispatched on any element, on `document` or on `window` is seen: the engine's `window` target.
 */
export const customEvent = (type: string, elementSelector?: string, o: LaunchBubbling = {}): RuleEventSpec =>
  elementSelector
    ? { type: 'custom-event', name: type, target: 'window', selector: elementSelector, ...bubbling(o) }
    : { type: 'custom-event', name: type, target: 'window', ...props(o) };
/** Core Click: a click on an element matching the selector (or inside one, by the bubbling options). */
export const click = (elementSelector?: string, o: LaunchBubbling = {}): RuleEventSpec =>
  elementSelector ? { type: 'click', selector: elementSelector, ...bubbling(o) } : { type: 'click', ...props(o), ...anyElement };
/** Core Form Submission. */
export const formSubmission = (elementSelector?: string, o: LaunchBubbling = {}): RuleEventSpec =>
  elementSelector ? { type: 'form-submit', selector: elementSelector, ...bubbling(o) } : { type: 'form-submit', ...props(o) };
/**
 * Core Enters Viewport: `frequency` "firstEntry" (Launch's default) or "everyEntry"; `delay`: the
 * milliseconds the element must stay in view ("in view for"); `elementProperties` checked as it enters.
 */
export const entersViewport = (elementSelector: string, frequency?: string, o: { delay?: number; elementProperties?: ElementProperty[] } = {}): RuleEventSpec => ({
  type: 'element-visible',
  selector: elementSelector,
  ...(frequency === 'everyEntry' ? { everyEntry: true } : {}),
  ...props(o),
  ...(o.delay ? { delay: o.delay } : {}),
});
/** Core Time On Page: once, after that many seconds of page-visible time. */
export const timeOnPage = (seconds: number): RuleEventSpec => ({ type: 'timer', ms: seconds * 1000 });
/** Core Data Element Change: the data element's value differs from its previous reading. */
export const dataElementChange = (name: string): RuleEventSpec => ({ type: 'data-element-change', name });

// ---- conditions -----------------------------------------------------------------------------------

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
const text = (test: (l: string, r: string, ci: boolean) => boolean) => (l: unknown, r: unknown, ci: boolean) => {
  const a = asText(l, ci);
  const b = asText(r, ci);
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
  matchesRegex: text((l, r, ci) => new RegExp(r, ci ? 'i' : '').test(l)),
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

/** Core's value comparison on two operands (tokens already replaced). */
export function compare(operator: Operator, left: unknown, right: unknown, caseInsensitive: boolean): boolean {
  const positive = NEGATED[operator];
  if (positive) return !POSITIVE[positive](left, right, caseInsensitive);
  return POSITIVE[operator as keyof typeof POSITIVE](left, right, caseInsensitive);
}

/** A Launch setting value with its `%tokens%` replaced, as turbine hands settings to modules. */
const resolve = (ctx: Ctx, v: unknown): unknown => (typeof v === 'string' ? ctx.replaceTokens(v) : v);

interface ConditionOptions {
  negate?: boolean;
  timeout?: number;
}
const condition = (name: string, fn: (ctx: Ctx) => boolean, o: ConditionOptions = {}): Condition<Name, Services> => ({
  name,
  fn,
  ...(o.negate ? { negate: true } : {}),
  ...(o.timeout !== undefined ? { timeout: o.timeout } : {}),
});

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

// ---- actions ----------------------------------------------------------------------------------------

export interface ActionOptions {
  timeout?: number;
  /** false: the next action does not wait for this one (turbine's `delayNext`). */
  delayNext?: boolean;
}

function action(name: string, fn: (ctx: Ctx) => void | Promise<void>, o: ActionOptions = {}): Action<Name, Services> {
  return {
    name,
    fn: o.delayNext === false ? (ctx) => void fn(ctx) : fn,
    ...(o.timeout !== undefined ? { timeout: o.timeout } : {}),
  };
}

export function customAction(factory: Factory, o?: ActionOptions) {
  return action('Custom Code', (ctx) => {
    const result = run(factory, ctx, ctx.rule.name);
    // A promise returned by the code holds the next action back, as turbine waits for it.
    return result && typeof (result as Promise<void>).then === 'function' ? (result as Promise<void>) : undefined;
  }, o);
}

const pageRuns = new WeakMap<object, number>();

/**
 * A custom code action that needs the page: a `script` effect that loads the container's
 * page-code.js (the setting `launchPageCode`, else `pageCodeUrl`) and calls `__offtagLaunch.run(block, event, values)`
 * with the values of the data elements the block names. The worker does not wait for it: it runs
 * on the page after the batch, off the rule's path.
 */
export function pageAction(block: string, names: string[], o?: ActionOptions, pageCodeUrl = '') {
  return action('Custom Code (page)', (ctx) => {
    const n = (pageRuns.get(ctx.services) ?? 0) + 1;
    pageRuns.set(ctx.services, n);
    const values = Object.fromEntries(names.map((name) => [name, ctx.get(name)]));
    const src = String((ctx.settings as Settings & { launchPageCode?: string }).launchPageCode || pageCodeUrl);
    if (!src) return ctx.log('error', `Custom code ${block} of rule "${ctx.rule.name}" needs the page, and no launchPageCode setting says where page-code.js is.`);
    const seq = ctx.snapshot.seq;
    ctx.emit({ type: 'script', id: `offtag-launch-${block}-${n}`, src, init: { fn: '__offtagLaunch.run', args: [block, launchEvent(ctx.event, ctx.rule.name), values, seq] } });
    // The devtools overlay shows the rule as run partly on the page, with page-code.js's timing.
    ctx.emit({ type: 'monitor', name: 'rule-page-part', data: { rule: ctx.rule.name, block, seq } });
  }, o);
}

/** A script an extension or an HTML custom code block loads: a third-party script effect. */
export function loadScript(id: string, src: string, o?: ActionOptions) {
  return action(`Load ${src}`, (ctx) => ctx.emit({ type: 'script', id, src: String(resolve(ctx, src)) }), o);
}

// ---- Analytics ------------------------------------------------------------------------------------

export interface TrackerVariable {
  name: string;
  /** `value`: the text (tokens replaced); `alias`: a `D=` copy of another variable. */
  type?: 'value' | 'alias';
  value: string;
}

export interface TrackerProperties {
  pageName?: string;
  channel?: string;
  server?: string;
  campaign?: string;
  pageURL?: string;
  referrer?: string;
  eVars?: TrackerVariable[];
  props?: TrackerVariable[];
  lists?: TrackerVariable[];
  hierarchies?: Array<{ name: string; sections: string[]; delimiter?: string }>;
  events?: Array<{ name: string; value?: string }>;
}

/** AppMeasurement's short names, for `D=` copies. */
const SHORT: Record<string, string> = { pageName: 'pageName', channel: 'ch', server: 'server', campaign: 'v0', pageURL: 'g', referrer: 'r' };
const shortName = (name: string) =>
  SHORT[name] ?? name.replace(/^eVar(\d+)$/, 'v$1').replace(/^prop(\d+)$/, 'c$1').replace(/^hier(\d+)$/, 'h$1').replace(/^list(\d+)$/, 'l$1');

const asString = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'object' ? (safeJson(v) ?? '') : String(v));

/** The variables a set of tracker properties sets, tokens replaced; empty values left out. */
export function trackerVariables(ctx: Ctx, p: TrackerProperties): Record<string, string> {
  const vars: Record<string, string> = {};
  const put = (name: string, value: unknown) => {
    const v = asString(value);
    if (v !== '') vars[name] = v;
  };
  for (const key of ['pageName', 'channel', 'server', 'campaign', 'pageURL', 'referrer'] as const) if (p[key] !== undefined) put(key, resolve(ctx, p[key]));
  for (const v of [...(p.eVars ?? []), ...(p.props ?? []), ...(p.lists ?? [])]) put(v.name, v.type === 'alias' ? `D=${shortName(v.value)}` : resolve(ctx, v.value));
  for (const h of p.hierarchies ?? []) put(h.name, h.sections.map((s) => asString(resolve(ctx, s))).filter(Boolean).join(h.delimiter ?? ','));
  if (p.events?.length) {
    const events = p.events.map((e) => asString(resolve(ctx, e.name)) + (e.value ? `=${asString(resolve(ctx, e.value))}` : '')).filter(Boolean);
    put('events', events.join(','));
  }
  return vars;
}

/** What AppMeasurement's `doPlugins` sees: the beacon's variables, and the Common Analytics Plugins. */
export interface PluginTracker extends Record<string, unknown> {
  linkType?: string;
  usePlugins?: boolean;
  doPlugins?: (s: PluginTracker) => void;
}

export type CustomSetup = (satellite: SatelliteShim) => (event: LaunchEvent, s: PluginTracker) => void;

export interface AnalyticsOptions {
  /** The extension's global tracker properties, applied to every beacon. */
  trackerProperties?: TrackerProperties;
  /** The extension's `customSetup` code (it may set `doPlugins`). */
  customSetup?: CustomSetup;
}

interface TrackerState {
  vars: Record<string, string>;
}
const trackerStates = new WeakMap<object, TrackerState>();
const stateOf = (ctx: Ctx): TrackerState => {
  let s = trackerStates.get(ctx.services.analytics);
  if (!s) trackerStates.set(ctx.services.analytics, (s = { vars: {} }));
  return s;
};

export function setVariables(p: TrackerProperties, o?: ActionOptions) {
  return action('Adobe Analytics: Set Variables', (ctx) => {
    Object.assign(stateOf(ctx).vars, trackerVariables(ctx, p));
  }, o);
}

export function clearVariables(o?: ActionOptions) {
  return action('Adobe Analytics: Clear Variables', (ctx) => {
    stateOf(ctx).vars = {};
  }, o);
}

/** Launch's send beacon names a nameless link hit this. */
export const DEFAULT_LINK_NAME = 'link clicked';

export interface BeaconOptions {
  type: 'page' | 'link';
  linkType?: 'o' | 'd' | 'e';
  linkName?: string;
}

export function sendBeacon(analytics: AnalyticsOptions, b: BeaconOptions, o?: ActionOptions) {
  return action('Adobe Analytics: Send Beacon', (ctx) => {
    const set = stateOf(ctx).vars;
    const vars = { ...(analytics.trackerProperties ? trackerVariables(ctx, analytics.trackerProperties) : {}), ...set };
    const link = b.type === 'link';
    if (analytics.customSetup && trackingConsented(ctx)) runPlugins(ctx, analytics.customSetup, vars, link ? (b.linkType ?? 'o') : undefined);
    const name = link ? asString(resolve(ctx, b.linkName ?? '')) : '';
    const events = (set.events ?? '').split(',').map((e) => e.split(/[=:]/)[0]).filter(Boolean);
    const hit: AnalyticsHit = link
      ? { type: 'tl', linkType: b.linkType ?? 'o', linkName: name || DEFAULT_LINK_NAME, vars, linkTrackVars: Object.keys(set).join(','), linkTrackEvents: events.join(',') }
      : { type: 't', vars };
    void ctx.services.analytics.track(hit).catch((err: unknown) => {
      ctx.log('error', `Analytics beacon of rule "${ctx.rule.name}" failed: ${err instanceof Error ? err.message : String(err)}`);
    });
  }, o);
}

/** `customSetup` then `doPlugins` on a tracker made of the beacon's variables; what they set goes back into `vars`. */
function runPlugins(ctx: Ctx, customSetup: CustomSetup, vars: Record<string, string>, linkType: string | undefined) {
  // A rule's context carries no page facts: the plugins' cookies are written for the page's host.
  const o = {};
  const now = ctx.snapshot.time;
  const s: PluginTracker = {
    ...vars,
    ...(linkType ? { linkType } : {}),
    getNewRepeat: (days?: number) => getNewRepeat(ctx.cookies, now, days, o),
    getVisitNum: (days?: number) => getVisitNumber(ctx.cookies, now, typeof days === 'number' ? days : undefined, o),
    getDaysSinceLastVisit: () => getDaysSinceLastVisit(ctx.cookies, now, o),
    getTimeSinceLastVisit: () => getTimeSinceLastVisit(ctx.cookies, now, o),
  };
  customSetup(satelliteShim(ctx))(launchEvent(ctx.event, ctx.rule.name), s);
  if (s.usePlugins && typeof s.doPlugins === 'function') s.doPlugins(s);
  for (const [k, v] of Object.entries(s)) {
    if (typeof v === 'function' || k === 'linkType' || k === 'usePlugins') continue;
    const text = asString(v);
    if (text !== '') vars[k] = text;
    else delete vars[k];
  }
}

// ---- Experience Cloud ID Service ---------------------------------------------------------------------

const AUTH_STATES: Record<string, number> = { UNKNOWN: 0, AUTHENTICATED: 1, LOGGED_OUT: 2 };

export function setCustomerIds(ids: Array<{ integrationCode: string; value: string; authState?: string }>, o?: ActionOptions) {
  return action('Experience Cloud ID Service: Set Customer IDs', async (ctx) => {
    const map: Record<string, { id: string; authState: number }> = {};
    for (const id of ids) {
      const value = asString(resolve(ctx, id.value));
      if (value) map[asString(resolve(ctx, id.integrationCode))] = { id: value, authState: AUTH_STATES[id.authState ?? 'UNKNOWN'] ?? 0 };
    }
    await ctx.services.visitor.call('setCustomerIDs', [map]);
  }, o);
}

// ---- the container ----------------------------------------------------------------------------------

export interface LaunchRuleDef {
  name: string;
  events: RuleEventSpec[];
  order?: number;
  conditions?: Condition<Name, Services>[];
  actions: Action<Name, Services>[];
}

export function rule(def: LaunchRuleDef): LaunchRule {
  return { name: def.name, events: def.events, ...(def.order !== undefined && def.order !== 50 ? { order: def.order } : {}), conditions: def.conditions ?? [], actions: def.actions };
}

// ---- Core Visitor Behavior ---------------------------------------------------------------------------

/**
 * Core's visitor tracking, kept where the worker can read and write it: the tab's session facts
 * (landing page and time, page views, traffic source), which Launch keeps in sessionStorage, in one
 * sessionStorage item the bridge snapshots with each event; the visitor's counts (sessions,
 * lifetime page views), which Launch keeps in localStorage, in one first-party cookie (the worker
 * receives cookies with each event, not localStorage). One short key each, because the bridge
 * (offtag.js) carries the names of the sessionStorage keys it reads. Counted once per page, at
 * Library Loaded, as Core's helper counts when the library loads.
 */
/** The sessionStorage item with the tab's session facts (JSON). */
export const VISITOR_SESSION_KEY = 'offtag_vts';
/** The cookie with the visitor's session count and lifetime page views (`<sessions>.<page views>`). */
export const VISITOR_COOKIE = 'offtag_vt';
/** The cookie's lifetime: 400 days, the longest a browser keeps a cookie; rewritten on every page. */
const VISITOR_COOKIE_DAYS = 400;

type Stores = { cookies: CookieJar; session: SessionStore };
interface VisitSession {
  landingPage?: string;
  landingTime?: number;
  pagesViewed?: number;
  trafficSource?: string;
}

/** The visitor's counts: the cookie's, else (first page under Offtag) the DTM cookies Core migrates from. */
function visitorCounts(ctx: Stores): { sessions: number; pages: number } {
  const kept = /^(\d+)\.(\d+)$/.exec(ctx.cookies.get(VISITOR_COOKIE) ?? '');
  if (kept) return { sessions: Number(kept[1]), pages: Number(kept[2]) };
  return { sessions: Number(ctx.cookies.get('_sdsat_session_count') ?? 0) || 0, pages: Number(ctx.cookies.get('_sdsat_lt_pages_viewed') ?? 0) || 0 };
}

function visitSession(ctx: Stores): VisitSession {
  try {
    const v = JSON.parse(ctx.session.get(VISITOR_SESSION_KEY) ?? '{}') as unknown;
    return v && typeof v === 'object' ? (v as VisitSession) : {};
  } catch {
    return {};
  }
}

/** One page view counted as Core counts it at library load. */
export function trackVisit(ctx: Stores & { snapshot: { url: string; referrer: string; time: number } }): void {
  const s = visitSession(ctx);
  const newSession = !s.landingPage;
  if (newSession) {
    s.landingPage = ctx.snapshot.url;
    s.landingTime = ctx.snapshot.time;
  }
  const counts = visitorCounts(ctx);
  if (newSession) counts.sessions++;
  counts.pages++;
  s.pagesViewed = (s.pagesViewed ?? 0) + 1;
  // An empty referrer is no traffic source: a later page's referrer takes its place, as in Core.
  if (!s.trafficSource) s.trafficSource = ctx.snapshot.referrer;
  ctx.session.set(VISITOR_SESSION_KEY, JSON.stringify(s));
  ctx.cookies.set(VISITOR_COOKIE, `${counts.sessions}.${counts.pages}`, { path: '/', expires: ctx.snapshot.time + VISITOR_COOKIE_DAYS * DAY_MS });
}

export type VisitorAttribute = 'landingPage' | 'trafficSource' | 'minutesOnSite' | 'sessionCount' | 'sessionPageViewCount' | 'lifetimePageViewCount' | 'isNewVisitor';
export const VISITOR_ATTRIBUTES: VisitorAttribute[] = ['landingPage', 'trafficSource', 'minutesOnSite', 'sessionCount', 'sessionPageViewCount', 'lifetimePageViewCount', 'isNewVisitor'];

/** Each attribute as Core answers it: a missing session fact is null (landing page, traffic source) or 0 (counts). */
const VISITOR_READS: Record<VisitorAttribute, (ctx: DCtx) => unknown> = {
  landingPage: (ctx) => visitSession(ctx).landingPage ?? null,
  trafficSource: (ctx) => visitSession(ctx).trafficSource ?? null,
  minutesOnSite: (ctx) => Math.floor((ctx.snapshot.time - (visitSession(ctx).landingTime ?? 0)) / 60_000),
  sessionCount: (ctx) => visitorCounts(ctx).sessions,
  sessionPageViewCount: (ctx) => visitSession(ctx).pagesViewed ?? 0,
  lifetimePageViewCount: (ctx) => visitorCounts(ctx).pages,
  isNewVisitor: (ctx) => visitorCounts(ctx).sessions === 1,
};

/** Core's Visitor Behavior data element: one attribute of the tracking above. */
export function visitorBehavior(attribute: VisitorAttribute, finish: Finish = {}): LaunchDataElement {
  return finished((ctx) => VISITOR_READS[attribute](ctx), finish);
}

/** The rule that stands for Core's visitor tracking: on Library Loaded, before every rule. */
export const VISITOR_TRACKING_RULE = 'Core visitor tracking';
export function visitorTrackingRule(): LaunchRule {
  return { name: VISITOR_TRACKING_RULE, events: [libraryLoaded()], order: Number.MIN_SAFE_INTEGER, actions: [{ name: 'Count the page view', fn: (ctx) => trackVisit(ctx) }] };
}

/** The rule the ECID extension stands for: it starts with the library, before every rule. */
export const ECID_RULE = 'Experience Cloud ID Service';

/**
 * The ECID extension's variables the engine's visitor service takes, by VisitorAPI 5.5.0 name, with
 * what each becomes (src/worker-engine/visitor/service.ts `VisitorOptions`). The import reports
 * every other variable with its reason.
 */
export const ECID_VARIABLES: Record<string, (v: unknown) => VisitorOptions | string> = {
  trackingServer: (v) => ({ trackingServer: String(v) }),
  trackingServerSecure: (v) => ({ trackingServer: String(v) }),
  overwriteCrossDomainMCIDAndAID: (v) => ({ overwriteCrossDomainMCIDAndAID: visitorBoolean(v) }),
  idSyncContainerID: (v) => {
    const n = Number(v);
    return Number.isInteger(n) && n >= 0 ? { idSyncContainerId: n } : `idSyncContainerID ${JSON.stringify(v)} is not a whole number; the default 0 is used`;
  },
  disableIdSyncs: (v) => ({ disableIdSyncs: visitorBoolean(v) }),
  idSyncDisableSyncs: (v) => ({ disableIdSyncs: visitorBoolean(v) }),
  disableThirdPartyCookies: (v) => ({ disableThirdPartyCookies: visitorBoolean(v) }),
  idSyncDisable3rdPartySyncing: (v) => ({ disableThirdPartyCookies: visitorBoolean(v) }),
  cookieDomain: (v) => ({ cookieDomain: String(v) }),
  cookieLifetime: (v) => {
    const text = String(v);
    if (text === 'SESSION' || text === 'NONE') return { cookieLifetime: text };
    const n = Number(v);
    return Number.isFinite(n) && n > 0 ? { cookieLifetime: n } : `cookieLifetime ${JSON.stringify(v)} is neither seconds, SESSION nor NONE; the AMCV cookie lives two years`;
  },
};

/** VisitorAPI's reading of a boolean option: the strings "true" and "false" are booleans, anything else by its truth. */
const visitorBoolean = (v: unknown) => (v === 'false' ? false : v === 'true' ? true : Boolean(v));

/**
 * The variables as the `Visitor` instance receives them: each value's `%data element%` tokens
 * replaced on the event's data elements, an empty or missing value dropped (VisitorAPI drops empty
 * settings), later variables winning.
 */
export function visitorOptions(ctx: Ctx, variables: Array<{ name: string; value: unknown }>): VisitorOptions {
  const out: VisitorOptions = {};
  for (const v of variables) {
    const to = ECID_VARIABLES[v.name];
    if (!to) continue;
    const value = resolve(ctx, v.value);
    if (value === undefined || value === null || value === '') continue;
    const o = to(value);
    if (typeof o === 'string') ctx.log('warn', `Experience Cloud ID Service: ${o}`);
    else Object.assign(out, o);
  }
  return out;
}

/**
 * The Experience Cloud ID Service extension's start: the visitor service, on Library Loaded, before
 * every rule. Its variables are expanded here, on the first event, as Launch expands them when it
 * creates the `Visitor` instance at library load, and configure the service before its first use.
 */
export function ecidRule(variables: Array<{ name: string; value: unknown }> = []): LaunchRule {
  return {
    name: ECID_RULE,
    events: [libraryLoaded()],
    order: Number.MIN_SAFE_INTEGER,
    actions: [
      {
        name: 'Start the visitor service',
        // Not awaited: the ID call may take up to 30 s, past the action timeout.
        fn: (ctx) => {
          const visitor = ctx.services.visitor;
          if (variables.length && visitor.configure && !visitor.configure(visitorOptions(ctx, variables)))
            ctx.log('warn', 'Experience Cloud ID Service: the visitor service was in use before Library Loaded; its variables are not applied');
          void visitor.start().catch((err: unknown) => {
            ctx.log('error', `The visitor service did not start: ${err instanceof Error ? err.message : String(err)}`);
          });
        },
      },
    ],
  };
}

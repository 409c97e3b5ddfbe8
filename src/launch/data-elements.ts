/**
 * The Core extension's data elements as engine data elements, finished as turbine finishes them
 * (storage duration, then the default for null or undefined; clean text and lower case by the
 * engine). Each reads the event's snapshot in the worker, or a value offtag.js read on the page.
 */
import { safeDecode } from '../worker-engine/core/cookies.ts';
import { readPath, readSetOf } from '../worker-engine/core/data-layer.ts';
import { storedKey, type SessionStore } from '../worker-engine/core/types.ts';
import { eventToken, isEventToken } from '../worker-engine/core/event-tokens.ts';
import { pageValue, type PageRead } from '../worker-engine/core/page-reads.ts';
import type { Settings } from '../worker-engine/core/settings.ts';
import { run, type Factory } from './custom-code.ts';
import { compare, type Operator } from './conditions.ts';
import { turbineEvent } from '../page-side/event.ts';
import { type DCtx, type LaunchDataElement, type Name } from './types.ts';

export interface Finish {
  defaultValue?: string;
  forceLowerCase?: boolean;
  cleanText?: boolean;
  storageDuration?: 'pageview' | 'session' | 'visitor';
}

/** turbine's key for a data element kept for the session. */
export const storageKey = storedKey;

const pageviewCaches = new WeakMap<SessionStore, Map<string, unknown>>();
/** A registered symbol: the build reads it from the container it loads in a module graph of its own. */
const FINISH = Symbol.for('offtag.launch.finish');
/** How turbine finishes an imported data element (the build writes it into offtag.js for the page's getVar: tools/build/launch.ts). */
export const finishOf = (de: object): Finish | undefined => (de as { [FINISH]?: Finish })[FINISH];
const nameOf = new WeakMap<LaunchDataElement, string>();

/**
 * Turbine's finishing: storage duration, then the default for null or undefined. `page`: the
 * element is read on the page with each event (its `read` looks the value up by the element's name).
 */
export function finished(read: (ctx: DCtx, name: string) => unknown, finish: Finish, reads?: string[], sideEffects = false, page?: PageRead): LaunchDataElement {
  const de: LaunchDataElement = {
    type: 'custom',
    ...(reads ? { reads } : {}),
    ...(finish.cleanText ? { cleanText: true } : {}),
    ...(finish.forceLowerCase ? { forceLowerCase: true } : {}),
    // Storage duration is not a side effect here: turbine keeps (or answers) the value whenever
    // anything reads the element, getVar included, and the engine reads every element with each
    // event for getVar (core/events.ts); a value stored with an event is one turbine would store.
    ...(sideEffects ? { sideEffects: true } : {}),
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
          // As turbine: a value JSON cannot write (a function, a cycle) is not kept.
          let text: string | undefined;
          try {
            text = JSON.stringify(value);
          } catch {
            /* not kept */
          }
          if (text) ctx.session.set(storageKey(name), text);
        } else {
          const kept = ctx.session.get(storageKey(name));
          value = kept === null ? null : (JSON.parse(kept) as unknown);
        }
      }
      if (value == null && finish.defaultValue != null) value = finish.defaultValue;
      return value;
    },
  };
  Object.defineProperty(de, FINISH, { value: finish });
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

/** Global paths split once each: a container's data elements read the same few paths at every event. */
const splitPaths = new Map<string, readonly string[]>();

/** A global path's keys (`a.b[0].c` → `a`, `b`, `0`, `c`); the same array for the same path, never to be changed. */
export function splitPath(path: string): readonly string[] {
  let keys = splitPaths.get(path);
  if (!keys) splitPaths.set(path, (keys = Object.freeze(path.replace(/\[(\d+)\]/g, '.$1').split('.').filter(Boolean))));
  return keys;
}

export function globalPath(ctx: { settings: Settings; snapshot: DCtx['snapshot']; page: DCtx['page'] }, path: string): unknown {
  const [root, ...rest] = splitPath(path);
  if (root === ctx.settings.dataLayer) return rest.length ? readPath(ctx.snapshot.dataLayer, rest) : ctx.snapshot.dataLayer;
  const fact = PAGE_PATHS[path];
  if (fact) return fact(ctx as DCtx);
  throw new Error(`"${path}" is not the data layer (${ctx.settings.dataLayer}) and not a page fact the worker receives.`);
}

/**
 * Core JavaScript Variable: a global path; the data layer's part is what the bridge snapshots — all
 * of it for the data layer itself, whose every key (in the page's order) is the value.
 */
export function javascriptVariable(path: string, finish: Finish = {}): LaunchDataElement {
  const [, ...rest] = splitPath(path);
  return finished((ctx) => globalPath(ctx, path), finish, path in PAGE_PATHS ? [] : rest.length ? [rest.join('.')] : undefined);
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

export function queryParam(url: string, name: string, caseInsensitive: boolean): unknown {
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

/**
 * Core's deep merge: arrays on the same key are concatenated, objects merged, the rest copied; an
 * undefined value does not replace a defined one, but is kept on a key that has none (the key is
 * there, undefined); null and undefined sources are skipped, and a text source gives its characters
 * by index, as `Object.keys` gives them.
 */
function mergeInto<T extends object>(into: T, sources: unknown[]): T {
  const target = into as Record<string, unknown>;
  for (const source of sources) {
    if (source == null) continue;
    for (const key of Object.keys(source)) {
      const have = target[key];
      const add = (source as Record<string, unknown>)[key];
      if (add === undefined && have !== undefined) continue;
      if (Array.isArray(have) && Array.isArray(add)) target[key] = have.concat(copyOf(add) as unknown[]);
      else if (isPlainObject(have) && isPlainObject(add)) target[key] = mergeInto(have, [add]);
      else target[key] = copyOf(add);
    }
  }
  return into;
}

/** Core Merged Objects: the objects (each a `%data element%` token, or a value; tokens replaced as turbine's `moduleSettings`) deep-merged into a new one. */
export function mergedObjects(objects: unknown[], finish: Finish = {}): LaunchDataElement {
  return finished((ctx) => mergeInto({}, moduleSettings(ctx, objects) as unknown[]), finish, []);
}

/**
 * A module's settings with their `%tokens%` replaced as turbine replaces them before it calls a data
 * element's module: deep in objects and arrays; a string that is one token keeps the value's type;
 * in a longer string each value is written as JavaScript writes it (`undefined`, `[object Object]`),
 * as turbine's string replacement does; a name that is no data element, `setVar` value or event
 * token (`%event.…%`) stays as written.
 */
export function moduleSettings(ctx: DCtx, v: unknown): unknown {
  if (typeof v === 'string') {
    const known = (n: string) => ctx.has(n) || isEventToken(n);
    const value = (n: string) => (ctx.has(n) ? ctx.get(n) : ctx.pageCall ? undefined : eventToken(n, ctx.event));
    const whole = /^%([^%]+)%$/.exec(v);
    if (whole) return known(whole[1]!) ? value(whole[1]!) : v;
    return v.replace(/%(.+?)%/g, (token, n: string) => (known(n) ? String(value(n)) : token));
  }
  if (Array.isArray(v)) return v.map((x) => moduleSettings(ctx, x));
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).map((k) => [k, moduleSettings(ctx, (v as Record<string, unknown>)[k])]));
  return v;
}

/** The Web SDK's XDM object data element: its `data` with the tokens replaced (the Web SDK's module returns it as it is). */
export function xdmObject(data: unknown, finish: Finish = {}): LaunchDataElement {
  return finished((ctx) => moduleSettings(ctx, data), finish, []);
}

/**
 * The Web SDK's identity map data element: each namespace's identities with the tokens replaced,
 * keeping those whose `id` is text that is not empty, and the namespaces left with one at least.
 */
export function identityMap(map: Record<string, unknown>, finish: Finish = {}): LaunchDataElement {
  return finished((ctx) => {
    const out: Record<string, unknown[]> = {};
    for (const [namespace, ids] of Object.entries(moduleSettings(ctx, map) as Record<string, unknown>)) {
      if (!Array.isArray(ids)) throw new Error(`the identity map's namespace ${namespace} is not a list of identities`);
      const kept = ids.filter((x) => typeof (x as { id?: unknown } | null)?.id === 'string' && (x as { id: string }).id.length > 0);
      if (kept.length) out[namespace] = kept;
    }
    return out;
  }, finish, []);
}

/**
 * Core Conditional Value: Core's Value Comparison of `left` and `right` (their `%tokens%` replaced,
 * a whole token keeping its value's type), then `conditionalValue` when it holds, else
 * `fallbackValue` (each with its tokens replaced too).
 */
export function conditionalValue(left: unknown, operator: Operator, right: unknown, caseInsensitive: boolean, values: { conditionalValue?: unknown; fallbackValue?: unknown }, finish: Finish = {}): LaunchDataElement {
  const token = moduleSettings;
  return finished((ctx) => token(ctx, compare(operator, token(ctx, left), token(ctx, right), caseInsensitive) ? values.conditionalValue : values.fallbackValue), finish, []);
}

/**
 * Core Runtime Environment, for the attributes an event or the container knows: the event's type,
 * detail and direct-call identifier (turbine's event), the environment's stage; the library's build
 * date, property name and id are constants the import writes with `constant`.
 */
export function runtimeEnvironment(attribute: 'environmentStage' | 'eventType' | 'eventDetail' | 'DCRIdentifier', finish: Finish = {}): LaunchDataElement {
  return finished((ctx) => {
    if (attribute === 'environmentStage') return ctx.settings.environment;
    // Core's module reads the event it is given: the page's getVar gives none, and the read fails (no default), as there.
    if (ctx.pageCall) throw new TypeError(`Runtime Environment ${attribute} needs an event; getVar gives none`);
    const e = turbineEvent(ctx.event);
    return attribute === 'eventType' ? e.$type : attribute === 'eventDetail' ? e.detail : e.identifier;
  }, finish, []);
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
 * Custom code that needs the page, run there with each event: `source` is the block's function
 * source, kept as text and written by offtag build as a function of its own in offtag.js; it gets
 * a turbine-shaped event (`$type`, a direct call's `identifier` and `detail`, a page trigger's
 * `element`) and the page's own globals, `_satellite` among them.
 */
export const pageCustomCode = (source: string, finish: Finish = {}): LaunchDataElement => onPage({ from: 'launch-code', source }, finish);

/** Another extension's data element: its module, run on the page by offtag.js's module host with each event (settings' tokens replaced there). */
export const pageModule = (module: string, settings: unknown, finish: Finish = {}): LaunchDataElement => onPage({ from: 'module', module, settings }, finish);


/**
 * Custom code that needs nothing of the page (the importer checked it): it gets turbine-shaped
 * `_satellite` and `sessionStorage` made of the engine's context. `readsDataLayer`: the data layer
 * paths it reads (`true`: any of it, and the whole layer travels with each event).
 */
export function customCode(factory: Factory, finish: Finish = {}, sideEffects = false, readsDataLayer: boolean | string[] = false): LaunchDataElement {
  return finished((ctx) => run(factory, ctx, ''), finish, readsDataLayer === true ? undefined : readsDataLayer || [], sideEffects);
}

/** The name of the data element that declares the data layer paths an imported container's rules and Analytics blocks read in the worker. */
export const BLOCK_READS = 'offtag:data layer reads';

/**
 * Declares the data layer paths the worker's blocks other than data elements read (conditions,
 * actions, Analytics custom code), so that the bridge's copy of the layer holds them; no paths: any
 * of it. Its value is always undefined.
 */
export const dataLayerReads = (paths?: string[]): LaunchDataElement => finished(() => undefined, {}, paths);

/**
 * A page global that worker blocks read as data (src/launch/virtual-page.ts `__pageGlobals`),
 * copied on the page with each event with only the branches at `paths` (as the bridge copies the
 * data layer: src/main-bridge/read-set.ts), so that the rest of it — a site's helpers, functions
 * that cannot travel — is not cloned with every event. A getter that throws gives the whole value,
 * as an unnarrowed read would.
 */
export function pageGlobalBranches(name: string, paths: string[]): LaunchDataElement {
  const tree = readSetOf({ [name]: { type: 'custom', reads: paths } });
  const source = `function () {
  var pick = function (s, t) {
    var o = {};
    for (var k in t) { var v = s[k]; o[k] = !t[k] || v === null || typeof v !== "object" ? v : pick(v, t[k]); }
    return o;
  };
  var v = window[${JSON.stringify(name)}];
  if (v === null || typeof v !== "object") return v;
  try { return pick(v, ${JSON.stringify(tree)}); } catch (e) { return v; }
}`;
  return onPage({ from: 'launch-code', source }, {});
}


const pushStates = new WeakMap<SessionStore, unknown>();

/** Data Layer Manager's Context Aware conversions. */
export interface ContextAware {
  convertTrueToOne?: boolean;
  convertFalseToZero?: boolean;
  convertUndefinedToZero?: boolean;
}

/**
 * Data Layer Manager's Context Aware data element: the value at `path` ('' for all of it) of the
 * data layer's state — on a data layer push event, the state that push made (`event.state`);
 * otherwise the state of the latest push event the worker saw (Data Layer Manager reads the array's
 * current state then; a push no rule listens to is not seen here). Then its conversions.
 */
export function dataLayerState(path: string, o: ContextAware = {}, finish: Finish = {}): LaunchDataElement {
  return finished((ctx) => {
    const ev = ctx.event;
    let state: unknown;
    if (ev.type === 'trigger' && ev.on === 'data-layer-push') pushStates.set(ctx.session, (state = ev.state));
    else state = pushStates.get(ctx.session);
    const v = path === '' ? state : readPath(state, path);
    if (o.convertTrueToOne && v === true) return '1';
    if ((o.convertFalseToZero && v === false) || (o.convertUndefinedToZero && !v)) return '0';
    return v;
  }, finish, []);
}

/** Names each data element (storage duration keys by name) and returns the table. */
export function dataElements(table: Record<Name, LaunchDataElement>): Record<Name, LaunchDataElement> {
  for (const [name, de] of Object.entries(table)) nameOf.set(de, name);
  return table;
}

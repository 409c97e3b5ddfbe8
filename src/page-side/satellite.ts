/**
 * `_satellite` as turbine (Adobe's Launch runtime) gives it, for containers imported from a Launch
 * library: `offtag build` writes the facts below into the page data (`launch`, tools/build/launch.ts)
 * and sets the define `__OFFTAG_LAUNCH__` only for such a container, so this code is in its
 * offtag.js alone, with the page side; a container written with `defineContainer` keeps the
 * compact `_satellite` of src/main-bridge/satellite.ts.
 *
 * - `getVar(name)` answers synchronously what turbine would: a data element read on the page
 *   (`page` reads: local storage, DOM attributes, page globals, page custom code) is read now and
 *   finished as turbine finishes it (storage duration, default, clean text, lower case); any other
 *   data element answers the latest value the worker computed (it sends every value with each
 *   event, core/events.ts); a name that is no data element reads what `setVar` set, with turbine's
 *   dotted paths (`getVar('cart.total')`).
 * - `setVar`, `cookie` (js-cookie 2.2.1's reading and writing, as turbine's `@adobe/reactor-cookie`),
 *   `logger` (printed only with debug on, prefixed as turbine's), `notify`, the deprecated cookie
 *   calls, `setDebug`, `pageBottom()`, `getVisitorId()` (the ID getters from the AMCV cookie),
 *   `buildInfo`, `property`, `company`.
 *
 * No call throws into the site: src/main-bridge/satellite.ts guards these calls as it guards its own.
 */
import type { PageValues, SnapshotProblem } from '../protocol.ts';
import { debugChanged, debugOn as isDebug, readDebug, storedDebug } from './host.ts';
import { cookieApi } from './reactor-modules.ts';
import { decodeAmcv } from '../worker-engine/visitor/amcv-cookie.ts';
import type { PageHooks } from './types.ts';

/** What the build writes for an imported container (tools/build/launch.ts). */
export interface LaunchFacts {
  /** The Launch library's `buildInfo` (turbineVersion, turbineBuildDate, buildDate, minified). */
  buildInfo: Record<string, unknown>;
  property: { name?: string; id?: string };
  company: { orgId?: string; [k: string]: unknown };
  /** Every data element's name: getVar answers a data element before a `setVar` value of the same name, as turbine. */
  names: string[];
  /** The data elements read on the page, with turbine's finishing: [default value, clean text, lower case, storage duration]. */
  reads: Record<string, [unknown, 0 | 1, 0 | 1, string | 0]>;
  /** The Experience Cloud ID Service extension's org, when the library has it: `getVisitorId()` answers its instance, else null. */
  visitor?: string;
}

/** The page side's read of one data element (src/page-side `read` with its name). */
export type ReadOne = (name: string, problems: SnapshotProblem[]) => PageValues;

const ROCKET = '\uD83D\uDE80';
const DEBUG_PREFIX = 'com.adobe.reactor.';

/** turbine's logger: nothing unless debug is on; `always` for its deprecation warnings. */
const say = (level: 'log' | 'info' | 'warn' | 'error' | 'debug', args: unknown[], always?: boolean) => {
  if (always || isDebug()) console[level](ROCKET, ...args);
};

/** turbine's property walk for `getVar('name.a.b')` on a `setVar` value (a DOM element's `getAttribute(x)` too). */
function walk(value: unknown, chain: string[]): unknown {
  for (const prop of chain) {
    if (value == null) return undefined;
    const attr = /^getAttribute\((.+)\)$/.exec(prop);
    const v = value as Record<string, unknown> & { getAttribute?(n: string): unknown };
    value = attr && typeof v.getAttribute == 'function' ? v.getAttribute(attr[1]) : v[prop];
  }
  return value;
}

/**
 * Storage duration on the page, as turbine keeps it: a value that is there is kept, a missing one
 * answers the kept one. Turbine keeps a page view's values whenever anything reads the element: the
 * rules' reads are the worker's here, and it sends what it kept with each event (`worker`).
 */
function stored(name: string, duration: string | 0, value: unknown, pageview: Record<string, unknown>, worker: unknown): unknown {
  if (!duration) return value;
  const key = `${DEBUG_PREFIX}dataElements.${name}`;
  const store = duration == 'session' ? sessionStorage : duration == 'visitor' ? localStorage : undefined;
  if (value != null) {
    if (!store) pageview[name] = value;
    else {
      const json = JSON.stringify(value);
      if (json) store.setItem(key, json);
    }
    return value;
  }
  if (!store) return name in pageview ? pageview[name] : worker ?? null;
  const kept = store.getItem(key);
  return kept === null ? null : JSON.parse(kept);
}

/**
 * Makes the compact `_satellite` (src/main-bridge/satellite.ts) turbine's. `hooks`: offtag.js's
 * `send` (an event with a snapshot) and the worker's latest values; `read`: the page side's read of one data element.
 */
export function launchSatellite(s: object, facts: LaunchFacts, hooks: PageHooks, read: ReadOne): void {
  readDebug();
  const send = (e: Parameters<NonNullable<PageHooks['send']>>[0]) => hooks.send?.(e);
  const names = new Set(facts.names);
  const custom: Record<string, unknown> = {};
  const pageview: Record<string, unknown> = {};
  const prefixed = (level: 'log' | 'info' | 'warn' | 'error' | 'debug') => (...a: unknown[]) => say(level, ['[Custom Script]', ...a]);
  const logger = { log: prefixed('log'), info: prefixed('info'), warn: prefixed('warn'), error: prefixed('error'), debug: prefixed('debug') };
  const deprecated = (m: string) => say('warn', [m], true);
  // turbine's `_satellite.cookie` is @adobe/reactor-cookie (js-cookie 2's get, set and remove), as the module host gives it.
  const jar = cookieApi();
  const launchCookie = { get: jar.get, set: jar.set, remove: jar.remove };

  /** A data element read on the page, now: its raw value (`undefined` after a read that threw, as turbine's), or the worker's when the read is already running (a read that asks for another). */
  const readNow = (name: string): unknown => {
    const [def, clean, lower, duration] = facts.reads[name]!;
    const problems: SnapshotProblem[] = [];
    const d = read(name, problems).d;
    if (problems.length) return;
    if (!d || !(name in d)) return hooks.vars[name];
    let value = stored(name, duration, d[name], pageview, hooks.vars[name]);
    if (value == null && def != null) value = def;
    if (typeof value != 'string') return value;
    const text = clean ? value.replace(/\s+/g, ' ').trim() : value;
    return lower ? text.toLowerCase() : text;
  };

  const buildInfo = { ...facts.buildInfo };
  Object.defineProperty(buildInfo, 'environment', {
    enumerable: true,
    get() {
      deprecated('container.buildInfo.environment is deprecated.Please use `container.environment.stage` instead');
      return (s as { environment: { stage: string } }).environment.stage;
    },
  });
  let bottom = false;
  let visitor: object | undefined;
  const setDebug = (s as { setDebug(on: boolean): void }).setDebug;

  Object.assign(s, {
    getVar(name: string): unknown {
      if (names.has(name)) return name in facts.reads ? readNow(name) : hooks.vars[name];
      const [host, ...chain] = String(name).split('.');
      // `this.`, `event.` and `target.` need a rule's event: site code has none.
      return host == 'this' || host == 'event' || host == 'target' ? undefined : walk(custom[host], chain);
    },
    setVar(name: unknown, value?: unknown) {
      // turbine's: an object's keys (its inherited enumerable ones too), else the name as text.
      const values: Record<string, unknown> = {};
      if (typeof name != 'object') values[String(name)] = value;
      else for (const k in name) values[k] = (name as Record<string, unknown>)[k];
      Object.assign(custom, values);
      // The worker's `%name%` tokens read them too.
      if (Object.keys(values).length) send({ type: 'set-var', values });
    },
    cookie: launchCookie,
    logger,
    notify(message: unknown, level?: number) {
      deprecated('_satellite.notify is deprecated. Please use the `_satellite.logger` API.');
      logger[level == 3 ? 'info' : level == 4 ? 'warn' : level == 5 ? 'error' : 'log'](message);
    },
    setCookie(name: string, value: unknown, days?: number) {
      deprecated(`_satellite.setCookie is deprecated. Please use _satellite.cookie.set("${name}", "${String(value)}"${days ? `, { expires: ${days} }` : ''}).`);
      launchCookie.set(name, value, days ? { expires: days } : {});
    },
    readCookie(name: string) {
      deprecated(`_satellite.readCookie is deprecated. Please use _satellite.cookie.get("${name}").`);
      return launchCookie.get(name);
    },
    removeCookie(name: string) {
      deprecated(`_satellite.removeCookie is deprecated. Please use _satellite.cookie.remove("${name}").`);
      launchCookie.remove(name);
    },
    setDebug(on: boolean) {
      // turbine writes (and tells its listeners) only on a change.
      if (storedDebug() !== on) {
        setDebug(on);
        debugChanged(on);
      }
    },
    // Page Bottom: the first call while the page is still being parsed; after DOMContentLoaded it has fired already.
    pageBottom() {
      if (!bottom && document.readyState == 'loading') send({ type: 'page-bottom' });
      bottom = true;
    },
    /**
     * The Experience Cloud ID Service's instance (null without the extension, as turbine's): its ID
     * getters answer at once, as VisitorAPI answers an ID it knows, from the visitor's AMCV cookie
     * the worker's visitor service writes (a callback is called with a known ID; one still unknown,
     * "", is the `Visitor` facade's to answer when offtag-visitor.js is on the page); its other
     * methods are the facade's.
     */
    getVisitorId() {
      const org = facts.visitor;
      if (!org) return null;
      if (!visitor) {
        const V = (window as { Visitor?: { getInstance?(org: string): Record<string, (...a: unknown[]) => unknown> } }).Visitor;
        const facade = typeof V?.getInstance == 'function' ? V.getInstance(org) : undefined;
        const id = (field: string, method: string) => (callback?: unknown) => {
          const value = decodeAmcv(String(jar.get('AMCV_' + org) ?? '')).fields.get(field)?.value ?? '';
          if (typeof callback == 'function') {
            if (value) callback(value);
            else facade?.[method]?.(callback);
          }
          return value;
        };
        visitor = Object.assign(Object.create(facade ?? {}) as object, {
          marketingCloudOrgID: org,
          getMarketingCloudVisitorID: id('MCMID', 'getMarketingCloudVisitorID'),
          getAnalyticsVisitorID: id('MCAID', 'getAnalyticsVisitorID'),
          getAudienceManagerLocationHint: id('MCAAMLH', 'getAudienceManagerLocationHint'),
          getAudienceManagerBlob: id('MCAAMB', 'getAudienceManagerBlob'),
        });
      }
      return visitor;
    },
    buildInfo,
    property: { ...facts.property },
    company: { ...facts.company },
  });
}

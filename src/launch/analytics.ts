/**
 * The Adobe Analytics extension as turbine runs it, on an AppMeasurement-compatible `s` in the
 * worker (appmeasurement/tracker.ts). The tracker is made at the first Analytics action of the
 * page, as the extension makes it: the consent cookie checked, `s.visitor` set, the `customSetup`
 * code run with `this` the window and `s` its argument (before or after the settings, by its load
 * phase), the global tracker properties applied once. Set Variables applies its properties (eVars
 * and props as values or `D=` copies, events with ids and values appended, hierarchies joined,
 * campaign from a value or a query parameter) and extends `linkTrackVars`/`linkTrackEvents` with
 * what it set, then runs its custom code with `this` the event's element and `(event, s)`; Send
 * Beacon calls `s.t()` or `s.tl()` (and so `doPlugins`), Clear Variables `s.clearVars()`. Every
 * variable lives on `s` between beacons until cleared, as in AppMeasurement.
 */
import { trackingConsented } from '../worker-engine/analytics/consent.ts';
import { getDaysSinceLastVisit } from '../worker-engine/analytics/plugins/days-since-last-visit.ts';
import { getNewRepeat } from '../worker-engine/analytics/plugins/new-repeat.ts';
import { getTimeSinceLastVisit } from '../worker-engine/analytics/plugins/time-since-last-visit.ts';
import { getVisitNumber } from '../worker-engine/analytics/plugins/visit-number.ts';
import { reportSuiteFor } from '../worker-engine/core/settings.ts';
import type { ElementInfo } from '../protocol.ts';
import { adobeServices } from '../container/services.ts';
import type { ServicesDef } from '../container/define.ts';
import type { VisitorOptions } from '../worker-engine/visitor/service.ts';
import { installPlugins, type PluginInit } from './appmeasurement/plugins.ts';
import { createAppMeasurement, getQueryParam, plainValues, setPath, type AppMeasurement } from './appmeasurement/tracker.ts';
import type { PageAnalyticsStep, PageOp, PageRecord } from './appmeasurement/page-tracker.ts';
import type { LaunchStep } from '../protocol.ts';
import { launchEvent } from './custom-code.ts';
import type { PageChannel } from './page-steps.ts';
import { action, asString, type ActionOptions, type Ctx, type LaunchAction } from './types.ts';
import { elementOf, runBlock, turbineEvent, virtualPage, type LaunchServices, type WorkerBlock } from './virtual-page.ts';

/** An eVar or prop as Set Variables stores it: a value, or an alias (`D=` copy) of another eVar or prop. */
export interface TrackerVariable {
  name: string;
  type?: 'value' | 'alias';
  value: string;
}

/** The extension's tracker properties, as Launch stores them (global, or a Set Variables action's). */
export interface TrackerProperties {
  eVars?: TrackerVariable[];
  props?: TrackerVariable[];
  hierarchies?: Array<{ name: string; sections: string[]; delimiter?: string }>;
  events?: Array<{ name: string; id?: string; value?: string }>;
  /** `{type: 'value', value}` or `{type: 'queryParam', value: <parameter>}`. */
  campaign?: { type?: string; value?: string };
  linkDownloadFileTypes?: string[];
  linkExternalFilters?: string[];
  linkInternalFilters?: string[];
  [variable: string]: unknown;
}

export interface AnalyticsOptions {
  /** The extension's global tracker properties, applied when the tracker is made. */
  trackerProperties?: TrackerProperties;
  /** The extension's `customSetup` code, placed in the worker: `this` the window, `s` its argument. */
  customSetup?: WorkerBlock;
  /** `beforeSettings`: the custom code runs before the global properties are applied (default after). */
  customSetupPhase?: 'beforeSettings' | 'afterSettings';
  /** The extension's "make the tracker globally accessible": `window.s`. */
  scopeTrackerGlobally?: boolean;
  /**
   * `'setup'`: the customSetup needs the page: it runs there as a step of the rule whose Analytics
   * action makes the tracker, and the doPlugins it defines runs there for each beacon
   * (page-tracker.ts).
   */
  onPage?: 'setup';
  /** Data elements the page customSetup and its doPlugins name (`_satellite.getVar('…')`): their values for the event go with each of its steps. */
  pageValues?: string[];
  /**
   * The extension's Audience Manager forwarding (`moduleProperties.audienceManager.config`): the
   * tracker loads AppMeasurement's Audience Manager module and sets it up with this config once its
   * settings and customSetup are applied, as the extension does; its hits then carry postbacks.
   */
  audienceManager?: Record<string, unknown>;
}

/** A Set Variables action's custom code that runs on the page: its number in the page's list, and the data elements it names. */
export interface PageBlock {
  block: number;
  names?: string[];
}

const NO_CONSENT = 'EU compliance was not acknowledged by the user.';
/** Variables Set Variables adds to `linkTrackVars` when it sets them (the extension's own list). */
const LINK_TRACKED = /^(eVar[0-9]+)|(prop[0-9]+)|(hier[0-9]+)|campaign|purchaseID|channel|server|state|zip|pageType$/;
const ALIAS = { eVar: /eVar([0-9]+)/, prop: /prop([0-9]+)/ };
const LIST_SETTINGS = new Set(['linkDownloadFileTypes', 'linkExternalFilters', 'linkInternalFilters']);

const unique = (items: string[]) => items.filter((x, i) => items.indexOf(x) === i);

/** A settings value with every `%data element%` token replaced, as turbine hands extension settings over. */
function resolveDeep(ctx: Ctx, v: unknown): unknown {
  if (typeof v === 'string') return ctx.replaceTokens(v);
  if (Array.isArray(v)) return v.map((x) => resolveDeep(ctx, x));
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolveDeep(ctx, x)]));
  return v;
}

/**
 * What the extension sets on the tracker for a set of (resolved) properties, and the
 * `linkTrackVars`/`linkTrackEvents` it computes from them; applied to `s`.
 */
export function applyTrackerVariables(s: AppMeasurement, p: TrackerProperties, pageUrl: string): void {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(p ?? {})) {
    if (key === 'eVars' || key === 'props') {
      const prefix = (p.dynamicVariablePrefix as string | undefined) || 'D=';
      for (const v of (value as TrackerVariable[]) ?? []) {
        if (v.type === 'value' || v.type === undefined) out[v.name] = v.value;
        else {
          const e = ALIAS.eVar.exec(String(v.value));
          const c = e ? undefined : ALIAS.prop.exec(String(v.value));
          out[v.name] = e ? `${prefix}v${e[1]}` : c ? `${prefix}c${c[1]}` : undefined;
        }
      }
    } else if (key === 'hierarchies') {
      for (const h of (value as TrackerProperties['hierarchies']) ?? []) out[h.name] = h.sections.join(h.delimiter);
    } else if (key === 'campaign') {
      const c = (value ?? {}) as { type?: string; value?: string };
      out.campaign = c.type === 'queryParam' ? queryParameter(pageUrl, String(c.value ?? '')) : c.value;
    } else if (key === 'events') {
      out.events = ((value as TrackerProperties['events']) ?? [])
        .map((e) => {
          let t = e.name;
          if (e.id) t = `${t}:${e.id}`;
          if (e.value) t = `${t}=${e.value}`;
          return t;
        })
        .join(',');
    } else if (LIST_SETTINGS.has(key) && Array.isArray(value)) out[key] = value.join(',');
    else out[key] = value;
  }
  if (out.events && s.events && String(s.events).length > 0) out.events = `${s.events},${out.events}`;
  const hasEvents = Boolean(p?.events && p.events.length > 0);
  const vars = Object.keys(out).filter((k) => LINK_TRACKED.test(k));
  if (hasEvents) vars.push('events');
  const linkTrackVars = unique([...vars, ...String(s.linkTrackVars || '').split(',')]).filter((n) => n !== 'None' && n).join(',');
  if (linkTrackVars) out.linkTrackVars = linkTrackVars;
  const linkTrackEvents = unique([...(p?.events ?? []).map((e) => e.name), ...String(s.linkTrackEvents || '').split(',')]).filter((n) => n !== 'None').join(',');
  if (linkTrackEvents) out.linkTrackEvents = linkTrackEvents;
  Object.assign(s, out);
}

/** A query parameter of the page's URL, decoded (`+` as a space), as the extension reads one for `campaign`. */
function queryParameter(url: string, name: string): string | undefined {
  try {
    for (const [k, v] of new URL(url).searchParams) if (k === name) return v;
  } catch {
    /* no URL: no parameter */
  }
  return undefined;
}

interface TrackerState {
  s: AppMeasurement;
  /** While the tracker is being made (its customSetup runs on the page): settles once it is made. */
  made?: Promise<void>;
  /** The context of the action running now: the tracker's host reads the page through it. */
  ctx: Ctx;
}
const trackers = new WeakMap<object, TrackerState>();
/** Plugins the Common Analytics Plugins extension's actions handed over before the tracker was made. */
const augmenters = new WeakMap<object, PluginInit[]>();

/**
 * The Common Analytics Plugins extension's "initialize" actions: the plugins go to the tracker
 * when it is made (an augmenter of the Analytics extension); once it is made, they never reach it,
 * as under turbine.
 */
export function initializePlugins(inits: PluginInit[], o?: ActionOptions) {
  return action('Common Analytics Plugins: initialize', (ctx) => {
    const key = ctx.services.analytics as object;
    if (trackers.has(key)) return;
    augmenters.set(key, [...(augmenters.get(key) ?? []), ...inits]);
  }, o);
}

/** The Common Analytics Plugins the worker implements, on `s` as that extension puts them (the library's own definitions replace them). */
function addPlugins(state: TrackerState): void {
  const o = {};
  const now = () => state.ctx.snapshot.time;
  Object.assign(state.s, {
    getNewRepeat: (days?: number) => getNewRepeat(state.ctx.cookies, now(), days, o),
    getVisitNum: (days?: number) => getVisitNumber(state.ctx.cookies, now(), typeof days === 'number' ? days : undefined, o),
    getDaysSinceLastVisit: () => getDaysSinceLastVisit(state.ctx.cookies, now(), o),
    getTimeSinceLastVisit: () => getTimeSinceLastVisit(state.ctx.cookies, now(), o),
  });
}

/** Replays what a page block did to the page `s` on the worker's `s`, in order; a block that threw fails its action, as under turbine. */
function replay(s: AppMeasurement, record: PageRecord | undefined, what: string): void {
  for (const op of (record?.ops ?? []) as PageOp[]) {
    if (op[0] === 'set') setPath(s, op[1], op[2]);
    else if (op[0] === 't') s.t();
    else if (op[0] === 'tl') s.tl('true', op[1], op[2]);
    else if (op[0] === 'clear') s.clearVars();
  }
  if (record?.error) throw new Error(`${what} threw on the page: ${record.error}`);
}

/**
 * Runs Analytics custom code on the page at its place in the rule: the page `s` takes the
 * worker's variables of this moment, the block runs, and the rule goes on once the page has
 * answered with what the block did (its record). It always waits, sequencing or not: turbine's
 * Analytics actions each run on the tracker's promise, so a block runs after the actions before it
 * and before the ones after it, whatever the property says.
 */
async function onThePage(ctx: Ctx, s: AppMeasurement, step: Omit<PageAnalyticsStep, 'vars'>, names: string[] | undefined, what: string): Promise<PageRecord> {
  const page = (ctx.services as { page?: PageChannel }).page;
  if (!page) throw new Error(`${what} runs on the page, and the container has no page channel (write its services as launch.withPage(launch.launchServices()))`);
  const values: Record<string, unknown> = {};
  for (const n of names ?? []) {
    try {
      values[n] = ctx.get(n);
    } catch {
      /* a data element that fails has no value, as under turbine */
    }
  }
  ctx.emit({ type: 'monitor', name: 'rule-page-part', data: { rule: ctx.rule.name, block: what, seq: ctx.snapshot.seq } });
  const body = await page.run(
    {
      step: { ...step, vars: plainValues(s) } as LaunchStep,
      name: what,
      rule: ctx.rule.name,
      seq: ctx.snapshot.seq,
      event: launchEvent(ctx.event, ctx.rule.name),
      ...(names?.length ? { values } : {}),
    },
    true,
  );
  try {
    return JSON.parse(body ?? '') as PageRecord;
  } catch {
    throw new Error(`${what} ran on the page, which sent back no record of it`);
  }
}

/** The page's tracker, made at the first Analytics action (as the extension's getTracker), or undefined without consent. */
export function trackerFor(ctx: Ctx, options: AnalyticsOptions): Maybe<AppMeasurement | undefined> {
  const key = ctx.services.analytics as object;
  const known = trackers.get(key);
  if (known) {
    known.ctx = ctx;
    // An action that did not wait for the one making the tracker (`delayNext: false`) gets it once it is made.
    return known.made ? known.made.then(() => known.s) : known.s;
  }
  if (!trackingConsented(ctx)) return undefined;
  const state = { ctx } as TrackerState;
  const services = ctx.services as LaunchServices;
  // The extension reads its settings when it makes the tracker: report suites from data elements (`%rsid%`) are expanded then.
  const account = ctx.replaceTokens(reportSuiteFor(ctx.settings) ?? '');
  state.s = createAppMeasurement(account == null ? '' : String(account), {
    cookie: (name) => state.ctx.cookies.get(name),
    setCookie: (name, value, o) => state.ctx.cookies.set(name, value, { ...(o.expires !== undefined ? { expires: o.expires } : {}), ...(o.domain ? { domain: o.domain } : {}), ...(o.secure ? { secure: true } : {}) }),
    url: () => state.ctx.snapshot.url,
    hostname: () => {
      try {
        return new URL(state.ctx.snapshot.url).hostname;
      } catch {
        return '';
      }
    },
    cookieDomain: () => services.pageInfo?.cookieDomain ?? '',
    now: () => Date.now(),
    send: (hit) => {
      const c = state.ctx;
      void c.services.analytics.track(hit).catch((err: unknown) => c.log('error', `Analytics beacon of rule "${c.rule.name}" failed: ${err instanceof Error ? err.message : String(err)}`));
    },
    log: (level, message) => state.ctx.log(level, message),
    // The ECID extension's VisitorAPI makes adobe.optIn.
    optIn: () => Boolean((state.ctx.settings as { orgId?: string }).orgId),
  }, {
    // VisitorAPI's instance, made with the library before the tracker, is the page's s_c_il[0].
    index: orgOf(ctx) ? 1 : 0,
    audienceManagement: Boolean(options.audienceManager),
    visitor: Boolean(orgOf(ctx)),
  });
  addPlugins(state);
  const s = state.s;
  const org = orgOf(ctx);
  // The ECID extension's instance (the worker's visitor service, read through the AMCV cookie).
  if (org) s.visitor = (virtualPage(ctx).Visitor as { getInstance(o: string): object }).getInstance(org);
  const w = virtualPage(ctx);
  installPlugins(augmenters.get(key) ?? [], s, w, { now: () => state.ctx.snapshot.time, s: () => state.s });
  if (options.scopeTrackerGlobally) w.s = s;
  const global = resolveDeep(ctx, options.trackerProperties ?? {}) as TrackerProperties;
  const failed = (e: unknown) => ctx.log('error', `${SETUP} threw: ${e instanceof Error ? e.message.replace(`${SETUP} threw `, '') : String(e)}`);
  const before = options.customSetupPhase === 'beforeSettings';
  trackers.set(key, state);
  if (options.onPage === 'setup') {
    // The customSetup runs on the page, as a step: the tracker is made once the page has answered.
    if (!before) applyTrackerVariables(s, global, ctx.snapshot.url);
    state.made = onThePage(ctx, s, { analytics: 'setup', ...(options.scopeTrackerGlobally ? { global: true } : {}) }, options.pageValues, SETUP)
      .then((record) => replay(s, record, SETUP))
      .catch(failed)
      .then(() => {
        if (before) applyTrackerVariables(s, global, ctx.snapshot.url);
        setupAudienceManager(ctx, s, options);
        state.made = undefined;
      });
    return state.made.then(() => s);
  }
  const setup = () => {
    try {
      if (options.customSetup) runBlock(options.customSetup, ctx, 'window', [s]);
    } catch (e) {
      failed(e);
    }
  };
  if (before) setup();
  applyTrackerVariables(s, global, ctx.snapshot.url);
  if (!before) setup();
  setupAudienceManager(ctx, s, options);
  return s;
}

const orgOf = (ctx: Ctx) => String((ctx.settings as { orgId?: string }).orgId ?? '');

/** The extension's last step in making the tracker: `loadModule('AudienceManagement')` and its `setup` with the forwarding config (the import adds the company's org as DIL's `visitorService`, as the extension does). */
function setupAudienceManager(ctx: Ctx, s: AppMeasurement, options: AnalyticsOptions): void {
  if (!options.audienceManager) return;
  try {
    s.loadModule('AudienceManagement');
    s.AudienceManagement.setup(structuredClone(options.audienceManager));
  } catch (e) {
    ctx.log('error', `Analytics Audience Manager forwarding: ${e instanceof Error ? e.message : String(e)}`);
  }
}

/** An action that may run a step on the page: offtag build then writes the page side that runs it. */
const onPage = (page: boolean, a: LaunchAction): LaunchAction => (page ? { ...a, page: true } : a);

/** A value now, or once a step on the page has answered: the worker's actions stay synchronous unless they wait for the page. */
type Maybe<T> = T | Promise<T>;
const then = <T, R>(v: Maybe<T>, f: (x: T) => Maybe<R>): Maybe<R> => (v instanceof Promise ? v.then(f) : f(v));

const SETUP = 'Analytics customSetup';

/** The tracker for an action, or undefined after logging why there is none (as the extension logs it). */
function tracker(ctx: Ctx, options: AnalyticsOptions, what: string): Maybe<AppMeasurement | undefined> {
  return then(trackerFor(ctx, options), (s) => {
    if (!s) ctx.log('error', `Cannot ${what}: ${NO_CONSENT}`);
    return s;
  });
}

export function setVariables(options: AnalyticsOptions, p: TrackerProperties, customCode?: WorkerBlock, o?: ActionOptions, page?: PageBlock) {
  return onPage(Boolean(page) || options.onPage === 'setup', action('Adobe Analytics: Set Variables', (ctx) => {
    // Turbine expands an action's settings before the action runs, consent or not (a data element's side effects happen).
    const resolved = resolveDeep(ctx, p) as TrackerProperties;
    return then(tracker(ctx, options, 'set variables'), (s) => {
      if (!s) return;
      applyTrackerVariables(s, resolved, ctx.snapshot.url);
      if (customCode) runBlock(customCode, ctx, 'element', [turbineEvent(ctx, ctx.rule.name), s]);
      else if (page) return onThePage(ctx, s, { analytics: 'block', block: page.block }, page.names, BLOCK).then((record) => replay(s, record, BLOCK));
    });
  }, o));
}

const BLOCK = 'Set Variables custom code';

/**
 * Core custom code that works on the tracker through the page (a function a data element run on
 * the page returns, which sets `window.s.…`): it runs on the page at its place in the rule, with the
 * page `s` as `window.s` holding the worker's variables, and what it did to `s` is replayed here.
 * Before the tracker is made it runs with no `window.s`, as under turbine.
 */
export function trackerCode(options: AnalyticsOptions, page: PageBlock, o?: ActionOptions) {
  return onPage(true, action('Custom Code', (ctx) => {
    const state = trackers.get(ctx.services.analytics as object);
    if (state) state.ctx = ctx;
    const made = state ? (state.made ? state.made.then(() => state.s) : state.s) : undefined;
    return then(made, (s) => {
      const step = { analytics: 'block' as const, block: page.block, ...(s && options.scopeTrackerGlobally ? { global: true } : {}) };
      return onThePage(ctx, s ?? ({ contextData: {} } as AppMeasurement), step, page.names, 'Custom Code').then((record) => {
        if (s) replay(s, record, 'Custom Code');
        else if (record.error) throw new Error(`Custom Code threw on the page: ${record.error}`);
      });
    });
  }, o));
}

export function clearVariables(options: AnalyticsOptions, o?: ActionOptions) {
  return onPage(options.onPage === 'setup', action('Adobe Analytics: Clear Variables', (ctx) => then(tracker(ctx, options, 'clear variables'), (s) => s?.clearVars()), o));
}

/** Launch's send beacon names a nameless link hit this (when the element is not a link). */
export const DEFAULT_LINK_NAME = 'link clicked';

export interface BeaconOptions {
  type: 'page' | 'link';
  linkType?: 'o' | 'd' | 'e';
  linkName?: string;
}

/** A link's text as the extension names a link beacon: its collapsed text, else an alt, title, value or src. */
function linkText(el: ElementInfo): string {
  const collapse = (t: string | undefined) => (t ?? '').replace(/\s+/g, ' ').trim();
  const a = el.attributes ?? {};
  return collapse(el.text) || collapse(a.alt) || collapse(a.title) || collapse(a.value) || collapse(a.src);
}

/** `pagePlugins`: the customSetup's doPlugins is the page's: it runs there for this beacon, and its record takes its place in `s.t()`/`s.tl()`. */
export function sendBeacon(options: AnalyticsOptions, b: BeaconOptions, o?: ActionOptions, pagePlugins = false) {
  return onPage(pagePlugins || options.onPage === 'setup', action('Adobe Analytics: Send Beacon', (ctx) => {
    const name = asString(b.linkName === undefined ? '' : ctx.replaceTokens(b.linkName));
    return then(tracker(ctx, options, 'send beacon'), (s) => {
      if (!s) return;
      const el = (ctx.event as { element?: ElementInfo }).element;
      const isLink = el?.tagName?.toLowerCase() === 'a';
      const linkType = b.type === 'page' ? '' : b.linkType || 'o';
      const linkName = b.type === 'page' ? '' : name || (isLink ? linkText(el!) : DEFAULT_LINK_NAME);
      const send = () => (b.type === 'page' ? s.t() : s.tl(isLink ? elementOf(el) : 'true', linkType, linkName));
      if (!pagePlugins) return send();
      return onThePage(ctx, s, { analytics: 'plugins', ...(linkType ? { linkType, linkName } : {}) }, options.pageValues, PLUGINS).then((record) => {
        s.__offtagPlugins = record.ops;
        if (record.error) ctx.log('error', `${PLUGINS} threw on the page: ${record.error}`);
        send();
      });
    });
  }, o));
}

const PLUGINS = 'Analytics doPlugins';

export { getQueryParam };

/** Adobe's services for an imported Launch container, with the page facts its custom code reads in the worker. */
export function launchServices(options: { visitor?: VisitorOptions } = {}): ServicesDef<LaunchServices> {
  const adobe = adobeServices(options);
  return { create: (ctx) => ({ ...adobe.create(ctx), pageInfo: ctx.page }), ...(adobe.hooks ? { hooks: adobe.hooks } : {}) };
}

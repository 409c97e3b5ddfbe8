/**
 * The Adobe Analytics extension's actions (Set Variables, Send Beacon, Clear Variables) on the
 * worker's AppMeasurement-wire tracker, with the extension's global tracker properties and its
 * `customSetup` (doPlugins).
 */
import { trackingConsented } from '../worker-engine/analytics/consent.ts';
import { getDaysSinceLastVisit } from '../worker-engine/analytics/plugins/days-since-last-visit.ts';
import { getNewRepeat } from '../worker-engine/analytics/plugins/new-repeat.ts';
import { getTimeSinceLastVisit } from '../worker-engine/analytics/plugins/time-since-last-visit.ts';
import { getVisitNumber } from '../worker-engine/analytics/plugins/visit-number.ts';
import type { AnalyticsHit } from '../worker-engine/services.ts';
import { launchEvent, satelliteShim, type LaunchEvent, type SatelliteShim } from './custom-code.ts';
import { action, asString, resolve, type ActionOptions, type Ctx } from './types.ts';

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

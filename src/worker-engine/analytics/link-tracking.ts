/**
 * Link hits: which variables a link beacon carries (linkTrackVars / linkTrackEvents, docs/spec-coverage.md D5
 * and AppMeasurement 2.27.0: beacon URL and parameters), and which clicks automatic link tracking turns into download or exit
 * beacons (AppMeasurement 2.27.0: link tracking).
 */
import type { LinkClick } from '../../protocol.ts';
import type { Settings } from '../core/settings.ts';
import { internalFiltersFor } from '../core/settings.ts';
import type { ContextData } from './beacon-query.ts';
import { queryKeyOf } from './variables.ts';
import { callsTracker } from './link-name.ts';

export type LinkType = 'o' | 'd' | 'e';

/** `pe` for a link type; anything else AppMeasurement treats as `o`. */
export function linkEventParam(type: string | undefined): 'lnk_o' | 'lnk_d' | 'lnk_e' {
  return type === 'd' ? 'lnk_d' : type === 'e' ? 'lnk_e' : 'lnk_o';
}

/**
 * Query keys a link hit carries whatever linkTrackVars says: ids, `ce`, pageName, `g`, `r`, `cc`,
 * `ts`, cookie settings, browser values, `pe`/`pev*`, `-g` and `mcorgid`. `aamb` is not among them.
 */
export const ALWAYS_SENT_KEYS: ReadonlySet<string> = new Set([
  'sdid', 'ts', 'D', 'vid', 'mid', 'aid', 'aamlh', 'as', 'fid', 'vmt', 'vmf', 'ce', 'ns', 'cdp', 'cl',
  'pageName', 'g', 'r', 'cc',
  'pe', 'pev1', 'pev2', 'pev3',
  'lat', 'lon', 's', 'c', 'j', 'v', 'k', 'bw', 'bh', 'ct', 'hp', '-g', 'mcorgid', 'ms_a', 'lrt',
]);

/** Context data keys sent on every link hit (consent signals). */
export const ALWAYS_SENT_CONTEXT: ReadonlySet<string> = new Set(['cm.ssf', 'opt.dmp', 'opt.sell']);

const NONE = 'None';

function list(csv: string | undefined): string[] {
  return (csv ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** The base name of one event of an `events` string: `event1=10` and `event1:ID` are both `event1`. */
export function eventBaseName(event: string): string {
  return event.split(/[=:]/, 1)[0]!.trim();
}

/** Keeps the events whose base name is listed; an empty list keeps them all. */
export function filterEvents(events: string, linkTrackEvents: string | undefined): string {
  const allowed = list(linkTrackEvents);
  if (allowed.length === 0) return events;
  if (allowed.length === 1 && allowed[0] === NONE) return '';
  const set = new Set(allowed);
  return events
    .split(',')
    .filter((e) => set.has(eventBaseName(e)))
    .join(',');
}

export interface LinkFilterResult {
  params: Record<string, string | undefined>;
  contextData: ContextData;
}

/**
 * Applies linkTrackVars / linkTrackEvents to a link hit. An empty linkTrackVars sends everything;
 * `None` sends only the always-sent set; otherwise the listed JS names (`eVar1`, `events`,
 * `contextData.key`) are added to it. A non-empty linkTrackEvents also lets `events` through, as the
 * library does by itself.
 */
export function filterLinkHit(
  params: Record<string, string | undefined>,
  contextData: ContextData,
  linkTrackVars: string | undefined,
  linkTrackEvents: string | undefined,
): LinkFilterResult {
  const names = list(linkTrackVars);
  const events = list(linkTrackEvents);
  if (names.length === 0) {
    const out = { ...params };
    // An empty linkTrackEvents keeps every event (filterEvents returns them as they are).
    if (out.events) out.events = filterEvents(out.events, linkTrackEvents) || undefined;
    return { params: out, contextData: { ...contextData } };
  }
  const allowedKeys = new Set(ALWAYS_SENT_KEYS);
  const allowedContext = new Set(ALWAYS_SENT_CONTEXT);
  const none = names.length === 1 && names[0] === NONE;
  if (!none) {
    for (const name of names) {
      if (name.startsWith('contextData.')) allowedContext.add(name.slice('contextData.'.length));
      else {
        const key = queryKeyOf(name);
        if (key) allowedKeys.add(key);
      }
    }
    if (events.length > 0) allowedKeys.add('events');
  }
  const outParams: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(params)) if (allowedKeys.has(k)) outParams[k] = v;
  if (outParams.events) outParams.events = filterEvents(outParams.events, linkTrackEvents) || undefined;
  const outContext: ContextData = {};
  for (const [k, v] of Object.entries(contextData)) if (allowedContext.has(k)) outContext[k] = v;
  return { params: outParams, contextData: outContext };
}

/** The link URL as AppMeasurement reports it: the query dropped (`linkLeaveQueryString` is off). */
export function reportedLinkUrl(href: string): string {
  const q = href.indexOf('?');
  return q >= 0 ? href.slice(0, q) : href;
}

/** Links that are never exits (AppMeasurement 2.27.0: link tracking). */
const NEVER_EXIT = /^(#|about:|opera:|javascript:)/i;

export function isDownloadLink(href: string, fileTypes: string): boolean {
  const path = href.split(/[?#]/, 1)[0]!.toLowerCase();
  return list(fileTypes).some((ext) => path.endsWith(`.${ext.toLowerCase()}`));
}

export function isExitLink(href: string, internalFilters: string): boolean {
  if (NEVER_EXIT.test(href)) return false;
  const url = reportedLinkUrl(href).toLowerCase();
  return !list(internalFilters).some((f) => url.includes(f.toLowerCase()));
}

/** The hostname of the page, for the default internal filters. */
export function hostnameOf(url: string): string {
  try {
    return new URL(url).hostname;
  } catch {
    return '';
  }
}

/**
 * Automatic link tracking: `d` for a download (checked first), `e` for an exit, undefined for a
 * click that sends no hit (including links whose onclick already calls `.tl(`).
 */
export function classifyClick(link: LinkClick, settings: Settings, pageUrl: string): { linkType: 'd' | 'e'; linkUrl: string } | undefined {
  if (callsTracker(link) || !link.href) return undefined;
  if (isDownloadLink(link.href, settings.linkDownloadFileTypes)) return { linkType: 'd', linkUrl: reportedLinkUrl(link.href) };
  if (isExitLink(link.href, internalFiltersFor(settings, hostnameOf(pageUrl)))) return { linkType: 'e', linkUrl: reportedLinkUrl(link.href) };
  return undefined;
}

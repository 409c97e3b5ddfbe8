/** Core's Visitor Behavior data element and the visitor tracking it reads. */
import type { CookieJar, SessionStore } from '../worker-engine/core/types.ts';
import { finished, type Finish } from './data-elements.ts';
import { libraryLoaded } from './events.ts';
import { DAY_MS, type DCtx, type LaunchDataElement, type LaunchRule } from './types.ts';

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

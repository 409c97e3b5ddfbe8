/**
 * The analytics tracker of the worker: AppMeasurement's `t()` and `tl()` as an effect-producing
 * service. It builds the beacon (beacon-query.ts), asks the shell to send it through the durable
 * queue (`kind: 'beacon'`), and tells the devtools what it sent or why it sent nothing.
 */
import type { LinkClick, Snapshot } from '../../protocol.ts';
import { reportSuiteFor } from '../core/settings.ts';
import type { EngineContext } from '../core/types.ts';
import type { AnalyticsHit, AnalyticsService, VisitorService, VisitorValues } from '../services.ts';
import { CLICK_COOKIE, clickCookieValue, clickData, readClickCookie } from './activity-map.ts';
import { decodeBeacon } from './beacon-decode.ts';
import { browserValues, buildQuery, type ContextData } from './beacon-query.ts';
import { beaconPath, sessionRandom, tagContainerMarker, trackingOrigin } from './beacon-url.ts';
import { consentHinter, EU_COMPLIANCE_MESSAGE, trackingConsented } from './consent.ts';
import { FALLBACK_ID_COOKIE, FALLBACK_ID_LIFETIME_MS, isFallbackId, newFallbackId } from './fallback-id.ts';
import { classifyClick, filterLinkHit, linkEventParam } from './link-tracking.ts';
import { callsTracker } from './link-name.ts';
import { timeString } from './time-string.ts';
import { queryKeyOf, wireValue } from './variables.ts';

export const CHARACTER_SET = 'UTF-8';
/** Above this length a beacon with an id goes as a POST (appmeasurement.md §2). */
export const MAX_GET_LENGTH = 2047;
/** The consumer name AppMeasurement asks the visitor service for the supplemental data id with. */
export const SDID_CONSUMER = 'AppMeasurement:0';
/**
 * AppMeasurement's `expectSupplementalData`: when set, the tracker makes a supplemental data id
 * itself and the hit waits on Adobe's side for Target's data (A4T). The Launch property does not set
 * it (no Target runs beside it), so the tracker only takes an id that already exists.
 */
export const EXPECT_SUPPLEMENTAL_DATA = false;
/** The session cookie whose presence AppMeasurement reports as `k`. */
export const COOKIE_CHECK = 's_cc';
export const TRACKER_UNAVAILABLE = 'Unable to create AppMeasurement tracker';
const CONTEXT_PREFIX = 'contextData.';
/** As the Launch extension sets it on the tracker (`JS-2.27.0-LF8J`). */
const MARKER = tagContainerMarker();
const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export type DropReason = 'consent' | 'no-tracker' | 'opt-in' | 'opt-out' | 'build-failed';

interface Tracker {
  rsid: string;
  origin: string;
}

/** What an event hands the send queue: everything read at the moment the event fired. */
interface PendingHit {
  hit: AnalyticsHit;
  snapshot: Snapshot;
  tracker: Tracker;
  /** The pageName in force when the event fired (the hit's own, else the last one set). */
  pageName: string | undefined;
  /** The encoded ActivityMap + ClickMap data of the click that made this hit. */
  click?: string;
}

export function createAnalyticsService(ctx: EngineContext, visitor: VisitorService): AnalyticsService {
  let tracker: Tracker | undefined;
  /** Hits leave in the order they were made, each after the one before (AppMeasurement queues too). */
  let chain: Promise<void> = Promise.resolve();
  let hitsSent = 0;
  /** pageName and server survive between calls (clearVars() clears neither). */
  let lastPageName: string | undefined;
  let lastServer: string | undefined;
  /**
   * Whether the tracker has run before (a hit or a click): AppMeasurement sets its pageURL on its first
   * run, after the click's ClickMap fields were made, so a click before any hit has none (no pid/oid/ot).
   */
  let ranBefore = false;
  /** The round trip of the last delivered beacon, sent once as `lrt` by the next one (as AppMeasurement does). */
  let lastRoundTrip: number | undefined;
  /** `s c j v k bw bh` are measured once per page. */
  let browser: Record<string, string> | undefined;
  const warnedNames = new Set<string>();
  const hintConsent = consentHinter(ctx);

  function drop(reason: DropReason, message: string, hit: AnalyticsHit | { click: LinkClick }, level: 'warn' | 'error' = 'warn'): void {
    ctx.log(level, message);
    ctx.monitor('beacon-dropped', { reason, message, hit });
  }

  /** The tracker for this event, or undefined after saying why there is none. */
  function getTracker(what: AnalyticsHit | { click: LinkClick }): Tracker | undefined {
    if (!trackingConsented(ctx)) {
      drop('consent', EU_COMPLIANCE_MESSAGE, what, 'error');
      hintConsent();
      return undefined;
    }
    if (tracker) return tracker;
    const rsid = reportSuiteFor(ctx.settings);
    if (!rsid || !/^[A-Za-z0-9._-]+(,[A-Za-z0-9._-]+)*$/.test(rsid)) {
      drop('no-tracker', `${TRACKER_UNAVAILABLE}: no valid report suite for the "${ctx.settings.environment}" environment (${JSON.stringify(rsid)}).`, what, 'error');
      return undefined;
    }
    let origin: string;
    try {
      origin = trackingOrigin(ctx.settings.trackingServer, ctx.page.secure);
      if (!ctx.settings.trackingServer || new URL(origin).origin !== origin) throw new Error('not an origin');
    } catch {
      drop('no-tracker', `${TRACKER_UNAVAILABLE}: the tracking server ${JSON.stringify(ctx.settings.trackingServer)} is neither a host nor an origin.`, what, 'error');
      return undefined;
    }
    tracker = { rsid, origin };
    // `k` says whether this session cookie can be written; AppMeasurement writes it for real.
    ctx.cookies.set(COOKIE_CHECK, 'true', { path: '/', domain: ctx.page.cookieDomain });
    return tracker;
  }

  /** Hits in `chain` not finished yet (docs/delivery.md: an event is acknowledged once its hits are). */
  let pending = 0;
  function enqueue(p: PendingHit): Promise<void> {
    pending++;
    // Encoders are total (core/well-formed.ts); a drop that remains is said in the console and the devtools.
    const run = chain
      .then(() => send(p))
      .catch((e: unknown) => {
        drop('build-failed', `Analytics beacon failed to build: ${e instanceof Error ? e.message : String(e)}`, p.hit, 'error');
      })
      .finally(() => void pending--);
    chain = run;
    return run;
  }

  async function visitorValues(): Promise<VisitorValues> {
    try {
      return await visitor.getVisitorValues();
    } catch (e) {
      ctx.log('warn', `Analytics: the visitor service gave no values (${e instanceof Error ? e.message : String(e)}); the hit goes without ids.`);
      return {};
    }
  }

  async function send({ hit, snapshot, tracker: t, pageName, click }: PendingHit): Promise<void> {
    // AppMeasurement waits for the visitor values before its first hit; later calls get them at once.
    const values = await visitorValues();
    if (!visitor.isApproved('aa')) {
      drop('opt-in', 'Analytics beacon not sent: the visitor has not approved the "aa" opt-in category.', hit);
      return;
    }
    if (values.MCOPTOUT) {
      drop('opt-out', 'Analytics beacon not sent: the visitor opted out (MCOPTOUT).', hit);
      return;
    }

    const params: Record<string, string | undefined> = {};
    const contextData: ContextData = {};
    for (const [name, value] of Object.entries(hit.vars)) {
      if (value === undefined || value === '') continue;
      if (name.startsWith(CONTEXT_PREFIX)) {
        contextData[name.slice(CONTEXT_PREFIX.length)] = value;
        continue;
      }
      const key = queryKeyOf(name);
      if (!key) {
        if (!warnedNames.has(name)) ctx.log('warn', `Analytics variable "${name}" is not an AppMeasurement variable; it is not sent.`);
        warnedNames.add(name);
        continue;
      }
      // Values go out whole (the collection servers truncate); only hierarchies are cut, at 255 characters.
      params[key] = wireValue(key, value);
    }
    let activityMap: ContextData | undefined;
    for (const [k, v] of Object.entries(hit.contextData ?? {})) {
      if (k.startsWith('a.activitymap.')) (activityMap ??= {})[k] = v;
      else contextData[k] = v;
    }

    params.pageName = pageName;
    params.g ??= snapshot.url;
    // The referrer goes with the first hit of the page only.
    // A later hit carries `r` only when its rule set `referrer`.
    if (hitsSent === 0) params.r ??= snapshot.referrer;
    params.cc ??= ctx.settings.currency;
    params.ce = CHARACTER_SET;

    const ecidAllowed = visitor.isApproved('ecid');
    if (ecidAllowed) {
      params.mid = values.MCMID;
      params.aid = values.MCAID;
      params.aamlh = values.MCAAMLH;
      params.aamb = values.MCAAMB;
      params.mcorgid = visitor.orgId;
    }
    // Only with the TARGET category approved, and without making one unless supplemental data is expected.
    if (ecidAllowed && visitor.isApproved('target')) {
      params.sdid = visitor.getSupplementalDataID(SDID_CONSUMER, !EXPECT_SUPPLEMENTAL_DATA) || undefined;
    }
    if (!params.mid && !params.aid) params.fid = fallbackId();
    if (!visitor.isApproved('aam')) contextData['cm.ssf'] = '1';

    const isLink = hit.type === 'tl' && Boolean(hit.linkUrl || hit.linkName);
    let finalParams = params;
    let finalContext = contextData;
    if (isLink) {
      params.pe = linkEventParam(hit.linkType);
      params.pev1 = hit.linkUrl;
      params.pev2 = hit.linkName;
      ({ params: finalParams, contextData: finalContext } = filterLinkHit(params, contextData, hit.linkTrackVars, hit.linkTrackEvents));
    }
    // A click that sent no hit left its data in s_sq: the next hit without click data of its own
    // carries it; a hit with its own drops it (as AppMeasurement does). Either way s_sq is emptied.
    let carried = readClickCookie(ctx.cookies.get(CLICK_COOKIE), t.rsid);
    if (carried !== undefined) {
      ctx.cookies.set(CLICK_COOKIE, clickCookieValue(t.rsid, ''), { path: '/', domain: ctx.page.cookieDomain });
      if (click || activityMap) carried = undefined;
    }
    browser ??= browserValues(ctx.page, snapshot);
    Object.assign(finalParams, browser);
    if (lastRoundTrip !== undefined) {
      finalParams.lrt = String(lastRoundTrip);
      lastRoundTrip = undefined;
    }

    const query = buildQuery({
      t: timeString(snapshot.time, snapshot.tz),
      params: finalParams,
      contextData: finalContext,
      customerIds: ecidAllowed ? visitor.getCustomerIDs() : undefined,
      activityMap,
      clickData: click ?? carried,
    });
    const path = beaconPath({ origin: t.origin, rsid: t.rsid, marker: MARKER, sid: sessionRandom(ctx.env) });
    let url = `${path}?${query}`;
    let method: 'GET' | 'POST' = 'GET';
    let body: string | undefined;
    let headers: Record<string, string> | undefined;
    if (url.length > MAX_GET_LENGTH && (finalParams.mid || finalParams.aid)) {
      method = 'POST';
      url = path;
      body = query;
      headers = { 'Content-Type': FORM_CONTENT_TYPE };
    }
    hitsSent++;
    // Decoded only when read (the devtools overlay asks, or a replay writes the feed): a page with
    // no overlay open pays nothing for it. Structured clone and JSON both read the getter.
    let fields: ReturnType<typeof decodeBeacon> | undefined;
    ctx.monitor('beacon', {
      url,
      method,
      body,
      get fields() {
        return (fields ??= decodeBeacon(url, body));
      },
    });
    ctx.log('debug', `Analytics ${isLink ? 'link' : 'page view'} beacon: ${url}${body ? ` (POST ${body.length} characters)` : ''}`);
    await ctx.fetch({ kind: 'beacon', method, url, body, headers, credentials: 'include', fireAndForget: true });
  }

  function fallbackId(): string {
    const known = ctx.cookies.get(FALLBACK_ID_COOKIE);
    if (isFallbackId(known)) return known;
    const id = newFallbackId(() => ctx.env.random());
    ctx.cookies.set(FALLBACK_ID_COOKIE, id, { path: '/', domain: ctx.page.cookieDomain, expires: ctx.env.now() + FALLBACK_ID_LIFETIME_MS });
    return id;
  }

  /** The service promises never to throw: a bug in building a hit is logged, not raised into a rule. */
  const guarded = <A extends unknown[]>(what: string, f: (...a: A) => Promise<void>) =>
    (...a: A): Promise<void> => {
      try {
        return f(...a);
      } catch (e) {
        ctx.log('error', `Analytics ${what} failed: ${e instanceof Error ? e.message : String(e)}`);
        return Promise.resolve();
      }
    };

  return {
    track: guarded('track', (hit: AnalyticsHit): Promise<void> => {
      const t = getTracker(hit);
      if (!t) return Promise.resolve();
      if (hit.vars.pageName) lastPageName = hit.vars.pageName;
      if (hit.vars.server) lastServer = hit.vars.server;
      ranBefore = true;
      // The page's window.s_objectID ends with this hit, as AppMeasurement ends it after each track call.
      ctx.emit({ type: 'hit' });
      return enqueue({ hit, snapshot: ctx.snapshot(), tracker: t, pageName: lastPageName });
    }),

    onClick: guarded('link tracking', (link: LinkClick): Promise<void> => {
      const t = getTracker({ click: link });
      if (!t) return Promise.resolve();
      const snapshot = ctx.snapshot();
      const kind = classifyClick(link, ctx.settings, snapshot.url);
      const data = clickData(link, lastPageName, snapshot.url, ranBefore);
      ranBefore = true;
      if (!kind) {
        if (callsTracker(link)) return Promise.resolve();
        // No hit for this click: its ActivityMap and ClickMap data wait in s_sq for the next hit.
        ctx.cookies.set(CLICK_COOKIE, clickCookieValue(t.rsid, data), { path: '/', domain: ctx.page.cookieDomain });
        return Promise.resolve();
      }
      // Not restricted by linkTrackVars: the variables clearVars() leaves (pageName, server) go with it.
      return enqueue({
        hit: { type: 'tl', linkType: kind.linkType, linkUrl: kind.linkUrl, vars: lastServer ? { server: lastServer } : {} },
        snapshot,
        tracker: t,
        pageName: lastPageName,
        click: data,
      });
    }),

    pendingHits: () => pending,

    onBeaconDelivered(rttMs: number): void {
      if (Number.isFinite(rttMs) && rttMs >= 0) lastRoundTrip = Math.round(rttMs);
    },
  };
}

/**
 * The analytics tracker of the worker: AppMeasurement's `t()` and `tl()` as an effect-producing
 * service. It keeps the state that lives between calls (the tracker, pageName and server, the
 * round trip for `lrt`), builds each beacon from its parts (hit-params.ts, activity-map.ts,
 * beacon-query.ts, beacon-request.ts), sends it through the durable queue (`kind: 'beacon'`) in
 * order (hit-chain.ts), and tells the devtools what it sent or why it sent nothing.
 */
import type { LinkClick, Snapshot } from '../../protocol.ts';
import type { EngineContext } from '../core/types.ts';
import type { AnalyticsHit, AnalyticsService, VisitorService, VisitorValues } from '../services.ts';
import { clickData, keepClick, takeCarriedClick } from './activity-map.ts';
import { announceBeacon, beaconRequest } from './beacon-request.ts';
import { browserValues, buildQuery, type ContextData } from './beacon-query.ts';
import { beaconPath, sessionRandom } from './beacon-url.ts';
import { consentHinter, EU_COMPLIANCE_MESSAGE, trackingConsented } from './consent.ts';
import { fallbackIdFor } from './fallback-id.ts';
import { createHitChain } from './hit-chain.ts';
import { addIdParams, addPageParams, hitVariables, linkHitParams } from './hit-params.ts';
import { callsTracker } from './link-name.ts';
import { classifyClick } from './link-tracking.ts';
import { timeString } from './time-string.ts';
import { COOKIE_CHECK, MARKER, resolveTracker, type Tracker } from './tracker-config.ts';

export {
  CHARACTER_SET,
  COOKIE_CHECK,
  EXPECT_SUPPLEMENTAL_DATA,
  MAX_GET_LENGTH,
  SDID_CONSUMER,
  TRACKER_UNAVAILABLE,
} from './tracker-config.ts';

/** The high-entropy client hints AppMeasurement 2.27.0 asks the browser for. */
const CLIENT_HINTS = ['architecture', 'bitness', 'model', 'platformVersion', 'wow64'] as const;

export type DropReason = 'consent' | 'no-tracker' | 'opt-in' | 'opt-out' | 'build-failed';

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
  /** The postbacks of the tracker's last hit: automatic link tracking's hits come from the same tracker, and carry them too. */
  let lastPostbacks: AnalyticsHit['postbacks'];
  /** The client hints, asked for once per page (AppMeasurement asks at its first call that collects them). */
  let hints: Promise<ContextData> | undefined;

  async function clientHints(): Promise<ContextData> {
    try {
      const got = (await ctx.env.userAgentHints?.([...CLIENT_HINTS])) ?? {};
      // Only those the browser gave; AppMeasurement leaves out the empty ones (an empty model, wow64 false).
      return Object.fromEntries(CLIENT_HINTS.flatMap((k) => (got[k] ? [[k, String(got[k])]] : [])));
    } catch {
      return {};
    }
  }
  /** `s c j v k bw bh` are measured once per page. */
  let browser: Record<string, string> | undefined;
  const warnedNames = new Set<string>();
  const hintConsent = consentHinter(ctx);
  const domain = () => ctx.page.cookieDomain;

  function drop(reason: DropReason, message: string, hit: AnalyticsHit | { click: LinkClick }, level: 'warn' | 'error' = 'warn'): void {
    ctx.log(level, message);
    ctx.monitor('beacon-dropped', { reason, message, hit });
  }

  /**
   * The tracker for this event, or undefined after saying why there is none. A hit that names its
   * report suites (`account`) goes to them, and automatic link tracking's next hits too, as
   * AppMeasurement sends to `s.account` as it is.
   */
  function getTracker(what: AnalyticsHit | { click: LinkClick }): Tracker | undefined {
    if (!trackingConsented(ctx)) {
      drop('consent', EU_COMPLIANCE_MESSAGE, what, 'error');
      hintConsent();
      return undefined;
    }
    const account = 'vars' in what ? what.account : undefined;
    if (tracker && (account === undefined || account === tracker.rsid)) return tracker;
    const settings = account === undefined ? ctx.settings : { ...ctx.settings, reportSuites: { ...ctx.settings.reportSuites, [ctx.settings.environment]: account } };
    const made = resolveTracker(settings, ctx.page.secure);
    if (typeof made === 'string') {
      drop('no-tracker', made, what, 'error');
      return undefined;
    }
    // `k` says whether this session cookie can be written; AppMeasurement writes it for real.
    if (!tracker) ctx.cookies.set(COOKIE_CHECK, 'true', { path: '/', domain: domain() });
    tracker = made;
    return tracker;
  }

  // Encoders are total (core/well-formed.ts); a drop that remains is said in the console and the devtools.
  const hits = createHitChain<PendingHit>(
    (p) => send(p),
    (p, e) => drop('build-failed', `Analytics beacon failed to build: ${e instanceof Error ? e.message : String(e)}`, p.hit, 'error'),
  );

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

    const { params, contextData, activityMap } = hitVariables(hit, (name) => {
      if (!warnedNames.has(name)) ctx.log('warn', `Analytics variable "${name}" is not an AppMeasurement variable; it is not sent.`);
      warnedNames.add(name);
    });
    addPageParams(params, { pageName, url: snapshot.url, referrer: snapshot.referrer, firstHit: hitsSent === 0, currency: ctx.settings.currency });
    const ecidAllowed = addIdParams(params, contextData, visitor, values, () => fallbackIdFor(ctx.cookies, ctx.env, domain()));

    const { isLink, params: finalParams, contextData: finalContext } = linkHitParams(hit, params, contextData);
    // A click that sent no hit left its data in s_sq: it goes with this hit unless the hit has its own.
    const carried = takeCarriedClick(ctx.cookies, domain(), t.rsid, Boolean(click || activityMap));
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
      ...(hit.clientHints ? { clientHints: await (hints ??= clientHints()) } : {}),
      customerIds: ecidAllowed ? visitor.getCustomerIDs() : undefined,
      activityMap,
      clickData: click ?? carried,
      ...(hit.postbacks ? { callbackIndex: hit.postbacks.index, audienceManager: hit.postbacks.d } : {}),
    });
    // An imported Launch container's marker is its library's (the Analytics extension makes it from turbine's build date).
    const marker = (ctx.settings as { tagContainerMarker?: unknown }).tagContainerMarker;
    const path = beaconPath({ origin: t.origin, rsid: t.rsid, marker: typeof marker === 'string' && /^L[0-9A-Z]{3}$/.test(marker) ? marker : MARKER, sid: sessionRandom(ctx.env), postbacks: Boolean(hit.postbacks) });
    const req = beaconRequest(path, query, Boolean(finalParams.mid || finalParams.aid));
    hitsSent++;
    announceBeacon(ctx, req, isLink);
    const { method, url, body, headers } = req;
    await ctx.fetch({ kind: 'beacon', method, url, body, headers, credentials: 'include', fireAndForget: true });
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
      lastPostbacks = hit.postbacks;
      ranBefore = true;
      // The page's window.s_objectID ends with this hit, as AppMeasurement ends it after each track call.
      ctx.emit({ type: 'hit' });
      return hits.enqueue({ hit, snapshot: ctx.snapshot(), tracker: t, pageName: lastPageName });
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
        keepClick(ctx.cookies, domain(), t.rsid, data);
        return Promise.resolve();
      }
      // Not restricted by linkTrackVars: the variables clearVars() leaves (pageName, server) go with it.
      return hits.enqueue({
        hit: { type: 'tl', linkType: kind.linkType, linkUrl: kind.linkUrl, vars: lastServer ? { server: lastServer } : {}, ...(lastPostbacks ? { postbacks: lastPostbacks } : {}) },
        snapshot,
        tracker: t,
        pageName: lastPageName,
        click: data,
      });
    }),

    pendingHits: () => hits.pending(),

    onBeaconDelivered(rttMs: number): void {
      if (Number.isFinite(rttMs) && rttMs >= 0) lastRoundTrip = Math.round(rttMs);
    },
  };
}

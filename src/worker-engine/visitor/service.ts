/**
 * The visitor-ID service (VisitorAPI.js 5.5.0 behaviour, docs/visitor.md) inside the worker engine: starts
 * the library (org id, path exclusions, `serverState`, the cookie, the opt-in decision) and wires
 * its parts: the AMCV cookie (`amcv-state.ts`), the customer ids and SDID state
 * (`visitor-state.ts`), the ID calls (`id-call.ts`), the ID syncs (`id-sync-frame.ts`), the
 * opt-in (`opt-in.ts`), the answers (`visitor-values.ts`) and the page-side facade's calls
 * (`facade-calls.ts`). Every effect goes through `ctx`.
 */
import type { EngineContext } from '../core/types.ts';
import type { VisitorService, VisitorValues } from '../services.ts';
import { amcvDigest } from './amcv-cookie.ts';
import { createAmcvState } from './amcv-state.ts';
import { ID_SYNC_CONTAINER_ID, MESSAGES, OptOut, OPT_IN_COOKIE_NAME } from './constants.ts';
import { normalizeCustomerIds } from './customer-ids.ts';
import { createFacadeCalls } from './facade-calls.ts';
import { createIdCalls } from './id-call.ts';
import { createIdSyncs } from './id-sync-frame.ts';
import { normalizeOrgId } from './org-id.ts';
import { createOptIn, type OptInConfig } from './opt-in.ts';
import type { VisitorCallResult } from './opt-in-calls.ts';
import { hostnameOf, isPathExcluded, pathnameOf } from './path-exclusion.ts';
import { sdidFromUrl } from './sdid.ts';
import { createVisitorState } from './visitor-state.ts';
import { getterAnswer, isOptedOutValue, readVisitorValues } from './visitor-values.ts';

export { isPathExcluded } from './path-exclusion.ts';

/**
 * The container's configuration of the library (what the Launch ECID extension holds). None of
 * it is a `window.offtagConfig` setting: it is product configuration, fixed in the container's code.
 */
export interface VisitorOptions {
  optIn?: OptInConfig;
  /**
   * The extension's path exclusions: the library does not load on a page whose path equals one
   * of these, or matches it as a case-insensitive regular expression.
   */
  pathExclusions?: string[];
  /** `serverState`: customer ids and SDID state rendered by the server, keyed by org. */
  serverState?: unknown;
  /** `idSyncContainerID`, default 0. */
  idSyncContainerId?: number;
  /** `idSyncDisableSyncs` / `disableIdSyncs`: no ID-sync iframe. */
  disableIdSyncs?: boolean;
  /** `disableThirdPartyCookies`: `d_coppa=true` and no ID-sync iframe. */
  disableThirdPartyCookies?: boolean;
  /** `overwriteCrossDomainMCIDAndAID`: ids handed over in the URL win over the cookie's. */
  overwriteCrossDomainMCIDAndAID?: boolean;
  /**
   * `trackingServer` of the library (the analytics server, for the analytics visitor id). Without it
   * (as `adobeServices()` builds it, with no options) VisitorAPI answers no analytics id (MCAID ''), so the beacon carries no
   * `aid`, and it does not read the `s_vi` cookie; an MCAID it holds still goes to Audience Manager
   * as `d_cid_ic=AVID%01<aid>` (docs/visitor.md, "adobe_mc hand-off and the analytics id").
   */
  trackingServer?: string;
  /** `cookieDomain`: the domain the AMCV and AMCVS cookies (and the opt-in cookie, without its own) are written for; default: the detected one. */
  cookieDomain?: string;
  /** `cookieLifetime`: the AMCV cookie's lifetime in seconds (default two years), `SESSION` (a session cookie) or `NONE` (not written). */
  cookieLifetime?: number | 'SESSION' | 'NONE';
}

export function createVisitorService(ctx: EngineContext, options: VisitorOptions = {}): VisitorService {
  let orgError: string | undefined;
  let orgId = '';
  try {
    orgId = normalizeOrgId(ctx.settings.orgId);
  } catch (err) {
    orgError = (err as Error).message;
  }
  const containerId = options.idSyncContainerId ?? ID_SYNC_CONTAINER_ID;
  const hasTrackingServer = !!options.trackingServer;
  const now = () => ctx.env.now();

  let excluded = false;
  let startPromise: Promise<void> | undefined;

  const state = createVisitorState(ctx, orgId);
  const amcv = createAmcvState(ctx, orgId, amcvDigest(ctx.settings.idServiceHost), hasTrackingServer, { domain: options.cookieDomain, lifetime: options.cookieLifetime });
  const syncs = createIdSyncs(ctx, amcv, { containerId, disabled: !!(options.disableIdSyncs || options.disableThirdPartyCookies) });
  const ids = createIdCalls(ctx, {
    amcv,
    orgId,
    containerId,
    coppa: !!options.disableThirdPartyCookies,
    overwriteMid: !!options.overwriteCrossDomainMCIDAndAID,
    customerIds: () => state.customerIds(),
    onReply: (reply, regionChanged) => syncs.run(reply, regionChanged),
  });

  const optIn = createOptIn(options.optIn ?? {}, {
    cookie: () => ctx.cookies.get(OPT_IN_COOKIE_NAME),
    writeCookie: (value, lifetime, domain) =>
      ctx.cookies.set(OPT_IN_COOKIE_NAME, value, { expires: now() + lifetime * 1000, path: '/', domain }),
    log: (m) => ctx.log('error', m),
    cookieDomain: options.cookieDomain || ctx.page.cookieDomain,
    hostname: hostnameOf(ctx.page.origin),
  });
  const ecidApproved = () => optIn.isApproved('ecid');
  optIn.on('complete', () => {
    if (startPromise && !excluded && !orgError && ecidApproved()) void ctx.track(ids.refresh());
  });

  async function run(): Promise<void> {
    if (orgError) {
      ctx.log('error', orgError);
      return;
    }
    if (options.pathExclusions && isPathExcluded(pathnameOf(ctx.snapshot().url), options.pathExclusions)) {
      excluded = true;
      ctx.log('warn', MESSAGES.pathExcluded);
      return;
    }
    state.tryServerState(options.serverState);
    const handedSdid = sdidFromUrl(ctx.snapshot().url, orgId, now());
    if (handedSdid) state.setCurrentSdid(handedSdid);
    amcv.load();
    amcv.applyHandOff(!!options.overwriteCrossDomainMCIDAndAID);
    // The library waits for the opt-in decision; with ECID denied it answers empty values.
    await optIn.whenComplete();
    if (!ecidApproved()) return;
    await ids.refresh();
  }

  function start(): Promise<void> {
    startPromise ??= run();
    return startPromise;
  }

  /** Resolves when the values are as good as they will get for now. */
  async function ready(): Promise<boolean> {
    await start();
    await ids.idle();
    return !orgError && !excluded && ecidApproved();
  }

  async function visitorValues(): Promise<VisitorValues> {
    return (await ready()) ? readVisitorValues(amcv, hasTrackingServer) : {};
  }

  async function getter(field: string, args: unknown[]): Promise<VisitorCallResult> {
    // Before start() the cookie is not read yet, so nothing is cached then either.
    const cached = amcv.live(field) !== undefined;
    const ok = await ready();
    return getterAnswer(amcv, field, { cached, force: args[1], ok, hasTrackingServer });
  }

  async function setCustomerIDs(input: unknown, hashType: unknown): Promise<VisitorCallResult> {
    await start();
    if (!ecidApproved() || isOptedOutValue(amcv.value('MCOPTOUT'), OptOut.GLOBAL)) return {};
    const r = await ctx.track(normalizeCustomerIds(input, hashType, ctx.env.sha256));
    for (const p of r.problems) ctx.log('warn', p);
    state.addCustomerIds(r.ids);
    if (!excluded && !orgError) void ctx.track(ids.refresh());
    return {};
  }

  const call = createFacadeCalls({
    ctx,
    orgId,
    optIn,
    amcv,
    ids,
    syncs,
    state,
    ready,
    visitorValues,
    getter,
    setCustomerIDs,
    /**
     * The opt-out value: the cookie's with ECID consent (an expired one while the ID service does not
     * answer); without, the ID service's status, kept in memory.
     */
    optOutValue: () => (ecidApproved() ? Promise.resolve(amcv.stored('MCOPTOUT') ?? 'NONE') : ids.optOutStatus()),
  });

  return {
    get orgId() {
      return orgId;
    },
    start,
    getVisitorValues: visitorValues,
    isApproved(category: string) {
      try {
        return optIn.isApproved(category);
      } catch {
        return false;
      }
    },
    getCustomerIDs: () => structuredClone(state.customerIds()),
    getSupplementalDataID: (consumer: string, noGenerate: boolean) => state.takeSdid(consumer, noGenerate),
    call,
    onFrameMessage: syncs.onFrameMessage,
  };
}

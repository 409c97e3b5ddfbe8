/**
 * The visitor-ID service (VisitorAPI.js 5.5.0 behaviour, ecid.md) inside the worker engine: starts
 * the library (org id, path exclusions, `serverState`, the cookie, the opt-in decision), holds the
 * customer ids and the SDID state, and answers the page-side `Visitor` facade and the analytics
 * tracker. Its parts: the AMCV cookie (`amcv-state.ts`), the ID calls (`id-call.ts`), the ID syncs
 * (`id-sync-frame.ts`) and the opt-in calls (`opt-in-calls.ts`). Every effect goes through `ctx`.
 */
import type { EngineContext } from '../core/types.ts';
import type { VisitorService, VisitorValues } from '../services.ts';
import { amcvDigest } from './amcv-cookie.ts';
import { createAmcvState } from './amcv-state.ts';
import { ID_SYNC_CONTAINER_ID, MESSAGES, OptOut, OPT_IN_COOKIE_NAME } from './constants.ts';
import { normalizeCustomerIds, type CustomerIds } from './customer-ids.ts';
import { createIdCalls } from './id-call.ts';
import { idSyncByDataSourceUrl, type IdSyncByUrlConfig } from './id-sync.ts';
import { createIdSyncs } from './id-sync-frame.ts';
import { normalizeOrgId } from './org-id.ts';
import { createOptIn, type OptInConfig } from './opt-in.ts';
import { optInCall, type VisitorCallResult } from './opt-in-calls.ts';
import { emptySdidState, sdidFromUrl, takeSdid, type SdidState } from './sdid.ts';
import { parseServerState } from './server-state.ts';
import { appendVisitorIDsTo } from './url-handoff.ts';

/**
 * The container's configuration of the library (what the Launch ECID extension holds). None of
 * it is a DECISIONS.md setting: it is product configuration, fixed in the container's code.
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
   * (the storefront's case) VisitorAPI answers no analytics id (MCAID ''), so the beacon carries no
   * `aid`, and it does not read the `s_vi` cookie; an MCAID it holds still goes to Audience Manager
   * as `d_cid_ic=AVID%01<aid>` (docs/visitor.md, "adobe_mc hand-off and the analytics id").
   */
  trackingServer?: string;
}

/** Whether a path exclusion applies to `pathname` (equal, or a case-insensitive regex match). */
export function isPathExcluded(pathname: string, exclusions: readonly string[]): boolean {
  return exclusions.some((p) => {
    if (p === pathname) return true;
    try {
      return new RegExp(p, 'i').test(pathname);
    } catch {
      return false;
    }
  });
}

function pathnameOf(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url);
  return (m?.[1] || '/') as string;
}

function hostnameOf(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]*)/i.exec(url)?.[1] ?? '';
}

function noneToEmpty(v: string | undefined): string {
  return v === undefined || v === 'NONE' ? '' : v;
}

const isOptedOutValue = (v: string | undefined, type: string): boolean =>
  !!v && v !== 'NONE' && (v === OptOut.GLOBAL || v.split(',').includes(type));

export function createVisitorService(ctx: EngineContext, options: VisitorOptions = {}): VisitorService {
  let orgError: string | undefined;
  let orgId = '';
  try {
    orgId = normalizeOrgId(ctx.settings.orgId);
  } catch (err) {
    orgError = (err as Error).message;
  }
  const containerId = options.idSyncContainerId ?? ID_SYNC_CONTAINER_ID;
  const now = () => ctx.env.now();
  const random = () => ctx.env.random();

  let customerIds: CustomerIds = {};
  let sdid: SdidState = emptySdidState();
  let excluded = false;
  let startPromise: Promise<void> | undefined;

  const amcv = createAmcvState(ctx, orgId, amcvDigest(ctx.settings.idServiceHost), !!options.trackingServer);
  const syncs = createIdSyncs(ctx, amcv, { containerId, disabled: !!(options.disableIdSyncs || options.disableThirdPartyCookies) });
  const ids = createIdCalls(ctx, {
    amcv,
    orgId,
    containerId,
    coppa: !!options.disableThirdPartyCookies,
    overwriteMid: !!options.overwriteCrossDomainMCIDAndAID,
    customerIds: () => customerIds,
    onReply: (reply, regionChanged) => syncs.run(reply, regionChanged),
  });

  const optIn = createOptIn(options.optIn ?? {}, {
    cookie: () => ctx.cookies.get(OPT_IN_COOKIE_NAME),
    writeCookie: (value, lifetime, domain) =>
      ctx.cookies.set(OPT_IN_COOKIE_NAME, value, { expires: now() + lifetime * 1000, path: '/', domain }),
    log: (m) => ctx.log('error', m),
    cookieDomain: ctx.page.cookieDomain,
    hostname: hostnameOf(ctx.page.origin),
  });
  const ecidApproved = () => optIn.isApproved('ecid');
  optIn.on('complete', () => {
    if (startPromise && !excluded && !orgError && ecidApproved()) void ctx.track(ids.refresh());
  });

  function applyServerState(state: unknown): void {
    const parsed = parseServerState(state, orgId);
    customerIds = { ...customerIds, ...parsed.customerIDs };
    if (parsed.sdid) sdid = { ...emptySdidState(), ...parsed.sdid };
  }
  /** `serverState` given at start or to `getInstance`: a broken one is said, not thrown. */
  function tryServerState(state: unknown): void {
    if (state === undefined) return;
    try {
      applyServerState(state);
    } catch (err) {
      ctx.log('error', (err as Error).message);
    }
  }

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
    tryServerState(options.serverState);
    const handedSdid = sdidFromUrl(ctx.snapshot().url, orgId, now());
    if (handedSdid) sdid = { ...emptySdidState(), current: handedSdid };
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

  /**
   * The opt-out value: the cookie's with ECID consent (an expired one while the ID service does not
   * answer); without, the ID service's status, kept in memory.
   */
  const optOutValue = (): Promise<string> => (ecidApproved() ? Promise.resolve(amcv.stored('MCOPTOUT') ?? 'NONE') : ids.optOutStatus());

  async function visitorValues(): Promise<VisitorValues> {
    if (!(await ready())) return {};
    const out: VisitorValues = { MCOPTOUT: isOptedOutValue(amcv.value('MCOPTOUT'), OptOut.GLOBAL) };
    const mid = noneToEmpty(amcv.value('MCMID'));
    const aid = noneToEmpty(amcv.value('MCAID'));
    const hint = amcv.stored('MCAAMLH');
    const blob = amcv.stored('MCAAMB');
    if (mid) out.MCMID = mid;
    if (aid && options.trackingServer) out.MCAID = aid;
    if (hint) out.MCAAMLH = hint;
    if (blob) out.MCAAMB = blob;
    return out;
  }

  /** A 5.5.0 getter: the callback fires when the value arrives, or for a cached value only when forced. */
  async function getter(field: string, args: unknown[]): Promise<VisitorCallResult> {
    // Before start() the cookie is not read yet, so nothing is cached then either.
    const cached = amcv.live(field) !== undefined;
    const ok = await ready();
    // Without a tracking server the library answers '' for the analytics id, and always calls back.
    if (field === 'MCAID' && !options.trackingServer) return { value: '', callbacks: [['']] };
    const v = ok ? noneToEmpty(field === 'MCAAMLH' || field === 'MCAAMB' ? amcv.stored(field) : amcv.value(field)) : '';
    return { value: v, callbacks: cached && !args[1] ? [] : [[v]] };
  }

  async function setCustomerIDs(input: unknown, hashType: unknown): Promise<VisitorCallResult> {
    await start();
    if (!ecidApproved() || isOptedOutValue(amcv.value('MCOPTOUT'), OptOut.GLOBAL)) return {};
    const r = await ctx.track(normalizeCustomerIds(input, hashType, ctx.env.sha256));
    for (const p of r.problems) ctx.log('warn', p);
    customerIds = { ...customerIds, ...r.ids };
    if (!excluded && !orgError) void ctx.track(ids.refresh());
    return {};
  }

  async function call(method: string, args: unknown[]): Promise<VisitorCallResult> {
    const optInAnswer = optInCall(optIn, method, args);
    if (optInAnswer) return optInAnswer;
    switch (method) {
      case 'getInstance': {
        const org = normalizeOrgId(args[0]);
        if (org !== orgId) ctx.log('warn', `Visitor.getInstance("${org}"): this container serves "${orgId}" only.`);
        tryServerState(((args[1] ?? {}) as Record<string, unknown>).serverState);
        return { value: orgId };
      }
      case 'getMarketingCloudVisitorID':
        return getter('MCMID', args);
      case 'getAnalyticsVisitorID':
        return getter('MCAID', args);
      case 'getAudienceManagerLocationHint':
      case 'getLocationHint':
        return getter('MCAAMLH', args);
      case 'getAudienceManagerBlob':
        return getter('MCAAMB', args);
      case 'getVisitorValues': {
        const all = await visitorValues();
        const wanted = Array.isArray(args[1]) ? (args[1] as string[]) : undefined;
        const values = wanted ? Object.fromEntries(Object.entries(all).filter(([k]) => wanted.includes(k))) : all;
        return { value: values, callbacks: [[values]] };
      }
      case 'setCustomerIDs':
        return setCustomerIDs(args[0], args[1]);
      case 'getCustomerIDs': {
        const dataSources = structuredClone(customerIds);
        return { value: args[0] === true ? { dataSources, nameSpaces: {} } : dataSources };
      }
      case 'isOptedOut': {
        await ready();
        const type = typeof args[1] === 'string' ? args[1] : OptOut.GLOBAL;
        const v = isOptedOutValue(await optOutValue(), type);
        return { value: v, callbacks: [[v]] };
      }
      case 'getOptOut': {
        await ready();
        const v = await optOutValue();
        return { value: v, callbacks: [[v]] };
      }
      case 'isAllowed':
        return { value: ctx.page.cookiesEnabled };
      case 'appendVisitorIDsTo': {
        await ready();
        const url = typeof args[0] === 'string' ? args[0] : '';
        return { value: appendVisitorIDsTo(url, { MCMID: amcv.value('MCMID'), MCAID: amcv.value('MCAID') }, orgId, now()) };
      }
      case 'getSupplementalDataID':
        return { value: takeSdid(sdid, String(args[0] ?? ''), args[1] === true, random) };
      case 'resetState':
        if (args[0] === undefined || args[0] === null) sdid = emptySdidState();
        else applyServerState(args[0]);
        return {};
      case 'idSyncByURL':
        return { value: syncs.byUrl((args[0] ?? {}) as IdSyncByUrlConfig) };
      case 'idSyncByDataSource': {
        const cfg = (args[0] ?? {}) as IdSyncByUrlConfig;
        return { value: syncs.byUrl({ ...cfg, url: idSyncByDataSourceUrl(String(cfg.dpid ?? ''), String(cfg.dpuuid ?? '')) }) };
      }
      case 'isMarketingCloudVisitorIDCallTimedOut':
        return { value: ids.timedOut.MC };
      case 'isAudienceManagerCallTimedOut':
        return { value: ids.timedOut.AAM };
      case 'isAnalyticsVisitorIDCallTimedOut':
        return { value: ids.timedOut.A };
      default:
        throw new Error(`Visitor has no method "${method}".`);
    }
  }

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
    getCustomerIDs: () => structuredClone(customerIds),
    getSupplementalDataID: (consumer: string, noGenerate: boolean) => takeSdid(sdid, consumer, noGenerate, random),
    call,
    onFrameMessage: syncs.onFrameMessage,
  };
}

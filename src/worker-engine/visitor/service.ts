/**
 * The visitor-ID service (VisitorAPI.js 5.5.0 behaviour, ecid.md) inside the worker engine:
 * reads and writes the AMCV cookie, makes the `/id` call when due, runs the ID-sync iframe,
 * holds opt-in state, and answers the page-side `Visitor` facade and the analytics tracker.
 * Every effect goes through `ctx`; nothing here touches the world itself.
 */
import type { EngineContext } from '../core/types.ts';
import type { VisitorService, VisitorValues } from '../services.ts';
import {
  amcvCookieName,
  amcvDigest,
  amcvsCookieName,
  dayNumber,
  decodeAmcv,
  encodeAmcv,
  expiryFor,
  isFieldExpired,
  type AmcvField,
  type AmcvFields,
} from './amcv-cookie.ts';
import {
  AMCV_COOKIE_LIFETIME_S,
  ID_CALL_INTERVAL_DAYS,
  ID_SYNC_CONTAINER_ID,
  LOAD_TIMEOUT_MS,
  MESSAGES,
  OptOut,
  OPT_IN_COOKIE_NAME,
} from './constants.ts';
import { customerIdParams, customerIdsHash, normalizeCustomerIds, type CustomerIds } from './customer-ids.ts';
import { buildIdUrl, buildOptOutStatusUrl, type FieldGroup, type IdRequestParams } from './id-request.ts';
import { idReplyRejected, isValidVisitorId, readIdResponse, type IbsEntry, type IdReply } from './id-response.ts';
import {
  combinedMessage,
  dest5Url,
  ibsMessage,
  idSyncByDataSourceUrl,
  idSyncByUrlMessage,
  idSyncFrameId,
  idSyncOrigin,
  ID_SYNC_IFRAME_SANDBOX,
  ID_SYNC_IFRAME_TITLE,
  isRealSubdomain,
  isSynced,
  parseSyncList,
  readFrameMessage,
  recordSync,
  serializeSyncList,
  type IdSyncByUrlConfig,
} from './id-sync.ts';
import { localMid } from './local-mid.ts';
import { normalizeOrgId } from './org-id.ts';
import { createOptIn, type OptIn, type OptInConfig } from './opt-in.ts';
import { emptySdidState, sdidFromUrl, takeSdid, type SdidState } from './sdid.ts';
import { parseServerState } from './server-state.ts';
import { appendVisitorIDsTo, idsFromUrl } from './url-handoff.ts';

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
}

export type VisitorCallResult = { value?: unknown; callbacks?: unknown[][] };

export { normalizeOrgId } from './org-id.ts';

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

interface SyncFrame {
  id: string;
  origin: string;
  /** Entries the page fires itself when the iframe says it cannot set third-party cookies. */
  firstParty: IbsEntry[];
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

export function createVisitorService(ctx: EngineContext, options: VisitorOptions = {}): VisitorService {
  const settings = ctx.settings;
  let orgError: string | undefined;
  let orgId = '';
  try {
    orgId = normalizeOrgId(settings.orgId);
  } catch (err) {
    orgError = (err as Error).message;
  }
  const containerId = options.idSyncContainerId ?? ID_SYNC_CONTAINER_ID;
  const digest = amcvDigest(settings.idServiceHost);
  const syncsDisabled = !!(options.disableIdSyncs || options.disableThirdPartyCookies);
  const now = () => ctx.env.now();

  let fields: AmcvFields = new Map();
  let digestMatches = true;
  let sessionAlive = false;
  let customerIds: CustomerIds = {};
  let sdid: SdidState = emptySdidState();
  let frame: SyncFrame | undefined;
  const sentSyncPayloads = new Set<string>();
  let regionChanged = false;
  let excluded = false;
  let startPromise: Promise<void> | undefined;
  /** Serialises ID calls so that a field group is never asked for twice at once. */
  let idChain: Promise<void> = Promise.resolve();
  let optOutStatus: { value: string; until: number } | undefined;
  const timedOut = { MC: false, AAM: false, A: false };

  const optIn: OptIn = createOptIn(options.optIn ?? {}, {
    cookie: () => ctx.cookies.get(OPT_IN_COOKIE_NAME),
    writeCookie: (value, lifetime, domain) =>
      ctx.cookies.set(OPT_IN_COOKIE_NAME, value, { expires: now() + lifetime * 1000, path: '/', domain }),
    log: (m) => ctx.log('error', m),
    cookieDomain: ctx.page.cookieDomain,
    hostname: hostnameOf(ctx.page.origin),
  });
  const ecidApproved = () => optIn.isApproved('ecid');
  optIn.on('complete', () => {
    if (startPromise && !excluded && !orgError && ecidApproved()) void ctx.track(refresh());
  });

  // --- the AMCV cookie -------------------------------------------------------------------
  const live = (name: string): AmcvField | undefined => {
    const f = fields.get(name);
    return f && !isFieldExpired(f, now(), { sessionAlive, digestMatches }) ? f : undefined;
  };
  const value = (name: string): string | undefined => live(name)?.value;
  const setField = (name: string, v: string, ttlSeconds?: number, session = false) => {
    const f: AmcvField = { value: v };
    if (ttlSeconds !== undefined) f.expiry = expiryFor(now(), ttlSeconds);
    if (session) {
      f.session = true;
      sessionAlive = true;
    }
    fields.set(name, f);
  };
  const expireField = (name: string) => {
    const f = fields.get(name);
    if (f) f.expiry = Math.floor(now() / 1000);
  };

  function loadCookie(): void {
    const raw = ctx.cookies.get(amcvCookieName(orgId));
    sessionAlive = ctx.cookies.get(amcvsCookieName(orgId)) !== undefined;
    if (raw) {
      const decoded = decodeAmcv(raw);
      fields = decoded.fields;
      digestMatches = decoded.digest === digest;
      if (!digestMatches) fields.delete('MCCIDH');
      // A tampered id is dropped so that the service asks for a real one.
      for (const key of ['MCMID', 'MCAID']) {
        const v = fields.get(key)?.value;
        if (v !== undefined && v !== 'NONE' && !isValidVisitorId(v)) fields.delete(key);
      }
      return;
    }
    const handedOver = idsFromUrl(ctx.snapshot().url, orgId, now());
    const ecid = ctx.cookies.get('s_ecid');
    if (ecid && !handedOver?.MCMID) {
      const mid = decodeAmcv(ecid).fields.get('MCMID')?.value;
      if (isValidVisitorId(mid)) setField('MCMID', mid);
    }
    const vi = /v1\|([0-9A-Fa-f-]+)\[/.exec(ctx.cookies.get('s_vi') ?? '');
    if (vi?.[1]) setField('MCAID', vi[1]);
  }

  function applyHandOff(): void {
    const ids = idsFromUrl(ctx.snapshot().url, orgId, now());
    if (!ids) return;
    for (const key of ['MCMID', 'MCAID'] as const) {
      const v = ids[key];
      if (v && (options.overwriteCrossDomainMCIDAndAID || !value(key))) setField(key, v);
    }
  }

  function persist(): void {
    if (!ctx.page.cookiesEnabled) return;
    const domain = ctx.page.cookieDomain;
    const encoded = encodeAmcv(fields, digest);
    // A page view that changed nothing leaves the cookie (and its 2-year expiry) as it was.
    if (ctx.cookies.get(amcvCookieName(orgId)) === encoded && !sessionWritePending()) return;
    ctx.cookies.set(amcvCookieName(orgId), encoded, {
      expires: now() + AMCV_COOKIE_LIFETIME_S * 1000,
      path: '/',
      domain,
    });
    if (sessionWritePending()) ctx.cookies.set(amcvsCookieName(orgId), '1', { path: '/', domain });
  }

  function sessionWritePending(): boolean {
    return sessionAlive && ctx.cookies.get(amcvsCookieName(orgId)) === undefined;
  }

  // --- the /id call ------------------------------------------------------------------------
  function requestParams(fieldGroup: FieldGroup): IdRequestParams {
    const p: IdRequestParams = {
      idServiceHost: settings.idServiceHost,
      fieldGroup,
      orgId,
      containerId,
      now: now(),
      customerIdParams: customerIdParams(customerIds),
    };
    const mid = value('MCMID');
    if (mid && mid !== 'NONE') p.mid = mid;
    const blob = fields.get('MCAAMB')?.value;
    if (blob) p.blob = blob;
    if (options.disableThirdPartyCookies) p.coppa = true;
    return p;
  }

  /** Which call the cookie asks for now, if any (ecid.md §2 "When calls fire"). */
  function dueFieldGroup(): FieldGroup | undefined {
    const today = dayNumber(now());
    const idts = Number(fields.get('MCIDTS')?.value);
    let due = false;
    if (!idts || today - idts > ID_CALL_INTERVAL_DAYS) {
      expireField('MCAAMB');
      setField('MCIDTS', String(today));
      due = true;
    }
    const cidh = Object.keys(customerIds).length ? customerIdsHash(customerIds) : '';
    if ((fields.get('MCCIDH')?.value ?? '') !== cidh) {
      expireField('MCAAMB');
      due = true;
    }
    // Without a MID the MC call fills everything. With one, the expired AAM fields ask for AAM (a
    // return visit more than a day later: VisitorAPI expires MCAAMB at start and asks d_fieldgroup=AAM);
    // its reply refreshes MCOPTOUT as well. Only the session-bound MCOPTOUT missing asks for MC again.
    if (!value('MCMID')) return 'MC';
    if (due || !live('MCAAMLH') || !live('MCAAMB')) return 'AAM';
    if (!live('MCOPTOUT')) return 'MC';
    return undefined;
  }

  function refresh(): Promise<void> {
    // A call that throws is said once and does not stop the calls after it.
    idChain = idChain.then(async () => {
      const group = dueFieldGroup();
      if (group) await callIdService(group);
      else persist();
    }).catch((err: unknown) => ctx.log('error', `Visitor ID call failed: ${err instanceof Error ? err.message : String(err)}`));
    return idChain;
  }

  async function callIdService(group: FieldGroup): Promise<void> {
    const cidhSent = Object.keys(customerIds).length ? customerIdsHash(customerIds) : '';
    const url = buildIdUrl(requestParams(group));
    ctx.monitor('visitor-id-call', { url, fieldGroup: group });
    const res = await ctx.fetch({
      kind: 'id-service',
      method: 'GET',
      url,
      credentials: 'include',
      timeout: LOAD_TIMEOUT_MS,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    const outcome = readIdResponse(res);
    if (outcome.kind === 'reply') {
      applyReply(outcome.reply, cidhSent);
      return;
    }
    // On an unusable reply the library leaves its callbacks waiting until its load timeout (30 s).
    // Offtag falls back at once: the first analytics hit waits for these values, and a page that
    // died in those 30 s would have lost it. One message, with the real cause.
    if (outcome.kind !== 'network') timedOut[group] = true;
    const fallback = !value('MCMID');
    if (fallback) setField('MCMID', localMid(now(), () => ctx.env.random()));
    if (outcome.kind === 'unusable') {
      ctx.log('warn', `Visitor ID call: ${outcome.reason}${fallback ? '; using a local Marketing Cloud ID' : ''}.`);
    } else if (fallback) {
      ctx.log('warn', `Visitor ID call ${outcome.kind === 'network' ? 'failed' : 'timed out'}; using a local Marketing Cloud ID.`);
    }
    persist();
  }

  function applyReply(reply: IdReply, cidhSent: string): void {
    if (reply.rejected.length) ctx.log('warn', idReplyRejected(reply.rejected));
    if (reply.mid && (!value('MCMID') || options.overwriteCrossDomainMCIDAndAID)) setField('MCMID', reply.mid);
    if (!value('MCMID')) {
      setField('MCMID', localMid(now(), () => ctx.env.random()));
      ctx.log('warn', 'Visitor ID call: the reply had no valid MID; using a local Marketing Cloud ID.');
    }
    if (reply.region !== undefined) {
      const previous = fields.get('MCAAMLH')?.value;
      if (previous !== undefined && previous !== reply.region) {
        fields.delete('MCSYNCS');
        fields.delete('MCSYNCSOP');
        regionChanged = true;
      }
      setField('MCAAMLH', reply.region, reply.ttl);
    }
    if (reply.blob !== undefined) setField('MCAAMB', reply.blob, reply.ttl);
    if (reply.errorMsg === undefined) {
      if (cidhSent) setField('MCCIDH', cidhSent);
      else fields.delete('MCCIDH');
    }
    if (!live('MCOPTOUT')) setField('MCOPTOUT', reply.optOut, reply.optOutTtl, true);
    persist();
    runIdSyncs(reply);
  }

  // --- ID syncs ------------------------------------------------------------------------------
  function syncList(name: 'MCSYNCS' | 'MCSYNCSOP') {
    return parseSyncList(fields.get(name)?.value);
  }

  function fireFirstParty(entries: IbsEntry[], listName: 'MCSYNCS' | 'MCSYNCSOP'): void {
    const today = dayNumber(now());
    let list = syncList(listName);
    let changed = false;
    for (const e of entries) {
      if (isSynced(list, e.id, today)) continue;
      for (const u of e.url) ctx.emit({ type: 'image', src: u.startsWith('//') ? (ctx.page.secure ? 'https:' : 'http:') + u : u });
      list = recordSync(list, e.id, e.ttl, today);
      changed = true;
    }
    if (!changed) return;
    setField(listName, serializeSyncList(list));
    persist();
  }

  function postToFrame(messages: string[], subdomain: string): void {
    if (!messages.length) return;
    const message = combinedMessage(messages, regionChanged);
    regionChanged = false;
    if (frame) {
      ctx.emit({ type: 'post-message', frameId: frame.id, message, targetOrigin: frame.origin });
      return;
    }
    const origin = idSyncOrigin(settings.idSyncOrigin, subdomain);
    const id = idSyncFrameId(subdomain, containerId);
    frame = { id, origin, firstParty: [] };
    ctx.emit({
      type: 'iframe',
      id,
      name: `${id}_name`,
      src: dest5Url(origin, containerId, ctx.page.origin),
      title: ID_SYNC_IFRAME_TITLE,
      sandbox: ID_SYNC_IFRAME_SANDBOX,
      targetOrigin: origin,
      messages: [message],
    });
  }

  let lastSubdomain: string | undefined;
  const queuedSyncs: string[] = [];

  function runIdSyncs(reply: IdReply): void {
    if (syncsDisabled || !reply.ibs.length || !isRealSubdomain(reply.subdomain)) return;
    lastSubdomain = reply.subdomain;
    fireFirstParty(reply.ibs.filter((e) => e.syncOnPage), 'MCSYNCSOP');
    const framed = reply.ibs.filter((e) => !e.syncOnPage);
    const messages = [...queuedSyncs.splice(0)];
    for (const e of framed) {
      const m = ibsMessage(e);
      if (sentSyncPayloads.has(m)) continue;
      sentSyncPayloads.add(m);
      messages.push(m);
    }
    postToFrame(messages, reply.subdomain);
    if (frame) frame.firstParty.push(...framed.filter((e) => e.fireURLSync));
  }

  function idSyncByUrl(cfg: IdSyncByUrlConfig): string {
    const r = idSyncByUrlMessage(cfg, syncsDisabled);
    if ('error' in r) return r.error;
    if (lastSubdomain) postToFrame([r.message], lastSubdomain);
    else queuedSyncs.push(r.message);
    return 'Successfully queued';
  }

  // --- start and readiness --------------------------------------------------------------------
  function applyServerState(state: unknown): void {
    const parsed = parseServerState(state, orgId);
    if (parsed.customerIDs) customerIds = { ...customerIds, ...parsed.customerIDs };
    if (parsed.sdid) sdid = { ...emptySdidState(), ...parsed.sdid };
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
    if (options.serverState !== undefined) {
      try {
        applyServerState(options.serverState);
      } catch (err) {
        ctx.log('error', (err as Error).message);
      }
    }
    const handedSdid = sdidFromUrl(ctx.snapshot().url, orgId, now());
    if (handedSdid) sdid = { ...emptySdidState(), current: handedSdid };
    loadCookie();
    applyHandOff();
    // The library waits for the opt-in decision; with ECID denied it answers empty values.
    await optIn.whenComplete();
    if (!ecidApproved()) return;
    await refresh();
  }

  function start(): Promise<void> {
    startPromise ??= run();
    return startPromise;
  }

  /** Resolves when the values are as good as they will get for now. */
  async function ready(): Promise<boolean> {
    await start();
    await idChain;
    return !orgError && !excluded && ecidApproved();
  }

  function isOptedOutValue(v: string | undefined, type: string): boolean {
    if (!v || v === 'NONE') return false;
    return v === OptOut.GLOBAL || v.split(',').includes(type);
  }

  async function optOutValue(): Promise<string> {
    if (ecidApproved()) return value('MCOPTOUT') ?? fields.get('MCOPTOUT')?.value ?? 'NONE';
    // Without ECID consent only the opt-out status may be asked for, and it is kept in memory.
    if (optOutStatus && optOutStatus.until > now()) return optOutStatus.value;
    const res = await ctx.fetch({
      kind: 'opt-out-status',
      method: 'GET',
      url: buildOptOutStatusUrl(requestParams('MC')),
      credentials: 'include',
      timeout: LOAD_TIMEOUT_MS,
    });
    const outcome = readIdResponse(res);
    if (outcome.kind !== 'reply') return 'NONE';
    optOutStatus = { value: outcome.reply.optOut, until: now() + outcome.reply.optOutTtl * 1000 };
    return optOutStatus.value;
  }

  async function visitorValues(): Promise<VisitorValues> {
    if (!(await ready())) return {};
    const out: VisitorValues = { MCOPTOUT: isOptedOutValue(value('MCOPTOUT'), OptOut.GLOBAL) };
    const mid = noneToEmpty(value('MCMID'));
    const aid = noneToEmpty(value('MCAID'));
    const hint = fields.get('MCAAMLH')?.value;
    const blob = fields.get('MCAAMB')?.value;
    if (mid) out.MCMID = mid;
    if (aid) out.MCAID = aid;
    if (hint) out.MCAAMLH = hint;
    if (blob) out.MCAAMB = blob;
    return out;
  }

  /** A 5.5.0 getter: the callback fires when the value arrives, or for a cached value only when forced. */
  async function getter(field: string, args: unknown[]): Promise<VisitorCallResult> {
    const cached = startPromise !== undefined && live(field) !== undefined;
    const ok = await ready();
    const v = ok ? noneToEmpty(field === 'MCAAMLH' || field === 'MCAAMB' ? fields.get(field)?.value : value(field)) : '';
    return { value: v, callbacks: cached && !args[1] ? [] : [[v]] };
  }

  async function call(method: string, args: unknown[]): Promise<VisitorCallResult> {
    switch (method) {
      case 'getInstance': {
        const org = normalizeOrgId(args[0]);
        if (org !== orgId) ctx.log('warn', `Visitor.getInstance("${org}"): this container serves "${orgId}" only.`);
        const cfg = (args[1] ?? {}) as Record<string, unknown>;
        if (cfg.serverState !== undefined) {
          try {
            applyServerState(cfg.serverState);
          } catch (err) {
            ctx.log('error', (err as Error).message);
          }
        }
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
        const values = wanted
          ? Object.fromEntries(Object.entries(all).filter(([k]) => wanted.includes(k)))
          : all;
        return { value: values, callbacks: [[values]] };
      }
      case 'setCustomerIDs': {
        await start();
        if (!ecidApproved() || isOptedOutValue(value('MCOPTOUT'), OptOut.GLOBAL)) return {};
        const r = await ctx.track(normalizeCustomerIds(args[0], args[1], ctx.env.sha256));
        for (const p of r.problems) ctx.log('warn', p);
        customerIds = { ...customerIds, ...r.ids };
        if (!excluded && !orgError) void ctx.track(refresh());
        return {};
      }
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
        return { value: appendVisitorIDsTo(url, { MCMID: value('MCMID'), MCAID: value('MCAID') }, orgId, now()) };
      }
      case 'getSupplementalDataID':
        return { value: takeSdid(sdid, String(args[0] ?? ''), args[1] === true, () => ctx.env.random()) };
      case 'resetState':
        if (args[0] === undefined || args[0] === null) sdid = emptySdidState();
        else applyServerState(args[0]);
        return {};
      case 'idSyncByURL':
        return { value: idSyncByUrl((args[0] ?? {}) as IdSyncByUrlConfig) };
      case 'idSyncByDataSource': {
        const cfg = (args[0] ?? {}) as IdSyncByUrlConfig;
        return { value: idSyncByUrl({ ...cfg, url: idSyncByDataSourceUrl(String(cfg.dpid ?? ''), String(cfg.dpuuid ?? '')) }) };
      }
      case 'isMarketingCloudVisitorIDCallTimedOut':
        return { value: timedOut.MC };
      case 'isAudienceManagerCallTimedOut':
        return { value: timedOut.AAM };
      case 'isAnalyticsVisitorIDCallTimedOut':
        return { value: timedOut.A };
      case 'optIn.approve':
        optIn.approve(args[0], args[1] === true);
        return {};
      case 'optIn.deny':
        optIn.deny(args[0], args[1] === true);
        return {};
      case 'optIn.approveAll':
        optIn.approveAll();
        return {};
      case 'optIn.denyAll':
        optIn.denyAll();
        return {};
      case 'optIn.complete':
        optIn.complete();
        return {};
      case 'optIn.fetchPermissions': {
        // One reply per call: a subscription (`autoSubscribe`) delivers its first answer only.
        const permissions = await new Promise((resolve) => optIn.fetchPermissions(resolve));
        return { value: permissions, callbacks: [[permissions]] };
      }
      case 'optIn.isApproved':
        return { value: optIn.isApproved(args[0]) };
      case 'optIn.isPreApproved':
        return { value: optIn.isPreApproved(args[0]) };
      case 'optIn.status':
        return { value: optIn.status };
      case 'optIn.permissions':
        return { value: optIn.permissions() };
      default:
        throw new Error(`Visitor has no method "${method}".`);
    }
  }

  function onFrameMessage(frameId: string, origin: string, data: unknown): void {
    if (!frame || frameId !== frame.id) return;
    const msg = readFrameMessage(data, origin, frame.origin);
    if (!msg) {
      ctx.log('debug', `ID sync: ignored a message from ${origin}.`);
      return;
    }
    ctx.monitor('visitor-id-sync', { canSetThirdPartyCookies: msg.canSetThirdPartyCookies });
    if (!msg.canSetThirdPartyCookies) fireFirstParty(frame.firstParty.splice(0), 'MCSYNCS');
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
    getSupplementalDataID: (consumer: string, noGenerate: boolean) => takeSdid(sdid, consumer, noGenerate, () => ctx.env.random()),
    call,
    onFrameMessage,
  };
}

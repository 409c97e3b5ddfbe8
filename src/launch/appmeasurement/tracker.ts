/**
 * An AppMeasurement-compatible tracker object, the `s` the Adobe Analytics extension's code sees
 * under turbine: its variables, `t()`/`tl()` with `doPlugins`, `clearVars()`, `abort`, the
 * cookie helpers, `Util` and the small helpers AppMeasurement 2.27.0 defines itself. It builds no
 * beacon: each call hands the variables it would send to `host.send` as an `AnalyticsHit`, and
 * the worker's tracker (src/worker-engine/analytics) turns that into AppMeasurement's wire format.
 * It touches nothing but its host, so the same object runs in the worker (host: the rule's
 * context) and in tests.
 */
import type { AnalyticsHit } from '../../worker-engine/services.ts';
import { queryKeyOf, settingKeyOf } from '../../worker-engine/analytics/variables.ts';
import { audienceManagement } from './audience-management.ts';

/** Where the tracker reads the page and sends its hits. */
export interface TrackerHost {
  /** `document.cookie`'s value of one cookie (raw, as written), undefined when absent. */
  cookie(name: string): string | undefined;
  /** Writes a cookie (raw value); `expires` epoch ms, absent: a session cookie; `domain` '' or absent: host-only. */
  setCookie(name: string, value: string, o: { expires?: number; domain?: string; secure?: boolean }): void;
  /** The page's URL (`location.href`) and hostname now. */
  url(): string;
  hostname(): string;
  /** The registrable domain offtag.js found writable ('' host-only, as VisitorAPI's probe): AppMeasurement's own probe finds the same. */
  cookieDomain(): string;
  /** The engine's clock (epoch ms). */
  now(): number;
  send(hit: AnalyticsHit): void;
  log(level: 'warn' | 'error', message: string): void;
  /**
   * The page has Adobe's opt-in service (`adobe.optIn`, which the ECID extension's VisitorAPI
   * makes): AppMeasurement's first call then waits in its queue while it asks for the permissions.
   */
  optIn?(): boolean;
}

/** Variables `clearVars()` clears (AppMeasurement 2.27.0): the numbered ones and these. */
const CLEARED = new Set(['channel', 'events', 'eventList', 'products', 'productList', 'purchaseID', 'transactionID', 'state', 'zip', 'campaign']);
const NUMBERED = /^(prop|eVar|hier|list)\d+$/;
/** What AppMeasurement resets after every call, whatever it sent. */
const RESET_AFTER_CALL = ['abort', 'supplementalDataID', 'timestamp', 'pageURLRest', 'linkObject', 'clickObject', 'linkURL', 'linkName', 'linkType', 'pe', 'pev1', 'pev2', 'pev3', 'lightProfileID', 'useBeacon', 'referrer'];

/**
 * The variables AppMeasurement copies when a call waits in its queue (not ready to track) and puts
 * back once that call's hit has gone: the page variables and the tracker's settings. A queued call
 * runs with a copy of them, and what `doPlugins` changed among them is undone after its hit; what
 * it set on `s` beyond them (a flag of the site's own) stays. The numbered variables are in it too.
 */
const QUEUED_VARS = new Set(
  [
    'supplementalDataID timestamp dynamicVariablePrefix visitorID marketingCloudVisitorID analyticsVisitorID audienceManagerLocationHint authState fid',
    'vmk visitorMigrationKey visitorMigrationServer visitorMigrationServerSecure charSet visitorNamespace cookieDomainPeriods fpCookieDomainPeriods',
    'cookieLifetime pageName pageURL customerPerspective referrer contextData clientHints currencyCode lightProfileID lightStoreForSeconds',
    'lightIncrementBy retrieveLightProfiles deleteLightProfiles retrieveLightData purchaseID variableProvider channel server pageType transactionID',
    'campaign state zip events events2 products audienceManagerBlob tnt pe pev1 pev2 pev3 latitude longitude resolution colorDepth',
    'javascriptVersion javaEnabled cookiesEnabled browserWidth browserHeight connectionType homepage pageURLRest marketingCloudOrgID ms_a',
    'account allAccounts debugTracking visitor visitorOptedOut trackOffline offlineLimit offlineThrottleDelay storageFilename usePlugins doPlugins',
    'configURL visitorSampling visitorSamplingGroup linkObject clickObject linkURL linkName linkType trackDownloadLinks trackExternalLinks',
    'trackClickMap trackInlineStats linkLeaveQueryString linkTrackVars linkTrackEvents linkDownloadFileTypes linkExternalFilters linkInternalFilters',
    'useForcedLinkTracking forcedLinkTrackingTimeout writeSecureCookies decodeLinkParameters useLinkTrackSessionStorage collectHighEntropyUserAgentHints',
    'trackingServer trackingServerSecure ssl abort mobile dc lightTrackVars maxDelay expectSupplementalData useBeacon usePostbacks',
    'registerPreTrackCallback registerPostTrackCallback bodyClickTarget bodyClickFunction bufferRequests AudienceManagement',
  ].flatMap((l) => l.split(' ')),
);
const QUEUED_NUMBERED = /^(?:prop(?:[0-9]|[1-6][0-9]|7[0-5])|eVar(?:[0-9]|[1-9][0-9]|1[0-9][0-9]|2[0-4][0-9]|250)|hier[0-5]|list[0-3])$/;
/** Of those, the ones the copy carries even when empty (so that the hit sends them empty, and they are emptied again after it). */
const QUEUED_EVEN_EMPTY = new Set('channel events products purchaseID transactionID state zip campaign events2 latitude longitude ms_a contextData supplementalDataID tnt timestamp abort useBeacon linkObject clickObject linkType linkName linkURL bodyClickTarget bodyClickFunction'.split(' '));
const queuedVar = (k: string) => QUEUED_VARS.has(k) || QUEUED_NUMBERED.test(k);

/** AppMeasurement's `escape`: encodeURIComponent, and `+~!*()'` percent-encoded too. */
export function amEscape(v: unknown): unknown {
  if (!v) return v;
  return encodeURIComponent(String(v)).replace(/[+~!*()']/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** AppMeasurement's `unescape`: `+` as a space, then decodeURIComponent, else the legacy `unescape`. */
export function amUnescape(v: unknown): unknown {
  if (!v) return v;
  let s = String(v);
  if (s.includes('+')) s = s.split('+').join(' ');
  try {
    return decodeURIComponent(s);
  } catch {
    return unescape(s);
  }
}

/** `getQueryParam(key, url, delimiter, flag)` of AppMeasurement's `Util`: '' when absent; a key without value is '' too unless `flag`. */
export function getQueryParam(key: unknown, url: unknown, delimiter: unknown, keyOnly: unknown): unknown {
  const d = delimiter ? String(delimiter) : '&';
  if (!key || !url) return '';
  let u = String(url);
  const q = u.indexOf('?');
  if (q < 0) return '';
  u = d + u.substring(q + 1) + d;
  const k = String(key);
  // With the flag, a key present without a value answers undefined (AppMeasurement's own use: adobe_mc_ref).
  if (keyOnly && (u.includes(d + k + d) || u.includes(d + k + '=' + d))) return undefined;
  const hash = u.indexOf('#');
  if (hash >= 0) u = u.substring(0, hash) + d;
  const at = u.indexOf(d + k + '=');
  if (at < 0) return '';
  u = u.substring(at + d.length + k.length + 1);
  const end = u.indexOf(d);
  if (end >= 0) u = u.substring(0, end);
  return u.length > 0 ? amUnescape(u) : '';
}

/** The domain AppMeasurement writes its cookies for: the last `periods` labels of the host, none for an IP. */
export function cookieDomainFor(hostname: string, periods: number): string | undefined {
  if (!hostname || /^(?:\d{1,3}\.){3}\d{1,3}$/.test(hostname) || /^([a-f0-9:]+:+)+[a-f0-9]+$/.test(hostname)) return undefined;
  let c = periods > 2 ? periods : 2;
  let d = hostname.lastIndexOf('.');
  if (d < 0) return undefined;
  while (d >= 0 && c > 1) {
    d = hostname.lastIndexOf('.', d - 1);
    c--;
  }
  return d > 0 ? hostname.substring(d) : hostname;
}

/** Sets a variable as a page record names it (`contextData.k` inside contextData); undefined removes it. */
export function setPath(s: Record<string, any>, name: string, value: unknown): void {
  if (name.startsWith('contextData.')) {
    s.contextData ??= {};
    if (value === undefined) delete s.contextData[name.slice(12)];
    else s.contextData[name.slice(12)] = value;
  } else s[name] = value;
}

/** The variables of `s` a page-side `s` starts from: its plain values and contextData entries. */
export function plainValues(s: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) if (v !== undefined && v !== null && typeof v !== 'object' && typeof v !== 'function' && !k.startsWith('__')) out[k] = v;
  for (const [k, v] of Object.entries(s.contextData ?? {})) if (v !== undefined && v !== null && typeof v !== 'object' && typeof v !== 'function') out[`contextData.${k}`] = v;
  return out;
}

/** The tracker object, typed loosely as custom code uses it. */
export interface AppMeasurement extends Record<string, any> {
  t(overrides?: Record<string, unknown>): void;
  tl(linkObject?: unknown, linkType?: string, linkName?: string, overrides?: Record<string, unknown>): void;
  clearVars(): void;
  contextData: Record<string, unknown>;
}

/**
 * AppMeasurement's postbacks for a hit: on when its Audience Manager module is ready, or when
 * `usePostbacks` is anything but 0 (AppMeasurement's own `0 != s.usePostbacks`); the module's
 * event call parameters go as the `d.` block.
 */
function postbacksOf(s: AppMeasurement): AnalyticsHit['postbacks'] {
  const m = s.AudienceManagement as { isReady?(): unknown; getEventCallConfigParams?(): unknown } | undefined;
  const ready = Boolean(m && typeof m.isReady === 'function' && m.isReady());
  // eslint-disable-next-line eqeqeq -- AppMeasurement's loose test: undefined and null turn postbacks on, false and '' do not
  if (!ready && 0 == s.usePostbacks) return undefined;
  const index = typeof s._in === 'number' ? s._in : 0;
  if (!ready) return { index };
  const d: Record<string, string> = {};
  const params = typeof m!.getEventCallConfigParams === 'function' ? m!.getEventCallConfigParams() : undefined;
  if (params && typeof params === 'object') for (const [k, v] of Object.entries(params)) if (v) d[k] = String(v);
  return { index, d };
}

/** A link object as the tracker reads it: an element the extension passes (a link clicked), or `true`. */
interface LinkElement {
  tagName?: string;
  href?: string;
}

/**
 * The tracker for report suites `account`, its variables to be set by the extension's settings
 * and the library's custom code. `version` is AppMeasurement's, with the extension's build
 * marker as Launch appends it.
 */
export interface TrackerOptions {
  /** The tracker's place in the page's `s_c_il` (VisitorAPI's instance, made before it, takes the first): the postbacks' callback names it. */
  index?: number;
  /** AppMeasurement's Audience Manager module is on the page (the extension loads it when its forwarding is on). */
  audienceManagement?: boolean;
  /** VisitorAPI is on the page (the module's DIL needs it). */
  visitor?: boolean;
}

export function createAppMeasurement(account: string, host: TrackerHost, options: TrackerOptions = {}): AppMeasurement {
  const preTrack: Array<[Function, unknown[]]> = [];
  const postTrack: Array<[Function, unknown[]]> = [];
  const s = {} as AppMeasurement;

  const cookieRead = (name: unknown): string => {
    const raw = host.cookie(String(amEscape(String(name))));
    const v = raw === undefined ? '' : String(amUnescape(raw) ?? '');
    return v === '[[B]]' ? '' : v;
  };
  const cookieWrite = (name: unknown, value: unknown, expires?: unknown): boolean => {
    const lifetime = s.cookieLifetime ? String(s.cookieLifetime).toUpperCase() : '';
    if (!name || lifetime === 'NONE') return false;
    const text = '' + value;
    let at: number | undefined;
    if (expires && lifetime !== 'SESSION') {
      const seconds = text !== '' ? parseInt(lifetime || '0') : -60;
      if (seconds) at = host.now() + seconds * 1000;
      else if (expires === 1) {
        const d = new Date(host.now());
        d.setFullYear(d.getFullYear() + 2);
        at = d.getTime();
      } else if (expires instanceof Date) at = expires.getTime();
      else if (typeof expires === 'number') at = expires;
    }
    const periods = Number(s.fpCookieDomainPeriods || s.cookieDomainPeriods) || host.cookieDomain().replace(/^\./, '').split('.').filter(Boolean).length;
    const domain = host.cookieDomain() === '' && !s.fpCookieDomainPeriods && !s.cookieDomainPeriods ? undefined : cookieDomainFor(host.hostname(), periods);
    host.setCookie(String(amEscape(String(name))), String(amEscape(text !== '' ? text : '[[B]]')), { ...(at !== undefined ? { expires: at } : {}), ...(domain ? { domain } : {}), ...(s.writeSecureCookies ? { secure: true } : {}) });
    return cookieRead(name) === text;
  };

  function variables(): { vars: Record<string, string>; contextData: Record<string, string> } {
    const vars: Record<string, string> = {};
    // AppMeasurement sends every value that is not falsy as its text: `true` as "true", an object as
    // "[object Object]", a list as its items joined with commas. A function would go as its source,
    // which in the worker is not the page's: it is left out.
    for (const [k, v] of Object.entries(s)) {
      if (!v || typeof v === 'function') continue;
      if (queryKeyOf(k) || settingKeyOf(k)) vars[k] = String(v);
    }
    const contextData: Record<string, string> = {};
    for (const [k, v] of Object.entries(s.contextData ?? {})) {
      if (!v || typeof v === 'function') continue;
      contextData[k] = String(v);
    }
    return { vars, contextData };
  }

  let calls = 0;

  /**
   * What a call that waits in AppMeasurement's queue puts back after its hit: each variable as it
   * was when the call was made (those set then, and the ones carried even empty). AppMeasurement's
   * first call waits when the page has Adobe's opt-in service; the worker sends it at once, which
   * is the same as far as `s` goes.
   */
  function queuedCopy(): Map<string, unknown> | undefined {
    // The first call also waits for the browser's client hints when the tracker collects them.
    if (calls++ > 0 || !(host.optIn?.() || s.collectHighEntropyUserAgentHints)) return undefined;
    const copy = new Map<string, unknown>();
    for (const k of Object.keys(s)) if (queuedVar(k) && (s[k] || QUEUED_EVEN_EMPTY.has(k) || QUEUED_NUMBERED.test(k))) copy.set(k, s[k]);
    return copy;
  }

  function putBack(copy: Map<string, unknown>): void {
    for (const k of Object.keys(s)) if (!copy.has(k) && queuedVar(k) && (QUEUED_EVEN_EMPTY.has(k) || QUEUED_NUMBERED.test(k))) s[k] = undefined;
    for (const [k, v] of copy) if (!RESET_AFTER_CALL.includes(k)) s[k] = v;
  }

  /** AppMeasurement's track: overrides for this call only, `doPlugins`, then the hit (unless aborted). */
  function track(overrides?: Record<string, unknown>): void {
    const queued = queuedCopy();
    const saved: Array<[string, unknown, boolean]> = [];
    if (overrides && typeof overrides === 'object') {
      // As AppMeasurement's variable overrides: only its own variables, a value that is set (or `!name` to empty one),
      // and contextData replaced whole for the call, not merged.
      const o = overrides as Record<string, unknown>;
      for (const k of new Set(Object.keys(o).map((n) => (n.startsWith('!') ? n.slice(1) : n)))) {
        if (!queuedVar(k) || !(o[k] || o['!' + k])) continue;
        saved.push([k, s[k], Object.prototype.hasOwnProperty.call(s, k)]);
        s[k] = o[k];
      }
    }
    try {
      const link = s.linkObject as LinkElement | string | undefined;
      if (!s.linkURL && link && typeof link === 'object' && link.href && /^(A|AREA)$/i.test(link.tagName ?? '')) {
        let url = String(link.href);
        if (!s.linkLeaveQueryString && url.indexOf('?') >= 0) url = url.substring(0, url.indexOf('?'));
        s.linkURL = url;
      }
      const pagePlugins = s.__offtagPlugins as Array<[string, string, unknown]> | undefined;
      if (pagePlugins) {
        // doPlugins ran on the page for this beacon (page-tracker.ts): its writes take its place.
        delete s.__offtagPlugins;
        for (const [op, name, value] of pagePlugins) if (op === 'set' && !/^link(Type|Name|URL|Object)$/.test(name)) setPath(s, name, value);
      } else if (s.usePlugins && typeof s.doPlugins === 'function') s.doPlugins(s);
      if (!s.account || s.abort) return;
      if (!s.pageURL) s.pageURL = host.url();
      const linkType = s.linkType ? String(s.linkType).toLowerCase() : '';
      const isLink = Boolean(linkType) && Boolean(s.linkURL || s.linkName);
      const { vars, contextData } = variables();
      const hit: AnalyticsHit = isLink
        ? {
            type: 'tl',
            linkType: linkType === 'd' || linkType === 'e' ? linkType : 'o',
            ...(s.linkName ? { linkName: String(s.linkName) } : {}),
            ...(s.linkURL ? { linkUrl: String(s.linkURL) } : {}),
            vars,
            linkTrackVars: s.linkTrackVars ? String(s.linkTrackVars) : '',
            linkTrackEvents: s.linkTrackEvents ? String(s.linkTrackEvents) : '',
          }
        : { type: 't', vars };
      if (Object.keys(contextData).length) hit.contextData = contextData;
      if (s.collectHighEntropyUserAgentHints) hit.clientHints = true;
      hit.account = String(s.account);
      const postbacks = postbacksOf(s);
      if (postbacks) hit.postbacks = postbacks;
      for (const [fn, args] of preTrack) call(fn, args);
      host.send(hit);
      for (const [fn, args] of postTrack) call(fn, args);
    } finally {
      for (const k of RESET_AFTER_CALL) s[k] = k === 'abort' ? false : undefined;
      for (const [k, v, own] of saved) {
        if (own) s[k] = v;
        else delete s[k];
      }
      if (queued) putBack(queued);
    }
  }

  /** A registered callback: AppMeasurement passes the request URL first, which the worker builds later; it gets ''. */
  const call = (fn: Function, args: unknown[]) => {
    try {
      fn('', ...args);
    } catch (e) {
      host.log('warn', `Analytics: a track callback threw: ${e instanceof Error ? e.message : String(e)}`);
    }
  };

  Object.assign(s, {
    version: '2.27.0',
    account,
    allAccounts: account.split(','),
    charSet: 'UTF-8',
    contextData: {},
    linkDownloadFileTypes: 'exe,zip,wav,mp3,mov,mpg,avi,wmv,pdf,doc,docx,xls,xlsx,ppt,pptx',
    writeSecureCookies: false,
    offlineThrottleDelay: 0,
    storageFilename: 'AppMeasurement.requests',
    abort: false,
    usePostbacks: 0,
    _c: 's_c',
    _in: options.index ?? 0,
    log: (m: unknown) => host.log('warn', String(m)),
    replace: (v: unknown, from: string, to: string) => (!v || String(v).indexOf(from) < 0 ? v : String(v).split(from).join(to)),
    escape: amEscape,
    unescape: amUnescape,
    c_r: cookieRead,
    cookieRead,
    c_w: cookieWrite,
    cookieWrite,
    setAccount(rsids: string) {
      s.account = rsids;
      // AppMeasurement sorts and dedupes the list it adds to; a list it has not got is the new one as given.
      s.allAccounts = s.allAccounts ? [...new Set([...s.allAccounts, ...String(rsids).split(',')])].sort() : String(rsids).split(',');
    },
    t: (overrides?: Record<string, unknown>) => track(overrides),
    track: (overrides?: Record<string, unknown>) => track(overrides),
    tl(linkObject?: unknown, linkType?: string, linkName?: string, overrides?: Record<string, unknown>) {
      s.linkObject = linkObject;
      s.linkType = linkType;
      s.linkName = linkName;
      track(overrides);
    },
    clearVars() {
      for (const k of Object.keys(s)) if (NUMBERED.test(k) || CLEARED.has(k)) s[k] = undefined;
    },
    registerPreTrackCallback(fn: unknown, ...args: unknown[]) {
      if (typeof fn === 'function') preTrack.push([fn, args]);
    },
    registerPostTrackCallback(fn: unknown, ...args: unknown[]) {
      if (typeof fn === 'function') postTrack.push([fn, args]);
    },
    // Modules the worker does not have (Media, AudienceManagement when the page has not its file) are empty objects, as AppMeasurement makes for a module it cannot find.
    loadModule(name: string, onLoad?: (s: AppMeasurement, m: object) => void) {
      s[name] ??= name === 'AudienceManagement' && options.audienceManagement ? audienceManagement(Boolean(options.visitor)) : {};
      if (typeof onLoad === 'function') onLoad(s, s[name]);
    },
    isReadyToTrack: () => true,
    callbackWhenReadyToTrack: (self: unknown, fn: Function, args: unknown[]) => fn.apply(self, args ?? []),
    bufferRequests() {},
    forceOffline() {},
    forceOnline() {},
    Util: {
      urlEncode: amEscape,
      urlDecode: amUnescape,
      cookieRead,
      cookieWrite,
      getQueryParam: (key: unknown, url?: unknown, delimiter?: unknown, flag?: unknown) => getQueryParam(key, url || s.pageURL || host.url(), delimiter, flag),
      getIeVersion: () => null,
    },
    ActivityMap: { link: () => undefined, region: () => undefined },
  });
  return s;
}

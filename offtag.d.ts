/**
 * Types for a page that embeds Offtag: `window.offtagConfig` (every setting, docs/configuration.md),
 * `window._satellite` (the Adobe Launch API site code calls) and `window.offtag` (metrics).
 *
 *   /// <reference types="offtag" />          (or: import type { OfftagConfig } from 'offtag';)
 *   window.offtagConfig = { environment: 'development', trackingServer: 'http://127.0.0.1:4175' };
 *   window._satellite.track('Page View');
 *
 * tests/unit/docs/configuration.test.ts checks that OfftagConfig has exactly the engine's settings;
 * tests/unit/docs/snippets.test.ts compiles every TypeScript and JavaScript snippet of README.md
 * and docs/configuration.md against these types (strict and not).
 */

export type OfftagEnvironment = 'development' | 'staging' | 'production';

export interface OfftagRumConfig {
  /** Datadog RUM application id (the SDK's `applicationId`). */
  applicationId?: string;
  /** Datadog client token. */
  clientToken?: string;
  /** Datadog site, e.g. 'datadoghq.com' (the default) or 'datadoghq.eu'. */
  site?: string;
  /** The RUM `service` name. Default 'acme-insights'. */
  service?: string;
  /** Where the RUM SDK is loaded from. */
  scriptUrl?: string;
  /** URLs whose requests carry trace headers. */
  allowedTracingUrls?: string[];
  /** A first-party endpoint the SDK posts to instead of Datadog's intake (the SDK's `proxy`); '' = Datadog's intake. */
  proxy?: string;
  /** Run the SDK through Partytown. Off; most of RUM's data does not survive it (docs/third-party.md). */
  partytown?: boolean;
}

export interface OfftagAmplitudeConfig {
  /** Amplitude API key; '' (the default) leaves the tag off. */
  apiKey?: string;
  /** Where Amplitude's browser SDK is loaded from. */
  scriptUrl?: string;
  /** Where events go; '' = Amplitude's own endpoint. */
  serverUrl?: string;
  /** Run the tag in Partytown's worker (true, the default) or on the main thread. */
  partytown?: boolean;
  /** Amplitude's offline handling (true, the default): events wait while `navigator.onLine` is false; false sends them at once. */
  holdWhileOffline?: boolean;
}

/** `window.offtagConfig`: every key is optional; an unknown key or a wrong type is logged once and the default kept. */
export interface OfftagConfig {
  /** The brand: first part of page names and hierarchies, prefix of sessionStorage keys. Default 'acme'. */
  brand?: string;
  /** The name of the data layer global (`window[dataLayer]`). Default 'digitalData'. */
  dataLayer?: string;
  /** Chooses the report suite; RUM runs only in production. Default 'production'. */
  environment?: OfftagEnvironment;
  /** The Experience Cloud org id. */
  orgId?: string;
  /** The visitor-ID service: a bare host (https) or a full origin. Default 'dpm.demdex.net'. */
  idServiceHost?: string;
  /** Where beacons go: a bare host (https) or a full origin. Default 'metrics.example.com'. */
  trackingServer?: string;
  /** The report suite of each environment. */
  reportSuites?: { development?: string; staging?: string; production?: string };
  /** The tracking-consent cookie: nothing is sent unless it is exactly 'true'. Default 'sat_track'. */
  trackingConsentCookie?: string;
  /** OneTrust's consent cookie (C0007:0 = targeting cookies off). Default 'OptanonConsent'. */
  oneTrustCookie?: string;
  /** 'mobile' in it reports the platform as mobile web. Default 'siteType'. */
  siteTypeCookie?: string;
  /** Cookie names passed to RUM as context. */
  communityCookie?: string;
  clientIpCookie?: string;
  gCookie?: string;
  oCookie?: string;
  insightsEligibleCookie?: string;
  /** Datadog RUM, loaded on the insights area in production. */
  rum?: OfftagRumConfig;
  /** A product-analytics tag (Amplitude). */
  amplitude?: OfftagAmplitudeConfig;
  /** Comma-separated file extensions whose links are download links. */
  linkDownloadFileTypes?: string;
  /** Comma-separated filters for internal links; `{hostname}` is the page's hostname (default `javascript:,keepstock,{hostname}`); '' = `javascript:,` + the page's hostname. */
  linkInternalFilters?: string;
  /** `cc`, the currency code of every beacon. */
  currency?: string;
  /** What list values are joined with. */
  listDelimiter?: string;
  /** Origin of the ID-sync iframe (dest5.html); '' = `https://<subdomain>.demdex.net`. */
  idSyncOrigin?: string;
  /** Print the engine's messages, debug-level ones too. Default false. */
  debug?: boolean;
  /** Print the engine's log, info, warn and error messages without debug on. Default false (the storefront: true). */
  alwaysLog?: boolean;
  /** The values of the consent cookie that grant tracking. Default ['true']. */
  trackingConsentValues?: string[];
  /** Where the worker bundle is, relative to offtag.js; '' = offtag-worker.js beside offtag.js. */
  workerUrl?: string;
}

export interface OfftagCookieOptions {
  /** Days from now. */
  expires?: number;
  path?: string;
  domain?: string;
}

/**
 * The README's async embed stub, set before offtag.js runs: `track` calls wait in `q`, and
 * offtag.js runs them in order right after Library Loaded, then replaces the stub by `Satellite`.
 */
export interface SatelliteStub {
  q: ArrayLike<unknown>[];
  track(id: string, detail?: unknown): void;
}

/** `window._satellite`: Adobe Launch's page API. */
export interface Satellite {
  /** The stub's queue while the stub is in place (`SatelliteStub`); offtag.js's `_satellite` has none. */
  q?: ArrayLike<unknown>[];
  /** Fires a direct-call rule ('Page View', 'Content: Modal View', 'Element Impressions', 'Element Interactions'). */
  track(id: string, detail?: unknown): void;
  /** The data element's value from the latest evaluation (README.md: "When getVar has values"). */
  getVar(name: string): unknown;
  /** Evaluates the data element now, in the worker. */
  getVarAsync(name: string): Promise<unknown>;
  setVar(name: string, value: unknown): void;
  setVar(values: Record<string, unknown>): void;
  cookie: {
    get(name: string): string | undefined;
    set(name: string, value: string, options?: OfftagCookieOptions): void;
    remove(name: string, options?: Omit<OfftagCookieOptions, 'expires'>): void;
  };
  logger: Record<'log' | 'info' | 'warn' | 'error' | 'debug', (...args: unknown[]) => void>;
  buildInfo: { buildDate: string; turbineBuildDate: string; turbineVersion: string; minified: boolean };
  environment: { id: string; stage: string };
  setDebug(on: boolean): void;
  // A container imported from a Launch library has turbine's `_satellite` (docs/import.md, "`_satellite`"): these too.
  /** Fires the Page Bottom rules (once, while the page is parsed). */
  pageBottom?(): void;
  /** The Experience Cloud ID Service's instance (offtag-visitor.js's `Visitor` facade), else null. */
  getVisitorId?(): unknown;
  /** Deprecated: logs at a level (3 info, 4 warn, 5 error, else log). */
  notify?(message: unknown, level?: number): void;
  setCookie?(name: string, value: unknown, days?: number): void;
  readCookie?(name: string): string | undefined;
  removeCookie?(name: string): void;
  property?: { name?: string; id?: string };
  company?: { orgId?: string };
}

/** The bridge's own main-thread time, in milliseconds. */
export interface OfftagMetrics {
  /** Events posted to the worker. */
  events: number;
  /** Total time taking snapshots and posting them. */
  postMs: number;
  /** Total time applying effect batches. */
  applyMs: number;
  /**
   * Events the worker has acknowledged: it has handled them and stored their beacons, so they are
   * delivered even if the page closes now. Every event posted so far is, once `acked` equals `events`.
   */
  acked: number;
}

/** `window.offtag`, set by offtag.js. */
export interface Offtag {
  metrics(): OfftagMetrics;
  /**
   * Sends the worker an engine event and resolves with the worker's reply to it (used by
   * offtag-visitor.js, whose `Visitor` calls are `{ type: 'service-call', service: 'visitor', method, args }`).
   */
  ask(event: { type: string; [field: string]: unknown }): Promise<{ value?: unknown; error?: string; callbacks?: unknown[][] }>;
  /** The Comlink port of the worker's API (used by the devtools overlay). */
  apiPort: MessagePort;
  /** The folder offtag.js was loaded from. */
  base: string;
}

declare global {
  /**
   * `_satellite` (and `window._satellite`) is typed as present: a page that embeds Offtag as the
   * README does sets the stub before any site code runs, so `_satellite.track('Page View')`
   * compiles as written. Code that may run on a page without Offtag checks `window._satellite` first.
   */
  var _satellite: Satellite;
  interface Window {
    offtagConfig?: OfftagConfig;
    offtag?: Offtag;
  }
}

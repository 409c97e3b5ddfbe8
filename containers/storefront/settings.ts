/**
 * The storefront's settings (docs/spec-coverage.md D1): its cookie names, Datadog RUM and Amplitude, and
 * its defaults for the engine's settings (brand, report suites, link filters). A page overrides any
 * of them with `window.offtagConfig`, checked by the engine's validator against these defaults.
 */
import type { Settings } from '../../src/worker-engine/core/settings.ts';

export interface RumSettings {
  applicationId: string;
  clientToken: string;
  site: string;
  service: string;
  scriptUrl: string;
  allowedTracingUrls: string[];
  /**
   * Where the SDK posts its batches instead of Datadog's intake (the SDK's `proxy` option): a
   * first-party endpoint that forwards them. '' sends them to the intake of `site`.
   */
  proxy: string;
  /**
   * Run the SDK in Partytown's worker. Off, and meant to stay off: measured, most of RUM's data
   * does not survive it (docs/third-party.md); the switch exists to reproduce that measurement.
   */
  partytown: boolean;
}

/** A product-analytics tag (Amplitude's browser SDK), loaded through Partytown by default (docs/third-party.md). */
export interface AmplitudeSettings {
  /** '' leaves the tag off. */
  apiKey: string;
  scriptUrl: string;
  /** Where events go; '' means Amplitude's own endpoint. */
  serverUrl: string;
  /** Run the tag in Partytown's worker (true) or on the main thread. */
  partytown: boolean;
  /**
   * Amplitude's own offline handling (true, its default): while the browser says it is offline
   * (`navigator.onLine` false), the SDK keeps events and sends them when the `online` event comes.
   * false sends them at once (the SDK retries a failed upload): for an intake that `navigator.onLine`
   * does not speak for, such as one on loopback (the demo's; docs/third-party.md).
   */
  holdWhileOffline: boolean;
}

/** The storefront's own settings (the engine's are `Settings`). */
export interface StorefrontSettings {
  oneTrustCookie: string;
  siteTypeCookie: string;
  communityCookie: string;
  clientIpCookie: string;
  gCookie: string;
  oCookie: string;
  insightsEligibleCookie: string;
  rum: RumSettings;
  amplitude: AmplitudeSettings;
}

export const STOREFRONT_SETTINGS: StorefrontSettings & Partial<Settings> = {
  brand: 'acme',
  // The storefront's console messages print whether debug is on or not (docs/configuration.md).
  alwaysLog: true,
  reportSuites: { production: 'acmeprod', staging: 'acmestage', development: 'acmedev' },
  linkInternalFilters: 'javascript:,keepstock,{hostname}',
  oneTrustCookie: 'OptanonConsent',
  siteTypeCookie: 'siteType',
  communityCookie: 'community',
  clientIpCookie: 'client_ip',
  gCookie: 'G_',
  oCookie: 'O',
  insightsEligibleCookie: 'insights_eligible',
  rum: {
    applicationId: '',
    clientToken: '',
    site: 'datadoghq.com',
    service: 'acme-insights',
    scriptUrl: 'https://www.datadoghq-browser-agent.com/us1/v7/datadog-rum.js',
    allowedTracingUrls: ['https://api.example.com', 'https://insights-api.example.com'],
    proxy: '',
    partytown: false,
  },
  amplitude: {
    apiKey: '',
    scriptUrl: 'https://cdn.amplitude.com/libs/analytics-browser-2.46.0-min.js.gz',
    serverUrl: '',
    partytown: true,
    holdWhileOffline: true,
  },
};

/** `rum.proxy` is a URL the SDK posts to: an http(s) one, or '' for Datadog's own intake. */
export const STOREFRONT_SETTING_CHECKS = {
  'rum.proxy': (v: unknown) => (v !== '' && !/^https?:\/\/[^/]/i.test(String(v)) ? "an http(s) URL or ''" : undefined),
};

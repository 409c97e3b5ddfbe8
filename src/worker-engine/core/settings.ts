/**
 * Container and environment settings (DECISIONS.md §1): defaults, overridable without a rebuild
 * through `window.offtagConfig`. An unknown key or a value of the wrong type is logged once and
 * the default is kept; it never stops the container.
 */
import { safeJson } from './safe-json.ts';
import { PAGE_SETTINGS, pageSetting, type PageSettingKey } from '../../page-settings.ts';

export type Environment = 'development' | 'staging' | 'production';

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

export interface Settings {
  brand: string;
  dataLayer: string;
  environment: Environment;
  orgId: string;
  idServiceHost: string;
  trackingServer: string;
  reportSuites: Record<Environment, string>;
  trackingConsentCookie: string;
  oneTrustCookie: string;
  siteTypeCookie: string;
  communityCookie: string;
  clientIpCookie: string;
  gCookie: string;
  oCookie: string;
  insightsEligibleCookie: string;
  rum: RumSettings;
  amplitude: AmplitudeSettings;
  linkDownloadFileTypes: string;
  /** `javascript:,keepstock,` + the page's hostname; '' means "derive from the page". */
  linkInternalFilters: string;
  /** Origin the ID-sync iframe loads from; '' means `https://<subdomain>.demdex.net` (DECISIONS.md §7). */
  idSyncOrigin: string;
  /** Print the engine's debug-level messages. */
  debug: boolean;
  /** Where the worker bundle is; '' means beside offtag.js. Read by the bridge only. */
  workerUrl: string;
}

export const DEFAULT_SETTINGS: Settings = {
  brand: PAGE_SETTINGS.brand,
  dataLayer: PAGE_SETTINGS.dataLayer,
  environment: PAGE_SETTINGS.environment as Environment,
  orgId: '0123456789ABCDEF01234567@AdobeOrg',
  idServiceHost: 'dpm.demdex.net',
  trackingServer: 'metrics.example.com',
  reportSuites: { production: 'acmeprod', staging: 'acmestage', development: 'acmedev' },
  trackingConsentCookie: 'sat_track',
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
  linkDownloadFileTypes: 'exe,zip,wav,mp3,mov,mpg,avi,wmv,pdf,doc,docx,xls,xlsx,ppt,pptx',
  linkInternalFilters: '',
  idSyncOrigin: '',
  debug: false,
  workerUrl: PAGE_SETTINGS.workerUrl,
};

const ENVIRONMENTS: readonly Environment[] = ['development', 'staging', 'production'];

export interface ResolvedSettings {
  settings: Settings;
  /** One message per rejected key, in the order met. */
  problems: string[];
}

function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Checks one value against the default's shape; returns the accepted value or a problem. */
function check(path: string, value: unknown, def: unknown, problems: string[]): unknown {
  if (path === 'environment') {
    if ((ENVIRONMENTS as readonly unknown[]).includes(value)) return value;
    problems.push(
      `offtagConfig.environment must be one of ${ENVIRONMENTS.join(', ')}; got ${safeJson(value)}. Using "${def}".`,
    );
    return def;
  }
  if (path in PAGE_SETTINGS && typeof value === 'string' && pageSetting({ [path]: value }, path as PageSettingKey) !== value) {
    // The bridge reads these before the worker answers, with the same rule (src/page-settings.ts).
    problems.push(`offtagConfig.${path} must be a non-empty string; got ${safeJson(value)}. Using "${def}".`);
    return def;
  }
  if (path === 'rum.proxy' && typeof value === 'string' && value !== '' && !/^https?:\/\/[^/]/i.test(value)) {
    problems.push(`offtagConfig.rum.proxy must be an http(s) URL or ''; got ${safeJson(value)}. Using "${def}".`);
    return def;
  }
  if (Array.isArray(def)) {
    if (Array.isArray(value) && value.every((x) => typeof x === 'string')) return [...value];
    problems.push(`offtagConfig.${path} must be an array of strings; got ${typeName(value)}. Using the default.`);
    return def;
  }
  if (isPlainObject(def)) {
    if (!isPlainObject(value)) {
      problems.push(`offtagConfig.${path} must be an object; got ${typeName(value)}. Using the default.`);
      return def;
    }
    const out: Record<string, unknown> = { ...def };
    for (const [k, v] of Object.entries(value)) {
      if (!(k in def)) {
        problems.push(`offtagConfig.${path ? `${path}.` : ""}${k} is not a setting; it is ignored.`);
        continue;
      }
      out[k] = check(path ? `${path}.${k}` : k, v, def[k], problems);
    }
    return out;
  }
  if (typeof value !== typeof def) {
    problems.push(
      `offtagConfig.${path} must be a ${typeof def}; got ${typeName(value)}. Using ${JSON.stringify(def)}.`,
    );
    return def;
  }
  return value;
}

/** Merges `window.offtagConfig` over the defaults (DECISIONS.md §1). */
export function resolveSettings(raw: unknown): ResolvedSettings {
  const problems: string[] = [];
  if (raw === undefined || raw === null) return { settings: structuredCloneSettings(DEFAULT_SETTINGS), problems };
  if (!isPlainObject(raw)) {
    problems.push(`offtagConfig must be an object; got ${typeName(raw)}. Using the default settings.`);
    return { settings: structuredCloneSettings(DEFAULT_SETTINGS), problems };
  }
  const settings = check('', raw, DEFAULT_SETTINGS, problems) as Settings;
  return { settings, problems };
}

function structuredCloneSettings(s: Settings): Settings {
  return JSON.parse(JSON.stringify(s)) as Settings;
}

/** The report suite of the current environment. */
export function reportSuiteFor(s: Settings): string {
  return s.reportSuites[s.environment];
}

/** `linkInternalFilters` with its page-derived default (DECISIONS.md §1). */
export function internalFiltersFor(s: Settings, hostname: string): string {
  return s.linkInternalFilters || `javascript:,keepstock,${hostname}`;
}

/**
 * A host setting is a bare host (the scheme follows `defaultScheme`) or a full origin
 * (`http://127.0.0.1:8080`), which is how the demo and the tests point at local servers.
 */
export function originFor(hostSetting: string, defaultScheme: 'http:' | 'https:'): string {
  if (/^https?:\/\//i.test(hostSetting)) return hostSetting.replace(/\/+$/, '');
  return `${defaultScheme}//${hostSetting}`;
}

/**
 * Container and environment settings (docs/spec-coverage.md D1): defaults, overridable without a rebuild
 * through `window.offtagConfig`. An unknown key or a value of the wrong type is logged once and
 * the default is kept; it never stops the container.
 */
import { safeJson } from './safe-json.ts';
import { PAGE_SETTINGS, pageSetting, type PageSettingKey } from '../../page-settings.ts';

export type Environment = 'development' | 'staging' | 'production';

/**
 * The engine's settings: every container has them. A container adds its own and sets the
 * defaults of both (`Container.settings`); `window.offtagConfig` overrides any of them.
 */
export interface Settings {
  /** The site's brand: `{brand}` in a container's session keys is replaced by it. */
  brand: string;
  dataLayer: string;
  environment: Environment;
  orgId: string;
  idServiceHost: string;
  trackingServer: string;
  reportSuites: Record<Environment, string>;
  trackingConsentCookie: string;
  /** The values of the consent cookie that grant tracking (compared exactly). */
  trackingConsentValues: string[];
  /** `cc`, the currency every beacon names (ISO 4217). */
  currency: string;
  /** What a container's list values are joined with (the report suite's list delimiter). */
  listDelimiter: string;
  linkDownloadFileTypes: string;
  /** `javascript:,` + the page's hostname; '' means "derive from the page". */
  linkInternalFilters: string;
  /** Origin the ID-sync iframe loads from; '' means `https://<subdomain>.demdex.net` (docs/spec-coverage.md D7). */
  idSyncOrigin: string;
  /** Print the engine's debug-level messages. */
  debug: boolean;
  /**
   * Print the engine's messages (log, info, warn, error) whether debug is on or not. Off (the
   * default): a production page's console stays quiet, as Launch's, until `_satellite.setDebug(true)`
   * or in a development build; problems with `offtagConfig` and the engine's own failures print always.
   */
  alwaysLog: boolean;
  /** Where the worker bundle is; '' means beside offtag.js. Read by the bridge only. */
  workerUrl: string;
}

/** The engine's defaults; a container's `settings` replace any of them. */
export const DEFAULT_SETTINGS: Settings = {
  brand: PAGE_SETTINGS.brand,
  dataLayer: PAGE_SETTINGS.dataLayer,
  environment: PAGE_SETTINGS.environment as Environment,
  orgId: '0123456789ABCDEF01234567@AdobeOrg',
  idServiceHost: 'dpm.demdex.net',
  trackingServer: 'metrics.example.com',
  reportSuites: { production: '', staging: '', development: '' },
  trackingConsentCookie: 'sat_track',
  trackingConsentValues: ['true'],
  currency: 'USD',
  listDelimiter: ',',
  linkDownloadFileTypes: 'exe,zip,wav,mp3,mov,mpg,avi,wmv,pdf,doc,docx,xls,xlsx,ppt,pptx',
  linkInternalFilters: '',
  idSyncOrigin: '',
  debug: false,
  alwaysLog: false,
  workerUrl: PAGE_SETTINGS.workerUrl,
};

/** What a container gives the validator: its settings' defaults and its extra checks (core/types.ts `Container`). */
export interface SettingsSource {
  settings?: Record<string, unknown>;
  settingChecks?: Record<string, (value: unknown) => string | undefined>;
}

/** The defaults a container's page starts from: the engine's, then the container's, nested objects merged. */
export function defaultsFor(container: SettingsSource = {}): Settings {
  return merge(DEFAULT_SETTINGS as unknown as Record<string, unknown>, container.settings ?? {}) as unknown as Settings;
}

function merge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over))
    out[k] = isPlainObject(v) && isPlainObject(base[k]) ? merge(base[k] as Record<string, unknown>, v) : v;
  return out;
}

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

type Checks = NonNullable<SettingsSource['settingChecks']>;

/** Checks one value against the default's shape; returns the accepted value or a problem. */
function check(path: string, value: unknown, def: unknown, problems: string[], checks: Checks): unknown {
  if (path === 'environment') {
    if ((ENVIRONMENTS as readonly unknown[]).includes(value)) return value;
    problems.push(
      `offtagConfig.environment must be one of ${ENVIRONMENTS.join(', ')}; got ${safeJson(value)}. Using "${def}".`,
    );
    return def;
  }
  // (`''` for a key whose default is `''` too: the bridge's answer alone cannot tell it apart.)
  if (path in PAGE_SETTINGS && typeof value === 'string' && (pageSetting({ [path]: value }, path as PageSettingKey) !== value || (value === '' && path !== 'workerUrl'))) {
    // The bridge reads these before the worker answers, with the same rule (src/page-settings.ts).
    problems.push(`offtagConfig.${path} must be a non-empty string; got ${safeJson(value)}. Using "${def}".`);
    return def;
  }
  const must = typeof value === typeof def ? checks[path]?.(value) : undefined;
  if (must) {
    problems.push(`offtagConfig.${path} must be ${must}; got ${safeJson(value)}. Using ${typeof def === 'string' ? `"${def}"` : JSON.stringify(def)}.`);
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
      // Own keys only: `toString` or `__proto__` in a page's config is no setting.
      if (!Object.prototype.hasOwnProperty.call(def, k)) {
        problems.push(`offtagConfig.${path ? `${path}.` : ""}${k} is not a setting; it is ignored.`);
        continue;
      }
      out[k] = check(path ? `${path}.${k}` : k, v, def[k], problems, checks);
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

/**
 * Merges `window.offtagConfig` over the defaults (docs/spec-coverage.md D1): the engine's and those of
 * `container` (its settings, checked the same way, and its extra checks).
 */
export function resolveSettings(raw: unknown, container: SettingsSource = {}): ResolvedSettings {
  const problems: string[] = [];
  const defaults = defaultsFor(container);
  if (raw === undefined || raw === null) return { settings: structuredCloneSettings(defaults), problems };
  if (!isPlainObject(raw)) {
    problems.push(`offtagConfig must be an object; got ${typeName(raw)}. Using the default settings.`);
    return { settings: structuredCloneSettings(defaults), problems };
  }
  const settings = check('', raw, defaults, problems, container.settingChecks ?? {}) as Settings;
  return { settings, problems };
}

function structuredCloneSettings(s: Settings): Settings {
  return JSON.parse(JSON.stringify(s)) as Settings;
}

/** The report suite of the current environment. */
export function reportSuiteFor(s: Settings): string {
  return s.reportSuites[s.environment];
}

/**
 * `linkInternalFilters` with its page-derived default (docs/spec-coverage.md D1): `{hostname}` in the
 * setting (or in the container's default) is the page's hostname.
 */
export function internalFiltersFor(s: Settings, hostname: string): string {
  return (s.linkInternalFilters || 'javascript:,{hostname}').replace('{hostname}', hostname);
}

/**
 * A host setting is a bare host (the scheme follows `defaultScheme`) or a full origin
 * (`http://127.0.0.1:8080`), which is how the demo and the tests point at local servers.
 */
export function originFor(hostSetting: string, defaultScheme: 'http:' | 'https:'): string {
  if (/^https?:\/\//i.test(hostSetting)) return hostSetting.replace(/\/+$/, '');
  return `${defaultScheme}//${hostSetting}`;
}

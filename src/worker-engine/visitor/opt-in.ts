/**
 * The opt-in layer (`adobe.optIn`, VisitorAPI.js 5.5.0: opt-in): categories, the pending → changed → complete
 * status, validation of the permissions given at setup, and the `adobeujs-optin` cookie.
 */
import {
  MESSAGES,
  OPT_IN_COOKIE_LIFETIME_FALLBACK_SECONDS,
  OPT_IN_STORAGE_EXPIRY_SECONDS,
  OptInCategories,
} from './constants.ts';
import { safeDecode } from '../core/cookies.ts';
import { encodeText } from '../core/well-formed.ts';

export { OptInCategories };

export type OptInCategory = (typeof OptInCategories)[keyof typeof OptInCategories];
export const ALL_CATEGORIES: readonly OptInCategory[] = Object.values(OptInCategories);
/** Keys a stored permission object may carry besides the categories. */
const EXTRA_PERMISSION_KEYS = ['videoaa', 'iabConsentHash'];

export type OptInStatus = 'pending' | 'changed' | 'complete';
export type Permissions = Record<string, boolean | string>;

export interface OptInConfig {
  doesOptInApply?: boolean;
  /** An object, a JSON string, or a function returning either. */
  previousPermissions?: unknown;
  preOptInApprovals?: unknown;
  isOptInStorageEnabled?: boolean;
  /** Seconds. */
  optInStorageExpiry?: number;
  optInCookieDomain?: string;
}

export interface OptInDeps {
  /** The current raw value of the `adobeujs-optin` cookie. */
  cookie(): string | undefined;
  /** Writes the cookie; `domain` '' is host-only. */
  writeCookie(value: string, lifetimeSeconds: number, domain: string): void;
  log(message: string): void;
  /** The domain found by the cookie probe and the page's hostname. */
  cookieDomain: string;
  hostname: string;
}

export function isCategory(c: unknown): c is OptInCategory {
  // `includes` compares without coercion: no value but one of the category strings is found.
  return (ALL_CATEGORIES as readonly unknown[]).includes(c);
}

/** A permission object as the library accepts one, or undefined (`{}` included). */
export function parsePermissions(input: unknown): Permissions | undefined {
  let v = input;
  try {
    if (typeof v === 'function') v = (v as () => unknown)();
    if (typeof v === 'string') v = JSON.parse(v);
  } catch {
    // Left as it was (a string or a function), which the check below refuses.
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length === 0) return undefined;
  if (!keys.every((k) => isCategory(k) || EXTRA_PERMISSION_KEYS.includes(k))) return undefined;
  return { ...(v as Permissions) };
}

/**
 * The cookie lifetime. The Launch extension, which is how this container configures the
 * library, sets 13 × 30 days when storage is on and no expiry is given; the library's own
 * fallback applies to configurations that bypass the extension (a page's `getInstance`).
 */
export function optInCookieLifetime(config: OptInConfig, viaLaunchExtension: boolean): number {
  if (typeof config.optInStorageExpiry === 'number' && config.optInStorageExpiry > 0) return config.optInStorageExpiry;
  if (viaLaunchExtension && config.isOptInStorageEnabled) return OPT_IN_STORAGE_EXPIRY_SECONDS;
  return OPT_IN_COOKIE_LIFETIME_FALLBACK_SECONDS;
}

function categoriesOf(cats: unknown): OptInCategory[] {
  const list = cats === undefined ? [] : Array.isArray(cats) ? cats : [cats];
  if (!list.every(isCategory)) throw new Error(MESSAGES.invalidCategories);
  return list as OptInCategory[];
}

export interface OptIn {
  readonly doesOptInApply: boolean;
  readonly status: OptInStatus;
  /** The committed permissions. */
  permissions(): Permissions;
  approve(cats: unknown, shouldWaitForComplete?: boolean): void;
  deny(cats: unknown, shouldWaitForComplete?: boolean): void;
  approveAll(): void;
  denyAll(): void;
  complete(): void;
  /** `cb(permissions)` now, or when the status next becomes complete. */
  fetchPermissions(cb: (p: Permissions) => void, autoSubscribe?: boolean): void;
  /** True when every listed category (every category, for an empty list) is approved. */
  isApproved(cats?: unknown): boolean;
  isPreApproved(cats?: unknown): boolean;
  on(event: 'complete', fn: () => void): void;
  off(event: 'complete', fn: () => void): void;
  /** Resolves once the status is complete. */
  whenComplete(): Promise<void>;
}

export function createOptIn(config: OptInConfig, deps: OptInDeps, viaLaunchExtension = true): OptIn {
  const applies = config.doesOptInApply === true;
  const storage = config.isOptInStorageEnabled === true;
  const committed: Permissions = {};
  const staged: Permissions = {};
  for (const c of ALL_CATEGORIES) committed[c] = !applies;
  let status: OptInStatus = applies ? 'pending' : 'complete';
  let preApprovals: Permissions = {};
  const waiting: Array<(p: Permissions) => void> = [];
  const listeners = new Set<() => void>();

  if (applies) {
    if (config.preOptInApprovals !== undefined) {
      const pre = parsePermissions(config.preOptInApprovals);
      if (pre) Object.assign(committed, (preApprovals = pre));
      else deps.log(MESSAGES.invalidPreOptInApprovals);
    }
    if (config.previousPermissions !== undefined) {
      const prev = parsePermissions(config.previousPermissions);
      if (prev) {
        Object.assign(committed, prev);
        status = 'complete';
      } else deps.log(MESSAGES.invalidPreviousPermissions);
    }
    const raw = deps.cookie();
    if (storage && raw) {
      const stored = parsePermissions(safeDecode(raw));
      if (stored) {
        Object.assign(committed, stored);
        status = 'complete';
      }
    }
  }

  function writeCookie(): void {
    if (!storage) return;
    const existing = parsePermissions(safeDecode(deps.cookie() ?? '')) ?? {};
    const value = encodeText(JSON.stringify({ ...existing, ...committed }));
    const domain = config.optInCookieDomain || deps.cookieDomain;
    deps.writeCookie(value, optInCookieLifetime(config, viaLaunchExtension), domain === deps.hostname ? '' : domain);
  }

  function stage(cats: unknown, value: boolean, wait?: boolean): void {
    for (const c of categoriesOf(cats)) staged[c] = value;
    status = 'changed';
    if (!wait) api.complete();
  }

  const api: OptIn = {
    doesOptInApply: applies,
    get status() {
      return status;
    },
    permissions: () => ({ ...committed }),
    approve: (cats, wait) => stage(cats, true, wait),
    deny: (cats, wait) => stage(cats, false, wait),
    approveAll: () => stage([...ALL_CATEGORIES], true),
    denyAll: () => stage([...ALL_CATEGORIES], false),
    complete() {
      if (status !== 'changed') return;
      Object.assign(committed, staged);
      for (const k of Object.keys(staged)) delete staged[k];
      status = 'complete';
      writeCookie();
      for (const fn of [...listeners]) fn();
      for (const cb of waiting.splice(0)) cb({ ...committed });
    },
    fetchPermissions(cb, autoSubscribe) {
      if (!applies || status === 'complete' || Object.keys(preApprovals).length > 0) {
        cb({ ...committed });
        if (!autoSubscribe) return;
      }
      if (autoSubscribe) listeners.add(() => cb({ ...committed }));
      else waiting.push(cb);
    },
    isApproved(cats) {
      if (!applies) return true;
      const list = categoriesOf(cats);
      return (list.length ? list : ALL_CATEGORIES).every((c) => committed[c] === true);
    },
    isPreApproved(cats) {
      const list = categoriesOf(cats);
      return (list.length ? list : ALL_CATEGORIES).every((c) => preApprovals[c] === true);
    },
    on: (_event, fn) => void listeners.add(fn),
    off: (_event, fn) => void listeners.delete(fn),
    whenComplete() {
      if (status === 'complete') return Promise.resolve();
      return new Promise((resolve) => {
        const fn = () => {
          listeners.delete(fn);
          resolve();
        };
        listeners.add(fn);
      });
    },
  };
  return api;
}

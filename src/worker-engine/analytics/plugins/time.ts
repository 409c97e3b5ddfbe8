/**
 * Clock arithmetic shared by the analytics plugins (docs/spec-coverage.md §9), and the cookie read/write they
 * all use. Plugins keep their state in cookies the bridge writes; values are escaped as
 * AppMeasurement's `c_w` escapes them, so spaces and `|` survive `document.cookie`.
 */
import { safeDecode } from '../../core/cookies.ts';
import type { CookieJar } from '../../core/types.ts';
import { encodeText } from '../../core/well-formed.ts';

export const MINUTE_MS = 60 * 1000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const YEAR_MS = 365 * DAY_MS;

/** docs/spec-coverage.md §9: "Visit timeout in cookies 30 minutes" — a visit ends after this much inactivity. */
export const VISIT_TIMEOUT_MS = 30 * MINUTE_MS;

/** Where a plugin writes its cookies: the page's cookie domain ('' = host-only). */
export interface PluginCookieOptions {
  domain?: string;
}

/** A plugin cookie's value, unescaped; undefined when absent or empty. */
export function readPluginCookie(cookies: CookieJar, name: string): string | undefined {
  const raw = cookies.get(name);
  if (raw === undefined || raw === '') return undefined;
  return safeDecode(raw);
}

export function writePluginCookie(
  cookies: CookieJar,
  name: string,
  value: string,
  expires: number,
  options: PluginCookieOptions = {},
): void {
  cookies.set(name, encodeText(value), { expires, path: '/', domain: options.domain ?? '' });
}

/**
 * getPreviousValue v3 (AppMeasurement 2.27.0: plugins): the value stored by the previous call, and `value`
 * stored for the next one, for 30 minutes.
 */
import type { CookieJar } from '../../core/types.ts';
import { MINUTE_MS, type PluginCookieOptions, readPluginCookie, writePluginCookie } from './time.ts';

export const PREVIOUS_VALUE_COOKIE = 's_gpv';
/** docs/spec-coverage.md §9: "previous-value and persist cookies 30 minutes". */
export const PREVIOUS_VALUE_LIFETIME_MS = 30 * MINUTE_MS;

/** An empty `value` reads without storing, as v3 does. */
export function getPreviousValue(
  cookies: CookieJar,
  now: number,
  value: string,
  cookieName: string = PREVIOUS_VALUE_COOKIE,
  options: PluginCookieOptions = {},
): string {
  const previous = readPluginCookie(cookies, cookieName) ?? '';
  if (value) writePluginCookie(cookies, cookieName, value, now + PREVIOUS_VALUE_LIFETIME_MS, options);
  return previous;
}

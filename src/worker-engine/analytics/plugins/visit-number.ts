/**
 * getVisitNum v4.2 (AppMeasurement 2.27.0: plugins, docs/spec-coverage.md D6): counts visits (a visit ends after
 * 30 minutes without a hit); the count restarts when its cookie expires, 365 days after the
 * first visit it counted.
 */
import type { CookieJar } from '../../core/types.ts';
import { DAY_MS, type PluginCookieOptions, readPluginCookie, VISIT_TIMEOUT_MS, writePluginCookie } from './time.ts';

/** docs/spec-coverage.md §9: "Visit-number default 365 days". */
export const VISIT_NUMBER_DAYS = 365;
/** Present while a visit is going on; refreshed on every hit. */
export const IN_VISIT_COOKIE = 's_ivc';
export const UNKNOWN_VISIT_NUMBER = 'unknown visit number';

/** `s_vnc365`: `<reset time ms>&vn=<count>`. */
export const visitNumberCookieName = (days: number): string => `s_vnc${days}`;
const COUNT_SEPARATOR = '&vn=';

export function getVisitNumber(
  cookies: CookieJar,
  now: number,
  days: number = VISIT_NUMBER_DAYS,
  options: PluginCookieOptions = {},
): string {
  const name = visitNumberCookieName(days);
  const stored = readPluginCookie(cookies, name);
  let resetAt = NaN;
  let count = NaN;
  if (stored?.includes(COUNT_SEPARATOR)) {
    const [reset, n] = stored.split(COUNT_SEPARATOR);
    resetAt = Number(reset);
    count = Number.parseInt(n!, 10); // split() gives two parts at least: the separator is in it
  }
  // A stale copy of an expired counter (the page has not dropped it yet) starts over.
  const known = Number.isFinite(resetAt) && resetAt > now && Number.isInteger(count) && count > 0;
  const inVisit = readPluginCookie(cookies, IN_VISIT_COOKIE) !== undefined;
  writePluginCookie(cookies, IN_VISIT_COOKIE, 'true', now + VISIT_TIMEOUT_MS, options);

  if (inVisit) return known ? String(count) : UNKNOWN_VISIT_NUMBER;
  if (!known) {
    resetAt = now + days * DAY_MS;
    count = 0;
  }
  count += 1;
  writePluginCookie(cookies, name, `${resetAt}${COUNT_SEPARATOR}${count}`, resetAt, options);
  return String(count);
}

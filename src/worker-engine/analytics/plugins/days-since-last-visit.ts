/**
 * getDaysSinceLastVisit 1.1 (AppMeasurement 2.27.0: plugins) with the buckets of docs/spec-coverage.md D6: the gap
 * since the last hit, bucketed; within a visit (30 minutes) the visit's bucket is kept.
 */
import type { CookieJar } from '../../core/types.ts';
import { DAY_MS, type PluginCookieOptions, readPluginCookie, VISIT_TIMEOUT_MS, writePluginCookie, YEAR_MS } from './time.ts';

export const DAYS_SINCE_LAST_VISIT_COOKIE = 's_lv';
/** The bucket of the current visit lives in `<cookie>_s` for one visit timeout. */
export const DAYS_SINCE_LAST_VISIT_BUCKET_COOKIE = `${DAYS_SINCE_LAST_VISIT_COOKIE}_s`;
/** The last-hit time lives three years, as in the public plugin. */
export const DAYS_SINCE_LAST_VISIT_LIFETIME_MS = 3 * YEAR_MS;

export const FIRST_VISIT = 'First Visit';
export const LESS_THAN_1_DAY = 'Less than 1 day';
export const LESS_THAN_7_DAYS = 'Less than 7 days';
export const MORE_THAN_7_DAYS = 'More than 7 days';
export const MORE_THAN_30_DAYS = 'More than 30 days';
export const MORE_THAN_1_YEAR = 'More than 1 year';

/** docs/spec-coverage.md §9: buckets at 1, 7 and 30 days and 1 year (each bound belongs to the bucket below it, as in 1.1). */
export function daysSinceLastVisitBucket(gapMs: number): string {
  if (gapMs > YEAR_MS) return MORE_THAN_1_YEAR;
  if (gapMs > 30 * DAY_MS) return MORE_THAN_30_DAYS;
  if (gapMs > 7 * DAY_MS) return MORE_THAN_7_DAYS;
  if (gapMs > DAY_MS) return LESS_THAN_7_DAYS;
  return LESS_THAN_1_DAY;
}

export function getDaysSinceLastVisit(cookies: CookieJar, now: number, options: PluginCookieOptions = {}): string {
  const last = Number(readPluginCookie(cookies, DAYS_SINCE_LAST_VISIT_COOKIE));
  const kept = readPluginCookie(cookies, DAYS_SINCE_LAST_VISIT_BUCKET_COOKIE);
  let bucket: string;
  if (!Number.isFinite(last) || last <= 0) bucket = FIRST_VISIT;
  // Same visit: keep its bucket. 1.1 answered 'Cookies Not Supported' when the bucket cookie was
  // gone; the gap itself is a truer answer.
  else if (now - last <= VISIT_TIMEOUT_MS) bucket = kept ?? daysSinceLastVisitBucket(now - last);
  else bucket = daysSinceLastVisitBucket(now - last);
  writePluginCookie(cookies, DAYS_SINCE_LAST_VISIT_COOKIE, String(now), now + DAYS_SINCE_LAST_VISIT_LIFETIME_MS, options);
  writePluginCookie(cookies, DAYS_SINCE_LAST_VISIT_BUCKET_COOKIE, bucket, now + VISIT_TIMEOUT_MS, options);
  return bucket;
}

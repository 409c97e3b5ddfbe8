/**
 * getTimeSinceLastVisit v2 (AppMeasurement 2.27.0: plugins, docs/spec-coverage.md D6): the gap between this visit
 * and the one before, rounded as the public plugin rounds it. Every hit of a visit answers the
 * same value: the gap measured at the visit's first hit is kept in `s_inv` for the visit.
 */
import type { CookieJar } from '../../core/types.ts';
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  type PluginCookieOptions,
  readPluginCookie,
  VISIT_TIMEOUT_MS,
  writePluginCookie,
  YEAR_MS,
} from './time.ts';

/** Last hit time in ms. */
export const LAST_VISIT_TIME_COOKIE = 's_tslv';
/**
 * The answer measured at the start of the current visit, as the plugin writes it: the bucket text
 * (`3 days`, `New Visitor`), escaped like every plugin cookie (`3%20days`).
 */
export const IN_VISIT_GAP_COOKIE = 's_inv';
export const LAST_VISIT_TIME_LIFETIME_MS = 2 * YEAR_MS;
export const NEW_VISITOR = 'New Visitor';

const round = (value: number, step: number) => Math.round(value / step) * step;
const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** Days past a day, quarter hours past an hour, half minutes below (`3 days`, `2.25 hours`, `30.5 minutes`). */
export function formatTimeSinceLastVisit(gapMs: number): string {
  if (gapMs >= DAY_MS) return plural(Math.round(gapMs / DAY_MS), 'day');
  if (gapMs >= HOUR_MS) return plural(round(gapMs / HOUR_MS, 0.25), 'hour');
  return plural(round(gapMs / MINUTE_MS, 0.5), 'minute');
}

/** What a kept `s_inv` says: bucket text as it is; whole seconds (what earlier Offtag versions wrote) formatted; anything else none. */
function keptAnswer(kept: string): string | undefined {
  if (kept === NEW_VISITOR || /^\d+(\.\d+)? (minute|hour|day)s?$/.test(kept)) return kept;
  if (/^\d+$/.test(kept)) return formatTimeSinceLastVisit(Number(kept) * 1000);
  return undefined;
}

export function getTimeSinceLastVisit(cookies: CookieJar, now: number, options: PluginCookieOptions = {}): string {
  const last = Number(readPluginCookie(cookies, LAST_VISIT_TIME_COOKIE));
  const visitGap = readPluginCookie(cookies, IN_VISIT_GAP_COOKIE);
  let answer: string;
  if (visitGap !== undefined) {
    answer = keptAnswer(visitGap) ?? NEW_VISITOR; // same visit: the answer measured at its start
  } else if (!Number.isFinite(last) || last <= 0 || now - last > LAST_VISIT_TIME_LIFETIME_MS) {
    answer = NEW_VISITOR;
  } else {
    answer = formatTimeSinceLastVisit(Math.round((now - last) / 1000) * 1000);
  }
  writePluginCookie(cookies, LAST_VISIT_TIME_COOKIE, String(now), now + LAST_VISIT_TIME_LIFETIME_MS, options);
  writePluginCookie(cookies, IN_VISIT_GAP_COOKIE, answer, now + VISIT_TIMEOUT_MS, options);
  return answer;
}

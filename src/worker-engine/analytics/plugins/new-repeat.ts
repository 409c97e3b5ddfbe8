/**
 * getNewRepeat v3 (AppMeasurement 2.27.0: plugins, docs/spec-coverage.md D6): `New` for a first-time visitor (and
 * for the rest of that first visit), `Repeat` afterwards.
 */
import type { CookieJar } from '../../core/types.ts';
import { DAY_MS, type PluginCookieOptions, readPluginCookie, VISIT_TIMEOUT_MS, writePluginCookie } from './time.ts';

/** docs/spec-coverage.md §9: "new/repeat 30 days". */
export const NEW_REPEAT_DAYS = 30;
export const NEW = 'New';
export const REPEAT = 'Repeat';

/** The plugin names its cookie after its lifetime: `s_nr30`. */
export const newRepeatCookieName = (days: number): string => `s_nr${days}`;

/**
 * Reads and rewrites `s_nr<days>` = `<ms>-New|Repeat`. The status stays `New` while the last
 * call was less than a visit timeout ago, so every hit of the first visit says `New`.
 */
export function getNewRepeat(
  cookies: CookieJar,
  now: number,
  days: number = NEW_REPEAT_DAYS,
  options: PluginCookieOptions = {},
): typeof NEW | typeof REPEAT {
  const name = newRepeatCookieName(days);
  const stored = readPluginCookie(cookies, name);
  let status: typeof NEW | typeof REPEAT;
  if (stored === undefined) {
    status = NEW;
  } else {
    const dash = stored.indexOf('-');
    const last = Number(stored.slice(0, dash));
    const previous = stored.slice(dash + 1);
    status = previous === NEW && Number.isFinite(last) && now - last < VISIT_TIMEOUT_MS ? NEW : REPEAT;
  }
  writePluginCookie(cookies, name, `${now}-${status}`, now + days * DAY_MS, options);
  return status;
}

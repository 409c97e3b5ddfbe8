/**
 * getGeoCoordinates (AppMeasurement 2.27.0: plugins), cookie only (docs/spec-coverage.md D6): the container never
 * asks the browser for the position, so the plugin answers from `s_ggc` when something else
 * stored a position there, for 30 minutes.
 */
import type { CookieJar } from '../../core/types.ts';
import { MINUTE_MS, type PluginCookieOptions, readPluginCookie, writePluginCookie } from './time.ts';

export const GEO_COOKIE = 's_ggc';
/** docs/spec-coverage.md §9: "geo cookie 30 minutes". */
export const GEO_COOKIE_LIFETIME_MS = 30 * MINUTE_MS;
/** The public plugin keeps four decimals (about 11 m). */
export const GEO_DECIMALS = 4;
export const GEO_NOT_AVAILABLE = 'geo coordinates not available';
export const GEO_ERROR = 'error retrieving geo coordinates';

const COORDINATE = /^-?\d{1,3}(\.\d+)?$/;

export function getGeoCoordinates(cookies: CookieJar): string {
  const stored = readPluginCookie(cookies, GEO_COOKIE);
  if (stored === undefined) return GEO_NOT_AVAILABLE;
  const [lat, lon, extra] = stored.split('|');
  if (extra !== undefined || !lat || !lon || !COORDINATE.test(lat) || !COORDINATE.test(lon)) return GEO_ERROR;
  if (Math.abs(Number(lat)) > 90 || Math.abs(Number(lon)) > 180) return GEO_ERROR;
  return `latitude=${lat} | longitude=${lon}`;
}

/** Stores a position the page obtained itself (`lat|lon`, four decimals, 30 minutes). */
export function storeGeoCoordinates(
  cookies: CookieJar,
  now: number,
  latitude: number,
  longitude: number,
  options: PluginCookieOptions = {},
): void {
  const value = `${latitude.toFixed(GEO_DECIMALS)}|${longitude.toFixed(GEO_DECIMALS)}`;
  writePluginCookie(cookies, GEO_COOKIE, value, now + GEO_COOKIE_LIFETIME_MS, options);
}

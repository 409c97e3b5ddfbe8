/**
 * `s_fid` (AppMeasurement 2.27.0: visit and identity): the fallback visitor id AppMeasurement keeps when neither `mid`
 * nor `aid` is known. 16 uppercase hex digits, `-`, 16 more; the first digit is 0–7 and the
 * 17th 0–3 (so each half fits a signed 64-bit number). It lasts two years.
 *
 * As AppMeasurement 2.27.0 keeps it (docs/analytics.md, "Click rules learned from AppMeasurement.js"):
 * any cookie value with a `-` in it is taken as it is, and the cookie is written again on every
 * hit that uses it, so its two years start again.
 */
import type { CookieJar, EngineEnv } from '../core/types.ts';
import { escapeValue, unescapeValue } from './encoding.ts';

export const FALLBACK_ID_COOKIE = 's_fid';
export const FALLBACK_ID_LIFETIME_MS = 2 * 365 * 24 * 60 * 60 * 1000;
const HEX = '0123456789ABCDEF';

/** The library draws the two halves' digits in turn: first digit, 17th digit, second, 18th… */
export function newFallbackId(random: () => number): string {
  let high = '';
  let low = '';
  for (let i = 0; i < 16; i++) {
    high += HEX[Math.floor(random() * (i ? 16 : 8))];
    low += HEX[Math.floor(random() * (i ? 16 : 4))];
  }
  return `${high}-${low}`;
}

/** What the library accepts from the cookie: any value with a `-`. */
export function isFallbackId(value: string | undefined): value is string {
  return value !== undefined && value.includes('-');
}

/** The id `s_fid` holds, or a new one; the cookie is written again each time, as the library does on every hit. */
export function fallbackIdFor(cookies: CookieJar, env: Pick<EngineEnv, 'now' | 'random'>, domain: string): string {
  const raw = cookies.get(FALLBACK_ID_COOKIE);
  const known = raw === undefined ? undefined : unescapeValue(raw);
  const id = isFallbackId(known) ? known : newFallbackId(() => env.random());
  cookies.set(FALLBACK_ID_COOKIE, escapeValue(id), { path: '/', domain, expires: env.now() + FALLBACK_ID_LIFETIME_MS });
  return id;
}

/**
 * `s_fid` (appmeasurement.md §6): the fallback visitor id AppMeasurement keeps when neither `mid`
 * nor `aid` is known. 16 uppercase hex digits, `-`, 16 more; the first digit is 0–7 and the
 * 17th 0–3 (so each half fits a signed 64-bit number). It lasts two years.
 */
export const FALLBACK_ID_COOKIE = 's_fid';
export const FALLBACK_ID_LIFETIME_MS = 2 * 365 * 24 * 60 * 60 * 1000;
const FALLBACK_ID = /^[0-7][0-9A-F]{15}-[0-3][0-9A-F]{15}$/;

function hexDigits(random: () => number, first: number): string {
  let out = Math.floor(random() * first).toString(16);
  for (let i = 1; i < 16; i++) out += Math.floor(random() * 16).toString(16);
  return out.toUpperCase();
}

export function newFallbackId(random: () => number): string {
  return `${hexDigits(random, 8)}-${hexDigits(random, 4)}`;
}

export function isFallbackId(value: string | undefined): value is string {
  return value !== undefined && FALLBACK_ID.test(value);
}

/**
 * Query encoding of AppMeasurement 2.27.0: beacon URL and parameters: encodeURIComponent, plus the five characters it leaves
 * alone that AppMeasurement escapes as well (`~!*()'`).
 */
import { encodeText } from '../core/well-formed.ts';
const EXTRA = /[~!*()']/g;

export function escapeValue(value: string): string {
  return encodeText(value).replace(EXTRA, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
}

/** The inverse, tolerant of what a pasted production beacon may hold (`+` for space, stray `%`). */
export function unescapeValue(value: string): string {
  const spaced = value.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  }
}

/**
 * Total text encoders: a string from the page may hold a lone surrogate (half an emoji
 * cut by a length limit), on which `encodeURIComponent` throws "URI malformed". Lone surrogates
 * become U+FFFD first, as `String.prototype.toWellFormed` does, so no string can stop a beacon,
 * a request or a cookie write.
 */
const LONE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function wellFormed(text: string): string {
  return String(text).replace(LONE, '\uFFFD');
}

/** `encodeURIComponent` that never throws. */
export function encodeText(text: string): string {
  return encodeURIComponent(wellFormed(text));
}

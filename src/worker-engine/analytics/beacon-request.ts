/** How a built beacon travels (GET, or POST past 2047 characters with an id) and what the devtools hear of it. */
import type { EngineContext } from '../core/types.ts';
import { decodeBeacon } from './beacon-decode.ts';
import { MAX_GET_LENGTH } from './tracker-config.ts';

const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export interface BeaconRequest {
  url: string;
  method: 'GET' | 'POST';
  body?: string;
  headers?: Record<string, string>;
}

/**
 * A GET, or a POST of the query when the URL is too long and the beacon carries `mid` or `aid`
 * (whose body, as AppMeasurement's, leaves out a postbacks `callback=`: the answer is read, not run).
 */
export function beaconRequest(path: string, query: string, hasId: boolean): BeaconRequest {
  const url = `${path}?${query}`;
  if (url.length > MAX_GET_LENGTH && hasId) return { url: path, method: 'POST', body: query.replace(/&callback=[a-zA-Z0-9_.[\]]+/, ''), headers: { 'Content-Type': FORM_CONTENT_TYPE } };
  return { url, method: 'GET' };
}

/** The devtools feed entry and the debug line of a beacon about to leave. */
export function announceBeacon(ctx: EngineContext, { url, method, body }: BeaconRequest, isLink: boolean): void {
  // Decoded only when read (the devtools overlay asks, or a replay writes the feed): a page with
  // no overlay open pays nothing for it. Structured clone and JSON both read the getter.
  let fields: ReturnType<typeof decodeBeacon> | undefined;
  ctx.monitor('beacon', {
    url,
    method,
    body,
    get fields() {
      return (fields ??= decodeBeacon(url, body));
    },
  });
  ctx.log('debug', `Analytics ${isLink ? 'link' : 'page view'} beacon: ${url}${body ? ` (POST ${body.length} characters)` : ''}`);
}

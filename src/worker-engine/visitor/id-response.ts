/**
 * Reading the `/id` reply (VisitorAPI.js 5.5.0: response fields). Only a 200 with a JSON object counts; anything else is
 * reported so the service can log it and fall back.
 */
import type { NetResponse } from '../../protocol.ts';
import { DEFAULT_ID_SYNC_TTL_SECONDS, DEFAULT_OPT_OUT_TTL_SECONDS } from './constants.ts';

/** One ID-sync destination of the reply's `ibs` array. `ttl` is in minutes. */
export interface IbsEntry {
  id: string;
  tag: string;
  url: string[];
  ttl: number;
  fireURLSync: number;
  syncOnPage: number;
}

export interface IdReply {
  /** Undefined when the reply carried none or an invalid one. `NOTARGET` is already `NONE`. */
  mid?: string;
  blob?: string;
  region?: string;
  /** Seconds: `id_sync_ttl`, 604800 when absent. */
  ttl: number;
  ibs: IbsEntry[];
  subdomain?: string;
  /** `d_optout` joined with `,`, or `NONE`. */
  optOut: string;
  /** Seconds: `d_ottl`, 7200 when absent. */
  optOutTtl: number;
  /** `error_msg`: when present, `MCCIDH` is not updated. */
  errorMsg?: string;
  /** Reply fields left out because they would change the structure they are stored in (the AMCV cookie's `|`-separated fields). */
  rejected: string[];
}

/**
 * A value from the network is data: `|` separates the AMCV cookie's fields, `*` the entries of
 * its sync lists. A value holding either is not stored (VisitorAPI.js has no escape for them).
 */
export const STRUCTURAL = /[|*]/;

export type IdOutcome =
  | { kind: 'reply'; reply: IdReply }
  /** No usable answer: `reason` is what the library records, for the log. */
  | { kind: 'unusable'; reason: string }
  | { kind: 'network' }
  | { kind: 'timeout' };

/** The library accepts visitor ids made of hex digits and dashes only. */
export const VALID_ID = /^[0-9a-fA-F-]+$/;

export function isValidVisitorId(id: unknown): id is string {
  return typeof id === 'string' && VALID_ID.test(id);
}

const MID_KEYS = ['mid', 'd_mid', 'visitorID', 'id', 'uuid'] as const;

function str(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '') return v;
  // Number.isFinite is false for anything but a finite number.
  if (Number.isFinite(v)) return String(v);
  return undefined;
}

function positiveNumber(v: unknown, fallback: number): number {
  // A blank string is 0, not positive; Number.isFinite is false for anything but a finite number.
  const n = typeof v === 'string' ? Number(v) : v;
  return Number.isFinite(n) && (n as number) > 0 ? (n as number) : fallback;
}

function readMid(body: Record<string, unknown>): string | undefined {
  for (const key of MID_KEYS) {
    const v = str(body[key]);
    if (v === undefined) continue;
    if (v === 'NOTARGET') return 'NONE';
    return isValidVisitorId(v) ? v : undefined;
  }
  return undefined;
}

function readIbs(v: unknown, rejected: string[]): IbsEntry[] {
  if (!Array.isArray(v)) return [];
  const out: IbsEntry[] = [];
  for (const e of v) {
    // A null, number or string entry has no `id`: Object() gives it no own fields.
    const r = Object(e) as Record<string, unknown>;
    const id = str(r.id);
    if (id === undefined) continue;
    if (STRUCTURAL.test(id)) {
      rejected.push('ibs id');
      continue;
    }
    const urls = Array.isArray(r.url) ? r.url.filter((u): u is string => typeof u === 'string') : typeof r.url === 'string' ? [r.url] : [];
    out.push({
      id,
      tag: str(r.tag) ?? 'img',
      url: urls,
      ttl: positiveNumber(r.ttl, 0),
      fireURLSync: r.fireURLSync ? 1 : 0,
      syncOnPage: r.syncOnPage ? 1 : 0,
    });
  }
  return out;
}

/** The reply's fields, defaults applied. */
export function readIdReply(body: Record<string, unknown>): IdReply {
  const optOut = Array.isArray(body.d_optout)
    ? body.d_optout.filter((x) => typeof x === 'string' && x !== '').join(',')
    : str(body.d_optout);
  const rejected: string[] = [];
  /** A value that would add fields to the cookie is left out, by name. */
  const data = (name: string, v: string | undefined) => {
    if (v === undefined || !STRUCTURAL.test(v)) return v;
    rejected.push(name);
    return undefined;
  };
  const reply: IdReply = {
    ttl: positiveNumber(body.id_sync_ttl, DEFAULT_ID_SYNC_TTL_SECONDS),
    ibs: readIbs(body.ibs, rejected),
    optOut: data('d_optout', optOut) || 'NONE',
    optOutTtl: positiveNumber(body.d_ottl, DEFAULT_OPT_OUT_TTL_SECONDS),
    rejected,
  };
  const mid = readMid(body);
  if (mid !== undefined) reply.mid = mid;
  const blob = data('d_blob', str(body.d_blob) ?? str(body.blob));
  if (blob !== undefined) reply.blob = blob;
  const region = data('d_region', str(body.d_region) ?? str(body.dcs_region));
  if (region !== undefined) reply.region = region;
  const subdomain = data('subdomain', str(body.subdomain));
  if (subdomain !== undefined) reply.subdomain = subdomain;
  const errorMsg = str(body.error_msg);
  if (errorMsg !== undefined) reply.errorMsg = errorMsg;
  return reply;
}

/** Said when reply fields were left out. */
export const idReplyRejected = (names: string[]): string =>
  `Visitor ID call: the reply's ${[...new Set(names)].join(', ')} held "|" or "*", which would change the AMCV cookie's fields; left out.`;

/** Classifies a network answer the way the library's XHR handlers do. */
export function readIdResponse(res: NetResponse): IdOutcome {
  if (res.error === 'timeout') return { kind: 'timeout' };
  if (res.error === 'network') return { kind: 'network' };
  if (res.status !== 200) return { kind: 'unusable', reason: `ID service answered HTTP ${res.status}` };
  let body: unknown;
  try {
    body = JSON.parse(res.body);
  } catch {
    return { kind: 'unusable', reason: 'Error parsing response as JSON' };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return { kind: 'unusable', reason: 'Response is not JSON' };
  }
  return { kind: 'reply', reply: readIdReply(body as Record<string, unknown>) };
}

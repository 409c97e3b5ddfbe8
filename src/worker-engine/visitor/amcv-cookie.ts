/**
 * The `AMCV_<org>` cookie (VisitorAPI.js 5.5.0: cookies): `<digest>|<FIELD>[-<expiry>[s]]|<value>|…|vVersion|5.5.0`,
 * URI-encoded as a whole. Read and written so that VisitorAPI.js 5.5.0 and Offtag can take
 * turns on the same visitor.
 */
import { DAY_MS, DEFAULT_ID_SERVICE_HOST, VISITOR_VERSION } from './constants.ts';
import { safeDecode } from '../core/cookies.ts';
import { encodeText } from '../core/well-formed.ts';

export type AmcvFieldName =
  | 'MCMID'
  | 'MCAID'
  | 'MCAAMLH'
  | 'MCAAMB'
  | 'MCOPTOUT'
  | 'MCIDTS'
  | 'MCCIDH'
  | 'MCSYNCS'
  | 'MCSYNCSOP';

export interface AmcvField {
  value: string;
  /** Unix seconds; absent: never expires. */
  expiry?: number;
  /** Dies with the `AMCVS_` session cookie. */
  session?: boolean;
}

/** Fields in insertion order, which is the order they are written back in. */
export type AmcvFields = Map<string, AmcvField>;

export interface DecodedAmcv {
  fields: AmcvFields;
  /** The digest the cookie carried (undefined for digest-less values such as `s_ecid`). */
  digest?: number;
  /** The library version that wrote it (`vVersion`). */
  version?: string;
}

const VERSION_KEY = 'vVersion';

/**
 * The library's 32-bit string hash, `h = (h << 5) - h + c` in signed 32-bit arithmetic.
 * It makes both the cookie digest and `MCCIDH`.
 */
export function hash32(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = ((h << 5) - h + text.charCodeAt(i)) | 0;
  return h;
}

/**
 * The digest binds a cookie to the version and AAM server that wrote it; with the defaults it
 * is 179643557. `idServiceHost` may be a full origin (local servers): the library only knows
 * hosts, so the scheme is left out.
 */
export function amcvDigest(idServiceHost = DEFAULT_ID_SERVICE_HOST, secureServer?: string): number {
  const host = idServiceHost.replace(/^https?:\/\//i, '').replace(/\/+$/, '');
  return hash32(`${VISITOR_VERSION}|${host}${secureServer ? `|${secureServer}` : ''}`);
}

export function amcvCookieName(orgId: string): string {
  return `AMCV_${encodeText(orgId)}`;
}

export function amcvsCookieName(orgId: string): string {
  return `AMCVS_${encodeText(orgId)}`;
}

/**
 * Reads a raw cookie value (encoded or not). The leading digest is optional so that the
 * server-set `s_ecid` (`MCMID|<mid>`) reads with the same code. As in VisitorAPI.js 5.5.0, a
 * numeric first part is the digest whatever follows it, and a name left without a value (a cut
 * value) is dropped.
 */
export function decodeAmcv(raw: string): DecodedAmcv {
  const parts = safeDecode(raw).split('|');
  const out: DecodedAmcv = { fields: new Map() };
  let i = 0;
  if (/^-?\d+$/.test(parts[0] as string)) {
    out.digest = Number(parts[0]);
    i = 1;
  }
  for (; i + 1 < parts.length; i += 2) {
    const key = parts[i] as string;
    const value = parts[i + 1] as string;
    if (key === VERSION_KEY) {
      out.version = value;
      continue;
    }
    const m = /^([A-Za-z0-9_]+)(?:-(\d+)(s?))?$/.exec(key);
    if (!m) continue;
    const field: AmcvField = { value };
    if (m[2] !== undefined) field.expiry = Number(m[2]);
    if (m[3]) field.session = true;
    out.fields.set(m[1] as string, field);
  }
  return out;
}

/** The cookie value as the library writes it: URI-encoded, empty values skipped, version last. */
export function encodeAmcv(fields: AmcvFields, digest: number): string {
  const parts: string[] = [String(digest)];
  for (const [key, f] of fields) {
    // A value holding the separator would add fields: it is never written, so a reply cannot inject fields.
    if (f.value === '' || f.value.includes('|') || key.includes('|')) continue;
    const suffix = f.expiry !== undefined ? `-${f.expiry}${f.session ? 's' : ''}` : '';
    parts.push(key + suffix, f.value);
  }
  parts.push(VERSION_KEY, VISITOR_VERSION);
  return encodeText(parts.join('|'));
}

/**
 * Whether a field no longer counts: past its expiry, session-bound while the `AMCVS_` cookie is
 * gone, or carrying any expiry at all in a cookie whose digest does not match.
 */
export function isFieldExpired(
  field: AmcvField | undefined,
  nowMs: number,
  opts: { sessionAlive: boolean; digestMatches?: boolean },
): boolean {
  if (!field) return true;
  if (field.expiry === undefined) return false;
  if (opts.digestMatches === false) return true;
  if (field.session && !opts.sessionAlive) return true;
  return field.expiry * 1000 <= nowMs;
}

/** `-<unix s>` for a field living `ttlSeconds` from `nowMs`. */
export function expiryFor(nowMs: number, ttlSeconds: number): number {
  return Math.floor(nowMs / 1000 + ttlSeconds);
}

/** `MCIDTS` and sync expiries count whole days since the epoch, rounded up. */
export function dayNumber(nowMs: number): number {
  return Math.ceil(nowMs / DAY_MS);
}

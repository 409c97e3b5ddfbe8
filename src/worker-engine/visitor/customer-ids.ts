/**
 * Customer ids and their authentication states (VisitorAPI.js 5.5.0: customer IDs): `setCustomerIDs`, sha256
 * hashing, the `d_cid_ic` wire format and the `MCCIDH` change hash.
 */
import { hash32 } from './amcv-cookie.ts';
import { AuthState } from './constants.ts';
import { encodeText } from '../core/well-formed.ts';

export { AuthState };

export interface CustomerId {
  id: string;
  authState: number;
}

export type CustomerIds = Record<string, CustomerId>;

/** The spellings of SHA-256 the library recognises. */
const SHA256_NAMES = new Set(['sha-256', 'sha256']);

export function isSha256(hashType: string): boolean {
  return SHA256_NAMES.has(hashType.toLowerCase());
}

export function unsupportedHashTypeMessage(hashType: string, dataSource: string): string {
  return `Customer ID hash type "${hashType}" is not supported; only sha256 is accepted. The ID for "${dataSource}" was not set.`;
}

export const NON_LATIN1_MESSAGE =
  'setCustomerIDs: an ID to hash contains a character above U+00FF; no customer IDs were set.';

export interface SetCustomerIdsResult {
  /** The entries to merge over the current ones; empty when the call was aborted. */
  ids: CustomerIds;
  /** Messages for the log (refused hash types, aborted call). */
  problems: string[];
}

function authStateOf(v: unknown): number {
  return v === AuthState.AUTHENTICATED || v === AuthState.LOGGED_OUT ? v : AuthState.UNKNOWN;
}

/**
 * Normalises the argument of `setCustomerIDs(map, hashType)`. A per-entry `hashType` replaces
 * the one in force for that entry and every later one, as the library's loop does. Only sha256
 * is accepted: an id asked to be hashed otherwise is refused rather than sent in clear.
 */
export async function normalizeCustomerIds(
  input: unknown,
  hashType: unknown,
  sha256: (text: string) => Promise<string>,
): Promise<SetCustomerIdsResult> {
  const out: SetCustomerIdsResult = { ids: {}, problems: [] };
  if (typeof input !== 'object' || input === null) return out;
  let currentHash = typeof hashType === 'string' ? hashType : '';
  for (const [ds, raw] of Object.entries(input as Record<string, unknown>)) {
    let id: unknown;
    let authState = AuthState.UNKNOWN as number;
    if (typeof raw === 'object' && raw !== null) {
      const r = raw as Record<string, unknown>;
      id = r.id;
      authState = authStateOf(r.authState);
      if (typeof r.hashType === 'string') currentHash = r.hashType;
    } else {
      id = raw;
    }
    if (typeof id === 'number') id = String(id);
    if (typeof id !== 'string' || id === '') continue;
    if (currentHash) {
      if (!isSha256(currentHash)) {
        out.problems.push(unsupportedHashTypeMessage(currentHash, ds));
        continue;
      }
      const clean = id.trim().toLowerCase();
      // The library hashes char codes as bytes, so anything past Latin-1 cannot be hashed at all.
      if (/[^\u0000-\u00ff]/.test(clean)) return { ids: {}, problems: [NON_LATIN1_MESSAGE] };
      id = await sha256(clean);
    }
    out.ids[ds] = { id: id as string, authState };
  }
  return out;
}

/** `&d_cid_ic=<ds>%01<id>[%01<authState>]` per entry; the state only when not UNKNOWN. */
export function customerIdParams(ids: CustomerIds): string {
  let q = '';
  for (const [ds, c] of Object.entries(ids)) {
    q += `&d_cid_ic=${encodeText(ds)}%01${encodeText(c.id)}`;
    if (c.authState) q += `%01${c.authState}`;
  }
  return q;
}

/** `MCCIDH`: the 32-bit hash of `ds|id[authState]` entries joined by `|`, as a decimal string. */
export function customerIdsHash(ids: CustomerIds): string {
  const parts = Object.entries(ids).map(([ds, c]) => `${ds}|${c.id}${c.authState ? c.authState : ''}`);
  return String(hash32(parts.join('|')));
}

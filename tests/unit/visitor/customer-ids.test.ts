import { describe, expect, it } from 'vitest';
import {
  AuthState,
  customerIdParams,
  customerIdsHash,
  isSha256,
  NON_LATIN1_MESSAGE,
  normalizeCustomerIds,
  unsupportedHashTypeMessage,
} from '../../../src/worker-engine/visitor/customer-ids.ts';
import { hash32 } from '../../../src/worker-engine/visitor/amcv-cookie.ts';
import { sha256Hex } from './helpers.ts';

const SHA256_ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

describe('customer ids', () => {
  it('has the three auth states', () => {
    expect(AuthState).toEqual({ UNKNOWN: 0, AUTHENTICATED: 1, LOGGED_OUT: 2 });
  });

  it('takes plain strings and objects, ignoring entries without id', async () => {
    const r = await normalizeCustomerIds(
      { crm: 'abc', loyalty: { id: 'L1', authState: AuthState.AUTHENTICATED }, empty: { authState: 1 }, bad: { id: 'x', authState: 7 } },
      undefined,
      sha256Hex,
    );
    expect(r.ids).toEqual({ crm: { id: 'abc', authState: 0 }, loyalty: { id: 'L1', authState: 1 }, bad: { id: 'x', authState: 0 } });
    expect(r.problems).toEqual([]);
  });

  it('hashes with sha256 after trimming and lowercasing', async () => {
    expect(await sha256Hex('abc')).toBe(SHA256_ABC);
    for (const t of ['SHA-256', 'SHA256', 'sha256', 'sha-256']) {
      expect(isSha256(t)).toBe(true);
      const r = await normalizeCustomerIds({ email: '  ABC ' }, t, sha256Hex);
      expect(r.ids.email?.id).toBe(SHA256_ABC);
    }
  });

  it('refuses any other hash type, with a message, and does not send the id in clear', async () => {
    const r = await normalizeCustomerIds({ email: 'abc', crm: { id: 'x', hashType: 'sha256' } }, 'md5', sha256Hex);
    expect(r.ids).toEqual({ crm: { id: await sha256Hex('x'), authState: 0 } });
    expect(r.problems).toEqual([unsupportedHashTypeMessage('md5', 'email')]);
  });

  it('carries a per-entry hash type into later entries', async () => {
    const r = await normalizeCustomerIds({ a: 'plain', b: { id: 'abc', hashType: 'sha256' }, c: 'abc' }, undefined, sha256Hex);
    expect(r.ids).toEqual({ a: { id: 'plain', authState: 0 }, b: { id: SHA256_ABC, authState: 0 }, c: { id: SHA256_ABC, authState: 0 } });
  });

  it('aborts the whole call on a character above U+00FF when hashing', async () => {
    const r = await normalizeCustomerIds({ a: 'abc', b: 'snow☃' }, 'sha256', sha256Hex);
    expect(r).toEqual({ ids: {}, problems: [NON_LATIN1_MESSAGE] });
  });

  it('writes d_cid_ic with %01 separators, the state only when not unknown', () => {
    expect(customerIdParams({ crm: { id: 'a b', authState: 0 }, 'x&y': { id: 'z', authState: 2 } })).toBe(
      '&d_cid_ic=crm%01a%20b&d_cid_ic=x%26y%01z%012',
    );
  });

  it('hashes the set for MCCIDH', () => {
    expect(customerIdsHash({ crm: { id: 'abc', authState: 1 }, ds: { id: 'x', authState: 0 } })).toBe(String(hash32('crm|abc1|ds|x')));
    expect(customerIdsHash({ crm: { id: 'abc', authState: 1 } })).not.toBe(customerIdsHash({ crm: { id: 'abc', authState: 2 } }));
  });
});

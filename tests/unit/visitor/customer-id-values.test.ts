/**
 * `setCustomerIDs(map, hashType)` on the values a page really passes (VisitorAPI.js 5.5.0: customer IDs): numbers,
 * empty ids, null entries, the logged-out state, a map that is not an object, a hash type that is
 * not a string.
 */
import { describe, expect, it } from 'vitest';
import { normalizeCustomerIds } from '../../../src/worker-engine/visitor/customer-ids.ts';
import { sha256Hex } from './helpers.ts';

describe('customer ids at their edges', () => {
  it('keeps the logged-out state (2); any other number is unknown (0)', async () => {
    const r = await normalizeCustomerIds(
      { out: { id: 'a', authState: 2 }, auth: { id: 'b', authState: 1 }, odd: { id: 'c', authState: 3 }, text: { id: 'd', authState: '1' } },
      undefined,
      sha256Hex,
    );
    expect(r.ids).toEqual({ out: { id: 'a', authState: 2 }, auth: { id: 'b', authState: 1 }, odd: { id: 'c', authState: 0 }, text: { id: 'd', authState: 0 } });
  });

  it('a number id is sent as its text; an empty id, a null entry and an object id are no id', async () => {
    const r = await normalizeCustomerIds(
      { num: 12345, objNum: { id: 7 }, empty: '', emptyObj: { id: '' }, nul: null, obj: { id: { x: 1 } } },
      undefined,
      sha256Hex,
    );
    expect(r).toEqual({ ids: { num: { id: '12345', authState: 0 }, objNum: { id: '7', authState: 0 } }, problems: [] });
  });

  it('a map that is not an object sets nothing (a string is not split into characters)', async () => {
    for (const input of [null, undefined, 'abc', 42, true]) {
      expect(await normalizeCustomerIds(input, undefined, sha256Hex), String(input)).toEqual({ ids: {}, problems: [] });
    }
  });

  it('a hash type that is not a string is no hash type: the id goes as given', async () => {
    for (const hashType of [5, true, {}, null]) {
      expect(await normalizeCustomerIds({ crm: 'ABC' }, hashType, sha256Hex), String(hashType)).toEqual({
        ids: { crm: { id: 'ABC', authState: 0 } },
        problems: [],
      });
    }
  });

  it('says in words why nothing was set when an id to hash is past Latin-1', async () => {
    expect((await normalizeCustomerIds({ a: '☃' }, 'sha256', sha256Hex)).problems).toEqual([
      'setCustomerIDs: an ID to hash contains a character above U+00FF; no customer IDs were set.',
    ]);
  });
});

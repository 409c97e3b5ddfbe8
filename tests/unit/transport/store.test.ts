/**
 * The memory store (store.ts): the queue's store where IndexedDB is missing, and the claim rule
 * both stores share (`claimDecision`; tests/browser/transport-idb.test.ts runs IndexedDB's).
 *
 * Mutant left Survived (equivalent): `setMany`'s `deletes = []` default → `["Stryker was here"]`
 * (deleting a key that is not there).
 */
import { describe, expect, it } from 'vitest';
import { claimDecision, memoryStore, type StoredBeacon } from '../../../src/worker-engine/transport/store.ts';

const beacon = (owner: string, leaseUntil: number): StoredBeacon => ({ id: 'beacon:1', method: 'GET', url: 'http://c/1', createdAt: 1, attempts: 0, owner, leaseUntil });

describe('claims', () => {
  it('a beacon is claimed unless another owner holds it past now; gone when absent', () => {
    expect(claimDecision(undefined, 'me', 100, 200)).toEqual({ gone: true });
    expect(claimDecision(beacon('other', 101), 'me', 100, 200)).toEqual({ busyUntil: 101 });
    expect(claimDecision(beacon('other', 100), 'me', 100, 200)).toEqual({ claimed: beacon('me', 200) });
    expect(claimDecision(beacon('me', 150), 'me', 100, 200)).toEqual({ claimed: beacon('me', 200) });
  });

  it('the memory store keeps a claim, refuses a held beacon and says a missing one is gone, one key or several', async () => {
    const s = memoryStore();
    await s.setMany([['beacon:1', beacon('other', 500)], ['beacon:2', beacon('dead', 50)]]);
    expect(await s.claim('beacon:1', 'me', 100, 200)).toEqual({ busyUntil: 500 });
    expect(await s.claimMany(['beacon:2', 'beacon:3', 'beacon:1'], 'me', 100, 200)).toEqual([{ claimed: beacon('me', 200) }, { gone: true }, { busyUntil: 500 }]);
    expect(await s.get('beacon:2')).toEqual(beacon('me', 200));
    expect(await s.get('beacon:1')).toEqual(beacon('other', 500));
    expect(await s.claim('beacon:1', 'me', 500, 900)).toEqual({ claimed: beacon('me', 900) });
    expect(await s.get('beacon:1')).toEqual(beacon('me', 900));
  });
});

describe('the memory store', () => {
  it('hands out copies, keeps copies, lists its keys in order, and deletes with a write or on its own', async () => {
    const s = memoryStore();
    const value = { n: 1 };
    await s.setMany([['b', value], ['a', { n: 2 }], ['c', { n: 3 }]]);
    value.n = 9;
    const got = (await s.get('b')) as { n: number };
    expect(got).toEqual({ n: 1 });
    got.n = 7;
    expect(await s.getMany!(['b', 'x', 'a'])).toEqual([{ n: 1 }, undefined, { n: 2 }]);
    const many = (await s.getMany!(['a'])) as Array<{ n: number }>;
    many[0]!.n = 8;
    expect(await s.get('a')).toEqual({ n: 2 });
    expect(await s.get('x')).toBe(undefined);
    expect(await s.keys()).toEqual(['a', 'b', 'c']);
    await s.setMany([['d', 4]], ['a']);
    expect(await s.keys()).toEqual(['b', 'c', 'd']);
    await s.delMany(['b', 'd']);
    expect(await s.keys()).toEqual(['c']);
    const claimed = await s.claim('c', 'me', 0, 1);
    expect(claimed).toEqual({ claimed: { n: 3, owner: 'me', leaseUntil: 1 } });
    (claimed as { claimed: StoredBeacon }).claimed.owner = 'changed';
    expect(await s.get('c')).toEqual({ n: 3, owner: 'me', leaseUntil: 1 });
  });
});

/**
 * The corpus world's answer to the Web SDK's Edge `interact` call (bench/corpus/world.ts): what the
 * Web SDK checks before it takes an event as sent — a `handle` list, and the identity cookie of the
 * property's org among the state it is told to store.
 */
import { describe, expect, it } from 'vitest';
import { CORPUS_MID, edgeAnswer } from '../../../bench/corpus/world.ts';

describe("Edge's answer to a first visit", () => {
  it('echoes the request id, gives the fixed ECID, and stores the identity cookie of the org (its @ written _), its value holding the ECID', () => {
    const a = edgeAnswer('req-1', '777B575E55828EBB7F000101@AdobeOrg');
    expect(a.requestId).toBe('req-1');
    expect(Array.isArray(a.handle)).toBe(true);
    expect(a.handle.find((h) => h.type === 'identity:result')?.payload).toEqual([{ id: CORPUS_MID, namespace: { code: 'ECID' } }]);
    const [store] = a.handle.find((h) => h.type === 'state:store')!.payload as Array<{ key: string; value: string; maxAge: number }>;
    expect(store!.key).toBe('kndctr_777B575E55828EBB7F000101_AdobeOrg_identity');
    expect(Buffer.from(store!.value, 'base64').toString('latin1')).toBe(`\n&${CORPUS_MID}`);
    expect(store!.maxAge).toBeGreaterThan(0);
  });

  it('without an org it stores nothing (the Web SDK then says no identity was set, as with a wrong org)', () => {
    expect(edgeAnswer('r', undefined).handle.map((h) => h.type)).toEqual(['identity:result']);
  });
});

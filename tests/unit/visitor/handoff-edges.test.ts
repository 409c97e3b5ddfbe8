/**
 * VisitorAPI.js 5.5.0: response fields (the local MID), §5 (the AMCV cookie: digest, AMCVS_) and §8 (adobe_mc, serverState),
 * the cases handoff.test.ts and service.test.ts leave open.
 */
import { describe, expect, it } from 'vitest';
import { appendVisitorIDsTo, idsFromUrl } from '../../../src/worker-engine/visitor/url-handoff.ts';
import { localMid } from '../../../src/worker-engine/visitor/local-mid.ts';
import { parseServerState } from '../../../src/worker-engine/visitor/server-state.ts';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import { decodeAmcv, encodeAmcv } from '../../../src/worker-engine/visitor/amcv-cookie.ts';
import { AMCV, AMCVS, FIXED_NOW, MID, ORG as SVC_ORG, T, idReply, makeContext } from './helpers.ts';

const ORG = 'ABC@AdobeOrg';
const mc = (pairs: string) => `adobe_mc=${encodeURIComponent(pairs)}`;
const INVALID = '`serverState` has an invalid format.';

describe('appendVisitorIDsTo: where adobe_mc goes', () => {
  // Where VisitorAPI 5.5.0's _addQuerystringParam puts it, odd URLs included.
  it('a URL that is only a fragment gets the query after it, as the library writes it', () => {
    expect(appendVisitorIDsTo('#top', { MCMID: '123' }, ORG, FIXED_NOW)).toBe(`#top?${mc(`MCMID=123|MCORGID=${encodeURIComponent(ORG)}|TS=${T}`)}`);
  });

  it('a query that ends with ? or & keeps its empty part; a second ? and what follows are dropped', () => {
    const value = mc(`MCMID=123|MCORGID=${encodeURIComponent(ORG)}|TS=${T}`);
    expect(appendVisitorIDsTo('https://b.example/p?', { MCMID: '123' }, ORG, FIXED_NOW)).toBe(`https://b.example/p?&${value}`);
    expect(appendVisitorIDsTo('https://b.example/p?x=1&', { MCMID: '123' }, ORG, FIXED_NOW)).toBe(`https://b.example/p?x=1&&${value}`);
    expect(appendVisitorIDsTo('https://b.example/p?x=1&#f', { MCMID: '123' }, ORG, FIXED_NOW)).toBe(`https://b.example/p?x=1&&${value}#f`);
    expect(appendVisitorIDsTo('https://b.example/?&x=1', { MCMID: '123' }, ORG, FIXED_NOW)).toBe(`https://b.example/?&x=1&${value}`);
    expect(appendVisitorIDsTo('https://b.example/p?x=1?y=2', { MCMID: '123' }, ORG, FIXED_NOW)).toBe(`https://b.example/p?x=1&${value}`);
  });

  it('a landing page takes the analytics id as well as the MID', () => {
    const aid = '2F3C6E9A05162F8E-40000A1B2C3D4E5F';
    const url = appendVisitorIDsTo('https://b.example/', { MCMID: '123', MCAID: aid }, ORG, FIXED_NOW);
    expect(idsFromUrl(url, ORG, FIXED_NOW)).toEqual({ MCMID: '123', MCAID: aid });
    expect(idsFromUrl(`https://b.example/?${mc(`MCAID=${aid}|MCORGID=${ORG}|TS=${T}`)}`, ORG, FIXED_NOW)).toEqual({ MCAID: aid });
  });
});

describe('the local MID', () => {
  it('is the last 6 clock digits reversed, then 32 random digits', () => {
    expect(localMid(1719230412345, () => 0.95)).toBe(`543214${'9'.repeat(32)}`);
    expect(localMid(1719230412345, () => 0.35)).toBe(`543214${'3'.repeat(32)}`);
  });
});

describe('serverState edge cases', () => {
  it('customer ids without an authState are unknown (0); a non-number authState too', () => {
    expect(parseServerState({ [ORG]: { customerIDs: { crm: { id: 'a' } } } }, ORG)).toEqual({ customerIDs: { crm: { id: 'a', authState: 0 } } });
    expect(parseServerState({ [ORG]: { customerIDs: { crm: { id: 'a', authState: '1' } } } }, ORG)).toEqual({
      customerIDs: { crm: { id: 'a', authState: 0 } },
    });
  });

  it('an SDID state alone is read; null strings are empty', () => {
    const state = { [ORG]: { sdid: { supplementalDataIDCurrent: 'A-B', supplementalDataIDLast: null } } };
    expect(parseServerState(state, ORG)).toEqual({ sdid: { current: 'A-B', currentConsumed: {}, last: '', lastConsumed: {} } });
  });

  it('only a string is read as JSON: an array holding a JSON text is refused', () => {
    expect(() => parseServerState([JSON.stringify({ [ORG]: {} })], ORG)).toThrow(INVALID);
  });

  it('throws the library message on customerIDs or sdid that are not objects, or an id that is not a string', () => {
    const bad = [
      { [ORG]: { customerIDs: 5 } },
      { [ORG]: { customerIDs: [] } },
      { [ORG]: { customerIDs: { crm: { id: 5 } } } },
      { [ORG]: { customerIDs: { crm: { authState: 1 } } } },
      { [ORG]: { sdid: 5 } },
      { [ORG]: { sdid: [] } },
      { [ORG]: { sdid: { supplementalDataIDCurrentConsumed: 5 } } },
      { [ORG]: { sdid: { supplementalDataIDLastConsumed: ['x'] } } },
    ];
    for (const state of bad) expect(() => parseServerState(state, ORG), JSON.stringify(state)).toThrow(INVALID);
  });
});

describe('the AMCV cookie', () => {
  it('a cookie of another digest loses MCCIDH, also when the reply (error_msg) does not rewrite it', async () => {
    const fields = new Map([
      ['MCIDTS', { value: '19899' }],
      ['MCMID', { value: MID }],
      ['MCCIDH', { value: '-1234' }],
    ]);
    const ctx = makeContext({ cookies: { [AMCV]: encodeAmcv(fields, 12345), [AMCVS]: '1' }, fetch: () => idReply({ error_msg: 'busy' }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(svc.orgId).toBe(SVC_ORG);
    const written = decodeAmcv(ctx.cookies.get(AMCV)!);
    expect(written.digest).toBe(179643557);
    expect(written.fields.get('MCMID')?.value).toBe(MID);
    expect(written.fields.has('MCCIDH')).toBe(false);
  });

  it('AMCVS_ is not written again while it lives, when the AMCV cookie is rewritten', async () => {
    const fields = new Map<string, { value: string; expiry?: number; session?: boolean }>([
      ['MCIDTS', { value: '19897' }],
      ['MCMID', { value: MID }],
      ['MCAAMLH', { value: '7', expiry: T + 601200 }],
      ['MCAAMB', { value: 'blob', expiry: T + 601200 }],
      ['MCOPTOUT', { value: 'NONE', expiry: T + 3600, session: true }],
    ]);
    const ctx = makeContext({ cookies: { [AMCV]: encodeAmcv(fields, 179643557), [AMCVS]: '1' }, fetch: () => idReply() });
    await createVisitorService(ctx).start();
    const written = ctx.effects.filter((e) => e.type === 'cookie').map((e) => (e as { name: string }).name);
    expect(written).toContain(AMCV);
    expect(written).not.toContain(AMCVS);
  });
});

/**
 * What the visitor service reads from and writes to its cookies (amcv-state.ts), and the answers
 * that depend on them (service.ts, id-call.ts): survivors of the 2026-11-23 mutation run.
 */
import { describe, expect, it } from 'vitest';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import { decodeAmcv, encodeAmcv } from '../../../src/worker-engine/visitor/amcv-cookie.ts';
import { AMCV, AMCVS, MID, ORG, T, idReply, makeContext } from './helpers.ts';

const OTHER_MID = '11111111111111111111111111111111111111';
const cookie = (fields: Record<string, string>) =>
  encodeAmcv(new Map(Object.entries(fields).map(([k, v]) => [k, { value: v }])), 179643557);
const handOff = (mid: string) => `https://www.example.com/?adobe_mc=${encodeURIComponent(`MCMID=${mid}|MCORGID=${ORG}|TS=${T - 10}`)}`;

describe('reading the visitor cookies', () => {
  it('takes the AID of an s_vi cookie when there is no AMCV cookie (with a tracking server); an s_vi without a hex id gives none', async () => {
    const ctx = makeContext({ cookies: { s_vi: '[CS]v1|2B5F6A1D05158B6E-40000604C0002C49[CE]' }, fetch: () => idReply() });
    // VisitorAPI reads s_vi only when it has a tracking server.
    const svc = createVisitorService(ctx, { trackingServer: 'metrics.example.com' });
    expect((await svc.call('getAnalyticsVisitorID', [null])).value).toBe('2B5F6A1D05158B6E-40000604C0002C49');
    expect((await svc.getVisitorValues()).MCAID).toBe('2B5F6A1D05158B6E-40000604C0002C49');
    const bad = createVisitorService(makeContext({ cookies: { s_vi: '[CS]v1|ZZZZ[CE]' }, fetch: () => idReply() }));
    expect((await bad.call('getAnalyticsVisitorID', [null])).value).toBe('');
  });

  it('an MCAID that is not hex is dropped from the AMCV cookie', async () => {
    const ctx = makeContext({ cookies: { [AMCV]: cookie({ MCMID: MID, MCAID: 'NOT-HEX-ZZ' }) }, fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    expect((await svc.call('getAnalyticsVisitorID', [null])).value).toBe('');
    expect(decodeAmcv(ctx.cookies.get(AMCV)!).fields.has('MCAID')).toBe(false);
  });

  it('an MID handed over in the URL wins over s_ecid; an s_ecid without a valid MID is not taken', async () => {
    const ctx = makeContext({ url: handOff(OTHER_MID), cookies: { s_ecid: `MCMID%7C${MID}` }, fetch: () => idReply({ d_mid: '33' }) });
    expect((await createVisitorService(ctx).getVisitorValues()).MCMID).toBe(OTHER_MID);
    const junk = makeContext({ cookies: { s_ecid: 'MCMID%7CZZZZ' }, fetch: () => idReply() });
    expect((await createVisitorService(junk).getVisitorValues()).MCMID).toBe(MID);
    const empty = makeContext({ cookies: { s_ecid: 'nothing' }, fetch: () => idReply() });
    expect((await createVisitorService(empty).getVisitorValues()).MCMID).toBe(MID);
  });

  it('an MID handed over in the URL replaces the cookie\'s only with overwriteCrossDomainMCIDAndAID', async () => {
    const base = { url: handOff(OTHER_MID), cookies: { [AMCV]: cookie({ MCMID: MID }) }, fetch: () => idReply({ d_mid: undefined }) };
    expect((await createVisitorService(makeContext(base)).getVisitorValues()).MCMID).toBe(MID);
    expect((await createVisitorService(makeContext(base), { overwriteCrossDomainMCIDAndAID: true }).getVisitorValues()).MCMID).toBe(OTHER_MID);
  });
});

describe('writing the visitor cookies', () => {
  it('a page whose cookies are off gets no AMCV cookie, and still its values', async () => {
    const ctx = makeContext({ page: { cookiesEnabled: false }, fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    expect((await svc.getVisitorValues()).MCMID).toBe(MID);
    expect(ctx.effects.filter((e) => e.type === 'cookie' && e.name.startsWith('AMCV'))).toEqual([]);
  });

  it('the daily call expires the blob now: a reply without a blob leaves it expired in the cookie', async () => {
    const old = encodeAmcv(
      new Map([
        ['MCIDTS', { value: '19897' }],
        ['MCMID', { value: MID }],
        ['MCAAMLH', { value: '7', expiry: T + 600000 }],
        ['MCAAMB', { value: 'OLDBLOB', expiry: T + 600000 }],
        ['MCOPTOUT', { value: 'NONE', expiry: T + 3600, session: true }],
      ]),
      179643557,
    );
    const ctx = makeContext({ cookies: { [AMCV]: old, [AMCVS]: '1' }, fetch: () => idReply({ d_blob: undefined }) });
    await createVisitorService(ctx).start();
    expect(decodeURIComponent(ctx.cookies.get(AMCV)!)).toContain(`|MCAAMB-${T}|OLDBLOB|`);
  });
});

describe('answers that read the cookie', () => {
  it('isOptedOut: a list of categories opts out of those only; the global value opts out of all', async () => {
    const ctx = makeContext({ fetch: () => idReply({ d_optout: ['aa', 'target'], d_ottl: 60 }) });
    const svc = createVisitorService(ctx);
    expect(await svc.call('isOptedOut', [null, 'aa'])).toEqual({ value: true, callbacks: [[true]] });
    expect(await svc.call('isOptedOut', [null, 'target'])).toEqual({ value: true, callbacks: [[true]] });
    expect(await svc.call('isOptedOut', [null, 'ecid'])).toEqual({ value: false, callbacks: [[false]] });
    expect(await svc.call('isOptedOut', [null])).toEqual({ value: false, callbacks: [[false]] });
    expect((await svc.getVisitorValues()).MCOPTOUT).toBe(false);
    const all = createVisitorService(makeContext({ fetch: () => idReply({ d_optout: ['global'], d_ottl: 60 }) }));
    expect(await all.call('isOptedOut', [null, 'aa'])).toEqual({ value: true, callbacks: [[true]] });
  });

  it('without ECID consent, the opt-out status is asked again once its TTL has passed', async () => {
    const ctx = makeContext({ fetch: () => ({ status: 200, body: JSON.stringify({ d_optout: ['global'], d_ottl: 60 }) }) });
    const svc = createVisitorService(ctx, { optIn: { doesOptInApply: true, previousPermissions: { ecid: false } } });
    expect((await svc.call('getOptOut', [null])).value).toBe('global');
    ctx.clock.now += 59_000;
    await svc.call('getOptOut', [null]);
    expect(ctx.requests).toHaveLength(1);
    ctx.clock.now += 2_000;
    await svc.call('getOptOut', [null]);
    expect(ctx.requests).toHaveLength(2);
    const down = makeContext();
    const svc2 = createVisitorService(down, { optIn: { doesOptInApply: true, previousPermissions: { ecid: false } } });
    expect((await svc2.call('getOptOut', [null])).value).toBe('NONE');
  });

  it('getVisitorValues carries an AID from the cookie when the service has a tracking server (none without)', async () => {
    const ctx = makeContext({ cookies: { [AMCV]: cookie({ MCMID: MID, MCAID: '2B5F6A1D05158B6E-40000604C0002C49' }) }, fetch: () => idReply() });
    expect((await createVisitorService(ctx, { trackingServer: 'metrics.example.com' }).getVisitorValues()).MCAID).toBe('2B5F6A1D05158B6E-40000604C0002C49');
  });
});

describe('start conditions', () => {
  it('a path exclusion matches exactly even when it is not a valid regex, and any one of several matches', async () => {
    for (const pathExclusions of [['/a(b'], ['/nope', '^/a']]) {
      const ctx = makeContext({ url: 'https://www.example.com/a(b', fetch: () => idReply() });
      await createVisitorService(ctx, { pathExclusions }).start();
      expect(ctx.requests).toEqual([]);
    }
    const ctx = makeContext({ url: 'https://www.example.com/shop', fetch: () => idReply() });
    await createVisitorService(ctx, { pathExclusions: ['/a(b'] }).start();
    expect(ctx.requests).toHaveLength(1);
  });

  it('opt-in completing before start, on an excluded page, or without an org makes no ID call', async () => {
    const early = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(early, { optIn: { doesOptInApply: true } });
    await svc.call('optIn.approve', [['ecid']]);
    await Promise.resolve();
    expect(early.requests).toEqual([]);
    const excluded = makeContext({ url: 'https://www.example.com/checkout', fetch: () => idReply() });
    const svc2 = createVisitorService(excluded, { optIn: { doesOptInApply: true }, pathExclusions: ['/checkout'] });
    void svc2.start();
    await svc2.call('optIn.approve', [['ecid']]);
    await new Promise((r) => setTimeout(r, 0));
    expect(excluded.requests).toEqual([]);
    const noOrg = makeContext({ config: { orgId: '' }, fetch: () => idReply() });
    const svc3 = createVisitorService(noOrg, { optIn: { doesOptInApply: true } });
    void svc3.start();
    await svc3.call('optIn.approve', [['ecid']]);
    await new Promise((r) => setTimeout(r, 0));
    expect(noOrg.requests).toEqual([]);
  });

  it('the opt-in cookie is host-only when the cookie domain is the page\'s own host', async () => {
    const ctx = makeContext({ page: { cookieDomain: 'www.example.com' } });
    const svc = createVisitorService(ctx, { optIn: { doesOptInApply: true, isOptInStorageEnabled: true } });
    await svc.call('optIn.approve', [['aa']]);
    expect(ctx.effects.find((e) => e.type === 'cookie' && e.name === 'adobeujs-optin')).toMatchObject({ domain: '' });
  });
});

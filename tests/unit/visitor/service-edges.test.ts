/**
 * The visitor service (VisitorAPI.js 5.5.0: response fields, cookies, opt-in, serverState and SDID, the API) beyond service.test.ts and facade-calls.test.ts:
 * the opt-in cookie and a late ECID approval, opt-out values, what getVisitorValues leaves out,
 * customer ids on a page where the library does not run, the SDID calls and an opaque origin.
 */
import { describe, expect, it } from 'vitest';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import { decodeAmcv, encodeAmcv } from '../../../src/worker-engine/visitor/amcv-cookie.ts';
import { AMCV, AMCVS, MID, ORG, T, idReply, makeContext } from './helpers.ts';

const AID = '2F3C6E9A05162F8E-40000A1B2C3D4E5F';
const DIGEST = 179643557;

const idCalls = (ctx: ReturnType<typeof makeContext>) => ctx.requests.filter((r) => r.kind === 'id-service');

/** An AMCV cookie the library would leave: MID, hint and blob valid for a week, MCOPTOUT as given. */
function cookieWith(extra: Array<[string, { value: string; expiry?: number; session?: boolean }]> = []): string {
  const fields = new Map<string, { value: string; expiry?: number; session?: boolean }>([
    ['MCIDTS', { value: '19899' }],
    ['MCMID', { value: MID }],
    ['MCAAMLH', { value: '7', expiry: T + 601200 }],
    ['MCAAMB', { value: 'RKhpRz8krg2tLO6pguXWp5olkAcUniQYPHaMWWgdJ3xzPWQmdj0y', expiry: T + 601200 }],
    ...extra,
  ]);
  return encodeAmcv(fields, DIGEST);
}

describe('opt-in through the service', () => {
  it('reads a stored adobeujs-optin cookie: ECID approved there, the ID call goes out without waiting', async () => {
    const stored = encodeURIComponent(JSON.stringify({ ecid: true, aa: true }));
    const ctx = makeContext({ cookies: { 'adobeujs-optin': stored }, fetch: () => idReply() });
    const svc = createVisitorService(ctx, { optIn: { doesOptInApply: true, isOptInStorageEnabled: true } });
    await svc.start();
    expect(idCalls(ctx)).toHaveLength(1);
    expect(svc.isApproved('aa')).toBe(true);
    expect(svc.isApproved('target')).toBe(false);
  });

  it('logs the opt-in validation messages as errors', () => {
    const ctx = makeContext();
    createVisitorService(ctx, { optIn: { doesOptInApply: true, previousPermissions: '{}' } });
    expect(ctx.logs).toEqual([{ level: 'error', message: 'Invalid `previousPermissions`!' }]);
  });

  it('ECID approved after a start without it makes the ID call then', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx, { optIn: { doesOptInApply: true, previousPermissions: { ecid: false } } });
    await svc.start();
    expect(idCalls(ctx)).toHaveLength(0);
    await svc.call('optIn.approve', ['ecid']);
    expect(await svc.getVisitorValues()).toMatchObject({ MCMID: MID });
    expect(idCalls(ctx)).toHaveLength(1);
    // Approving another category afterwards completes again, but asks nothing new.
    await svc.call('optIn.approve', ['aa']);
    await svc.getVisitorValues();
    expect(idCalls(ctx)).toHaveLength(1);
  });

  it('an opt-in completion on an excluded path or before start() makes no ID call', async () => {
    const before = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(before, { optIn: { doesOptInApply: true } });
    await svc.call('optIn.approve', ['ecid']);
    await Promise.resolve();
    expect(before.requests).toEqual([]);
    const excluded = makeContext({ url: 'https://www.example.com/checkout', fetch: () => idReply() });
    const svc2 = createVisitorService(excluded, { pathExclusions: ['/checkout'], optIn: { doesOptInApply: true } });
    await svc2.start();
    await svc2.call('optIn.approve', ['ecid']);
    await svc2.getVisitorValues();
    expect(excluded.requests).toEqual([]);
  });
});

describe('opt-out values', () => {
  it('NONE is never an opt-out, whatever type is asked', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(await svc.call('getOptOut', [null])).toEqual({ value: 'NONE', callbacks: [['NONE']] });
    expect(await svc.call('isOptedOut', [null, 'NONE'])).toEqual({ value: false, callbacks: [[false]] });
    expect(await svc.call('isOptedOut', [null])).toEqual({ value: false, callbacks: [[false]] });
  });

  it('isOptedOut without a type asks for global, also when global is one of several', async () => {
    const ctx = makeContext({ fetch: () => idReply({ d_optout: ['aa', 'global'], d_ottl: 60 }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(await svc.call('getOptOut', [null])).toEqual({ value: 'aa,global', callbacks: [['aa,global']] });
    expect((await svc.call('isOptedOut', [null])).value).toBe(true);
    expect((await svc.call('isOptedOut', [null, 'aa'])).value).toBe(true);
    expect((await svc.call('isOptedOut', [null, 'target'])).value).toBe(false);
    expect((await svc.getVisitorValues()).MCOPTOUT).toBe(true);
  });

  it('an expired opt-out is what getOptOut answers while the ID service does not answer; none at all is NONE', async () => {
    const expired = cookieWith([['MCOPTOUT', { value: 'global', expiry: T - 10, session: true }]]);
    const ctx = makeContext({ cookies: { [AMCV]: expired, [AMCVS]: '1' } });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(idCalls(ctx)).toHaveLength(1);
    expect((await svc.call('getOptOut', [null])).value).toBe('global');
    const fresh = createVisitorService(makeContext());
    expect((await fresh.call('getOptOut', [null])).value).toBe('NONE');
  });
});

describe('getVisitorValues leaves out what it does not have', () => {
  it('no hint or blob in the reply: no MCAAMLH or MCAAMB keys', async () => {
    const ctx = makeContext({ fetch: () => ({ status: 200, body: JSON.stringify({ d_mid: MID }) }) });
    const svc = createVisitorService(ctx);
    const values = await svc.getVisitorValues();
    expect(values).toStrictEqual({ MCOPTOUT: false, MCMID: MID });
  });

  it('a NOTARGET MID (stored NONE) is left out, and no local MID replaces it', async () => {
    const ctx = makeContext({ fetch: () => idReply({ d_mid: 'NOTARGET' }) });
    const svc = createVisitorService(ctx);
    const values = await svc.getVisitorValues();
    expect(Object.keys(values).sort()).toEqual(['MCAAMB', 'MCAAMLH', 'MCOPTOUT']);
    expect(decodeAmcv(ctx.cookies.get(AMCV)!).fields.get('MCMID')?.value).toBe('NONE');
    expect(await svc.call('getMarketingCloudVisitorID', [null, true])).toEqual({ value: '', callbacks: [['']] });
  });
});

describe('getters answer live ids only', () => {
  it('an MCAID past its expiry (a cookie that gives it one) is answered by neither its getter nor getVisitorValues', async () => {
    const cookie = cookieWith([['MCAID', { value: AID, expiry: T - 60 }]]);
    const ctx = makeContext({ cookies: { [AMCV]: cookie, [AMCVS]: '1' } });
    const svc = createVisitorService(ctx);
    expect(await svc.call('getAnalyticsVisitorID', [null, true])).toEqual({ value: '', callbacks: [['']] });
    expect((await svc.getVisitorValues()).MCAID).toBeUndefined();
    expect((await svc.call('getMarketingCloudVisitorID', [null, true])).value).toBe(MID);
  });
});

describe('customer ids where the library does not run', () => {
  it('setCustomerIDs keeps the ids but makes no ID call on an excluded path', async () => {
    const ctx = makeContext({ url: 'https://www.example.com/checkout', fetch: () => idReply() });
    const svc = createVisitorService(ctx, { pathExclusions: ['/checkout'] });
    await svc.call('setCustomerIDs', [{ crm: { id: 'c1', authState: 1 } }]);
    await svc.getVisitorValues();
    expect(ctx.requests).toEqual([]);
    expect(svc.getCustomerIDs()).toEqual({ crm: { id: 'c1', authState: 1 } });
  });

  it('setCustomerIDs makes no ID call without a valid org id', async () => {
    const ctx = makeContext({ config: { orgId: '' }, fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.call('setCustomerIDs', [{ crm: { id: 'c1', authState: 1 } }]);
    await svc.getVisitorValues();
    expect(ctx.requests).toEqual([]);
    expect(svc.orgId).toBe('');
  });

  it('a refused hash type is a warning', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.call('setCustomerIDs', [{ crm: 'abc' }, 'md5']);
    expect(ctx.logs.filter((l) => l.message.includes('only sha256 is accepted')).map((l) => l.level)).toEqual(['warn']);
  });
});

describe('appendVisitorIDsTo, SDID and resetState through the facade', () => {
  it('appendVisitorIDsTo carries the analytics id too', async () => {
    const ctx = makeContext({ cookies: { [AMCV]: cookieWith([['MCAID', { value: AID }]]), [AMCVS]: '1' }, fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    const url = (await svc.call('appendVisitorIDsTo', ['https://b.example/'])).value;
    expect(url).toBe(`https://b.example/?adobe_mc=${encodeURIComponent(`MCMID=${MID}|MCAID=${AID}|MCORGID=${encodeURIComponent(ORG)}|TS=${T}`)}`);
  });

  it('an SDID handed over in adobe_mc_sdid is the current one', async () => {
    const sdid = '0123456789ABCDEF-0123456789ABCDEF';
    const handed = encodeURIComponent(`SDID=${sdid}|MCORGID=${ORG}|TS=${T - 5}`);
    const ctx = makeContext({ url: `https://www.example.com/?adobe_mc_sdid=${handed}`, fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(svc.getSupplementalDataID('AppMeasurement:0', true)).toBe(sdid);
    expect((await svc.call('getSupplementalDataID', ['Target:0', true])).value).toBe(sdid);
  });

  it('getSupplementalDataID(consumer, true) makes none; a call without a consumer is the consumer ""', async () => {
    const svc = createVisitorService(makeContext({ fetch: () => idReply() }));
    expect(await svc.call('getSupplementalDataID', ['AppMeasurement:0', true])).toEqual({ value: '' });
    const a = (await svc.call('getSupplementalDataID', [''])).value;
    expect(a).toMatch(/^[0-9A-F]{16}-[0-9A-F]{16}$/);
    // The same consumer asking again starts a new id.
    expect((await svc.call('getSupplementalDataID', [])).value).not.toBe(a);
  });

  it('resetState(null) clears the SDID state like resetState()', async () => {
    const svc = createVisitorService(makeContext({ fetch: () => idReply() }));
    expect((await svc.call('getSupplementalDataID', ['AppMeasurement:0'])).value).not.toBe('');
    expect(await svc.call('resetState', [null])).toEqual({});
    expect(svc.getSupplementalDataID('AppMeasurement:0', true)).toBe('');
  });

  it('a serverState with customer ids only leaves the SDID state alone', async () => {
    const svc = createVisitorService(makeContext({ fetch: () => idReply() }));
    const sdid = (await svc.call('getSupplementalDataID', ['AppMeasurement:0'])).value;
    await svc.call('getInstance', [ORG, { serverState: { [ORG]: { customerIDs: { crm: { id: 'c1', authState: 1 } } } } }]);
    await svc.call('resetState', [{ [ORG]: { customerIDs: { crm2: { id: 'c2', authState: 0 } } } }]);
    expect(svc.getSupplementalDataID('Target:0', true)).toBe(sdid);
    expect(svc.getCustomerIDs()).toEqual({ crm: { id: 'c1', authState: 1 }, crm2: { id: 'c2', authState: 0 } });
  });

  it('idSyncByDataSource without a dpuuid sends an empty one', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(await svc.call('idSyncByDataSource', [{ dpid: '33' }])).toEqual({ value: 'Successfully queued' });
    const posted = ctx.effects.filter((e) => e.type === 'post-message' || e.type === 'iframe').map((e) => JSON.stringify(e));
    const text = decodeURIComponent(posted.join(' '));
    expect(text).toContain('ibs|33|img|//dpm.demdex.net/ibs:dpid=33&dpuuid=|20160||,33,');
    expect(text).not.toContain('Stryker');
  });
});

describe('a page with an opaque origin', () => {
  it('origin "null" (a sandboxed frame) still starts, and writes the opt-in cookie on the cookie domain', async () => {
    const ctx = makeContext({ fetch: () => idReply(), page: { origin: 'null' } });
    const svc = createVisitorService(ctx, { optIn: { doesOptInApply: true, isOptInStorageEnabled: true } });
    await svc.call('optIn.approve', ['ecid']);
    await svc.start();
    expect(idCalls(ctx)).toHaveLength(1);
    expect(ctx.effects.find((e) => e.type === 'cookie' && e.name === 'adobeujs-optin')).toMatchObject({ domain: 'example.com' });
  });
});

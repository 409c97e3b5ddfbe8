import { describe, expect, it } from 'vitest';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import { decodeAmcv, encodeAmcv } from '../../../src/worker-engine/visitor/amcv-cookie.ts';
import { customerIdsHash } from '../../../src/worker-engine/visitor/customer-ids.ts';
import { AMCV, AMCVS, FIXED_NOW, MID, ORG, T, idReply, makeContext, sha256Hex } from './helpers.ts';

/** What VisitorAPI.js 5.5.0 left after a first page view an hour ago. */
const REAL_COOKIE = encodeURIComponent(
  `179643557|MCIDTS|19899|MCMID|${MID}|MCAAMLH-${T + 601200}|7|MCAAMB-${T + 601200}|RKhpRz8krg2tLO6pguXWp5olkAcUniQYPHaMWWgdJ3xzPWQmdj0y|MCAID|NONE|MCOPTOUT-${T + 3600}s|NONE|vVersion|5.5.0`,
);

const idCalls = (ctx: ReturnType<typeof makeContext>) => ctx.requests.filter((r) => r.kind === 'id-service');

describe('visitor service', () => {
  it('accepts a cookie written by the real library and makes no call', async () => {
    const ctx = makeContext({ cookies: { [AMCV]: REAL_COOKIE, [AMCVS]: '1' }, fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(idCalls(ctx)).toHaveLength(0);
    expect(await svc.getVisitorValues()).toEqual({
      MCMID: MID,
      MCAAMLH: '7',
      MCAAMB: 'RKhpRz8krg2tLO6pguXWp5olkAcUniQYPHaMWWgdJ3xzPWQmdj0y',
      MCOPTOUT: false,
    });
    expect(ctx.effects.filter((e) => e.type === 'cookie')).toEqual([]);
  });

  it('asks again (MC, with d_mid) in a new session, and keeps the cookie MID over the reply', async () => {
    const ctx = makeContext({ cookies: { [AMCV]: REAL_COOKIE }, fetch: () => idReply({ d_mid: '11111111111111111111111111111111111111' }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(idCalls(ctx)).toHaveLength(1);
    expect(idCalls(ctx)[0]!.url).toContain(`&d_fieldgroup=MC&`);
    expect(idCalls(ctx)[0]!.url).toContain(`&d_mid=${MID}&`);
    expect((await svc.getVisitorValues()).MCMID).toBe(MID);
    expect(ctx.cookies.get(AMCVS)).toBe('1');
  });

  it('treats every expiring field as expired when the digest differs', async () => {
    const foreign = REAL_COOKIE.replace('179643557', '12345');
    const ctx = makeContext({ cookies: { [AMCV]: foreign, [AMCVS]: '1' }, fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(idCalls(ctx)).toHaveLength(1);
    expect(decodeAmcv(ctx.cookies.get(AMCV)!).digest).toBe(179643557);
  });

  it('calls once a day: an MCIDTS older than one day expires the blob and asks AAM', async () => {
    const fields = decodeAmcv(REAL_COOKIE).fields;
    fields.set('MCIDTS', { value: '19897' });
    const ctx = makeContext({ cookies: { [AMCV]: encodeAmcv(fields, 179643557), [AMCVS]: '1' }, fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(idCalls(ctx)).toHaveLength(1);
    expect(idCalls(ctx)[0]!.url).toContain('&d_fieldgroup=AAM&');
    expect(idCalls(ctx)[0]!.url).toContain('&d_blob=RKhpRz8krg2tLO6pguXWp5olkAcUniQYPHaMWWgdJ3xzPWQmdj0y');
    expect(decodeAmcv(ctx.cookies.get(AMCV)!).fields.get('MCIDTS')?.value).toBe('19899');
  });

  it('a return visit (new session) more than a day later asks AAM, not MC, and that one reply refreshes MCOPTOUT', async () => {
    const fields = decodeAmcv(REAL_COOKIE).fields;
    fields.set('MCIDTS', { value: '19897' });
    // No AMCVS cookie: the session-bound MCOPTOUT is gone too, which alone would ask MC.
    const ctx = makeContext({ cookies: { [AMCV]: encodeAmcv(fields, 179643557) }, fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(idCalls(ctx)).toHaveLength(1);
    expect(idCalls(ctx)[0]!.url).toMatch(/^https:\/\/dpm\.demdex\.net\/id\?d_visid_ver=5\.5\.0&d_fieldgroup=AAM&/);
    expect((await svc.getVisitorValues()).MCOPTOUT).toBe(false);
    expect(decodeAmcv(ctx.cookies.get(AMCV)!).fields.get('MCOPTOUT')).toMatchObject({ value: 'NONE', session: true });
    expect(idCalls(ctx)).toHaveLength(1);
  });

  it('uses a local MID on timeout, with the 30000 ms load timeout on the request', async () => {
    const ctx = makeContext({ fetch: () => ({ status: 0, body: '', error: 'timeout' }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(idCalls(ctx)[0]).toMatchObject({ method: 'GET', credentials: 'include', timeout: 30000 });
    expect((await svc.getVisitorValues()).MCMID).toMatch(/^\d{38}$/);
    expect((await svc.call('isMarketingCloudVisitorIDCallTimedOut', [])).value).toBe(true);
  });

  it('falls back to a local MID at once after a non-JSON or error reply, with a warning (no 30 s wait)', async () => {
    for (const res of [{ status: 200, body: '<html>oops' }, { status: 503, body: '' }, { status: 200, body: '[]' }]) {
      const ctx = makeContext({ fetch: () => res });
      const svc = createVisitorService(ctx);
      await svc.start();
      expect(ctx.clock.now).toBe(FIXED_NOW);
      expect((await svc.getVisitorValues()).MCMID).toMatch(/^\d{38}$/);
      expect(ctx.logs[0]?.level).toBe('warn');
    }
  });

  it('stores the opt-out and answers isOptedOut / getOptOut', async () => {
    const ctx = makeContext({ fetch: () => idReply({ d_optout: ['global'], d_ottl: 60 }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect((await svc.getVisitorValues()).MCOPTOUT).toBe(true);
    expect(await svc.call('isOptedOut', [null, 'global'])).toEqual({ value: true, callbacks: [[true]] });
    expect(await svc.call('getOptOut', [null])).toEqual({ value: 'global', callbacks: [['global']] });
    expect(decodeURIComponent(ctx.cookies.get(AMCV)!)).toContain(`|MCOPTOUT-${T + 60}s|global|`);
  });

  it('answers getters: the callback fires for a cached value only when forced', async () => {
    const ctx = makeContext({ cookies: { [AMCV]: REAL_COOKIE, [AMCVS]: '1' } });
    const svc = createVisitorService(ctx);
    expect(await svc.call('getMarketingCloudVisitorID', [null])).toEqual({ value: MID, callbacks: [[MID]] });
    expect(await svc.call('getMarketingCloudVisitorID', [null])).toEqual({ value: MID, callbacks: [] });
    expect(await svc.call('getMarketingCloudVisitorID', [null, true])).toEqual({ value: MID, callbacks: [[MID]] });
    expect((await svc.call('getLocationHint', [null, true])).value).toBe('7');
    expect((await svc.call('getAudienceManagerBlob', [null, true])).value).toMatch(/^RKhp/);
    expect((await svc.call('getAnalyticsVisitorID', [null, true])).value).toBe('');
    expect(await svc.call('getVisitorValues', [null, ['MCMID']])).toEqual({ value: { MCMID: MID }, callbacks: [[{ MCMID: MID }]] });
    expect((await svc.call('isAllowed', [])).value).toBe(true);
    await expect(svc.call('nope', [])).rejects.toThrow('Visitor has no method "nope".');
  });

  it('hashes customer ids, sends them with d_cid_ic and fires an AAM call when they change', async () => {
    const ctx = makeContext({ cookies: { [AMCV]: REAL_COOKIE, [AMCVS]: '1' }, fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    await svc.call('setCustomerIDs', [{ email: { id: ' Me@Example.com ', authState: 1 } }, 'sha256']);
    await svc.getVisitorValues();
    const calls = idCalls(ctx);
    expect(calls).toHaveLength(1);
    const hashed = await sha256Hex('me@example.com');
    expect(calls[0]!.url).toContain(`&d_fieldgroup=AAM&`);
    expect(calls[0]!.url).toContain(`&d_cid_ic=email%01${hashed}%011&ts=`);
    expect(svc.getCustomerIDs()).toEqual({ email: { id: hashed, authState: 1 } });
    expect(decodeAmcv(ctx.cookies.get(AMCV)!).fields.get('MCCIDH')?.value).toBe(customerIdsHash({ email: { id: hashed, authState: 1 } }));
    await svc.call('setCustomerIDs', [{ email: { id: ' Me@Example.com ', authState: 1 } }, 'sha256']);
    await svc.getVisitorValues();
    expect(idCalls(ctx)).toHaveLength(1);
    await svc.call('setCustomerIDs', [{ crm: 'abc' }, 'md5']);
    expect(ctx.logs.some((l) => l.message.includes('only sha256 is accepted'))).toBe(true);
    expect((await svc.call('getCustomerIDs', [true])).value).toEqual({ dataSources: { email: { id: hashed, authState: 1 } }, nameSpaces: {} });
  });

  it('holds the ID call until ECID is approved, and answers empty values while denied', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx, { optIn: { doesOptInApply: true, isOptInStorageEnabled: true } });
    const started = svc.start();
    await Promise.resolve();
    expect(idCalls(ctx)).toHaveLength(0);
    expect(svc.isApproved('aa')).toBe(false);
    await svc.call('optIn.approve', [['ecid', 'aa']]);
    await started;
    expect(idCalls(ctx)).toHaveLength(1);
    expect(svc.isApproved('aa')).toBe(true);
    expect((await svc.getVisitorValues()).MCMID).toBe(MID);
    expect(ctx.cookies.get('adobeujs-optin')).toBeDefined();
    const optInWrite = ctx.effects.find((e) => e.type === 'cookie' && e.name === 'adobeujs-optin');
    expect(optInWrite).toMatchObject({ expires: FIXED_NOW + 33696000 * 1000, domain: 'example.com', path: '/' });
    await expect(svc.call('optIn.approve', [['x']])).rejects.toThrow('[OptIn] Invalid category(-ies). Please use the `OptIn.Categories` enum.');

    const denied = makeContext({ fetch: () => ({ status: 200, body: JSON.stringify({ d_optout: [], d_ottl: 7200 }) }) });
    const svc2 = createVisitorService(denied, { optIn: { doesOptInApply: true, previousPermissions: { ecid: false } } });
    await svc2.start();
    expect(await svc2.getVisitorValues()).toEqual({});
    expect(await svc2.call('getMarketingCloudVisitorID', [null])).toEqual({ value: '', callbacks: [['']] });
    expect(await svc2.call('isOptedOut', [null])).toEqual({ value: false, callbacks: [[false]] });
    expect(denied.requests.map((r) => r.kind)).toEqual(['opt-out-status']);
    expect(denied.requests[0]!.url).toMatch(/^https:\/\/dpm\.demdex\.net\/optOutStatus\?d_visid_ver=5\.5\.0&d_fieldgroup=MC&/);
    await svc2.call('isOptedOut', [null]);
    expect(denied.requests).toHaveLength(1);
    expect((await svc2.call('optIn.fetchPermissions', [null])).callbacks).toEqual([[expect.objectContaining({ ecid: false })]]);
  });

  it('logs the exact opt-in validation messages', async () => {
    const ctx = makeContext();
    createVisitorService(ctx, { optIn: { doesOptInApply: true, previousPermissions: '{}', preOptInApprovals: { bad: true } } });
    expect(ctx.logs.map((l) => l.message)).toEqual(['Invalid `preOptInApprovals`!', 'Invalid `previousPermissions`!']);
  });

  it('refuses a missing or non-string org id', async () => {
    const ctx = makeContext({ config: { orgId: '' } });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(ctx.logs).toEqual([{ level: 'error', message: 'Visitor requires Adobe Marketing Cloud Org ID.' }]);
    expect(await svc.getVisitorValues()).toEqual({});
    await expect(svc.call('getInstance', [42])).rejects.toThrow('Org ID is not a string.');
    const ok = createVisitorService(makeContext({ config: { orgId: 'ABC' } }));
    expect(ok.orgId).toBe('ABC@AdobeOrg');
  });

  it('does not load on an excluded path', async () => {
    const ctx = makeContext({ url: 'https://www.example.com/checkout/pay', fetch: () => idReply() });
    const svc = createVisitorService(ctx, { pathExclusions: ['^/checkout'] });
    await svc.start();
    expect(ctx.logs).toEqual([{ level: 'warn', message: 'MCID library not loaded. One of the path exclusions matches the current path.' }]);
    expect(ctx.requests).toEqual([]);
    expect(await svc.getVisitorValues()).toEqual({});
  });

  it('takes ids handed over in adobe_mc when the cookie has none', async () => {
    const handed = encodeURIComponent(`MCMID=${MID}|MCORGID=0123456789ABCDEF01234567@AdobeOrg|TS=${T - 120}`);
    const ctx = makeContext({ url: `https://www.example.com/?adobe_mc=${handed}`, fetch: () => idReply({ d_mid: '22' }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(idCalls(ctx)[0]!.url).toContain(`&d_mid=${MID}&`);
    expect((await svc.getVisitorValues()).MCMID).toBe(MID);
    const appended = (await svc.call('appendVisitorIDsTo', ['https://other.example/p#x'])).value as string;
    expect(appended).toBe(
      `https://other.example/p?adobe_mc=${encodeURIComponent(`MCMID=${MID}|MCORGID=0123456789ABCDEF01234567%40AdobeOrg|TS=${T}`)}#x`,
    );
  });

  it('applies serverState and reports a malformed one', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx, {
      serverState: { [ORG]: { customerIDs: { crm: { id: 'abc', authState: 1 } }, sdid: { supplementalDataIDCurrent: 'AAAA-BBBB' } } },
    });
    await svc.start();
    expect(idCalls(ctx)[0]!.url).toContain('&d_cid_ic=crm%01abc%011&');
    expect(svc.getSupplementalDataID('AppMeasurement:0', true)).toBe('AAAA-BBBB');
    await expect(svc.call('resetState', ['{bad'])).rejects.toThrow('`serverState` has an invalid format.');
    await svc.call('resetState', []);
    // Cleared: a consumer that does not generate gets none; one that may, makes one.
    expect(svc.getSupplementalDataID('AppMeasurement:0', true)).toBe('');
    expect(svc.getSupplementalDataID('AppMeasurement:0', false)).toMatch(/^[0-9A-F]{16}-[0-9A-F]{16}$/);
    const bad = makeContext({ fetch: () => idReply() });
    await createVisitorService(bad, { serverState: 'nope' }).start();
    expect(bad.logs).toContainEqual({ level: 'error', message: '`serverState` has an invalid format.' });
  });

  it('checks the ID-sync iframe origin and tracks first-party syncs when third-party cookies fail', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    const frame = ctx.effects.find((e) => e.type === 'iframe') as { id: string; targetOrigin: string; src: string };
    expect(frame.targetOrigin).toBe('https://dpm.demdex.net');
    expect(frame.src).toBe('https://dpm.demdex.net/dest5.html?d_nsid=0#https%3A%2F%2Fwww.example.com');
    svc.onFrameMessage(frame.id, 'https://evil.example', '---destpub-to-parent---canSetThirdPartyCookies|false');
    expect(ctx.effects.filter((e) => e.type === 'image')).toEqual([]);
    svc.onFrameMessage(frame.id, 'https://dpm.demdex.net', '---destpub-to-parent---canSetThirdPartyCookies|false');
    expect(ctx.effects.filter((e) => e.type === 'image')).toEqual([{ type: 'image', src: 'https://cm.example.net/pixel?id=1' }]);
    expect(decodeURIComponent(ctx.cookies.get(AMCV)!)).toContain('|MCSYNCS|411-19906|');
    expect((await svc.call('idSyncByURL', [{ dpid: '22', url: 'https://s.example/p' }])).value).toBe('Successfully queued');
    expect(ctx.effects.at(-1)).toMatchObject({ type: 'post-message', frameId: frame.id, targetOrigin: 'https://dpm.demdex.net' });
  });

  it('sends no iframe when syncs are disabled, and d_coppa without third-party cookies', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    await createVisitorService(ctx, { disableThirdPartyCookies: true }).start();
    expect(ctx.effects.some((e) => e.type === 'iframe')).toBe(false);
    expect(idCalls(ctx)[0]!.url).toContain('&d_coppa=true&');
  });

  it('clears the sync lists and prefixes the next post when the region changes', async () => {
    const fields = decodeAmcv(REAL_COOKIE).fields;
    fields.set('MCSYNCSOP', { value: '477-19906' });
    fields.set('MCAAMLH', { value: '3', expiry: T - 1 });
    const ctx = makeContext({ cookies: { [AMCV]: encodeAmcv(fields, 179643557), [AMCVS]: '1' }, fetch: () => idReply() });
    await createVisitorService(ctx).start();
    const frame = ctx.effects.find((e) => e.type === 'iframe') as { messages: string[] };
    expect(frame.messages[0]!.startsWith('---destpub-clear-dextp------destpub-combined---')).toBe(true);
    expect(decodeURIComponent(ctx.cookies.get(AMCV)!)).not.toContain('MCSYNCSOP');
  });
});

describe('visitor ids from cookies', () => {
  it('drops an MCMID that is not hex digits and dashes, and asks for a real one', async () => {
    const fields = decodeAmcv(REAL_COOKIE).fields;
    fields.set('MCMID', { value: '<img src=x>' });
    const ctx = makeContext({ cookies: { [AMCV]: encodeAmcv(fields, 179643557), [AMCVS]: '1' }, fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(idCalls(ctx)).toHaveLength(1);
    expect(idCalls(ctx)[0]!.url).not.toContain('d_mid');
    expect((await svc.getVisitorValues()).MCMID).toBe(MID);
  });

  it('reads the MID of a server-set s_ecid when there is no AMCV cookie', async () => {
    const ctx = makeContext({ cookies: { s_ecid: `MCMID%7C${MID}` }, fetch: () => idReply({ d_mid: '33' }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(idCalls(ctx)[0]!.url).toContain(`&d_mid=${MID}&`);
    expect((await svc.getVisitorValues()).MCMID).toBe(MID);
  });
});

describe("the AMCV cookie's domain and lifetime (VisitorAPI's cookieDomain and cookieLifetime)", () => {
  const amcvWrites = (ctx: ReturnType<typeof makeContext>) =>
    ctx.effects.filter((e): e is Extract<typeof e, { type: 'cookie' }> => e.type === 'cookie' && e.name === AMCV);

  it('cookieDomain replaces the detected domain; a lifetime in seconds replaces the two years', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    await createVisitorService(ctx, { cookieDomain: 'shop.example.com', cookieLifetime: 3600 }).start();
    const writes = amcvWrites(ctx);
    expect(writes.length).toBeGreaterThan(0);
    for (const w of writes) expect({ domain: w.domain, expires: w.expires }).toEqual({ domain: 'shop.example.com', expires: FIXED_NOW + 3_600_000 });
  });

  it('SESSION writes a session cookie; NONE writes none', async () => {
    const session = makeContext({ fetch: () => idReply() });
    await createVisitorService(session, { cookieLifetime: 'SESSION' }).start();
    expect(amcvWrites(session).length).toBeGreaterThan(0);
    for (const w of amcvWrites(session)) expect(w.expires).toBeUndefined();
    const none = makeContext({ fetch: () => idReply() });
    await createVisitorService(none, { cookieLifetime: 'NONE' }).start();
    expect(amcvWrites(none)).toEqual([]);
  });
});

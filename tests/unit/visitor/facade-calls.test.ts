/** The `Visitor` facade's calls the other visitor tests do not make, each checked by its answer. */
import { describe, expect, it } from 'vitest';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import { AMCV, MID, ORG, T, idReply, makeContext } from './helpers.ts';

describe('Visitor facade calls', () => {
  it('getInstance answers the org; another org is warned about; its serverState is applied, a broken one said', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    expect(await svc.call('getInstance', [ORG])).toEqual({ value: ORG });
    expect(ctx.logs).toEqual([]);
    expect(await svc.call('getInstance', ['OTHER', { serverState: { [ORG]: { customerIDs: { crm: { id: 'c1', authState: 1 } } } } }])).toEqual({ value: ORG });
    expect(ctx.logs).toEqual([{ level: 'warn', message: `Visitor.getInstance("OTHER@AdobeOrg"): this container serves "${ORG}" only.` }]);
    expect(svc.getCustomerIDs()).toEqual({ crm: { id: 'c1', authState: 1 } });
    await svc.call('getInstance', [ORG, { serverState: '{broken' }]);
    expect(ctx.logs.at(-1)).toEqual({ level: 'error', message: '`serverState` has an invalid format.' });
  });

  it('getCustomerIDs answers a copy: changing it changes nothing in the service', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx, { serverState: { [ORG]: { customerIDs: { crm: { id: 'c1', authState: 1 } } } } });
    await svc.start();
    const got = (await svc.call('getCustomerIDs', [])).value as Record<string, { id: string }>;
    expect(got).toEqual({ crm: { id: 'c1', authState: 1 } });
    got.crm!.id = 'changed';
    svc.getCustomerIDs().crm!.id = 'changed too';
    expect(svc.getCustomerIDs()).toEqual({ crm: { id: 'c1', authState: 1 } });
  });

  it('setCustomerIDs is ignored while ECID is not approved, and when the visitor opted out', async () => {
    const denied = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(denied, { optIn: { doesOptInApply: true, previousPermissions: { ecid: false } } });
    expect(await svc.call('setCustomerIDs', [{ crm: { id: 'x', authState: 1 } }])).toEqual({});
    expect(svc.getCustomerIDs()).toEqual({});
    const out = makeContext({ fetch: () => idReply({ d_optout: ['global'], d_ottl: 60 }) });
    const svc2 = createVisitorService(out);
    await svc2.start();
    await svc2.call('setCustomerIDs', [{ crm: { id: 'x', authState: 1 } }]);
    expect(svc2.getCustomerIDs()).toEqual({});
    expect(out.requests.filter((r) => r.kind === 'id-service')).toHaveLength(1);
  });

  it('the timed-out getters say which call got no usable reply', async () => {
    const ctx = makeContext({ fetch: () => ({ status: 0, body: '', error: 'timeout' }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(await svc.call('isMarketingCloudVisitorIDCallTimedOut', [])).toEqual({ value: true });
    expect(await svc.call('isAudienceManagerCallTimedOut', [])).toEqual({ value: false });
    expect(await svc.call('isAnalyticsVisitorIDCallTimedOut', [])).toEqual({ value: false });
    const net = makeContext();
    const svc2 = createVisitorService(net);
    await svc2.start();
    // No network at all is not a timeout.
    expect(await svc2.call('isMarketingCloudVisitorIDCallTimedOut', [])).toEqual({ value: false });
  });

  it('appendVisitorIDsTo without a string URL appends to ""; getSupplementalDataID shares one id per consumer', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    expect((await svc.call('appendVisitorIDsTo', [undefined])).value).toBe(`?adobe_mc=${encodeURIComponent(`MCMID=${MID}|MCORGID=${encodeURIComponent(ORG)}|TS=${T}`)}`);
    const a = (await svc.call('getSupplementalDataID', ['AppMeasurement:0'])).value;
    expect(a).toMatch(/^[0-9A-F]{16}-[0-9A-F]{16}$/);
    expect((await svc.call('getSupplementalDataID', ['Target:0'])).value).toBe(a);
    expect((await svc.call('getSupplementalDataID', [undefined, true])).value).toBe(a);
    expect(svc.getSupplementalDataID('Other:0', true)).toBe(a);
  });

  it("getSupplementalDataID with the id the page's Visitor already gave (a third argument): the worker's consumers get that id next", async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    expect((await svc.call('getSupplementalDataID', ['mbox:0', true, 'AAAA-BBBB'])).value).toBe('AAAA-BBBB');
    // The Analytics hit (it makes none itself) takes it; the page consumer's next id replaces it, the previous one kept for consumers that had not taken it.
    expect(svc.getSupplementalDataID('AppMeasurement:0', true)).toBe('AAAA-BBBB');
    await svc.call('getSupplementalDataID', ['mbox:0', true, 'CCCC-DDDD']);
    expect([svc.getSupplementalDataID('AppMeasurement:0', true), svc.getSupplementalDataID('Other:0', true)]).toEqual(['CCCC-DDDD', 'AAAA-BBBB']);
  });

  it('idSyncByURL before the first reply is queued and posted with the reply\'s syncs; errors are the library\'s texts', async () => {
    let answer!: (r: ReturnType<typeof idReply>) => void;
    const ctx = makeContext({ fetch: () => new Promise((r) => (answer = r)) });
    const svc = createVisitorService(ctx);
    const started = svc.start();
    expect(await svc.call('idSyncByURL', [{ dpid: '22', url: 'https://s.example/p' }])).toEqual({ value: 'Successfully queued' });
    expect(await svc.call('idSyncByURL', [])).toEqual({ value: 'Error: config.dpid is empty' });
    expect(await svc.call('idSyncByDataSource', [{ dpid: '33', dpuuid: 'u1' }])).toEqual({ value: 'Successfully queued' });
    expect(await svc.call('idSyncByDataSource', [])).toEqual({ value: 'Error: config.dpid is empty' });
    expect(ctx.effects.some((e) => e.type === 'iframe')).toBe(false);
    await Promise.resolve();
    answer(idReply());
    await started;
    const frame = ctx.effects.find((e) => e.type === 'iframe') as { messages: string[] };
    const entries = decodeURIComponent(frame.messages[0]!);
    expect(entries).toContain('ibs|22|img|//s.example/p|20160||,22,');
    expect(entries).toContain('ibs|33|img|//dpm.demdex.net/ibs:dpid=33&dpuuid=u1|20160||,33,u1');
    expect(entries).toContain('ibs|411|img|//cm.example.net/pixel?id=1');
    const disabled = createVisitorService(makeContext(), { disableIdSyncs: true });
    expect(await disabled.call('idSyncByURL', [{ dpid: '22', url: 'https://s.example/p' }])).toEqual({ value: 'Error: id syncs have been disabled' });
  });

  it('a frame message from another frame is ignored; a message from the iframe\'s origin that is not a verdict is ignored too', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    svc.onFrameMessage('any', 'https://dpm.demdex.net', '---destpub-to-parent---canSetThirdPartyCookies|false');
    await svc.start();
    const frame = ctx.effects.find((e) => e.type === 'iframe') as { id: string };
    svc.onFrameMessage('other', 'https://dpm.demdex.net', '---destpub-to-parent---canSetThirdPartyCookies|false');
    svc.onFrameMessage(frame.id, 'https://dpm.demdex.net', '---destpub-to-parent---canSetThirdPartyCookies|true');
    expect(ctx.effects.filter((e) => e.type === 'image')).toEqual([]);
    // Fired once: the second verdict finds nothing left to fire.
    svc.onFrameMessage(frame.id, 'https://dpm.demdex.net', '---destpub-to-parent---canSetThirdPartyCookies|false');
    svc.onFrameMessage(frame.id, 'https://dpm.demdex.net', '---destpub-to-parent---canSetThirdPartyCookies|false');
    expect(ctx.effects.filter((e) => e.type === 'image')).toHaveLength(1);
  });

  it('a page on http fires protocol-relative first-party syncs over http', async () => {
    const ctx = makeContext({ url: 'http://www.example.com/', fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    const frame = ctx.effects.find((e) => e.type === 'iframe') as { id: string; targetOrigin: string };
    svc.onFrameMessage(frame.id, frame.targetOrigin, '---destpub-to-parent---canSetThirdPartyCookies|false');
    expect(ctx.effects.filter((e) => e.type === 'image')).toEqual([{ type: 'image', src: 'http://cm.example.net/pixel?id=1' }]);
  });

  it('on-page syncs (syncOnPage) fire at once, once per TTL, into MCSYNCSOP', async () => {
    const onPage = [{ id: '477', tag: 'img', url: ['https://op.example/p', '//op.example/q'], ttl: 1440, fireURLSync: 0, syncOnPage: 1 }];
    const ctx = makeContext({ fetch: () => idReply({ ibs: onPage }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(ctx.effects.filter((e) => e.type === 'image')).toEqual([
      { type: 'image', src: 'https://op.example/p' },
      { type: 'image', src: 'https://op.example/q' },
    ]);
    expect(ctx.effects.some((e) => e.type === 'iframe')).toBe(false);
    expect(decodeURIComponent(ctx.cookies.get(AMCV)!)).toContain('|MCSYNCSOP|477-19900|');
  });
});

describe('the opt-in calls (adobe.optIn through the facade)', () => {
  it('approve, deny, approveAll, denyAll, complete, status, permissions, isApproved, isPreApproved', async () => {
    const svc = createVisitorService(makeContext(), { optIn: { doesOptInApply: true, preOptInApprovals: { aa: true } } });
    expect(await svc.call('optIn.status', [])).toEqual({ value: 'pending' });
    expect(await svc.call('optIn.isPreApproved', ['aa'])).toEqual({ value: true });
    expect(await svc.call('optIn.isPreApproved', ['target'])).toEqual({ value: false });
    expect(await svc.call('optIn.approve', ['target', true])).toEqual({});
    expect(await svc.call('optIn.status', [])).toEqual({ value: 'changed' });
    expect(await svc.call('optIn.isApproved', ['target'])).toEqual({ value: false });
    expect(await svc.call('optIn.complete', [])).toEqual({});
    expect(await svc.call('optIn.isApproved', ['target'])).toEqual({ value: true });
    expect(await svc.call('optIn.status', [])).toEqual({ value: 'complete' });
    expect(await svc.call('optIn.deny', ['target'])).toEqual({});
    expect(await svc.call('optIn.isApproved', ['target'])).toEqual({ value: false });
    expect(await svc.call('optIn.approveAll', [])).toEqual({});
    expect((await svc.call('optIn.permissions', [])).value).toMatchObject({ aa: true, target: true, ecid: true });
    expect(await svc.call('optIn.denyAll', [])).toEqual({});
    expect((await svc.call('optIn.permissions', [])).value).toMatchObject({ aa: false, target: false, ecid: false });
    expect(svc.isApproved('nonsense')).toBe(false);
  });
});

describe('ID syncs over several replies', () => {
  it('an entry already posted is not posted again; an on-page sync already done is not fired again', async () => {
    const onPage = { id: '477', tag: 'img', url: ['https://op.example/p'], ttl: 1440, fireURLSync: 0, syncOnPage: 1 };
    const framed = { id: '411', tag: 'img', url: ['//cm.example.net/pixel?id=1'], ttl: 10080, fireURLSync: 1, syncOnPage: 0 };
    const quiet = { id: '500', tag: 'img', url: ['//q.example/p'], ttl: 10080, fireURLSync: 0, syncOnPage: 0 };
    const ctx = makeContext({ fetch: () => idReply({ ibs: [onPage, framed, quiet] }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    const writes = () => ctx.effects.filter((e) => e.type === 'cookie' && e.name === AMCV).length;
    const before = writes();
    // A new set of customer ids asks again; the reply repeats the same syncs.
    await svc.call('setCustomerIDs', [{ crm: { id: 'c', authState: 1 } }]);
    await svc.getVisitorValues();
    expect(ctx.requests.filter((r) => r.kind === 'id-service')).toHaveLength(2);
    expect(ctx.effects.filter((e) => e.type === 'post-message')).toEqual([]);
    expect(ctx.effects.filter((e) => e.type === 'image')).toEqual([{ type: 'image', src: 'https://op.example/p' }]);
    // The second reply changed MCCIDH only: one more cookie write, none for an unchanged sync list.
    expect(writes()).toBe(before + 1);
    const frame = ctx.effects.find((e) => e.type === 'iframe') as { id: string; targetOrigin: string };
    svc.onFrameMessage(frame.id, frame.targetOrigin, '---destpub-to-parent---canSetThirdPartyCookies|false');
    // Only the entry marked fireURLSync is fired by the page, once (it was listed with each reply).
    expect(ctx.effects.filter((e) => e.type === 'image').map((e) => (e as { src: string }).src)).toEqual([
      'https://op.example/p',
      'https://cm.example.net/pixel?id=1',
    ]);
  });

  it('after the region changed, only the first post clears the iframe\'s list', async () => {
    const first = { id: '1', tag: 'img', url: ['//a.example/p'], ttl: 10080, fireURLSync: 0, syncOnPage: 0 };
    const fields = new Map([['MCMID', { value: MID }], ['MCAAMLH', { value: '3' }]]);
    const { encodeAmcv } = await import('../../../src/worker-engine/visitor/amcv-cookie.ts');
    const ctx = makeContext({ cookies: { [AMCV]: encodeAmcv(fields, 179643557) }, fetch: () => idReply({ ibs: [first] }) });
    const svc = createVisitorService(ctx);
    await svc.start();
    await svc.call('idSyncByURL', [{ dpid: '22', url: 'https://s.example/p' }]);
    const frame = ctx.effects.find((e) => e.type === 'iframe') as { messages: string[] };
    expect(frame.messages[0]!.startsWith('---destpub-clear-dextp---')).toBe(true);
    const post = ctx.effects.find((e) => e.type === 'post-message') as { message: string };
    expect(post.message.startsWith('---destpub-combined---')).toBe(true);
  });
});

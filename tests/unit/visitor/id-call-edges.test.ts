/**
 * The ID call when the ID service does not give what it should: what the console says, which MID the
 * visitor ends with, what the cookie keeps, and what the devtools feed shows of each call.
 */
import { describe, expect, it } from 'vitest';
import { decodeAmcv } from '../../../src/worker-engine/visitor/amcv-cookie.ts';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import type { NetResponse } from '../../../src/protocol.ts';
import { AMCV, AMCVS, MID, T, idReply, makeContext } from './helpers.ts';

const COOKIE_MID = '11111111111111111111111111111111111111';
const LOCAL_MID = /^\d{38}$/;

/** An AMCV cookie with a MID and a live MCOPTOUT but expired AAM fields: the next start asks AAM. */
const withMid = (extra = '') =>
  encodeURIComponent(`179643557|MCIDTS|19899|MCMID|${COOKIE_MID}|MCAAMLH-${T - 10}|9|MCAAMB-${T - 10}|OLDBLOB|MCOPTOUT-${T + 3600}s|NONE${extra}|vVersion|5.5.0`);

async function started(fetch: () => NetResponse, cookies: Record<string, string> = {}) {
  // With an AMCV cookie, the session's AMCVS_ too: the page is in the session that wrote it.
  const ctx = makeContext({ fetch, cookies: cookies[AMCV] ? { [AMCVS]: '1', ...cookies } : cookies });
  const svc = createVisitorService(ctx);
  await svc.start();
  return { ctx, svc, fields: () => decodeAmcv(ctx.cookies.get(AMCV)!).fields };
}

describe('an ID call without a usable answer', () => {
  it('a reply whose MID is refused and no MID known: a local MID, said once', async () => {
    const { ctx, svc } = await started(() => idReply({ d_mid: 'ZZZZ-not-hex' }));
    const values = await svc.getVisitorValues();
    expect(values.MCMID).toMatch(LOCAL_MID);
    expect(ctx.logs).toEqual([{ level: 'warn', message: 'Visitor ID call: the reply had no valid MID; using a local Marketing Cloud ID.' }]);
    // The rest of the reply is used.
    expect(values.MCAAMLH).toBe('7');
  });
  it('a reply whose MID is refused keeps the cookie\'s MID, without a message', async () => {
    const { ctx, svc } = await started(() => idReply({ d_mid: 'ZZZZ' }), { [AMCV]: withMid() });
    expect((await svc.getVisitorValues()).MCMID).toBe(COOKIE_MID);
    expect(ctx.logs).toEqual([]);
  });
  it('no network: "failed", a local MID, and not a timeout', async () => {
    const { ctx, svc, fields } = await started(() => ({ status: 0, body: '', error: 'network' }));
    expect(ctx.logs).toEqual([{ level: 'warn', message: 'Visitor ID call failed; using a local Marketing Cloud ID.' }]);
    expect(fields().get('MCMID')?.value).toMatch(LOCAL_MID);
    expect((await svc.call('isMarketingCloudVisitorIDCallTimedOut', [])).value).toBe(false);
  });
  it('a timeout: "timed out", a local MID, and the call group timed out', async () => {
    const { ctx, svc } = await started(() => ({ status: 0, body: '', error: 'timeout' }));
    expect(ctx.logs).toEqual([{ level: 'warn', message: 'Visitor ID call timed out; using a local Marketing Cloud ID.' }]);
    expect((await svc.call('isMarketingCloudVisitorIDCallTimedOut', [])).value).toBe(true);
  });
  it('an HTTP error: the reason, with the local MID said only when one was made', async () => {
    const first = await started(() => ({ status: 503, body: '' }));
    expect(first.ctx.logs).toEqual([{ level: 'warn', message: 'Visitor ID call: ID service answered HTTP 503; using a local Marketing Cloud ID.' }]);
    const known = await started(() => ({ status: 503, body: '' }), { [AMCV]: withMid() });
    expect(known.ctx.logs).toEqual([{ level: 'warn', message: 'Visitor ID call: ID service answered HTTP 503.' }]);
    expect((await known.svc.getVisitorValues()).MCMID).toBe(COOKIE_MID);
    // The AAM call is the one that timed out; the MID is kept.
    expect((await known.svc.call('isAudienceManagerCallTimedOut', [])).value).toBe(true);
    expect((await known.svc.call('isMarketingCloudVisitorIDCallTimedOut', [])).value).toBe(false);
  });
  it('a timeout with a MID known says nothing and keeps the MID', async () => {
    const { ctx, svc } = await started(() => ({ status: 0, body: '', error: 'timeout' }), { [AMCV]: withMid() });
    expect(ctx.logs).toEqual([]);
    expect((await svc.getVisitorValues()).MCMID).toBe(COOKIE_MID);
  });
  it('the stale location hint and blob are what the getters answer while the ID service does not answer', async () => {
    const { svc } = await started(() => ({ status: 0, body: '', error: 'timeout' }), { [AMCV]: withMid() });
    expect((await svc.call('getLocationHint', [])).value).toBe('9');
    expect((await svc.call('getAudienceManagerLocationHint', [])).value).toBe('9');
    expect((await svc.call('getAudienceManagerBlob', [])).value).toBe('OLDBLOB');
    expect(await svc.getVisitorValues()).toMatchObject({ MCAAMLH: '9', MCAAMB: 'OLDBLOB' });
  });
  it('a call that throws is said as an error and the next call still runs', async () => {
    let n = 0;
    const ctx = makeContext({
      fetch: () => {
        if (n++ === 0) throw new Error('socket exploded');
        return idReply();
      },
    });
    const svc = createVisitorService(ctx);
    await svc.start();
    expect(ctx.logs).toEqual([{ level: 'error', message: 'Visitor ID call failed: socket exploded' }]);
    await svc.call('setCustomerIDs', [{ crm: { id: 'c1', authState: 1 } }]);
    await svc.getVisitorValues();
    expect(ctx.requests.filter((r) => r.kind === 'id-service')).toHaveLength(2);
    expect((await svc.getVisitorValues()).MCMID).toBe(MID);
  });
  it('a call that throws a non-Error says what was thrown', async () => {
    const ctx = makeContext({
      fetch: () => {
        throw 'offline';
      },
    });
    await createVisitorService(ctx).start();
    expect(ctx.logs).toEqual([{ level: 'error', message: 'Visitor ID call failed: offline' }]);
  });
});

describe('what an ID call leaves in the cookie', () => {
  it('an error_msg reply keeps MCCIDH as it was; a clean reply without customer ids removes it', async () => {
    const cidh = `|MCCIDH|12345`;
    const err = await started(() => idReply({ error_msg: 'partial' }), { [AMCV]: withMid(cidh) });
    expect(err.fields().get('MCCIDH')?.value).toBe('12345');
    const clean = await started(() => idReply(), { [AMCV]: withMid(cidh) });
    expect(clean.fields().has('MCCIDH')).toBe(false);
  });
  it('a new location hint clears the sync lists; the same one keeps them', async () => {
    const syncs = `|MCSYNCSOP|411-19905`;
    const moved = await started(() => idReply({ d_region: 3, dcs_region: 3 }), { [AMCV]: withMid(syncs) });
    expect(moved.fields().get('MCAAMLH')?.value).toBe('3');
    expect(moved.fields().has('MCSYNCSOP')).toBe(false);
    const same = await started(() => idReply({ d_region: 9, dcs_region: 9, ibs: [] }), { [AMCV]: withMid(syncs) });
    expect(same.fields().get('MCSYNCSOP')?.value).toBe('411-19905');
  });
  it('a reply without a region or blob leaves the stored ones', async () => {
    const { fields } = await started(() => idReply({ d_region: undefined, dcs_region: undefined, d_blob: undefined }), { [AMCV]: withMid() });
    expect(fields().get('MCAAMLH')?.value).toBe('9');
    expect(fields().get('MCAAMB')?.value).toBe('OLDBLOB');
  });
  it('the reply\'s MID replaces the cookie\'s only with overwriteCrossDomainMCIDAndAID', async () => {
    const ctx = makeContext({ fetch: () => idReply(), cookies: { [AMCV]: withMid() } });
    const svc = createVisitorService(ctx, { overwriteCrossDomainMCIDAndAID: true });
    await svc.start();
    expect((await svc.getVisitorValues()).MCMID).toBe(MID);
    const kept = await started(() => idReply(), { [AMCV]: withMid() });
    expect((await kept.svc.getVisitorValues()).MCMID).toBe(COOKIE_MID);
  });
  it('a live MCOPTOUT is not replaced by the reply\'s', async () => {
    const { fields } = await started(() => idReply({ d_optout: ['global'] }), { [AMCV]: withMid() });
    expect(fields().get('MCOPTOUT')?.value).toBe('NONE');
  });
});

describe('the devtools feed of the ID calls', () => {
  it('each /id call is shown with its URL and field group', async () => {
    const { ctx } = await started(() => idReply());
    const calls = ctx.monitors.filter((m) => m.name === 'visitor-id-call');
    expect(calls).toEqual([{ name: 'visitor-id-call', data: { url: ctx.requests[0]!.url, fieldGroup: 'MC' } }]);
    const aam = await started(() => idReply(), { [AMCV]: withMid() });
    expect(aam.ctx.monitors.filter((m) => m.name === 'visitor-id-call').map((m) => (m.data as { fieldGroup: string }).fieldGroup)).toEqual(['AAM']);
  });
  it('the /id request asks for JSON as a form-encoded GET with credentials, under the 30 s load timeout', async () => {
    const { ctx } = await started(() => idReply());
    expect(ctx.requests[0]).toMatchObject({
      kind: 'id-service',
      method: 'GET',
      credentials: 'include',
      timeout: 30000,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
  });
});

describe('which call a page asks for', () => {
  /** Every field live: MID, today's MCIDTS (or `idts`), hint and blob for 10 minutes, the session's MCOPTOUT. */
  const live = (idts = 19899, extra = '') =>
    encodeURIComponent(`179643557|MCIDTS|${idts}|MCMID|${COOKIE_MID}|MCAAMLH-${T + 600}|9|MCAAMB-${T + 600}|BLOB|MCOPTOUT-${T + 3600}s|NONE${extra}|vVersion|5.5.0`);
  const idCalls = (ctx: ReturnType<typeof makeContext>) => ctx.requests.filter((r) => r.kind === 'id-service');

  it('a call made yesterday is not due again today; one made two days ago is (AAM, the blob expired)', async () => {
    const yesterday = await started(() => idReply(), { [AMCV]: live(19898) });
    expect(idCalls(yesterday.ctx)).toHaveLength(0);
    const older = await started(() => idReply({ d_blob: undefined }), { [AMCV]: live(19897) });
    expect(idCalls(older.ctx).map((r) => new URL(r.url).searchParams.get('d_fieldgroup'))).toEqual(['AAM']);
    expect(older.fields().get('MCIDTS')?.value).toBe('19899');
  });
  it('new customer ids make the AAM call due, with the ids and the stored blob, and no d_coppa by default', async () => {
    const { ctx, svc } = await started(() => idReply(), { [AMCV]: live() });
    expect(idCalls(ctx)).toHaveLength(0);
    await svc.call('setCustomerIDs', [{ crm: { id: 'c1', authState: 1 } }]);
    await svc.getVisitorValues();
    const url = new URL(idCalls(ctx)[0]!.url);
    expect(url.searchParams.get('d_fieldgroup')).toBe('AAM');
    expect(url.searchParams.get('d_mid')).toBe(COOKIE_MID);
    expect(url.searchParams.get('d_blob')).toBe('BLOB');
    expect(url.searchParams.has('d_coppa')).toBe(false);
    expect(url.searchParams.get('d_cid_ic')).toContain('crm');
  });
  it('a MID the service answered NOTARGET for (NONE) is not sent back as d_mid', async () => {
    const none = encodeURIComponent(`179643557|MCIDTS|19899|MCMID|NONE|MCAAMLH-${T - 10}|9|MCOPTOUT-${T + 3600}s|NONE|vVersion|5.5.0`);
    const { ctx } = await started(() => idReply(), { [AMCV]: none });
    const url = new URL(idCalls(ctx)[0]!.url);
    expect(url.searchParams.has('d_mid')).toBe(false);
  });
  it('getVisitorValues waits for an ID call still under way', async () => {
    let answer: ((r: NetResponse) => void) | undefined;
    const ctx = makeContext({
      cookies: { [AMCVS]: '1', [AMCV]: live() },
      fetch: () => new Promise<NetResponse>((resolve) => (answer = resolve)),
    });
    const svc = createVisitorService(ctx);
    await svc.start();
    await svc.call('setCustomerIDs', [{ crm: { id: 'c1', authState: 1 } }]);
    let values: Awaited<ReturnType<typeof svc.getVisitorValues>> | undefined;
    const pending = svc.getVisitorValues().then((v) => (values = v));
    // The fetch is the only thing that does not answer in a microtask: one task later, the rest is done.
    await new Promise((r) => setImmediate(r));
    expect(answer).toBeDefined();
    expect(values).toBeUndefined();
    answer!(idReply({ d_blob: 'NEWBLOB' }));
    await pending;
    expect(values!.MCAAMB).toBe('NEWBLOB');
  });
  it('the rejected reply fields are said at warn level', async () => {
    const { ctx } = await started(() => idReply({ d_blob: 'a|b' }));
    expect(ctx.logs).toEqual([{ level: 'warn', message: 'Visitor ID call: the reply\'s d_blob held "|" or "*", which would change the AMCV cookie\'s fields; left out.' }]);
  });
  it('a new location hint clears both sync lists', async () => {
    const { fields } = await started(() => idReply({ d_region: 3, dcs_region: 3, ibs: [] }), { [AMCV]: withMid('|MCSYNCS|22-19905|MCSYNCSOP|411-19905') });
    expect(fields().has('MCSYNCS')).toBe(false);
    expect(fields().has('MCSYNCSOP')).toBe(false);
  });
});

describe('the opt-out status without ECID consent', () => {
  it('is asked with a credentialed GET, kept until exactly its TTL, then asked again', async () => {
    const ctx = makeContext({ fetch: () => ({ status: 200, body: JSON.stringify({ d_optout: ['global'], d_ottl: 60 }) }) });
    const svc = createVisitorService(ctx, { optIn: { doesOptInApply: true, previousPermissions: { ecid: false } } });
    expect((await svc.call('getOptOut', [null])).value).toBe('global');
    expect(ctx.requests[0]).toMatchObject({ kind: 'opt-out-status', method: 'GET', credentials: 'include', timeout: 30000 });
    ctx.clock.now += 59_999;
    await svc.call('getOptOut', [null]);
    expect(ctx.requests).toHaveLength(1);
    ctx.clock.now += 1;
    await svc.call('getOptOut', [null]);
    expect(ctx.requests).toHaveLength(2);
  });
});

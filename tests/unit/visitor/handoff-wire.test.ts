/**
 * The `adobe_mc` hand-off as VisitorAPI 5.5.0 writes and reads it, and where a handed
 * analytics id goes. docs/visitor.md, "adobe_mc hand-off and the analytics id", names each test here.
 */
import { describe, expect, it } from 'vitest';
import { decodeAmcv } from '../../../src/worker-engine/visitor/amcv-cookie.ts';
import { buildIdQuery } from '../../../src/worker-engine/visitor/id-request.ts';
import { sdidFromUrl } from '../../../src/worker-engine/visitor/sdid.ts';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import { appendVisitorIDsTo, idsFromUrl } from '../../../src/worker-engine/visitor/url-handoff.ts';
import { AMCV, AMCVS, FIXED_NOW, MID, ORG, T, idReply, makeContext } from './helpers.ts';

const AID = '2F3C6E9A05162F8E-40000A1B2C3D4E5F';
/** The bytes VisitorAPI 5.5.0's appendVisitorIDsTo writes: each value encoded, then the whole parameter. */
const LIBRARY_MC = `adobe_mc=MCMID%3D${MID}%7CMCAID%3D${AID}%7CMCORGID%3D0123456789ABCDEF01234567%2540AdobeOrg%7CTS%3D${T}`;
const idCalls = (ctx: ReturnType<typeof makeContext>) => ctx.requests.filter((r) => r.kind === 'id-service');

describe('adobe_mc as VisitorAPI 5.5.0 writes it', () => {
  it('appendVisitorIDsTo encodes each value, then the whole parameter (MCORGID=…%2540AdobeOrg)', () => {
    expect(appendVisitorIDsTo('https://b.example/', { MCMID: MID, MCAID: AID }, ORG, FIXED_NOW)).toBe(`https://b.example/?${LIBRARY_MC}`);
  });
  it('TS is the clock rounded to the second, as the library rounds it', () => {
    expect(appendVisitorIDsTo('https://b.example/', { MCMID: MID }, ORG, FIXED_NOW + 600)).toContain(`%7CTS%3D${T + 1}`);
  });
  it('a landing page decodes the parameter, then each value: the org matches and the ids are taken', () => {
    expect(idsFromUrl(`https://www.example.com/?${LIBRARY_MC}`, ORG, FIXED_NOW)).toEqual({ MCMID: MID, MCAID: AID });
    // A value that does not decode: the library ignores the whole parameter.
    expect(idsFromUrl(`https://www.example.com/?adobe_mc=MCMID%3D%25E0%7CMCORGID%3D${encodeURIComponent(ORG)}%7CTS%3D${T}`, ORG, FIXED_NOW)).toBeUndefined();
  });
  it('a fresh hand-off is taken: the /id call asks AAM with the handed d_mid, and the AMCV cookie holds both ids', async () => {
    const ctx = makeContext({ url: `https://www.example.com/landing?${LIBRARY_MC}`, fetch: () => idReply() });
    const svc = createVisitorService(ctx);
    await svc.start();
    const url = idCalls(ctx)[0]!.url;
    expect(url).toContain('d_fieldgroup=AAM');
    expect(url).toContain(`&d_mid=${MID}`);
    expect(url).not.toContain('d_verify=1');
    await svc.getVisitorValues();
    const fields = decodeAmcv(ctx.cookies.get(AMCV)!).fields;
    expect(fields.get('MCMID')?.value).toBe(MID);
    expect(fields.get('MCAID')?.value).toBe(AID);
  });
  it('adobe_mc_sdid is read the same way (SDID=…|MCORGID=…%40AdobeOrg, encoded again)', () => {
    const sdid = '0123456789ABCDEF-0123456789ABCDEF';
    const url = `https://www.example.com/?adobe_mc_sdid=SDID%3D${sdid}%7CMCORGID%3D0123456789ABCDEF01234567%2540AdobeOrg%7CTS%3D${T}`;
    expect(sdidFromUrl(url, ORG, FIXED_NOW)).toBe(sdid);
  });
});

describe('a handed analytics id (MCAID)', () => {
  it('goes to Audience Manager as d_cid_ic=AVID%01<aid>, after d_blob and before the customer ids', () => {
    const q = buildIdQuery({ idServiceHost: 'dpm.demdex.net', fieldGroup: 'AAM', orgId: ORG, containerId: 0, mid: MID, blob: 'B', aid: AID, customerIdParams: '&d_cid_ic=crm%01x', now: 1 });
    expect(q).toContain(`&d_blob=B&d_cid_ic=AVID%01${AID}&d_cid_ic=crm%01x&ts=1`);
  });
  it('the /id call of a landing page carries it', async () => {
    const ctx = makeContext({ url: `https://www.example.com/?${LIBRARY_MC}`, fetch: () => idReply() });
    await createVisitorService(ctx).start();
    expect(idCalls(ctx)[0]!.url).toContain(`&d_cid_ic=AVID%01${AID}`);
  });
  it('is no visitor value (so no aid on the beacon) unless the service has a tracking server', async () => {
    const without = createVisitorService(makeContext({ url: `https://www.example.com/?${LIBRARY_MC}`, fetch: () => idReply() }));
    expect((await without.getVisitorValues()).MCAID).toBeUndefined();
    expect((await without.call('getAnalyticsVisitorID', [null])).value).toBe('');
    const withServer = createVisitorService(makeContext({ url: `https://www.example.com/?${LIBRARY_MC}`, fetch: () => idReply() }), {
      trackingServer: 'metrics.example.com',
    });
    expect((await withServer.getVisitorValues()).MCAID).toBe(AID);
  });
});

describe('a hand-off on a return visit', () => {
  it('expires the blob the cookie holds, so the landing page asks Audience Manager again', async () => {
    const first = makeContext({ fetch: () => idReply() });
    const svc = createVisitorService(first);
    await svc.getVisitorValues();
    expect(idCalls(first)).toHaveLength(1);
    const cookies = { [AMCV]: first.cookies.get(AMCV)!, [AMCVS]: first.cookies.get(AMCVS)! };
    const again = makeContext({ url: 'https://www.example.com/', cookies, fetch: () => idReply() });
    await createVisitorService(again).getVisitorValues();
    expect(idCalls(again)).toHaveLength(0);
    const landing = makeContext({ url: `https://www.example.com/?${LIBRARY_MC}`, cookies, fetch: () => idReply() });
    await createVisitorService(landing).getVisitorValues();
    expect(idCalls(landing)).toHaveLength(1);
    expect(idCalls(landing)[0]!.url).toContain('d_fieldgroup=AAM');
  });
});

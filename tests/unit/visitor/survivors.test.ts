/**
 * Edges the mutation run of the visitor module (docs/testing.md) found unchecked: the service built
 * on its first use (late-options.ts, which adobeServices() uses), the analytics id `NONE` the ID call
 * leaves out, getter answers for an id the cookie lacks or holds expired, resetState without an
 * argument, and the URL readers on strings that are not absolute URLs.
 */
import { describe, expect, it } from 'vitest';
import { encodeAmcv } from '../../../src/worker-engine/visitor/amcv-cookie.ts';
import { createLateVisitorService } from '../../../src/worker-engine/visitor/late-options.ts';
import { hostnameOf, pathnameOf } from '../../../src/worker-engine/visitor/path-exclusion.ts';
import { handOffPairs, queryParam } from '../../../src/worker-engine/visitor/sdid.ts';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import { AMCV, MID, ORG, T, idReply, makeContext } from './helpers.ts';

const AID = '2F3C6E9A05162F8E-40000A1B2C3D4E5F';
const VERDICT = '---destpub-to-parent---canSetThirdPartyCookies|';
const idCalls = (ctx: ReturnType<typeof makeContext>) => ctx.requests.filter((r) => r.kind === 'id-service');
const amcvCookie = (ctx: ReturnType<typeof makeContext>) => ctx.effects.find((e) => e.type === 'cookie' && e.name === AMCV) as { domain?: string; expires?: number } | undefined;

describe('the service built on its first use (adobeServices)', () => {
  it('builds with the fixed options and those configured before its first use; refuses configuration after', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createLateVisitorService(ctx, { cookieLifetime: 'SESSION' });
    expect(svc.configure!({ cookieDomain: 'shop.example' })).toBe(true);
    expect(svc.orgId).toBe(ORG);
    expect(svc.configure!({ cookieDomain: 'late.example' })).toBe(false);
    await svc.start();
    expect(idCalls(ctx)).toHaveLength(1);
    expect((await svc.getVisitorValues()).MCMID).toBe(MID);
    const written = amcvCookie(ctx)!;
    expect(written.domain).toBe('shop.example');
    expect(written).not.toHaveProperty('expires');
  });

  it('answers every call from the service it built', async () => {
    const ctx = makeContext({ fetch: () => idReply() });
    const svc = createLateVisitorService(ctx);
    await svc.start();
    expect(svc.isApproved('aa')).toBe(true);
    expect(svc.getCustomerIDs()).toEqual({});
    expect(svc.getSupplementalDataID('AppMeasurement:0', false)).toMatch(/^[0-9A-F]{16}-[0-9A-F]{16}$/);
    expect((await svc.call('getMarketingCloudVisitorID', [null])).value).toBe(MID);
    const frame = ctx.effects.find((e) => e.type === 'iframe') as { id: string; targetOrigin: string };
    svc.onFrameMessage(frame.id, frame.targetOrigin, `${VERDICT}true`);
    expect(ctx.monitors.filter((m) => m.name === 'visitor-id-sync')).toEqual([{ name: 'visitor-id-sync', data: { canSetThirdPartyCookies: true } }]);
  });
});

describe('the analytics id', () => {
  it('MCAID NONE in the cookie is not sent to Audience Manager (as VisitorAPI leaves it out)', async () => {
    const fields = new Map([
      ['MCMID', { value: MID }],
      ['MCAID', { value: 'NONE' }],
    ]);
    const ctx = makeContext({ cookies: { [AMCV]: encodeAmcv(fields, 179643557) }, fetch: () => idReply() });
    await createVisitorService(ctx).start();
    expect(idCalls(ctx)).toHaveLength(1);
    expect(idCalls(ctx)[0]!.url).toContain('d_fieldgroup=AAM');
    expect(idCalls(ctx)[0]!.url).not.toContain('d_cid_ic=AVID');
  });

  it('with a tracking server and no analytics id anywhere, getAnalyticsVisitorID answers the empty string', async () => {
    const svc = createVisitorService(makeContext({ fetch: () => idReply() }), { trackingServer: 'metrics.example.com' });
    expect(await svc.call('getAnalyticsVisitorID', [null])).toEqual({ value: '', callbacks: [['']] });
  });

  it('an expired MCAID in the cookie is not answered', async () => {
    const fields = new Map([
      ['MCMID', { value: MID }],
      ['MCAID', { value: AID, expiry: T - 10 }],
    ]);
    const ctx = makeContext({ cookies: { [AMCV]: encodeAmcv(fields, 179643557) }, fetch: () => idReply() });
    const svc = createVisitorService(ctx, { trackingServer: 'metrics.example.com' });
    expect((await svc.call('getAnalyticsVisitorID', [null])).value).toBe('');
  });
});

describe('resetState', () => {
  it('without an argument starts a new supplemental data id, which another consumer would have shared', async () => {
    const svc = createVisitorService(makeContext({ fetch: () => idReply() }));
    const first = svc.getSupplementalDataID('AppMeasurement:0', false);
    // Without the reset, Target would share the id AppMeasurement took (sdid-handover.test.ts).
    await svc.call('resetState', []);
    const next = svc.getSupplementalDataID('Target:0', false);
    expect(next).toMatch(/^[0-9A-F]{16}-[0-9A-F]{16}$/);
    expect(next).not.toBe(first);
  });
});

describe('URL readers on any string', () => {
  it('a string that does not begin with a scheme has the path / and no host', () => {
    expect(pathnameOf('/landing?next=https://b.example/p')).toBe('/');
    expect(hostnameOf('x https://b.example/')).toBe('');
    expect(hostnameOf('null')).toBe('');
    expect(hostnameOf('https://b.example:8443/p')).toBe('b.example');
  });
  it('a hand-off parameter that is absent or empty is no pairs at all', () => {
    expect(handOffPairs('https://www.example.com/?a=1', 'adobe_mc')).toBeUndefined();
    expect(handOffPairs('https://www.example.com/?adobe_mc=&a=1', 'adobe_mc')).toBeUndefined();
  });
  it('a string without "?" has no query; a parameter with an empty name is found by the empty name', () => {
    expect(queryParam('a=1', 'a')).toBeUndefined();
    expect(queryParam('https://x.example/?=v&b=2', '')).toBe('v');
  });
});

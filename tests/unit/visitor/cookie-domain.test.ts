/**
 * The visitor service's cookies on a real cookie domain, in the `.example.com` form the bridge's
 * probe gives (probeCookieDomain): AMCV_, AMCVS_ and the opt-in cookie are shared by the site's
 * hosts, as VisitorAPI.js writes them with its `cookieDomain`.
 */
import { describe, expect, it } from 'vitest';
import type { CookieWrite } from '../../../src/protocol.ts';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import { AMCV, AMCVS, idReply, makeContext } from './helpers.ts';

const DOMAIN = '.example.com';

const writes = (ctx: { effects: { type: string }[] }, name: string) =>
  ctx.effects.filter((e): e is CookieWrite => e.type === 'cookie' && (e as CookieWrite).name === name);

describe('visitor cookies on a real cookie domain', () => {
  it('AMCV_ and AMCVS_ are written on the cookie domain, path /', async () => {
    const ctx = makeContext({ fetch: () => idReply(), page: { cookieDomain: DOMAIN } });
    await createVisitorService(ctx).start();
    const [amcv] = writes(ctx, AMCV);
    expect(amcv).toMatchObject({ path: '/', domain: DOMAIN });
    expect(writes(ctx, AMCVS)).toEqual([expect.objectContaining({ value: '1', path: '/', domain: DOMAIN })]);
  });

  it('the opt-in cookie goes on the cookie domain; optInCookieDomain overrides it', async () => {
    const ctx = makeContext({ fetch: () => idReply(), page: { cookieDomain: DOMAIN } });
    const svc = createVisitorService(ctx, { optIn: { doesOptInApply: true, isOptInStorageEnabled: true } });
    await svc.call('optIn.approve', [['ecid']]);
    expect(writes(ctx, 'adobeujs-optin')).toEqual([expect.objectContaining({ path: '/', domain: DOMAIN })]);

    const own = makeContext({ fetch: () => idReply(), page: { cookieDomain: DOMAIN } });
    const svc2 = createVisitorService(own, {
      optIn: { doesOptInApply: true, isOptInStorageEnabled: true, optInCookieDomain: 'shop.example.com' },
    });
    await svc2.call('optIn.approve', [['ecid']]);
    expect(writes(own, 'adobeujs-optin')).toEqual([expect.objectContaining({ domain: 'shop.example.com' })]);
  });

  it('a host-only page (cookie domain empty) writes AMCV_ host-only', async () => {
    const ctx = makeContext({ fetch: () => idReply(), page: { cookieDomain: '' } });
    await createVisitorService(ctx).start();
    expect(writes(ctx, AMCV)[0]?.domain).toBe('');
  });
});

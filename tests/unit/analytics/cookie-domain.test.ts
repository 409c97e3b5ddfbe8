/**
 * Every cookie the tracker writes goes on the page's cookie domain, in the `.example.com` form the
 * bridge's probe gives (probeCookieDomain), so the site's other hosts read the same s_cc, s_sq and
 * s_fid. A write that lost its domain would be host-only and split the visitor across subdomains.
 */
import { describe, expect, it } from 'vitest';
import type { CookieWrite, LinkClick } from '../../../src/protocol.ts';
import { createAnalyticsService } from '../../../src/worker-engine/analytics/tracker.ts';
import { makeContext, stubVisitor } from '../harness.ts';

const DOMAIN = '.example.com';

function setup(opts: Parameters<typeof makeContext>[0] = {}, values?: Parameters<typeof stubVisitor>[0]) {
  const ctx = makeContext({ ...opts, page: { cookieDomain: DOMAIN, ...opts.page } });
  return { ctx, analytics: createAnalyticsService(ctx, stubVisitor(values)) };
}

const writes = (ctx: { effects: { type: string }[] }, name: string) =>
  ctx.effects.filter((e): e is CookieWrite => e.type === 'cookie' && (e as CookieWrite).name === name);

const internal: LinkClick = { href: 'https://www.example.com/next', text: 'Next', region: 'BODY', hasTlCall: false };

describe('tracker cookies on a real cookie domain', () => {
  it('s_cc (the cookie check) is written on the cookie domain, path /', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', vars: { pageName: 'home' } });
    expect(writes(ctx, 's_cc')).toEqual([expect.objectContaining({ value: 'true', path: '/', domain: DOMAIN })]);
  });

  it('s_sq keeps an internal click on the cookie domain, and is emptied there by the next hit', async () => {
    const first = setup();
    await first.analytics.onClick(internal);
    const [kept] = writes(first.ctx, 's_sq');
    expect(kept).toMatchObject({ path: '/', domain: DOMAIN });
    const next = setup({ cookies: { s_sq: kept!.value } });
    await next.analytics.track({ type: 't', vars: { pageName: 'next' } });
    expect(writes(next.ctx, 's_sq')).toEqual([expect.objectContaining({ value: '%5B%5BB%5D%5D', path: '/', domain: DOMAIN })]);
  });

  it('s_fid (no visitor id known) lives on the cookie domain for its two years', async () => {
    const { ctx, analytics } = setup({}, { values: { MCMID: undefined, MCAID: undefined } });
    await analytics.track({ type: 't', vars: { pageName: 'home' } });
    const [fid] = writes(ctx, 's_fid');
    expect(fid).toMatchObject({ path: '/', domain: DOMAIN });
    // Two years of 365 days, written out: the constant itself would follow a wrong value.
    expect(fid!.expires).toBe(ctx.env.now() + 2 * 365 * 24 * 60 * 60 * 1000);
  });

  it('a host-only page (cookie domain empty) writes host-only cookies', async () => {
    const { ctx, analytics } = setup({ page: { cookieDomain: '' } });
    await analytics.track({ type: 't', vars: { pageName: 'home' } });
    expect(writes(ctx, 's_cc')[0]?.domain).toBe('');
  });
});

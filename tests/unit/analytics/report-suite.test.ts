/** The tracker exists only for a report suite id (or a comma-separated list of them) AppMeasurement accepts. */
import { describe, expect, it } from 'vitest';
import { createAnalyticsService, TRACKER_UNAVAILABLE } from '../../../src/worker-engine/analytics/tracker.ts';
import { makeContext, stubVisitor } from '../harness.ts';

async function sent(rsid: string) {
  const ctx = makeContext({ config: { reportSuites: { production: rsid } } });
  await createAnalyticsService(ctx, stubVisitor()).track({ type: 't', vars: { pageName: 'home' } });
  return { beacons: ctx.requests.length, errors: ctx.logs.filter((l) => l.message.startsWith(TRACKER_UNAVAILABLE)).length };
}

describe('report suite ids', () => {
  it.each(['acmeprod', 'acme.prod_1-x', 'acmeprod,acmeglobal', 'a,b,c'])('%j makes a tracker', async (rsid) => {
    expect(await sent(rsid)).toEqual({ beacons: 1, errors: 0 });
  });
  it.each(['', 'acme prod', ' acmeprod', 'acmeprod!', 'acmeprod,', ',acmeprod', 'acmeprod,,x', 'a,b c', 'a,b,'])('%j makes none, with the message', async (rsid) => {
    expect(await sent(rsid)).toEqual({ beacons: 0, errors: 1 });
  });
});

describe("the tracker's own account", () => {
  const paths = (ctx: ReturnType<typeof makeContext>) => ctx.requests.map((r) => new URL(r.url).pathname.split('/')[3]);

  it('a hit that names its report suites goes to them, and automatic link tracking after it too, as AppMeasurement sends to s.account', async () => {
    // An imported library's report suite from a data element: the container's setting is the token, which makes no tracker itself.
    const ctx = makeContext({ config: { reportSuites: { production: '%rsid%' } } });
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.track({ type: 't', vars: { pageName: 'home' }, account: 'acmeprod,acmeglobal' });
    await analytics.track({ type: 't', vars: { pageName: 'cart' }, account: 'acmedev' });
    await analytics.onClick({ href: 'https://other.example.org/file.pdf', text: 'x', region: 'BODY', hasTlCall: false });
    expect(paths(ctx)).toEqual(['acmeprod,acmeglobal', 'acmedev', 'acmedev']);
    expect(ctx.logs.filter((l) => l.message.startsWith(TRACKER_UNAVAILABLE))).toEqual([]);
  });

  it('the s_cc cookie check is written once per page, not again for each account a hit names', async () => {
    const ctx = makeContext();
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.track({ type: 't', vars: { pageName: 'home' } });
    await analytics.track({ type: 't', vars: { pageName: 'cart' }, account: 'acmedev' });
    await analytics.track({ type: 't', vars: { pageName: 'done' }, account: 'acmeglobal' });
    expect(ctx.requests).toHaveLength(3);
    expect(ctx.effects.filter((e) => e.type === 'cookie' && e.name === 's_cc')).toHaveLength(1);
  });

  it('an account that is no report suite id makes no beacon, with the message; the next valid one goes', async () => {
    const ctx = makeContext({ config: { reportSuites: { production: 'acmeprod' } } });
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.track({ type: 't', vars: { pageName: 'home' }, account: '%rsid%' });
    await analytics.track({ type: 't', vars: { pageName: 'home' } });
    expect(paths(ctx)).toEqual(['acmeprod']);
    expect(ctx.logs.filter((l) => l.message.startsWith(TRACKER_UNAVAILABLE)).map((l) => l.message)).toEqual([`${TRACKER_UNAVAILABLE}: no valid report suite for the "production" environment ("%rsid%").`]);
  });
});

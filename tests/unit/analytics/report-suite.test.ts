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

/**
 * docs/spec-coverage.md D7: the tracking-consent cookie is read at every event. Consent given and then
 * withdrawn in the middle of a page stops tracking at the next event, even though the tracker
 * already exists.
 */
import { describe, expect, it } from 'vitest';
import { decodeBeacon } from '../../../src/worker-engine/analytics/beacon-decode.ts';
import { EU_COMPLIANCE_MESSAGE } from '../../../src/worker-engine/analytics/consent.ts';
import { createAnalyticsService } from '../../../src/worker-engine/analytics/tracker.ts';
import { makeContext, stubVisitor } from '../harness.ts';

describe('consent withdrawn mid-page', () => {
  it('sends while the cookie says "true", then nothing from the next event on, and says why', async () => {
    const ctx = makeContext();
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.track({ type: 't', vars: { pageName: 'acme:home:home' } });
    expect(ctx.requests.map((r) => decodeBeacon(r.url).hitType)).toEqual(['t']);

    ctx.jar.set('sat_track', 'false');
    await analytics.track({ type: 't', vars: { pageName: 'acme:home:second' } });
    await analytics.track({ type: 'tl', linkType: 'o', linkName: 'x', vars: {} });
    await analytics.onClick({ href: 'https://other.example.org/file.pdf', text: 'x', region: 'BODY', hasTlCall: false });
    expect(ctx.requests).toHaveLength(1);
    expect(ctx.logs.filter((l) => l.message === EU_COMPLIANCE_MESSAGE).length).toBeGreaterThanOrEqual(3);

    ctx.jar.delete('sat_track');
    await analytics.track({ type: 't', vars: { pageName: 'acme:home:third' } });
    expect(ctx.requests).toHaveLength(1);
  });
});

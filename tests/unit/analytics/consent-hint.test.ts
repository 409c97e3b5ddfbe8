/**
 * After `EU compliance was not acknowledged by the user.` (the message kept word for word), the
 * tracker says once per page which cookie and value grant consent (docs/analytics.md, "A hit").
 *
 * Equivalent: consent.ts `value !== undefined` → true: a missing cookie is no granting value either
 * (`includes(undefined)` is false).
 */
import { describe, expect, it } from 'vitest';
import { consentHint, EU_COMPLIANCE_MESSAGE, trackingConsented } from '../../../src/worker-engine/analytics/consent.ts';
import { createAnalyticsService } from '../../../src/worker-engine/analytics/tracker.ts';
import { replay } from '../../../tools/replay/replay.ts';
import { makeContext, stubVisitor } from '../harness.ts';

describe('the consent hint', () => {
  it('follows the first EU-compliance error, once per page, naming sat_track=true', async () => {
    const ctx = makeContext({ cookies: { sat_track: 'false' } });
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    await analytics.track({ type: 'tl', linkType: 'o', linkName: 'x', vars: {} });
    await analytics.onClick({ href: 'https://other.example.org/file.pdf', text: 'x', region: 'BODY', hasTlCall: false });
    expect(ctx.logs).toEqual([
      { level: 'error', message: EU_COMPLIANCE_MESSAGE },
      {
        level: 'info',
        message:
          "Analytics tracking waits for the consent cookie sat_track=true (named by offtagConfig.trackingConsentCookie), which the site's consent manager sets; until then no analytics beacon is sent or kept.",
      },
      { level: 'error', message: EU_COMPLIANCE_MESSAGE },
      { level: 'error', message: EU_COMPLIANCE_MESSAGE },
    ]);
  });

  it('names the configured trackingConsentCookie', async () => {
    const ctx = makeContext({ config: { trackingConsentCookie: 'acme_consent' } });
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(ctx.logs.map((l) => l.message)).toEqual([EU_COMPLIANCE_MESSAGE, consentHint('acme_consent')]);
    expect(consentHint('acme_consent')).toContain('acme_consent=true');
  });

  it('is not said when consent is given', async () => {
    const ctx = makeContext();
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(ctx.logs.filter((l) => l.level === 'info' || l.level === 'error')).toEqual([]);
  });

  it('on a page without consent, the /id call and the ID syncs run; only analytics waits (the storefront container)', async () => {
    const { effects, steps } = await replay({
      page: { url: 'https://www.keepstock.example/' },
      events: [{ type: 'library-loaded' }, 'Page View', 'Page View'],
      responses: [
        {
          match: '/id?',
          body: {
            d_mid: '12345678901234567890123456789012345678',
            id_sync_ttl: 604800,
            subdomain: 'acme',
            ibs: [
              { id: '411', ttl: 10080, tag: 'img', url: ['https://sync.example.net/px?uid=1'] },
              { id: '477', ttl: 10080, tag: 'img', url: ['https://sync.example.net/onpage?uid=1'], syncOnPage: 1 },
            ],
          },
        },
      ],
    });
    expect(effects.filter((e) => e.type === 'request').map((r) => r.kind)).toEqual(['id-service']);
    expect(effects.filter((e) => e.type === 'iframe').map((f) => f.src)).toEqual([expect.stringMatching(/^https:\/\/acme\.demdex\.net\/dest5\.html/)]);
    expect(effects.filter((e) => e.type === 'image').map((i) => i.src)).toEqual(['https://sync.example.net/onpage?uid=1']);
    const logs = effects.filter((e) => e.type === 'log').map((e) => e.message);
    expect(logs.filter((m) => m === EU_COMPLIANCE_MESSAGE)).toHaveLength(2);
    expect(logs.filter((m) => m === consentHint('sat_track'))).toHaveLength(1);
    expect(steps.length).toBeGreaterThan(0);
  });
});

describe('the consent values', () => {
  it('two values that grant consent are both named, joined by or', () => {
    expect(consentHint('cmp', ['yes', 'all'])).toContain('the consent cookie cmp=yes or cmp=all (named by');
  });
  it('settings that name no values grant consent with true only', () => {
    const ctx = (value: string) => ({ settings: { trackingConsentCookie: 'sat_track' }, cookies: { get: () => value } }) as unknown as Parameters<typeof trackingConsented>[0];
    expect(trackingConsented(ctx('true'))).toBe(true);
    expect(trackingConsented(ctx('yes'))).toBe(false);
  });
});

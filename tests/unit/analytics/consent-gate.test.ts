/** The EU-compliance gate's switch: an empty consent-cookie name turns the gate off, as in the extension. */
import { describe, expect, it } from 'vitest';
import { trackingConsented } from '../../../src/worker-engine/analytics/consent.ts';
import { makeContext } from '../harness.ts';

describe('tracking consent gate', () => {
  it('an empty trackingConsentCookie name lets every event be tracked, with or without the cookie', () => {
    const ctx = makeContext({ cookies: { sat_track: 'false' } });
    expect(trackingConsented(ctx)).toBe(false);
    expect(trackingConsented({ ...ctx, settings: { ...ctx.settings, trackingConsentCookie: '' } })).toBe(true);
  });
});

/**
 * No string from the page may stop a beacon. Lone surrogates become U+FFFD in
 * every encoder; a modal page name cut never splits an emoji; a drop that remains is said in the
 * console and in the devtools feed.
 */
import { describe, expect, it } from 'vitest';
import { escapeValue } from '../../../src/worker-engine/analytics/encoding.ts';
import { createAnalyticsService } from '../../../src/worker-engine/analytics/tracker.ts';
import { encodeText, wellFormed } from '../../../src/worker-engine/core/well-formed.ts';
import { buildIdUrl } from '../../../src/worker-engine/visitor/id-request.ts';
import { customerIdParams } from '../../../src/worker-engine/visitor/customer-ids.ts';
import { modalPageName } from '../../../containers/storefront/derived.ts';
import { makeContext, stubVisitor } from '../harness.ts';

const EMOJI = '\u{1F600}'; // two UTF-16 units
const LONE_HIGH = '\uD83D';
const LONE_LOW = '\uDE00';

describe('total encoders', () => {
  it('wellFormed turns lone surrogates into U+FFFD and keeps pairs, like String.prototype.toWellFormed', () => {
    for (const s of [`a${LONE_HIGH}b`, `${LONE_LOW}x`, `x${LONE_HIGH}`, EMOJI, `${LONE_LOW}${LONE_HIGH}`, 'plain']) {
      expect(wellFormed(s)).toBe((s as string & { toWellFormed(): string }).toWellFormed());
    }
    expect(encodeText(`a${LONE_HIGH}`)).toBe('a%EF%BF%BD');
  });

  it('escapeValue never throws "URI malformed"', () => {
    expect(escapeValue(`x${LONE_HIGH}`)).toBe('x%EF%BF%BD');
    expect(escapeValue(EMOJI)).toBe('%F0%9F%98%80');
  });

  it('the /id URL takes a customer id with a lone surrogate', () => {
    const params = customerIdParams({ crm: { id: `a${LONE_LOW}`, authState: 1 } });
    expect(() => buildIdUrl({ idServiceHost: 'dpm.demdex.net', fieldGroup: 'MC', orgId: 'X@AdobeOrg', containerId: 0, now: 0, customerIdParams: params })).not.toThrow();
  });

  it('the modal page name cut keeps an emoji whole or leaves it out, never half', () => {
    const id = `${'m'.repeat(19)}${EMOJI}tail`;
    const name = modalPageName('acme', 'quick view', '', id);
    expect(name).toBe(`acme:quick view:${'m'.repeat(19)}`);
    expect(wellFormed(name)).toBe(name);
  });

  it('a page view whose pageName holds a lone surrogate is sent, with U+FFFD', async () => {
    const ctx = makeContext();
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.track({ type: 't', vars: { pageName: `acme:${'x'.repeat(14)}${LONE_HIGH}`, eVar1: `${LONE_LOW}` } });
    expect(ctx.requests).toHaveLength(1);
    expect(ctx.requests[0]!.url).toContain(`pageName=acme%3A${'x'.repeat(14)}%EF%BF%BD&`);
    expect(ctx.logs.filter((l) => l.level === 'error')).toEqual([]);
  });

  it('a beacon that still fails to build is said in the console and in the devtools feed', async () => {
    const ctx = makeContext();
    const analytics = createAnalyticsService(ctx, stubVisitor());
    const hostile = { toString: () => { throw new Error('no text here'); } } as unknown as string;
    await analytics.track({ type: 't', vars: { pageName: 'acme:home', eVar1: hostile } });
    expect(ctx.requests).toHaveLength(0);
    expect(ctx.logs).toContainEqual({ level: 'error', message: 'Analytics beacon failed to build: no text here' });
    expect(ctx.monitors).toContainEqual({ name: 'beacon-dropped', data: expect.objectContaining({ reason: 'build-failed', message: 'Analytics beacon failed to build: no text here' }) });
  });
});

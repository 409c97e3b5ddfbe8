/**
 * Per-event coalescing, end to end in the worker: the real storefront engine and Adobe services
 * (the replay runs them), a burst of Page Views whose batches go through the shell's page link as
 * the worker shell feeds it (every input arrived before the first is handled), and the cookie
 * writes that reach the page counted per posted batch.
 */
import { describe, expect, it } from 'vitest';
import type { Effect, EffectBatch, EngineInput } from '../../../src/protocol.ts';
import { isBridgeEffect } from '../../../src/worker-engine/core/engine.ts';
import { createPageLink } from '../../../src/worker-engine/shell/page-link.ts';
import { replay, type Fixture } from '../../../tools/replay/replay.ts';

const PAGE_VIEWS = 300;

/** A logged-in shopper's page, then `PAGE_VIEWS` Page Views 3 ms apart (each writes the time cookies anew). */
const fixture: Fixture = {
  page: { url: 'https://www.keepstock.example/catalog/gloves', cookieDomain: '.keepstock.example' },
  cookies: { sat_track: 'true' },
  dataLayer: { page: { pageInfo: { pageType: 'Product', pageUID: 'gloves' } }, user: { profile: { attributes: { loginState: 'Full Logged In' } } } },
  events: [{ type: 'library-loaded' }, ...Array.from({ length: PAGE_VIEWS }, () => ({ type: 'direct-call' as const, id: 'Page View', advance: 3 }))],
  responses: [{ match: '/id?', body: { d_mid: '12345678901234567890123456789012345678', id_sync_ttl: 604800, d_region: 9 } }],
};

/** The batches the page gets when the engine's batches (one per event) go through the page link during one burst. */
function burst(perEvent: Effect[][]): EffectBatch[] {
  const posted: EffectBatch[] = [];
  const link = createPageLink({ port: { postMessage: (m) => posted.push(m as EffectBatch) }, holdMs: 60_000 });
  const input = { type: 'event', event: { type: 'direct-call', id: 'Page View' } } as EngineInput;
  // As events.onmessage does: each input arrives before the engine handles the first one.
  for (const _ of perEvent) link.arrived(input);
  perEvent.forEach((effects, i) => {
    link.toBridge({ n: i + 1, effects: effects.filter(isBridgeEffect) });
    link.handled();
  });
  return posted;
}

const cookieWrites = (b: EffectBatch) => b.effects.filter((e) => e.type === 'cookie-string').map((e) => (e as { cookie: string }).cookie.split('=')[0]);

describe('coalescing: cookie writes per batch of events', () => {
  it(`a burst of ${PAGE_VIEWS} Page Views reaches the page as one batch that writes each cookie once, and one hit`, async () => {
    const { steps } = await replay(fixture);
    const perEvent = steps.filter((s) => s.index !== undefined).map((s) => s.effects);
    expect(perEvent).toHaveLength(PAGE_VIEWS + 1);
    // Each Page View on its own writes several cookies and makes a hit: what the burst coalesces.
    const alone = perEvent.slice(1).map((effects) => effects.filter((e) => e.type === 'cookie').length);
    expect(Math.min(...alone)).toBeGreaterThanOrEqual(3);
    expect(perEvent.slice(1).every((effects) => effects.some((e) => e.type === 'hit'))).toBe(true);

    const batches = burst(perEvent);
    expect(batches).toHaveLength(1);
    const names = cookieWrites(batches[0]);
    expect(names.length).toBe(new Set(names).size);
    expect(names.length).toBeLessThan(20);
    expect(batches[0].effects.filter((e) => e.type === 'hit')).toHaveLength(1);
  });
});

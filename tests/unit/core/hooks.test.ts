/**
 * The engine reaches a container's services only through the hooks the container gives
 * (`Container.hooks`, core/types.ts): the engine core knows no storefront.
 */
import { describe, expect, it } from 'vitest';
import type { LinkClick } from '../../../src/protocol.ts';
import { createEngine } from '../../../src/worker-engine/core/engine.ts';
import type { Container, ContainerHooks } from '../../../src/worker-engine/core/types.ts';
import { storefront } from '../../../containers/storefront/container.ts';
import type { Services } from '../../../src/worker-engine/services.ts';
import { SITES, snap, testEnv } from '../harness.ts';

const LINK: LinkClick = { href: 'https://other.example.org/file.pdf', text: 'x', region: 'BODY', hasTlCall: false };

/** A container whose one click rule and whose hooks write down the order they were called in. */
function recording(hooks?: ContainerHooks) {
  const calls: string[] = [];
  const container: Container<string, { calls: string[] }> = {
    name: 'hooked',
    sessionKeys: [],
    dataElements: {},
    rules: [{ name: 'click rule', events: [{ type: 'click' }], actions: [{ name: 'a', fn: () => void calls.push('rule') }] }],
    ...(hooks ? { hooks: () => hooks } : {}),
  };
  const engine = createEngine({ container, services: () => ({ calls }), env: testEnv(), config: { alwaysLog: true }, page: SITES.shop });
  return { calls, engine };
}

describe('container hooks', () => {
  it('a click reaches the onClick hook, with its link, before the click rules run', async () => {
    const seen: LinkClick[] = [];
    const r = recording({
      onClick: async (link) => {
        seen.push(link);
        await Promise.resolve();
        r.calls.push('hook');
      },
    });
    await r.engine.dispatch({ type: 'event', event: { type: 'click', link: LINK }, snapshot: snap() });
    expect(seen).toEqual([LINK]);
    expect(r.calls).toEqual(['hook', 'rule']);
  });

  it('a service call is answered by the serviceCall hook; a service it does not know gets "Unknown service"', async () => {
    const asked: unknown[][] = [];
    const { engine } = recording({
      serviceCall: (service, method, args) => (service === 'known' ? (asked.push([method, args]), Promise.resolve({ value: 42 })) : undefined),
    });
    const known = await engine.dispatch({ type: 'event', event: { type: 'service-call', service: 'known', method: 'm', args: [1] }, snapshot: snap({ seq: 3 }) });
    expect(asked).toEqual([['m', [1]]]);
    expect(known.effects).toContainEqual({ type: 'reply', seq: 3, value: 42 });
    const unknown = await engine.dispatch({ type: 'event', event: { type: 'service-call', service: 'other', method: 'm', args: [] }, snapshot: snap({ seq: 4 }) });
    expect(unknown.effects).toContainEqual({ type: 'reply', seq: 4, error: 'Unknown service "other".' });
  });

  it('a rejected service call is answered with its error message', async () => {
    const { engine } = recording({ serviceCall: () => Promise.reject(new Error('no such method')) });
    const batch = await engine.dispatch({ type: 'event', event: { type: 'service-call', service: 's', method: 'm', args: [] }, snapshot: snap({ seq: 5 }) });
    expect(batch.effects).toContainEqual({ type: 'reply', seq: 5, error: 'no such method' });
  });

  it('beacon deliveries and frame messages reach their hooks; pendingHits is the hook\'s count', async () => {
    const got: unknown[] = [];
    let pending = 3;
    const { engine } = recording({
      onBeaconDelivered: (rtt) => void got.push(['rtt', rtt]),
      onFrameMessage: (frameId, origin, data) => void got.push(['frame', frameId, origin, data]),
      pendingHits: () => pending,
    });
    await engine.dispatch({ type: 'beacon-delivered', rttMs: 12 });
    await engine.dispatch({ type: 'frame-message', frameId: 'f-1', origin: 'https://o.example', data: 'd' });
    expect(got).toEqual([['rtt', 12], ['frame', 'f-1', 'https://o.example', 'd']]);
    expect(engine.pendingHits()).toBe(3);
    pending = 0;
    expect(engine.pendingHits()).toBe(0);
  });

  it('a container without hooks: clicks run only the rules, service calls are unknown, pendingHits is 0', async () => {
    const { calls, engine } = recording();
    await engine.dispatch({ type: 'event', event: { type: 'click', link: LINK }, snapshot: snap() });
    expect(calls).toEqual(['rule']);
    const batch = await engine.dispatch({ type: 'event', event: { type: 'service-call', service: 'visitor', method: 'm', args: [] }, snapshot: snap({ seq: 2 }) });
    expect(batch.effects).toContainEqual({ type: 'reply', seq: 2, error: 'Unknown service "visitor".' });
    await engine.dispatch({ type: 'beacon-delivered', rttMs: 1 });
    expect(engine.pendingHits()).toBe(0);
  });
});

describe('the storefront container\'s hooks', () => {
  /** Services that record which of their methods a hook called. */
  function services() {
    const called: unknown[][] = [];
    const s = {
      visitor: {
        call: (method: string, args: unknown[]) => (called.push(['visitor.call', method, args]), Promise.resolve({ value: 'v' })),
        onFrameMessage: (...a: unknown[]) => void called.push(['visitor.onFrameMessage', ...a]),
      },
      analytics: {
        onClick: (link: LinkClick) => (called.push(['analytics.onClick', link]), Promise.resolve()),
        onBeaconDelivered: (rtt: number) => void called.push(['analytics.onBeaconDelivered', rtt]),
        pendingHits: () => 2,
      },
    } as unknown as Services;
    return { called, hooks: storefront.hooks!(s) };
  }

  it('clicks and deliveries go to the tracker, frame messages and facade calls to the visitor service', async () => {
    const { called, hooks } = services();
    await hooks.onClick!(LINK);
    hooks.onBeaconDelivered!(9);
    hooks.onFrameMessage!('f', 'https://o.example', 'x');
    expect(await hooks.serviceCall!('visitor', 'getMarketingCloudVisitorID', [])).toEqual({ value: 'v' });
    expect(hooks.pendingHits!()).toBe(2);
    expect(called).toEqual([
      ['analytics.onClick', LINK],
      ['analytics.onBeaconDelivered', 9],
      ['visitor.onFrameMessage', 'f', 'https://o.example', 'x'],
      ['visitor.call', 'getMarketingCloudVisitorID', []],
    ]);
  });

  it('the one facade is the visitor: any other service name is unknown', () => {
    const { called, hooks } = services();
    expect(hooks.serviceCall!('analytics', 'track', [])).toBeUndefined();
    expect(hooks.serviceCall!('Visitor', 'getMarketingCloudVisitorID', [])).toBeUndefined();
    expect(called).toEqual([]);
  });
});

/**
 * Nothing a dispatch awaits may wait on an effect of that same dispatch. Each
 * test drives the real engine with the real visitor service and a world that answers requests
 * only after the batch that holds them has left (as the worker does). On the old engine every
 * one of these hung: the dispatch waited for tracked work that waited for its own `/id` answer.
 */
import { describe, expect, it } from 'vitest';
import type { Effect, EffectBatch, EngineInput, RequestEffect } from '../../../src/protocol.ts';
import { createEngine } from '../../../src/worker-engine/core/engine.ts';
import type { Container, EngineContext } from '../../../src/worker-engine/core/types.ts';
import { createVisitorService, type VisitorOptions } from '../../../src/worker-engine/visitor/service.ts';
import { SITES, snap, testEnv } from '../harness.ts';
import { idReply } from '../visitor/helpers.ts';

const ORG = '0123456789ABCDEF01234567@AdobeOrg';
type Callable = Record<string, { call(method: string, args: unknown[]): Promise<object> }>;
/** No rules; a page-side service call reaches the service of that name. */
const container: Container<string, Callable> = {
  name: 'robust',
  sessionKeys: [],
  dataElements: {},
  rules: [],
  hooks: (services) => ({ serviceCall: (name, method, args) => services[name]?.call(method, args) }),
};

/** A world like the worker's host: requests are answered once their batch is out, late batches are kept. */
function world(options: VisitorOptions = {}, answer = () => idReply()) {
  const effects: Effect[] = [];
  const held: RequestEffect[] = [];
  let autoAnswer = true;
  let seq = 0;
  const engine = createEngine({
    container,
    services: (ctx: EngineContext) => ({ visitor: createVisitorService(ctx, options) }),
    env: testEnv(),
    config: { orgId: ORG, alwaysLog: true },
    page: SITES.shop,
    onLateEffects: (b) => route(b),
  });
  const route = (b: EffectBatch) => {
    effects.push(...b.effects);
    for (const e of b.effects) {
      if (e.type !== 'request' || e.fireAndForget) continue;
      if (autoAnswer) void input({ type: 'response', id: e.id, response: answer() });
      else held.push(e);
    }
  };
  /** Fails instead of hanging: a dispatch that does not return in 2 s is the bug. */
  const input = async (i: EngineInput) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`dispatch of ${i.type} stalled`)), 2000);
    });
    try {
      const b = await Promise.race([engine.dispatch(i), stalled]);
      route(b);
      return b;
    } finally {
      clearTimeout(timer);
    }
  };
  const call = (method: string, ...args: unknown[]) =>
    input({ type: 'event', event: { type: 'service-call', service: 'visitor', method, args }, snapshot: snap({ seq: ++seq }) });
  const idCalls = () => effects.filter((e): e is RequestEffect => e.type === 'request' && e.kind === 'id-service');
  const replies = () => effects.filter((e) => e.type === 'reply');
  /** Looks again after each task until `test` holds (the test's own timeout bounds it). */
  const until = async (test: () => boolean) => {
    while (!test()) await new Promise((r) => setImmediate(r));
    return true;
  };
  return {
    engine,
    effects,
    held,
    call,
    input,
    idCalls,
    replies,
    until,
    hold: (on: boolean) => (autoAnswer = !on),
  };
}

describe('no dispatch waits on its own effects', () => {
  it('setCustomerIDs with sha256 hashing: the /id request leaves in the same batch, and getCustomerIDs answers', async () => {
    const w = world();
    await w.call('getMarketingCloudVisitorID');
    expect(w.idCalls()).toHaveLength(1);
    const batch = await w.call('setCustomerIDs', { crm: { id: 'a@b.example', authState: 1 } }, 'sha256');
    expect(batch.effects.filter((e) => e.type === 'request' && e.kind === 'id-service')).toHaveLength(1);
    expect(w.idCalls()[1]!.url).toContain('d_cid_ic=crm%01');
    await w.call('getCustomerIDs');
    expect(await w.until(() => w.replies().length === 3)).toBe(true);
  });

  it('setCustomerIDs without hashing: the /id request leaves in the same batch', async () => {
    const w = world();
    await w.call('getMarketingCloudVisitorID');
    const batch = await w.call('setCustomerIDs', { crm: { id: 'plain-id', authState: 1 } });
    expect(batch.effects.some((e) => e.type === 'request' && e.kind === 'id-service')).toBe(true);
  });

  it('setCustomerIDs while an earlier /id call is still unanswered: the dispatch returns, and the refresh follows the answer', async () => {
    const w = world();
    w.hold(true);
    await w.call('getMarketingCloudVisitorID');
    expect(w.held).toHaveLength(1);
    // The refresh queues behind the unanswered call; the dispatch must not wait for it.
    await w.call('setCustomerIDs', { crm: { id: 'a@b.example', authState: 1 } }, 'sha256');
    w.hold(false);
    await w.input({ type: 'response', id: w.held[0]!.id, response: idReply() });
    expect(await w.until(() => w.idCalls().length === 2)).toBe(true);
    expect(w.idCalls()[1]!.url).toContain('d_cid_ic=crm%01');
  });

  it('opt-in completion that approves ECID: the /id request leaves in the batch of optIn.complete', async () => {
    const w = world({ optIn: { doesOptInApply: true } });
    await w.call('getMarketingCloudVisitorID');
    expect(w.idCalls()).toHaveLength(0);
    await w.call('optIn.approve', ['ecid'], true);
    const batch = await w.call('optIn.complete');
    expect(batch.effects.some((e) => e.type === 'request' && e.kind === 'id-service')).toBe(true);
    expect(await w.until(() => w.replies().length === 3)).toBe(true);
  });

  it('tracked work that sleeps on a timer does not hold its dispatch', async () => {
    const svc = { started: false };
    let ctxRef: EngineContext | undefined;
    const engine = createEngine({
      container,
      services: (ctx) => ((ctxRef = ctx), { probe: { call: async () => (void ctx.track(ctx.sleep(50).then(() => (svc.started = true))), {}) } }),
      env: testEnv(),
      config: { alwaysLog: true },
      page: SITES.shop,
    });
    const batch = await Promise.race([
      engine.dispatch({ type: 'event', event: { type: 'service-call', service: 'probe', method: 'x', args: [] }, snapshot: snap() }),
      new Promise<EffectBatch>((_, r) => setTimeout(() => r(new Error('stalled')), 2000)),
    ]);
    expect(ctxRef).toBeDefined();
    expect(batch.effects.some((e) => e.type === 'timer')).toBe(true);
  });
});

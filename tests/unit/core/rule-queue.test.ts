/**
 * Turbine's timing in the engine (docs/import.md, "Timing"): one rule queue for the page, so a rule
 * starts only once every rule triggered before it, by any event, has completed; Page Bottom at
 * `_satellite.pageBottom()` or just before DOM Ready, once; the data elements' values sent with
 * each event before its rules run.
 */
import { describe, expect, it } from 'vitest';
import type { EffectBatch, EngineEvent, Snapshot } from '../../../src/protocol.ts';
import { createEngine } from '../../../src/worker-engine/core/engine.ts';
import type { Container, EngineContext, RuleEventSpec } from '../../../src/worker-engine/core/types.ts';
import { SITES, snap, testEnv } from '../harness.ts';

type Svc = { ctx: EngineContext };

function pageWith(rules: Array<{ name: string; events: RuleEventSpec[]; order?: number; waits?: boolean }>) {
  const ran: string[] = [];
  const container: Container<'layer', Svc> = {
    name: 'queue',
    sessionKeys: [],
    getVarValues: 'every-event',
    dataElements: { layer: { type: 'data-layer', path: 'page.type' } },
    rules: rules.map((r) => ({
      name: r.name,
      events: r.events,
      ...(r.order !== undefined ? { order: r.order } : {}),
      actions: [
        {
          name: 'a',
          // A rule that waits for the network (an ID call) before it completes.
          fn: async (c) => {
            if (r.waits) await c.services.ctx.fetch({ kind: 'other', method: 'GET', url: 'https://id.example/', credentials: 'omit' });
            ran.push(r.name);
          },
        },
      ],
    })),
  };
  const engine = createEngine({ container, services: (ctx) => ({ ctx }), env: testEnv(), config: {}, page: SITES.shop });
  let seq = 0;
  const fire = (event: EngineEvent, over: Partial<Snapshot> = {}) => engine.dispatch({ type: 'event', event, snapshot: snap({ seq: ++seq, ...over }) });
  const requestOf = (b: EffectBatch) => b.effects.find((e) => e.type === 'request') as { id: string } | undefined;
  return { engine, fire, ran, requestOf };
}

describe('one rule queue for the page', () => {
  it("the direct calls pulled while the library set its events up (Library Loaded's setup) run among the Library Loaded rules by rule order", async () => {
    const { fire, ran } = pageWith([
      { name: 'early custom code event', events: [{ type: 'direct-call', id: 'offtag-launch:core.custom-code:1' }], order: 10 },
      { name: 'library loaded 11', events: [{ type: 'library-loaded' }], order: 11 },
      { name: 'library loaded 50', events: [{ type: 'library-loaded' }] },
      { name: 'late custom code event', events: [{ type: 'direct-call', id: 'offtag-launch:core.custom-code:2' }], order: 20 },
      { name: 'dom ready', events: [{ type: 'dom-ready' }], order: 1 },
    ]);
    await fire({ type: 'library-loaded', setup: [{ id: 'offtag-launch:core.custom-code:2' }, { id: 'offtag-launch:core.custom-code:1', detail: { n: 1 } }] });
    await fire({ type: 'dom-ready' });
    expect(ran).toEqual(['early custom code event', 'library loaded 11', 'late custom code event', 'library loaded 50', 'dom ready']);
  });

  it("a Library Loaded rule that waits holds the DOM Ready and Window Loaded rules behind it; they run in the answer's dispatch", async () => {
    const { engine, fire, ran, requestOf } = pageWith([
      { name: 'library loaded, waits', events: [{ type: 'library-loaded' }], waits: true },
      { name: 'library loaded, after', events: [{ type: 'library-loaded' }], order: 60 },
      { name: 'dom ready', events: [{ type: 'dom-ready' }], order: 1 },
      { name: 'window loaded', events: [{ type: 'window-loaded' }] },
    ]);
    const loaded = await fire({ type: 'library-loaded' });
    await fire({ type: 'dom-ready' });
    const last = await fire({ type: 'window-loaded' }, { dataLayer: { page: { type: 'home' } } });
    expect(ran).toEqual([]);
    // Queued rules count as work whose beacons are not made yet (the acknowledgements wait): four
    // events' (Page Bottom came with DOM Ready).
    expect(engine.pendingHits()).toBe(4);
    // The values went out with their event all the same, before its rules.
    expect(last.effects).toContainEqual({ type: 'vars', values: { layer: 'home' } });
    const answer = await engine.dispatch({ type: 'response', id: requestOf(loaded)!.id, response: { status: 200, body: '' } });
    expect(ran).toEqual(['library loaded, waits', 'library loaded, after', 'dom ready', 'window loaded']);
    expect(engine.pendingHits()).toBe(0);
    expect(answer.effects.filter((e) => e.type === 'monitor' && e.name === 'rule-completed').map((e) => (e as { data: { rule: string } }).data.rule)).toEqual([
      'library loaded, waits',
      'library loaded, after',
      'dom ready',
      'window loaded',
    ]);
  });

  it("a queued rule reads its own event's snapshot, not the page's latest", async () => {
    const seen: string[] = [];
    const container: Container<'layer', Svc> = {
      name: 'queue',
      sessionKeys: [],
      dataElements: { layer: { type: 'data-layer', path: 'page.type' } },
      rules: [
        { name: 'waits', events: [{ type: 'library-loaded' }], actions: [{ name: 'a', fn: async (c) => void (await c.services.ctx.fetch({ kind: 'other', method: 'GET', url: 'https://id.example/', credentials: 'omit' })) }] },
        { name: 'dom ready', events: [{ type: 'dom-ready' }], conditions: [{ name: 'url', fn: (c) => (seen.push(c.snapshot.url), true) }], actions: [{ name: 'a', fn: (c) => void seen.push(String(c.get('layer'))) }] },
      ],
    };
    const engine = createEngine({ container, services: (ctx) => ({ ctx }), env: testEnv(), config: {}, page: SITES.shop });
    const loaded = await engine.dispatch({ type: 'event', event: { type: 'library-loaded' }, snapshot: snap({ seq: 1 }) });
    await engine.dispatch({ type: 'event', event: { type: 'dom-ready' }, snapshot: snap({ seq: 2, url: 'https://shop.example.com/a', dataLayer: { page: { type: 'a' } } }) });
    await engine.dispatch({ type: 'event', event: { type: 'window-loaded' }, snapshot: snap({ seq: 3, url: 'https://shop.example.com/b', dataLayer: { page: { type: 'b' } } }) });
    const id = (loaded.effects.find((e) => e.type === 'request') as { id: string }).id;
    await engine.dispatch({ type: 'response', id, response: { status: 200, body: '' } });
    expect(seen).toEqual(['https://shop.example.com/a', 'a']);
  });

  it("a link click's rules keep their place while automatic link tracking works: a later event's rules wait behind them", async () => {
    const ran: string[] = [];
    let ctxOf!: EngineContext;
    const container: Container<'layer', Svc> = {
      name: 'queue',
      sessionKeys: [],
      dataElements: { layer: { type: 'data-layer', path: 'page.type' } },
      hooks: () => ({ onClick: async () => void (await ctxOf.fetch({ kind: 'other', method: 'GET', url: 'https://x.example/', credentials: 'omit' })) }),
      rules: [
        { name: 'link clicked', events: [{ type: 'click' }], actions: [{ name: 'a', fn: () => void ran.push('link clicked') }] },
        { name: 'direct call', events: [{ type: 'direct-call', id: 'next' }], actions: [{ name: 'a', fn: () => void ran.push('direct call') }] },
      ],
    };
    const engine = createEngine({ container, services: (ctx) => ((ctxOf = ctx), { ctx }), env: testEnv(), config: {}, page: SITES.shop });
    await engine.dispatch({ type: 'event', event: { type: 'library-loaded' }, snapshot: snap({ seq: 1 }) });
    const click = await engine.dispatch({ type: 'event', event: { type: 'click', link: { href: 'https://shop.example.com/x', text: 'x', region: 'BODY' } }, snapshot: snap({ seq: 2 }) });
    await engine.dispatch({ type: 'event', event: { type: 'direct-call', id: 'next' }, snapshot: snap({ seq: 3 }) });
    expect(ran).toEqual([]);
    const id = (click.effects.find((e) => e.type === 'request') as { id: string }).id;
    await engine.dispatch({ type: 'response', id, response: { status: 200, body: '' } });
    expect(ran).toEqual(['link clicked', 'direct call']);
  });

  it('a rule whose request fails does not stop the queue', async () => {
    const { engine, fire, ran, requestOf } = pageWith([
      { name: 'library loaded, waits', events: [{ type: 'library-loaded' }], waits: true },
      { name: 'dom ready', events: [{ type: 'dom-ready' }] },
    ]);
    const loaded = await fire({ type: 'library-loaded' });
    await fire({ type: 'dom-ready' });
    await engine.dispatch({ type: 'response', id: requestOf(loaded)!.id, response: { status: 0, body: '', error: 'network' } });
    expect(ran).toEqual(['library loaded, waits', 'dom ready']);
  });
});

describe('Page Bottom', () => {
  const rules = [
    { name: 'page bottom', events: [{ type: 'page-bottom' }] as RuleEventSpec[], order: 60 },
    { name: 'dom ready', events: [{ type: 'dom-ready' }] as RuleEventSpec[], order: 10 },
    { name: 'both', events: [{ type: 'page-bottom' }, { type: 'dom-ready' }] as RuleEventSpec[], order: 50 },
  ];

  it('without `_satellite.pageBottom()`, its rules run at DOM Ready before every DOM Ready rule, whatever their orders', async () => {
    const { fire, ran } = pageWith(rules);
    await fire({ type: 'library-loaded' });
    await fire({ type: 'dom-ready' });
    expect(ran).toEqual(['both', 'page bottom', 'dom ready', 'both']);
  });

  it('at `_satellite.pageBottom()`, once: DOM Ready then runs its own rules only, and a second call nothing', async () => {
    const { fire, ran } = pageWith(rules);
    await fire({ type: 'library-loaded' });
    await fire({ type: 'page-bottom' });
    expect(ran).toEqual(['both', 'page bottom']);
    await fire({ type: 'page-bottom' });
    await fire({ type: 'dom-ready' });
    await fire({ type: 'window-loaded' });
    expect(ran).toEqual(['both', 'page bottom', 'dom ready', 'both']);
  });

  it('a page whose DOM Ready never came (the script ran after it): Page Bottom comes before Window Loaded', async () => {
    const { fire, ran } = pageWith([...rules, { name: 'window loaded', events: [{ type: 'window-loaded' }] }]);
    await fire({ type: 'library-loaded' });
    await fire({ type: 'window-loaded' });
    expect(ran).toEqual(['both', 'page bottom', 'window loaded']);
  });
});

/**
 * What the engine core does at its edges, written against the mutants Stryker found surviving
 * in `src/worker-engine/core` (docs/testing.md, "Mutation testing"): the level of each message,
 * inputs a container has no hook for, late batches, early values, the engine's clock in cookie
 * removals, the page before its first event, and the helpers' odd inputs.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EffectBatch, EngineEvent, LogLevel, Snapshot } from '../../../src/protocol.ts';
import { createEngine } from '../../../src/worker-engine/core/engine.ts';
import { dropCycles, readPath, readSetOf } from '../../../src/worker-engine/core/data-layer.ts';
import { resolveSettings } from '../../../src/worker-engine/core/settings.ts';
import { replaceTokens } from '../../../src/worker-engine/core/tokens.ts';
import type { Container, ContainerHooks, DataElement, EngineContext, RuleContext } from '../../../src/worker-engine/core/types.ts';
import { createWaiting, nextMacrotask } from '../../../src/worker-engine/core/waiting.ts';
import { SITES, snap, testEnv } from '../harness.ts';
import { storefront } from '../../../containers/storefront/container.ts';

type Svc = { ctx: EngineContext };
type Rc = RuleContext<string, Svc>;

/** Every log effect as [level, message]. */
const said = (b: EffectBatch) =>
  b.effects.filter((e): e is Extract<typeof e, { type: 'log' }> => e.type === 'log').map((e) => [e.level, e.message] as [LogLevel, string]);

function engineWith(opts: {
  actions?: Record<string, (c: Rc) => unknown>;
  dataElements?: Record<string, DataElement<string>>;
  hooks?: (s: Svc) => ContainerHooks;
  config?: unknown;
  late?: EffectBatch[];
  getVarValues?: 'every-event';
}) {
  const container: Container<string, Svc> = {
    name: 'edges',
    sessionKeys: [],
    dataElements: opts.dataElements ?? {},
    rules: Object.entries(opts.actions ?? {}).map(([id, fn]) => ({
      name: `rule ${id}`,
      events: [{ type: 'direct-call' as const, id }],
      actions: [{ name: 'a', fn: fn as (c: Rc) => void }],
    })),
    ...(opts.hooks ? { hooks: opts.hooks } : {}),
    ...(opts.getVarValues ? { getVarValues: opts.getVarValues } : {}),
  };
  const env = testEnv();
  const late = opts.late;
  const engine = createEngine({
    container,
    services: (ctx) => ({ ctx }),
    env,
    config: opts.config ?? { alwaysLog: true },
    page: SITES.shop,
    ...(late ? { onLateEffects: (b: EffectBatch) => void late.push(b) } : {}),
  });
  let seq = 0;
  const fire = (event: EngineEvent, over: Partial<Snapshot> = {}) => engine.dispatch({ type: 'event', event, snapshot: snap({ seq: ++seq, ...over }) });
  return { engine, env, fire, call: (id: string, over: Partial<Snapshot> = {}) => fire({ type: 'direct-call', id }, over) };
}

describe('messages keep their level', () => {
  it('a click hook that fails is said as an error naming the click, and the next event runs', async () => {
    const { fire, call } = engineWith({
      actions: { go: (c) => c.log('log', 'went') },
      hooks: () => ({ onClick: () => Promise.reject(new Error('no tracker')) }),
    });
    const b = await fire({ type: 'click', link: { href: 'https://x.example/a.pdf', text: 'a', region: 'BODY', hasTlCall: false } });
    expect(said(b)).toEqual([['error', 'Offtag could not process "click": no tracker. Later events are processed as usual.']]);
    expect(said(await call('go'))).toEqual([['log', 'went']]);
  });

  it('an input whose hook throws at once is said as an error', async () => {
    const { engine } = engineWith({ hooks: () => ({ onBeaconDelivered: () => { throw new Error('boom'); } }) });
    expect(said(await engine.dispatch({ type: 'beacon-delivered', rttMs: 1 }))).toEqual([
      ['error', 'Offtag could not process "beacon-delivered": boom. Later events are processed as usual.'],
    ]);
  });

  it('a non-string direct-call id is an error; data-layer cycles and a circular data element are warnings', async () => {
    const { fire, call } = engineWith({
      actions: { '7': () => {}, go: (c) => void c.get('a') },
      dataElements: {
        a: { type: 'custom', fn: (c) => c.get('b') },
        b: { type: 'custom', fn: (c) => c.get('a') },
      },
    });
    expect(said(await fire({ type: 'direct-call', id: 7 as never }))).toEqual([
      ['error', '_satellite.track() expects a string identifier; got number. Using "7".'],
    ]);
    const dl: Record<string, unknown> = { x: {}, y: [] };
    (dl.x as Record<string, unknown>).up = dl;
    (dl.y as unknown[]).push(dl);
    const b = await call('go', { dataLayer: dl });
    expect(said(b)).toEqual([
      ['warn', 'The data layer refers back to itself at x.up, y[0]; those references were dropped.'],
      ['warn', `Data element circular reference detected: ${'a -> b -> '.repeat(5)}a`],
    ]);
  });
});

describe('inputs a container has no hook for', () => {
  it('a beacon delivery and a frame message to a container whose hooks lack them do nothing and say nothing', async () => {
    const { engine } = engineWith({ hooks: () => ({ onClick: async () => {} }) });
    expect(await engine.dispatch({ type: 'beacon-delivered', rttMs: 12 })).toEqual({ n: 0, effects: [] });
    expect(await engine.dispatch({ type: 'frame-message', frameId: 'f', origin: 'https://x.example', data: 1 })).toEqual({ n: 0, effects: [] });
  });

  it('a facade call without arguments reaches the container with an empty list', async () => {
    const seen: unknown[][] = [];
    const { fire } = engineWith({ hooks: () => ({ serviceCall: async (_s, _m, args) => (seen.push(args), { value: args.length }) }) });
    const b = await fire({ type: 'service-call', service: 'visitor', method: 'getMarketingCloudVisitorID' } as EngineEvent, { seq: 3 });
    expect(seen).toEqual([[]]);
    expect(b.effects).toContainEqual({ type: 'reply', seq: 3, value: 0 });
  });
});

describe('late batches', () => {
  it('a settings problem is said at once, in a batch of its own, when the host takes late batches', async () => {
    const late: EffectBatch[] = [];
    const { call } = engineWith({ config: { debug: 'yes' }, late, actions: { go: () => {} } });
    await Promise.resolve();
    expect(late).toEqual([{ n: 1, effects: [{ type: 'log', level: 'error', message: 'offtagConfig.debug must be a boolean; got string. Using false.' }] }]);
    expect(said(await call('go'))).toEqual([]);
  });

  it('without a taker of late batches, a settings problem travels with the first batch', async () => {
    const { call } = engineWith({ config: { debug: 'yes' }, actions: { go: () => {} } });
    await new Promise((r) => setTimeout(r, 0));
    expect(said(await call('go'))).toEqual([['error', 'offtagConfig.debug must be a boolean; got string. Using false.']]);
  });

  it('late effects of two separate moments leave in two late batches', async () => {
    const late: EffectBatch[] = [];
    let first!: () => void;
    let second!: () => void;
    const gate1 = new Promise<void>((r) => (first = r));
    const gate2 = new Promise<void>((r) => (second = r));
    const { call } = engineWith({
      late,
      actions: {
        go: (c) => {
          void gate1.then(() => c.log('log', 'one'));
          void gate2.then(() => c.log('log', 'two'));
        },
      },
    });
    await call('go');
    first();
    await new Promise((r) => setTimeout(r, 0));
    second();
    await new Promise((r) => setTimeout(r, 0));
    expect(late.map((b) => b.effects)).toEqual([[{ type: 'log', level: 'log', message: 'one' }], [{ type: 'log', level: 'log', message: 'two' }]]);
    expect(late.map((b) => b.n)).toEqual([1, 2]);
  });
});

describe('early values and cookies', () => {
  it('an event sends no empty vars effect when every element has side effects; the values go with the first Library Loaded, with every event only when the container asks, and then only those that changed', async () => {
    const quiet = engineWith({ dataElements: { w: { type: 'constant', value: 1, sideEffects: true } } });
    const b = await quiet.fire({ type: 'library-loaded' });
    expect(b.effects.filter((e) => e.type === 'vars')).toEqual([]);
    const elements = { t: { type: 'data-layer', path: 'page.type' }, c: { type: 'constant', value: 'x' } } as const;
    const vars = (b: EffectBatch) => b.effects.filter((e) => e.type === 'vars');
    const once = engineWith({ dataElements: elements });
    expect(vars(await once.fire({ type: 'library-loaded' }, { dataLayer: { page: { type: 'home' } } }))).toEqual([{ type: 'vars', values: { t: 'home', c: 'x' } }]);
    expect(vars(await once.fire({ type: 'window-loaded' }, { dataLayer: { page: { type: 'cart' } } }))).toEqual([]);
    const every = engineWith({ dataElements: elements, getVarValues: 'every-event' });
    expect(vars(await every.fire({ type: 'library-loaded' }, { dataLayer: { page: { type: 'home' } } }))).toEqual([{ type: 'vars', values: { t: 'home', c: 'x' } }]);
    expect(vars(await every.fire({ type: 'dom-ready' }, { dataLayer: { page: { type: 'home' } } }))).toEqual([]);
    expect(vars(await every.fire({ type: 'window-loaded' }, { dataLayer: { page: { type: 'cart' } } }))).toEqual([{ type: 'vars', values: { t: 'cart' } }]);
  });

  it("every event: the page's values are computed without the event, as turbine's getVar on the page gives none, and again after the rules; a rule's read is sent only for an element whose reading writes", async () => {
    const seen = (c: { event: EngineEvent; pageCall?: boolean }) => (c.pageCall ? 'no event' : c.event.type);
    let writes = 0;
    const { fire, call } = engineWith({
      getVarValues: 'every-event',
      dataElements: { e: { type: 'custom', fn: seen }, w: { type: 'custom', sideEffects: true, fn: () => ++writes }, cart: { type: 'cookie', name: 'cart' } },
      actions: { go: (c) => void [c.get('e'), c.get('w'), c.cookies.set('cart', '2')] },
    });
    const vars = (b: EffectBatch) => b.effects.filter((x) => x.type === 'vars');
    expect(vars(await fire({ type: 'library-loaded' }, { cookie: 'cart=1' }))).toEqual([{ type: 'vars', values: { e: 'no event', cart: '1' } }]);
    // The rule read `e` with its event (not sent) and `w` (sent); the cookie it wrote is in the values computed after it.
    expect(vars(await call('go', { cookie: 'cart=1' }))).toEqual([{ type: 'vars', values: { cart: '2' } }, { type: 'vars', values: { w: 1 } }]);
  });

  it('a value the page cannot receive (a function) is not among the values sent with each event, and nothing is said of it', async () => {
    const { fire } = engineWith({ dataElements: { f: { type: 'custom', fn: () => () => 1 }, c: { type: 'constant', value: 'x' } } });
    const b = await fire({ type: 'library-loaded' });
    expect(b.effects.filter((e) => e.type === 'vars')).toEqual([{ type: 'vars', values: { c: 'x' } }]);
    expect(b.effects.filter((e) => e.type === 'log')).toEqual([]);
  });

  it('a cookie written with an expiry at or before the engine\'s clock reads as absent in the same event', async () => {
    const { call, env } = engineWith({
      actions: {
        go: (c) => {
          c.cookies.set('gone', 'x', { expires: env.now() });
          c.cookies.set('kept', 'y', { expires: env.now() + 1 });
          c.log('log', `${c.cookies.get('gone')} ${c.cookies.get('kept')}`);
        },
      },
    });
    expect(said(await call('go', { cookie: 'gone=old' }))).toEqual([['log', 'undefined y']]);
  });

  it('before the page\'s first event the engine knows an empty page: no URL, cookies or session, a 0×0 viewport', async () => {
    const seen: Snapshot[] = [];
    const { engine } = engineWith({ hooks: (s) => ({ onBeaconDelivered: () => void seen.push(s.ctx.snapshot()) }) });
    await engine.dispatch({ type: 'beacon-delivered', rttMs: 1 });
    expect(seen).toStrictEqual([
      { seq: 0, applied: 0, time: 0, tz: 0, url: '', referrer: '', cookie: '', session: {}, dataLayer: undefined, viewport: { width: 0, height: 0 }, gpc: false },
    ]);
  });
});

describe('the data layer helpers', () => {
  it('readPath stops at a null step without throwing', () => {
    expect(readPath({ a: null }, 'a.b')).toBeUndefined();
    expect(readPath({ a: [null] }, 'a[0].b')).toBeUndefined();
  });

  it('a key that is the empty string holding the layer itself is a cycle at the root', () => {
    const dl: Record<string, unknown> = { a: 1 };
    dl[''] = dl;
    expect(dropCycles(dl).cycles).toEqual(['(root)']);
    expect(dl).toEqual({ a: 1, '': undefined });
  });

  it('readSetOf ignores cookie, session and constant elements and a data-layer element without a path', () => {
    expect(
      readSetOf({
        c: { type: 'cookie' },
        s: { type: 'session' },
        k: { type: 'constant' },
        broken: { type: 'data-layer', path: undefined },
        stray: { type: 'custom', path: 'not.read', reads: ['user.id'] },
        d: { type: 'data-layer', path: 'page[0].id' },
      }),
    ).toEqual({ user: { id: 0 }, page: { 0: { id: 0 } } });
  });
});

describe('settings and tokens', () => {
  it('rum.proxy that is not a string is refused by its type; a URL that only contains http(s):// is refused', () => {
    expect(resolveSettings({ rum: { proxy: 42 } }, storefront).problems).toEqual(['offtagConfig.rum.proxy must be a string; got number. Using "".']);
    expect(resolveSettings({ rum: { proxy: 'ftp://x.example/https://y.example' } }, storefront).problems).toEqual([
      'offtagConfig.rum.proxy must be an http(s) URL or \'\'; got "ftp://x.example/https://y.example". Using "".',
    ]);
  });

  it('a token with a name of several characters keeps its type whole, and is written into text', () => {
    const values: Record<string, unknown> = { 'page count': 42, 'a-b': 'x' };
    const lookup = { has: (n: string) => n in values, get: (n: string) => values[n] };
    expect(replaceTokens('%page count%', lookup)).toBe(42);
    expect(replaceTokens('n=%page count%, %a-b%', lookup)).toBe('n=42, x');
  });
});

describe('waiting for the next macrotask', () => {
  const saved = { setImmediate: globalThis.setImmediate, MessageChannel: globalThis.MessageChannel };
  afterEach(() => {
    globalThis.setImmediate = saved.setImmediate;
    globalThis.MessageChannel = saved.MessageChannel;
  });

  /** Resolves `wait()` and records whether a microtask chain queued before it ran first. */
  async function order(wait: () => Promise<void>) {
    const seen: string[] = [];
    void Promise.resolve().then(() => Promise.resolve()).then(() => seen.push('microtasks'));
    await wait();
    seen.push('waited');
    return seen;
  }

  it('uses setImmediate where there is one (Node: the replay and the tests)', async () => {
    const spy = vi.fn((cb: () => void) => saved.setImmediate(cb));
    globalThis.setImmediate = spy as never;
    expect(await order(nextMacrotask())).toEqual(['microtasks', 'waited']);
    expect(spy).toHaveBeenCalledTimes(1);
  });

  it('uses a MessageChannel without setImmediate (a browser worker), one message per wait, in order', async () => {
    globalThis.setImmediate = undefined as never;
    let channels = 0;
    globalThis.MessageChannel = class extends saved.MessageChannel {
      constructor() {
        super();
        channels++;
      }
    };
    const wait = nextMacrotask();
    expect(channels).toBe(1);
    expect(await order(wait)).toEqual(['microtasks', 'waited']);
    const done: number[] = [];
    await Promise.all([wait().then(() => done.push(1)), wait().then(() => done.push(2))]);
    expect(done).toEqual([1, 2]);
  });

  it('falls back to a timer with neither', async () => {
    globalThis.setImmediate = undefined as never;
    globalThis.MessageChannel = undefined as never;
    expect(await order(nextMacrotask())).toEqual(['microtasks', 'waited']);
  });

  it('a dispatch holding for tracked work waits for it to settle instead of spinning', async () => {
    let settles = 0;
    const waiting = createWaiting(() => (settles++, new Promise<void>((r) => setImmediate(r))));
    void waiting.track(new Promise((r) => setTimeout(r, 30)));
    await waiting.settled();
    expect(settles).toBeLessThanOrEqual(2);
  });
});

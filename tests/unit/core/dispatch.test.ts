/**
 * The engine's seams: the effects buffer (batches, late effects), waiting on the world (requests,
 * timers, tracked work), the page state (session writes, problems) and one event's handling.
 */
import { describe, expect, it } from 'vitest';
import type { EffectBatch, EngineEvent, EngineInput, Snapshot } from '../../../src/protocol.ts';
import { createEngine, inputFailed, isBridgeEffect } from '../../../src/worker-engine/core/engine.ts';
import { describeProblem } from '../../../src/worker-engine/core/page-state.ts';
import type { Container, ContainerHooks, EngineContext, RuleContext } from '../../../src/worker-engine/core/types.ts';
import { logs, SITES, snap, testEnv } from '../harness.ts';

type Svc = { ctx: EngineContext };
type Rc = RuleContext<'pt', Svc>;

/** An engine whose direct calls run `actions[id]`, with the context in its services. */
function engineWith(actions: Record<string, (c: Rc) => unknown>, extra: { hooks?: ContainerHooks; config?: unknown; debug?: boolean } = {}) {
  const late: EffectBatch[] = [];
  const container: Container<'pt', Svc> = {
    name: 'seams',
    sessionKeys: [],
    dataElements: { pt: { type: 'data-layer', path: 'page.type' } },
    rules: Object.entries(actions).map(([id, fn]) => ({
      name: `rule ${id}`,
      events: [{ type: 'direct-call' as const, id }],
      actions: [{ name: 'a', fn: fn as (c: Rc) => void }],
    })),
    ...(extra.hooks ? { hooks: () => extra.hooks! } : {}),
  };
  const engine = createEngine({
    container,
    services: (ctx) => ({ ctx }),
    env: testEnv(),
    config: extra.config ?? { alwaysLog: true },
    page: SITES.shop,
    debug: extra.debug,
    onLateEffects: (b) => late.push(b),
  });
  let seq = 0;
  const fire = (event: EngineEvent, over: Partial<Snapshot> = {}) =>
    engine.dispatch({ type: 'event', event, snapshot: snap({ seq: ++seq, ...over }) });
  const call = (id: string, over: Partial<Snapshot> = {}) => fire({ type: 'direct-call', id }, over);
  return { engine, fire, call, late };
}

describe('effects and batches', () => {
  it('only bridge effects number a batch: requests, timers and the devtools feed stay in the worker', async () => {
    expect(isBridgeEffect({ type: 'request', id: 'x', kind: 'other', method: 'GET', url: '', credentials: 'omit' })).toBe(false);
    expect(isBridgeEffect({ type: 'timer', id: 't', delayMs: 1 })).toBe(false);
    expect(isBridgeEffect({ type: 'monitor', name: 'm', data: 1 })).toBe(false);
    expect(isBridgeEffect({ type: 'log', level: 'log', message: 'm' })).toBe(true);
    const { call, fire } = engineWith({
      net: (c) => void c.services.ctx.fetch({ kind: 'other', method: 'GET', url: 'https://x.example/', credentials: 'omit' }),
      say: (c) => c.log('log', 'hi'),
    });
    // The first event sends the data elements' values (a bridge effect); later ones only what changed.
    expect((await fire({ type: 'library-loaded' })).n).toBe(1);
    expect((await call('net')).n).toBe(0);
    expect((await call('say')).n).toBe(2);
    expect((await call('net')).n).toBe(0);
    expect((await call('say')).n).toBe(3);
  });

  it('an effect emitted after its dispatch ended leaves alone, in a late batch', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { call, late } = engineWith({ later: (c) => void gate.then(() => c.log('log', 'late one')) });
    const b = await call('later');
    expect(logs(b.effects)).toEqual([]);
    expect(late).toEqual([]);
    release();
    await new Promise((r) => setTimeout(r, 0));
    expect(late).toEqual([{ n: 1, effects: [{ type: 'log', level: 'log', message: 'late one' }] }]);
  });

  it('an effect emitted just before a dispatch starts joins that dispatch\'s batch instead of leaving alone', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const { call, late } = engineWith({ later: (c) => void gate.then(() => c.log('log', 'late one')), say: (c) => c.log('log', 'said') });
    await call('later');
    release();
    const b = await call('say');
    expect(late).toEqual([]);
    expect(logs(b.effects)).toEqual(['late one', 'said']);
  });

  it('dispatches run one after another, in the order they were asked for', async () => {
    const { call } = engineWith({ a: (c) => c.log('log', 'a'), b: (c) => c.log('log', 'b') });
    const [a, b] = await Promise.all([call('a'), call('b')]);
    expect(logs(a.effects)).toEqual(['a']);
    expect(logs(b.effects)).toEqual(['b']);
    expect([a.n, b.n]).toEqual([1, 2]);
  });
});

describe('waiting on the world', () => {
  it('a request waits for its response input; its effects after the answer travel in that input\'s batch', async () => {
    const { engine, call } = engineWith({
      net: async (c) => {
        const r = await c.services.ctx.fetch({ kind: 'other', method: 'GET', url: 'https://x.example/', credentials: 'omit' });
        c.log('log', `status ${r.status} ${r.body}`);
      },
    });
    const first = await call('net');
    const req = first.effects.find((e) => e.type === 'request');
    expect(req).toMatchObject({ type: 'request', id: 'other-1', url: 'https://x.example/' });
    const answer = await engine.dispatch({ type: 'response', id: 'other-1', response: { status: 204, body: 'ok' } });
    expect(logs(answer.effects)).toEqual(['status 204 ok']);
    // An answer to nothing that waits is ignored.
    expect((await engine.dispatch({ type: 'response', id: 'other-1', response: { status: 200, body: '' } })).effects).toEqual([]);
  });

  it('a timer input for a request id gives the request a network error; fire-and-forget resolves at once with status 0', async () => {
    const { engine, call } = engineWith({
      net: async (c) => {
        const r = await c.services.ctx.fetch({ kind: 'other', method: 'GET', url: 'https://x.example/', credentials: 'omit' });
        c.log('log', JSON.stringify(r));
      },
      fire: async (c) => {
        const r = await c.services.ctx.fetch({ kind: 'beacon', method: 'GET', url: 'https://x.example/b', credentials: 'omit', fireAndForget: true });
        c.log('log', JSON.stringify(r));
      },
    });
    await call('net');
    const b = await engine.dispatch({ type: 'timer', id: 'other-1' });
    expect(logs(b.effects)).toEqual(['{"status":0,"body":"","error":"network"}']);
    const f = await call('fire');
    expect(logs(f.effects)).toEqual(['{"status":0,"body":""}']);
    expect(f.effects.find((e) => e.type === 'request')).toMatchObject({ id: expect.stringMatching(/^beacon-\d+$/), fireAndForget: true });
  });

  it('sleep is a timer effect of the engine\'s clock, resolved by the timer input', async () => {
    const { engine, call } = engineWith({
      nap: async (c) => {
        await c.services.ctx.sleep(250);
        c.log('log', 'awake');
      },
    });
    const b = await call('nap');
    expect(b.effects).toContainEqual({ type: 'timer', id: 'timer-1', delayMs: 250 });
    expect(logs(b.effects)).toEqual([]);
    expect(logs((await engine.dispatch({ type: 'timer', id: 'timer-1' })).effects)).toEqual(['awake']);
  });

  it('tracked work holds the batch until it settles, across macrotasks', async () => {
    const { call } = engineWith({
      hash: (c) =>
        void c.services.ctx
          .track(new Promise<string>((r) => setTimeout(() => setTimeout(() => r('done'), 0), 0)))
          .then((v) => c.log('log', v)),
    });
    expect(logs((await call('hash')).effects)).toEqual(['done']);
  });

  it('tracked work that starts waiting for a request lets the batch leave with the request in it', async () => {
    const { engine, call } = engineWith({
      chain: (c) =>
        void c.services.ctx.track(
          (async () => {
            await new Promise((r) => setTimeout(r, 0));
            const r = await c.services.ctx.fetch({ kind: 'other', method: 'GET', url: 'https://x.example/', credentials: 'omit' });
            c.log('log', `after ${r.status}`);
          })(),
        ),
    });
    const b = await call('chain');
    expect(b.effects.some((e) => e.type === 'request')).toBe(true);
    expect(logs((await engine.dispatch({ type: 'response', id: 'other-1', response: { status: 200, body: '' } })).effects)).toEqual(['after 200']);
  });
});

describe('one event', () => {
  it('the devtools feed: the event, each rule triggered and completed, with the snapshot\'s seq', async () => {
    const { call } = engineWith({ go: () => {} });
    const b = await call('go', { seq: 9 });
    expect(b.effects.filter((e) => e.type === 'monitor')).toEqual([
      { type: 'monitor', name: 'event', data: { type: 'direct-call', id: 'go', seq: 9 } },
      { type: 'monitor', name: 'rule-triggered', data: { rule: 'rule go', event: 'direct-call', seq: 9 } },
      { type: 'monitor', name: 'rule-completed', data: { rule: 'rule go', fired: true, seq: 9 } },
    ]);
  });

  it('a direct-call id is trimmed; a non-string id is said and made a string', async () => {
    const { fire } = engineWith({ go: (c) => c.log('log', 'went'), null: (c) => c.log('log', 'null ran') });
    expect(logs((await fire({ type: 'direct-call', id: '  go \n' })).effects)).toEqual(['went']);
    const b = await fire({ type: 'direct-call', id: null as never });
    expect(logs(b.effects)).toEqual(['_satellite.track() expects a string identifier; got null. Using "null".', 'null ran']);
    const n = await fire({ type: 'direct-call', id: 5 as never });
    expect(logs(n.effects)[0]).toBe('_satellite.track() expects a string identifier; got number. Using "5".');
  });

  it('get-var of a name that is no data element answers undefined; set-var without values sets nothing', async () => {
    const { fire } = engineWith({});
    const g = await fire({ type: 'get-var', name: 'nope' }, { seq: 4 });
    expect(g.effects).toContainEqual({ type: 'reply', seq: 4, value: undefined });
    const s = await fire({ type: 'set-var', values: undefined as never });
    expect(s.effects.filter((e) => e.type === 'vars')).toEqual([]);
  });

  it('a facade call that rejects with a non-Error answers its text', async () => {
    const { fire } = engineWith({}, { hooks: { serviceCall: () => Promise.reject('plain') } });
    const b = await fire({ type: 'service-call', service: 's', method: 'm', args: undefined as never }, { seq: 6 });
    expect(b.effects).toContainEqual({ type: 'reply', seq: 6, error: 'plain' });
  });

  it('a rule whose condition fails is fed as rule-condition-failed', async () => {
    const late: unknown[] = [];
    const engine = createEngine({
      container: {
        name: 'c',
        sessionKeys: [],
        dataElements: {},
        rules: [{ name: 'r', events: [{ type: 'dom-ready' }], conditions: [{ name: 'no', fn: () => false }], actions: [] }],
      },
      services: () => ({}),
      env: testEnv(),
      config: {},
      page: SITES.shop,
      onLateEffects: (b) => late.push(b),
    });
    const b = await engine.dispatch({ type: 'event', event: { type: 'dom-ready' }, snapshot: snap({ seq: 2 }) });
    expect(b.effects).toContainEqual({ type: 'monitor', name: 'rule-condition-failed', data: { rule: 'r', fired: false, stoppedAt: 'no', seq: 2 } });
  });
});

describe('page state', () => {
  it('a session write is read back until a snapshot says the page applied its batch', async () => {
    const { call } = engineWith({
      write: (c) => c.session.set('k', 'v'),
      read: (c) => c.log('log', `k=${c.session.get('k')}`),
    });
    const w = await call('write');
    expect(w.effects).toContainEqual({ type: 'storage', key: 'k', value: 'v' });
    expect(logs((await call('read', { session: {}, applied: 0 })).effects)).toEqual(['k=v']);
    expect(logs((await call('read', { session: {}, applied: w.n })).effects)).toEqual(['k=null']);
    expect(logs((await call('read', { session: { k: 'page' }, applied: w.n })).effects)).toEqual(['k=page']);
  });

  it('words every problem the bridge reports', () => {
    expect(describeProblem({ kind: 'data-layer', detail: 'SecurityError' }, 'dl')).toBe(
      'window.dl is not readable (SecurityError); the event goes on without it.',
    );
    expect(describeProblem({ kind: 'uncloneable', detail: 'DataCloneError', paths: [] }, 'dl')).toBe(
      'The data layer could not be copied as it is (DataCloneError). Left out: (nothing).',
    );
    expect(describeProblem({ kind: 'uncloneable', detail: 'E', paths: ['x.snapshot.dataLayer', 'the.event.x'] }, 'dl')).toBe(
      'The data layer could not be copied as it is (E). Left out: x.snapshot.dataLayer, the.event.x.',
    );
  });

  it('a data layer that is not an object is not searched for cycles', async () => {
    const { call } = engineWith({ go: () => {} });
    expect(logs((await call('go', { dataLayer: 'text' })).effects)).toEqual([]);
  });
});

describe('inputs other than events', () => {
  it('debug turns debug-level messages on and off; the debug option starts with them on', async () => {
    const { engine, call } = engineWith({ go: () => {} });
    expect(logs((await call('go')).effects)).toEqual([]);
    await engine.dispatch({ type: 'debug', on: true });
    expect(logs((await call('go')).effects)).toEqual(['Rule "rule go" fired.']);
    await engine.dispatch({ type: 'debug', on: false });
    expect(logs((await call('go')).effects)).toEqual([]);
    const started = engineWith({ go: () => {} }, { debug: true });
    expect(logs((await started.call('go')).effects)).toEqual(['Rule "rule go" fired.']);
    const bySetting = engineWith({ go: () => {} }, { config: { debug: true } });
    expect(logs((await bySetting.call('go')).effects)).toEqual(['Rule "rule go" fired.']);
  });

  it('an input whose handling throws is said with its name, and the next input is processed', async () => {
    const { engine, call } = engineWith({ go: (c) => c.log('log', 'went') }, { hooks: { onBeaconDelivered: () => { throw new Error('boom'); } } });
    const b = await engine.dispatch({ type: 'beacon-delivered', rttMs: 1 });
    expect(logs(b.effects)).toEqual(['Offtag could not process "beacon-delivered": boom. Later events are processed as usual.']);
    expect(logs((await call('go')).effects)).toEqual(['went']);
  });
});

describe('inputFailed', () => {
  const event = (e: unknown) => ({ type: 'event', event: e, snapshot: snap() }) as EngineInput;
  it('names the event (and a direct call\'s id) and says why', () => {
    expect(inputFailed(event({ type: 'direct-call', id: 'Page View' }), new Error('x'))).toBe(
      'Offtag could not process "direct-call" ("Page View"): x. Later events are processed as usual.',
    );
    expect(inputFailed(event({ type: 'click' }), 'text')).toBe('Offtag could not process "click": text. Later events are processed as usual.');
    expect(inputFailed({ type: 'timer', id: 't' }, 1)).toBe('Offtag could not process "timer": 1. Later events are processed as usual.');
  });

  it('survives inputs and errors that cannot be read', () => {
    const hostile = { toString: () => { throw new Error('no'); } };
    expect(inputFailed(undefined as never, hostile)).toBe('Offtag could not process "undefined": unknown error. Later events are processed as usual.');
    expect(inputFailed(event(undefined), new Error('e'))).toBe('Offtag could not process "undefined": e. Later events are processed as usual.');
  });
});

describe('more seams', () => {
  it('an event whose handling fails before its rules are queued is said, and the next event runs', async () => {
    const { fire, call } = engineWith(
      { go: (c) => c.log('log', 'went') },
      {
        hooks: {
          serviceCall: () => {
            throw new Error('facade broke');
          },
        },
      },
    );
    const b = await fire({ type: 'service-call', service: 's', method: 'm', args: [] });
    expect(logs(b.effects)).toEqual(['Offtag could not process "service-call": facade broke. Later events are processed as usual.']);
    expect(logs((await call('go')).effects)).toEqual(['went']);
  });

  it('answer(id) waits for the response input of that id', async () => {
    const { engine, call } = engineWith({
      ask: async (c) => {
        const r = await c.services.ctx.answer!('question-1');
        c.log('log', `answered ${JSON.stringify(r)}`);
      },
    });
    expect(logs((await call('ask')).effects)).toEqual([]);
    const b = await engine.dispatch({ type: 'response', id: 'question-1', response: { status: 200, body: 'yes' } });
    expect(logs(b.effects)).toEqual(['answered {"status":200,"body":"yes"}']);
  });

  it('a container without services gives its rules an empty services object', async () => {
    const engine = createEngine({
      container: {
        name: 'bare',
        sessionKeys: [],
        dataElements: {},
        rules: [{ name: 'r', events: [{ type: 'dom-ready' }], actions: [{ name: 'a', fn: (c) => c.log('log', `services ${JSON.stringify(c.services)}`) }] }],
      },
      env: testEnv(),
      config: { alwaysLog: true },
      page: SITES.shop,
    });
    const b = await engine.dispatch({ type: 'event', event: { type: 'dom-ready' }, snapshot: snap() });
    expect(logs(b.effects)).toEqual(['services {}']);
  });
});

describe('running a rule\'s components', () => {
  function ruleEngine(conditions: Array<{ name: string; fn: () => unknown }>, action: () => unknown) {
    return createEngine({
      container: {
        name: 'components',
        sessionKeys: [],
        dataElements: {},
        rules: [{ name: 'r', events: [{ type: 'direct-call', id: 'go' }], conditions: conditions as never, actions: [{ name: 'a', fn: action as never }] }],
      },
      services: () => ({}),
      env: testEnv(),
      config: {},
      page: SITES.shop,
    });
  }
  const go = (engine: ReturnType<typeof createEngine>) => engine.dispatch({ type: 'event', event: { type: 'direct-call', id: 'go' }, snapshot: snap({ seq: 3 }) });

  it('a component that answers at once (a value, an object) sets no timeout timer; a promise does', async () => {
    const sync = await go(ruleEngine([{ name: 'yes', fn: () => true }, { name: 'object', fn: () => ({ ok: 1 }) }], () => ({ done: true })));
    expect(sync.effects.filter((e) => e.type === 'timer')).toEqual([]);
    expect(sync.effects).toContainEqual({ type: 'monitor', name: 'rule-completed', data: { rule: 'r', fired: true, seq: 3 } });
    const later = await go(ruleEngine([], () => Promise.resolve()));
    expect(later.effects.filter((e) => e.type === 'timer')).toEqual([{ type: 'timer', id: 'timer-1', delayMs: 2000 }]);
  });

  it('only a page condition is fed to the devtools as run on the page', async () => {
    const b = await go(ruleEngine([{ name: 'in the worker', fn: () => true }], () => {}));
    expect(b.effects.filter((e) => e.type === 'monitor' && e.name === 'rule-page-part')).toEqual([]);
  });
});

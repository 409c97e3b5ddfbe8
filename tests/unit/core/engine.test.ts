import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../src/protocol.ts';
import type { Container } from '../../../src/worker-engine/core/types.ts';
import { logs, makeEngine } from '../harness.ts';

type N = 'pageType' | 'user' | 'lower' | 'clean' | 'constant' | 'cookie' | 'session' | 'broken' | 'notFn' | 'a' | 'b' | 'greeting';

const container: Container<N, object> = {
  name: 'test',
  sessionKeys: ['s1'],
  settings: { brand: 'acme' },
  dataElements: {
    pageType: { type: 'data-layer', path: 'page.pageInfo.pageType', default: 'none' },
    user: { type: 'data-layer', path: 'user.list[1].name' },
    lower: { type: 'constant', value: 'MiXeD', forceLowerCase: true },
    clean: { type: 'constant', value: '  a \n  b  ', cleanText: true },
    constant: { type: 'constant', value: 42 },
    cookie: { type: 'cookie', name: 'c1', default: 'no-cookie' },
    session: { type: 'session', key: 's1' },
    broken: {
      type: 'custom',
      default: 'fallback',
      fn: () => {
        throw new TypeError("Cannot read properties of undefined (reading 'x')");
      },
    },
    notFn: { type: 'custom', fn: 'nope' as never, default: 'd' },
    a: { type: 'custom', fn: (c) => c.get('b') },
    b: { type: 'custom', fn: (c) => c.get('a') },
    greeting: { type: 'custom', fn: (c) => `hello ${c.get('pageType')}` },
  },
  rules: [
    {
      name: 'second',
      order: 60,
      events: [{ type: 'direct-call', id: 'go' }],
      actions: [{ name: 'log', fn: (c) => c.log('log', `second ${c.get('pageType')}`) }],
    },
    {
      name: 'first',
      order: 10,
      events: [{ type: 'direct-call', id: 'go' }],
      actions: [{ name: 'log', fn: (c) => c.log('log', `first ${c.replaceTokens('type=%pageType%, n=%constant%')}`) }],
    },
    {
      name: 'negated',
      events: [{ type: 'direct-call', id: 'go' }],
      conditions: [{ name: 'is product', fn: (c) => c.get('pageType') === 'product', negate: true }],
      actions: [{ name: 'log', fn: (c) => c.log('log', 'negated ran') }],
    },
    {
      name: 'slow',
      events: [{ type: 'direct-call', id: 'slow' }],
      actions: [{ name: 'never settles', fn: () => new Promise<void>(() => {}), timeout: 500 }],
    },
    {
      name: 'bad module',
      events: [{ type: 'direct-call', id: 'bad' }],
      actions: [{ name: 'not a function', fn: 'oops' as never }],
    },
    {
      name: 'loaded',
      events: [{ type: 'library-loaded' }],
      actions: [{ name: 'write', fn: (c) => c.cookies.set('seen', String(c.get('constant'))) }],
    },
  ],
};

const vars = (effects: Effect[]) =>
  Object.assign({}, ...effects.filter((e) => e.type === 'vars').map((e) => (e as { values: object }).values));

describe('data elements', () => {
  it('read each source type and finish values (default, cleanText, forceLowerCase)', async () => {
    const { engine, fire } = makeEngine(container);
    const batch = await fire(
      { type: 'get-var', name: 'pageType' },
      { dataLayer: { page: { pageInfo: { pageType: 'product' } } }, cookie: 'c1=v%201', session: { s1: 'x' } },
    );
    expect(batch.effects).toContainEqual({ type: 'reply', seq: 1, value: 'product' });
    for (const [name, value] of [
      ['lower', 'mixed'],
      ['clean', 'a b'],
      ['constant', 42],
      ['cookie', 'v 1'],
      ['session', 'x'],
      ['greeting', 'hello product'],
    ] as const) {
      const b = await engine.dispatch({
        type: 'event',
        event: { type: 'get-var', name },
        snapshot: { ...batch.effects[0], seq: 9, applied: 0, time: 0, tz: 0, url: '', referrer: '', title: '', cookie: 'c1=v%201', session: { s1: 'x' }, dataLayer: { page: { pageInfo: { pageType: 'product' } } }, viewport: { width: 1, height: 1 }, gpc: false } as never,
      });
      expect(b.effects.find((e) => e.type === 'reply')).toMatchObject({ value });
    }
  });

  it('reads array paths', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'get-var', name: 'user' }, { dataLayer: { user: { list: [{ name: 'x' }, { name: 'y' }] } } });
    expect(b.effects).toContainEqual({ type: 'reply', seq: 1, value: 'y' });
  });

  it('gives the default when the value is missing', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'get-var', name: 'pageType' }, { dataLayer: {} });
    expect(b.effects).toContainEqual({ type: 'reply', seq: 1, value: 'none' });
    const c = await fire({ type: 'get-var', name: 'cookie' }, { cookie: 'other=1' });
    expect(c.effects).toContainEqual({ type: 'reply', seq: 2, value: 'no-cookie' });
  });

  it('logs a failing element and returns its default; the event goes on', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'get-var', name: 'broken' });
    expect(b.effects).toContainEqual({ type: 'reply', seq: 1, value: 'fallback' });
    expect(logs(b.effects)).toContain(
      'Failed to execute data element module for data element "broken". Cannot read properties of undefined (reading \'x\')',
    );
  });

  it('says "Module did not export a function." for a custom element that is not a function', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'get-var', name: 'notFn' });
    expect(b.effects).toContainEqual({ type: 'reply', seq: 1, value: 'd' });
    expect(logs(b.effects).join('\n')).toContain('Module did not export a function.');
  });

  it('stops a circular reference at depth 10 with a warning', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'get-var', name: 'a' });
    const warning = logs(b.effects).find((m) => m.startsWith('Data element circular reference detected:'));
    expect(warning).toBe(`Data element circular reference detected: ${'a -> b -> '.repeat(5)}a`);
  });

  it('is a type error to name an unknown data element', () => {
    const c: Container<'x', object> = {
      name: 't',
      sessionKeys: [],
      // @ts-expect-error 'y' is not a data element of this container
      dataElements: { x: { type: 'custom', fn: (ctx) => ctx.get('y') } },
      rules: [],
    };
    expect(c.name).toBe('t');
  });
});

describe('rules', () => {
  it('run in order, conditions (negate) gate actions, tokens are replaced', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'direct-call', id: 'go' }, { dataLayer: { page: { pageInfo: { pageType: 'cart' } } } });
    expect(logs(b.effects)).toEqual([
      'first type=cart, n=42',
      'negated ran',
      'second cart',
    ]);
    expect(vars(b.effects)).toMatchObject({ pageType: 'cart', constant: 42 });
    const p = await fire({ type: 'direct-call', id: 'go' }, { dataLayer: { page: { pageInfo: { pageType: 'product' } } } });
    expect(logs(p.effects)).not.toContain('negated ran');
  });

  it('sends debug-level messages only in debug mode, switched by an input', async () => {
    const { engine, fire } = makeEngine(container);
    const quiet = await fire({ type: 'direct-call', id: 'go' });
    expect(quiet.effects.filter((e) => e.type === 'log' && e.level === 'debug')).toEqual([]);
    await engine.dispatch({ type: 'debug', on: true });
    const loud = await fire({ type: 'direct-call', id: 'go' });
    expect(logs(loud.effects)).toContain('Rule "first" fired.');
    expect(logs(loud.effects)).toContain('Rule "negated" fired.');
  });

  it('logs a direct call no rule listens to', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'direct-call', id: 'Nope' });
    expect(logs(b.effects)).toContain('"Nope" does not match any direct call identifiers.');
  });

  it('coerces a non-string track id with a clear message', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'direct-call', id: 42 as never });
    expect(logs(b.effects)).toContain('_satellite.track() expects a string identifier; got number. Using "42".');
    expect(logs(b.effects)).toContain('"42" does not match any direct call identifiers.');
  });

  it('times out an action that never settles, through a timer of the engine clock', async () => {
    const { engine, fire } = makeEngine(container);
    const b = await fire({ type: 'direct-call', id: 'slow' });
    const timer = b.effects.find((e) => e.type === 'timer') as Extract<Effect, { type: 'timer' }>;
    expect(timer.delayMs).toBe(500);
    const t = await engine.dispatch({ type: 'timer', id: timer.id });
    expect(logs(t.effects)).toContain(
      'Failed to execute "never settles" for "slow" rule. A timeout occurred because the action took longer than 0.5 seconds to complete.',
    );
  });

  it('logs "Module did not export a function." for an action that is not a function', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'direct-call', id: 'bad' });
    expect(logs(b.effects)).toContain('Failed to execute "not a function" for "bad module" rule. Module did not export a function.');
  });
});

describe('engine state', () => {
  it('reads its own cookie writes until a snapshot says the page applied them', async () => {
    const { engine, fire } = makeEngine({
      ...container,
      dataElements: { ...container.dataElements, cookie: { type: 'cookie', name: 'seen' } },
    });
    const b = await fire({ type: 'library-loaded' });
    expect(b.n).toBe(1);
    expect(b.effects).toContainEqual({ type: 'cookie', name: 'seen', value: '42', path: '/' });
    // The page has not applied batch 1 yet: its snapshot has no cookie, the engine still sees it.
    const before = await fire({ type: 'get-var', name: 'cookie' }, { cookie: '', applied: 0 });
    expect(before.effects).toContainEqual({ type: 'reply', seq: 2, value: '42' });
    // Applied, then removed by the page: the page wins.
    const after = await fire({ type: 'get-var', name: 'cookie' }, { cookie: '', applied: before.n });
    expect(after.effects.find((e) => e.type === 'reply')).toMatchObject({ value: undefined });
    expect(engine.settings.brand).toBe('acme');
  });

  it('set-var values are visible to tokens and get-var', async () => {
    const { fire } = makeEngine(container);
    await fire({ type: 'set-var', values: { mine: 'yes' } });
    const b = await fire({ type: 'get-var', name: 'mine' });
    expect(b.effects).toContainEqual({ type: 'reply', seq: 2, value: 'yes' });
  });

  it('drops data-layer cycles with one warning naming the path', async () => {
    const { fire } = makeEngine(container);
    const dl: Record<string, unknown> = { page: { pageInfo: { pageType: 'x' } } };
    (dl.page as Record<string, unknown>).self = dl;
    const b = await fire({ type: 'get-var', name: 'pageType' }, { dataLayer: dl });
    expect(logs(b.effects)).toContain('The data layer refers back to itself at page.self; those references were dropped.');
    expect(b.effects).toContainEqual({ type: 'reply', seq: 1, value: 'x' });
  });

  it('reports snapshot problems (e.g. unreadable sessionStorage) and goes on', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'get-var', name: 'session' }, { problems: [{ kind: 'session', detail: 'SecurityError' }] });
    expect(logs(b.effects)).toContain('sessionStorage is not readable (SecurityError); the event goes on without it.');
    expect(b.effects).toContainEqual({ type: 'reply', seq: 1, value: null });
  });

  it('words the uncloneable-data-layer problem with the data layer name', async () => {
    const { fire } = makeEngine(container);
    const b = await fire(
      { type: 'dom-ready' },
      { problems: [{ kind: 'uncloneable', detail: 'DataCloneError: x', paths: ['snapshot.dataLayer.page.fn', 'event.detail.cb'] }] },
    );
    expect(logs(b.effects)).toContain(
      "The data layer could not be copied as it is (DataCloneError: x). Left out: digitalData.page.fn, the event's detail.cb.",
    );
  });

  it('logs each rejected setting once and keeps the default', async () => {
    const withSettings = { ...container, settings: { brand: 'acme', rum: { site: 'datadoghq.com' } } };
    const { engine, fire } = makeEngine(withSettings, { brand: 7, nope: true, environment: 'prod', rum: { site: 'x', bad: 1 } });
    const b = await fire({ type: 'dom-ready' });
    expect(logs(b.effects)).toEqual([
      'offtagConfig.brand must be a string; got number. Using "acme".',
      'offtagConfig.nope is not a setting; it is ignored.',
      'offtagConfig.environment must be one of development, staging, production; got "prod". Using "production".',
      'offtagConfig.rum.bad is not a setting; it is ignored.',
    ]);
    expect((engine.settings as unknown as { rum: { site: string } }).rum.site).toBe('x');
    const wrongType = makeEngine(container, 'not an object');
    expect(logs((await wrongType.fire({ type: 'dom-ready' })).effects)).toEqual([
      'offtagConfig must be an object; got string. Using the default settings.',
    ]);
  });
});

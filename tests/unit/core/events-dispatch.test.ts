/**
 * One page event as core/events.ts handles it, where the other tests pass it by: `setVar` values
 * sent back for `getVar`, the direct calls a Library Loaded pulled (their rules among its rules, in
 * rule order, a name no rule listens to said), the monitor records the devtools read, the values
 * sent with each event to a container whose getVar answers on every event (only what changed, only
 * what the page can receive), the engine's random source, and a watch that saw no change.
 *
 * Equivalent mutants of events.ts (no caller can tell them apart):
 * - `cloneable`'s first test (`typeof value !== 'object' || value === null`) made `false`, its
 *   `typeof value !== 'object'` made `false`, its `||` made `&&`, and `value === null` made
 *   `false`: a shortcut past `structuredClone`, which takes every primitive and null and throws on
 *   a function or a symbol, so the answer is the same without it. Its `catch` block emptied: it
 *   returns undefined instead of false, and its one caller only negates the answer.
 * - `event.type === 'library-loaded'` made `true` before `event.setup?.length` in `runRules`: only
 *   a Library Loaded event has `setup`.
 * - The `event` monitor's id for events other than direct calls and triggers (`event.type ===
 *   'trigger'` made `true`): no other event has a `key`, so the id is undefined either way.
 * - `?.` made `.` where a rule's reads are filtered for getVar (`publishValues`): a resolver's
 *   values are only data elements it read, all of them in the container.
 */
import { describe, expect, it } from 'vitest';
import type { EffectBatch, EngineEvent, TriggerEvent } from '../../../src/protocol.ts';
import { unmatchedDirectCall } from '../../../src/worker-engine/core/events.ts';
import { keyOf } from '../../../src/worker-engine/core/triggers.ts';
import type { Container, DataElement, PageTriggerSpec, Rule, RuleEventSpec } from '../../../src/worker-engine/core/types.ts';
import { effectsOf, logsOf, makeEngine, seededRandom, varsOf } from '../harness.ts';

const monitors = (b: EffectBatch) => effectsOf(b, 'monitor').map(({ name, data }) => ({ name, data }));

describe('setVar', () => {
  const container: Container<'de', object> = { name: 't', sessionKeys: [], dataElements: { de: { type: 'constant', value: 1 } }, rules: [] };

  it('sends the names that are no data element back to the page, for getVar', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'set-var', values: { de: 2, mine: 'x', n: 0 } });
    expect(effectsOf(b, 'vars')).toEqual([{ type: 'vars', values: { mine: 'x', n: 0 } }]);
  });

  it('a data element answers getVar by its own value: setVar of only its name sends nothing', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'set-var', values: { de: 3 } });
    expect(effectsOf(b, 'vars')).toEqual([]);
  });
});

describe('the direct calls a Library Loaded pulled', () => {
  const ran: string[] = [];
  const rule = (name: string, events: RuleEventSpec[], order?: number): Rule<string> => ({ name, events, ...(order === undefined ? {} : { order }), actions: [{ name: 'a', fn: () => void ran.push(name) }] });
  const container: Container<string, object> = {
    name: 't',
    sessionKeys: [],
    dataElements: {},
    rules: [rule('early call', [{ type: 'direct-call', id: 'early' }]), rule('loaded', [{ type: 'library-loaded' }]), rule('first', [{ type: 'library-loaded' }], 10), rule('late call', [{ type: 'direct-call', id: 'late' }], 90)],
  };

  it('their rules run among the Library Loaded rules by rule order, ties in the container order', async () => {
    ran.length = 0;
    const { fire } = makeEngine(container);
    await fire({ type: 'library-loaded', setup: [{ id: 'late' }, { id: 'early' }] });
    expect(ran).toEqual(['first', 'early call', 'loaded', 'late call']);
  });

  it('each is a monitored event; a call no rule listens to is said, at the log level', async () => {
    ran.length = 0;
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'library-loaded', setup: [{ id: 'early' }, { id: 'nobody' }] });
    expect(logsOf(b, 'log').filter((m) => m.includes('direct call'))).toEqual([unmatchedDirectCall('nobody')]);
    expect(monitors(b).filter((m) => m.name === 'event')).toEqual([
      { name: 'event', data: { type: 'library-loaded', seq: 1 } },
      { name: 'event', data: { type: 'direct-call', id: 'early', seq: 1 } },
      { name: 'event', data: { type: 'direct-call', id: 'nobody', seq: 1 } },
    ]);
  });

  it('a Library Loaded without any runs its own rules', async () => {
    ran.length = 0;
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'library-loaded' });
    expect(ran).toEqual(['first', 'loaded']);
    expect(logsOf(b, 'error')).toEqual([]);
  });
});

describe('monitor records', () => {
  it('a direct call by its id, a trigger by its listener and, in the rule table, by its kind', async () => {
    const spec: PageTriggerSpec = { type: 'hover', selector: '.card', delay: 300 };
    const container: Container<string, object> = {
      name: 't',
      sessionKeys: [],
      dataElements: {},
      rules: [
        { name: 'hover', events: [spec], actions: [] },
        { name: 'go', events: [{ type: 'direct-call', id: 'go' }], actions: [] },
      ],
    };
    const { fire } = makeEngine(container);
    const event: TriggerEvent = { type: 'trigger', key: keyOf(spec)!, on: 'hover', delay: 300 };
    const t = await fire(event);
    expect(monitors(t).slice(0, 2)).toEqual([
      { name: 'event', data: { type: 'trigger', id: event.key, seq: 1 } },
      { name: 'rule-triggered', data: { rule: 'hover', event: 'trigger hover', seq: 1 } },
    ]);
    const d = await fire({ type: 'direct-call', id: 'go' });
    expect(monitors(d).slice(0, 2)).toEqual([
      { name: 'event', data: { type: 'direct-call', id: 'go', seq: 2 } },
      { name: 'rule-triggered', data: { rule: 'go', event: 'direct-call', seq: 2 } },
    ]);
  });

  it('a direct call no rule listens to is said at the log level', async () => {
    const { fire } = makeEngine({ name: 't', sessionKeys: [], dataElements: {}, rules: [] });
    expect(logsOf(await fire({ type: 'direct-call', id: 'nobody' }), 'log')).toEqual([unmatchedDirectCall('nobody')]);
  });
});

describe('data element changes', () => {
  const said: unknown[] = [];
  const container: Container<'w' | 'n', object> = {
    name: 't',
    sessionKeys: [],
    dataElements: { w: { type: 'data-layer', path: 'w' }, n: { type: 'constant', value: 7 } },
    rules: [
      { name: 'go', events: [{ type: 'direct-call', id: 'go' }], actions: [{ name: 'a', fn: (c) => void said.push(c.get('n')) }] },
      { name: 'changed', events: [{ type: 'data-element-change', name: 'w' }], actions: [{ name: 'a', fn: (c) => void said.push(`w ${String(c.get('w'))}`) }] },
    ],
  };

  it('a change is a monitored event, and its rules run', async () => {
    said.length = 0;
    const { fire } = makeEngine(container);
    await fire({ type: 'direct-call', id: 'go' }, { dataLayer: { w: 1 } });
    const b = await fire({ type: 'direct-call', id: 'go' }, { dataLayer: { w: 2 } });
    expect(said).toEqual([7, 7, 'w 2']);
    expect(monitors(b).filter((m) => m.name === 'event')).toEqual([
      { name: 'event', data: { type: 'direct-call', id: 'go', seq: 2 } },
      { name: 'event', data: { type: 'data-element-change', id: 'w', seq: 2 } },
    ]);
  });

  it('without a change, what the rules read is sent once', async () => {
    const { fire } = makeEngine(container);
    await fire({ type: 'direct-call', id: 'go' }, { dataLayer: { w: 1 } });
    const b = await fire({ type: 'direct-call', id: 'go' }, { dataLayer: { w: 1 } });
    expect(effectsOf(b, 'vars')).toEqual([{ type: 'vars', values: { n: 7 } }]);
  });
});

describe('the values sent with every event (getVarValues: every-event)', () => {
  const custom = (fn: () => unknown): DataElement<string> => ({ type: 'custom', fn, reads: [] });
  const container: Container<string, object> = {
    name: 't',
    sessionKeys: [],
    getVarValues: 'every-event',
    dataElements: {
      // A new object each time, equal to the last.
      obj: custom(() => ({ a: [1] })),
      v: { type: 'data-layer', path: 'v' },
      fn: custom(() => () => 1),
      holdsFn: custom(() => ({ f: () => 1 })),
      sym: custom(() => Symbol('s')),
    },
    rules: [],
  };
  const sent = (b: EffectBatch) => {
    const values = varsOf(b);
    return Object.fromEntries(Object.keys(values).sort().map((k) => [k, values[k]]));
  };

  it('only what the page can receive, and then only what changed, values that look alike told apart', async () => {
    const { fire } = makeEngine(container);
    const go: EngineEvent = { type: 'dom-ready' };
    expect(sent(await fire(go, { dataLayer: { v: null } }))).toEqual({ obj: { a: [1] }, v: null });
    expect(sent(await fire(go, { dataLayer: { v: 'null' } }))).toEqual({ v: 'null' });
    expect(sent(await fire(go, { dataLayer: { v: 5 } }))).toEqual({ v: 5 });
    expect(sent(await fire(go, { dataLayer: { v: '5' } }))).toEqual({ v: '5' });
    expect(sent(await fire(go, { dataLayer: { v: '5' } }))).toEqual({});
    // NaN, Infinity and null are one in JSON, not to the page.
    expect(sent(await fire(go, { dataLayer: { v: Number.NaN } }))).toEqual({ v: Number.NaN });
    expect(sent(await fire(go, { dataLayer: { v: Number.POSITIVE_INFINITY } }))).toEqual({ v: Number.POSITIVE_INFINITY });
    expect(sent(await fire(go, { dataLayer: { v: null } }))).toEqual({ v: null });
  });

  it('worked out once for an event that runs no rule (a getVar call), again after the rules of one that does', async () => {
    let reads = 0;
    const counted: Container<string, object> = {
      name: 't',
      sessionKeys: [],
      getVarValues: 'every-event',
      dataElements: { counted: custom(() => ++reads), v: { type: 'data-layer', path: 'v' } },
      rules: [{ name: 'r', events: [{ type: 'direct-call', id: 'go' }], actions: [{ name: 'a', fn: () => {} }] }],
    };
    const { fire } = makeEngine(counted);
    await fire({ type: 'get-var', name: 'v' } as EngineEvent);
    expect(reads).toBe(1);
    await fire({ type: 'direct-call', id: 'go' });
    expect(reads).toBe(3);
    await fire({ type: 'direct-call', id: 'nothing listens' });
    expect(reads).toBe(4);
  });
});

describe("the engine's random source", () => {
  it('a data element reads the same sequence as the environment gives', async () => {
    const said: unknown[] = [];
    const container: Container<'r', object> = {
      name: 't',
      sessionKeys: [],
      dataElements: { r: { type: 'custom', fn: (c) => c.random?.(), reads: [] } },
      rules: [{ name: 'go', events: [{ type: 'direct-call', id: 'go' }], actions: [{ name: 'a', fn: (c) => void said.push(c.get('r')) }] }],
    };
    const { fire } = makeEngine(container);
    await fire({ type: 'direct-call', id: 'go' });
    // makeEngine's environment: seededRandom(7).
    expect(said).toEqual([seededRandom(7)()]);
  });
});

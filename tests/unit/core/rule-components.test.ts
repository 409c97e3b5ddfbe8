/**
 * The rule runner's defaults, seen from outside: the component timeout every published Launch
 * build uses (2 s), Adobe's words for a condition that times out, and the order of rules that
 * share an `order` (the container's order).
 *
 * Equivalent mutant (core/rules.ts `eventMatches`): `spec.type !== 'direct-call'` made `false`, so
 * every other event of the spec's type is compared by `id`. No event but a direct call carries an
 * `id`, and no spec but a direct call's names one: `undefined === undefined` matches as before.
 */
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../src/protocol.ts';
import type { Container } from '../../../src/worker-engine/core/types.ts';
import { logs, makeEngine } from '../harness.ts';

const container: Container<never, object> = {
  name: 'defaults',
  sessionKeys: [],
  dataElements: {},
  rules: [
    {
      name: 'slow condition',
      events: [{ type: 'direct-call', id: 'slow' }],
      conditions: [{ name: 'never answers', fn: () => new Promise<boolean>(() => {}) }],
      actions: [{ name: 'never runs', fn: (c) => c.log('log', 'action ran') }],
    },
    {
      name: 'slow action',
      events: [{ type: 'direct-call', id: 'slow-action' }],
      actions: [{ name: 'never settles', fn: () => new Promise<void>(() => {}) }],
    },
    ...(['c', 'a', 'b'] as const).map((name) => ({
      name,
      events: [{ type: 'direct-call' as const, id: 'tie' }],
      actions: [{ name: 'log', fn: (c: { log: (l: 'log', m: string) => void }) => c.log('log', name) }],
    })),
    {
      name: 'two events',
      events: [{ type: 'library-loaded' }, { type: 'direct-call', id: 'either' }],
      actions: [{ name: 'log', fn: (c) => c.log('log', 'two events ran') }],
    },
    {
      name: 'not met',
      events: [{ type: 'direct-call', id: 'gate' }],
      conditions: [{ name: 'never true', fn: () => false }],
      actions: [{ name: 'log', fn: (c) => c.log('log', 'gated action ran') }],
    },
    {
      name: 'failing action',
      events: [{ type: 'direct-call', id: 'gate' }],
      actions: [
        {
          name: 'throws',
          fn: () => {
            throw new Error('boom');
          },
        },
        { name: 'after', fn: (c) => c.log('log', 'after the failure') },
      ],
    },
    {
      name: 'late',
      order: 51,
      events: [{ type: 'direct-call', id: 'tie' }],
      actions: [{ name: 'log', fn: (c) => c.log('log', 'late') }],
    },
    {
      name: 'early',
      order: 49,
      events: [{ type: 'direct-call', id: 'tie' }],
      actions: [{ name: 'log', fn: (c) => c.log('log', 'early') }],
    },
  ],
};

const monitors = (effects: Effect[]) =>
  effects.filter((e) => e.type === 'monitor' && /^rule-(completed|condition-failed|action-failed)$/.test(e.name)).map((e) => {
    const m = e as Extract<Effect, { type: 'monitor' }>;
    const { rule, fired, stoppedAt } = m.data as { rule: string; fired: boolean; stoppedAt?: string };
    return { name: m.name, rule, fired, stoppedAt };
  });
const levels = (effects: Effect[]) =>
  effects.filter((e) => e.type === 'log').map((e) => `${(e as { level: string }).level}: ${(e as { message: string }).message}`);

const timerOf = (effects: Effect[]) => effects.find((e) => e.type === 'timer') as Extract<Effect, { type: 'timer' }>;

describe('rule components', () => {
  it('a condition with no timeout of its own gets 2 s, then Adobe\'s condition message, and the actions do not run', async () => {
    const { engine, fire } = makeEngine(container);
    const b = await fire({ type: 'direct-call', id: 'slow' });
    expect(timerOf(b.effects).delayMs).toBe(2000);
    const t = await engine.dispatch({ type: 'timer', id: timerOf(b.effects).id });
    expect(monitors(t.effects)).toEqual([{ name: 'rule-condition-failed', rule: 'slow condition', fired: false, stoppedAt: 'never answers' }]);
    expect(levels(t.effects)).toEqual([
      'error: Failed to execute "never answers" for "slow condition" rule. A timeout occurred because the condition took longer than 2 seconds to complete.',
    ]);
  });

  it('an action with no timeout of its own gets 2 s too', async () => {
    const { engine, fire } = makeEngine(container);
    const b = await fire({ type: 'direct-call', id: 'slow-action' });
    expect(timerOf(b.effects).delayMs).toBe(2000);
    const t = await engine.dispatch({ type: 'timer', id: timerOf(b.effects).id });
    expect(levels(t.effects)).toEqual([
      'error: Failed to execute "never settles" for "slow action" rule. A timeout occurred because the action took longer than 2 seconds to complete.',
    ]);
  });

  it('rules run by order (default 50), and rules of the same order in the container\'s order', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'direct-call', id: 'tie' });
    expect(logs(b.effects)).toEqual(['early', 'c', 'a', 'b', 'late']);
  });

  it('a rule fires on any one of its events', async () => {
    const { fire } = makeEngine(container);
    expect(logs((await fire({ type: 'direct-call', id: 'either' })).effects)).toEqual(['two events ran']);
  });

  it('tells the devtools which rule stopped where, and logs failures as errors and unmet conditions as debug', async () => {
    const { engine, fire } = makeEngine(container);
    await engine.dispatch({ type: 'debug', on: true });
    const b = await fire({ type: 'direct-call', id: 'gate' });
    expect(monitors(b.effects)).toEqual([
      { name: 'rule-condition-failed', rule: 'not met', fired: false, stoppedAt: 'never true' },
      { name: 'rule-action-failed', rule: 'failing action', fired: true, stoppedAt: 'throws' },
    ]);
    expect(levels(b.effects)).toEqual([
      'debug: Condition "never true" for rule "not met" not met.',
      'error: Failed to execute "throws" for "failing action" rule. boom',
    ]);
    const ok = await fire({ type: 'direct-call', id: 'either' });
    expect(monitors(ok.effects)).toEqual([{ name: 'rule-completed', rule: 'two events', fired: true, stoppedAt: undefined }]);
    expect(levels(ok.effects)).toEqual(['log: two events ran', 'debug: Rule "two events" fired.']);
  });
});

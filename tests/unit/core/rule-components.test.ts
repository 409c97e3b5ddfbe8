/**
 * The rule runner's defaults, seen from outside: the component timeout every published Launch
 * build uses (2 s), Adobe's words for a condition that times out, and the order of rules that
 * share an `order` (the container's order).
 */
import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../src/protocol.ts';
import type { Container } from '../../../src/worker-engine/core/types.ts';
import { logs, makeEngine } from './helpers.ts';

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

const timerOf = (effects: Effect[]) => effects.find((e) => e.type === 'timer') as Extract<Effect, { type: 'timer' }>;

describe('rule components', () => {
  it('a condition with no timeout of its own gets 2 s, then Adobe\'s condition message, and the actions do not run', async () => {
    const { engine, fire } = makeEngine(container);
    const b = await fire({ type: 'direct-call', id: 'slow' });
    expect(timerOf(b.effects).delay).toBe(2000);
    const t = await engine.dispatch({ type: 'timer', id: timerOf(b.effects).id });
    expect(logs(t.effects)).toEqual([
      'Failed to execute "never answers" for "slow condition" rule. A timeout occurred because the condition took longer than 2 seconds to complete.',
    ]);
  });

  it('an action with no timeout of its own gets 2 s too', async () => {
    const { engine, fire } = makeEngine(container);
    const b = await fire({ type: 'direct-call', id: 'slow-action' });
    expect(timerOf(b.effects).delay).toBe(2000);
    const t = await engine.dispatch({ type: 'timer', id: timerOf(b.effects).id });
    expect(logs(t.effects)).toEqual([
      'Failed to execute "never settles" for "slow action" rule. A timeout occurred because the action took longer than 2 seconds to complete.',
    ]);
  });

  it('rules run by order (default 50), and rules of the same order in the container\'s order', async () => {
    const { fire } = makeEngine(container);
    const b = await fire({ type: 'direct-call', id: 'tie' });
    expect(logs(b.effects)).toEqual(['early', 'c', 'a', 'b', 'late']);
  });
});

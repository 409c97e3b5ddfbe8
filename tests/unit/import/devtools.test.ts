/** The devtools overlay's rules tab for imported rules with a part on the page: where each ran and what its page part cost. */
import { describe, expect, it } from 'vitest';
import { ruleFirings } from '../../../src/devtools/model.ts';

describe('rules that ran partly on the page', () => {
  it('are marked, with the main-thread time the page side recorded for that firing', () => {
    const monitor = [
      { name: 'rule-triggered', data: { rule: 'Tag the body', event: 'library-loaded', seq: 1 } },
      { name: 'rule-page-part', data: { rule: 'Tag the body', block: 'block1', seq: 1 } },
      { name: 'rule-completed', data: { rule: 'Tag the body', fired: true, seq: 1 } },
      { name: 'rule-triggered', data: { rule: 'Page View', event: 'direct-call', seq: 2 } },
      { name: 'rule-completed', data: { rule: 'Page View', fired: true, seq: 2 } },
      { name: 'rule-triggered', data: { rule: 'Tag the body', event: 'library-loaded', seq: 3 } },
      { name: 'rule-page-part', data: { rule: 'Tag the body', block: 'block1', seq: 3 } },
      { name: 'rule-completed', data: { rule: 'Tag the body', fired: true, seq: 3 } },
    ];
    const runs = [
      { rule: 'Tag the body', seq: 1, ms: 0.5 },
      { rule: 'Tag the body', seq: 1, ms: 0.25 },
    ];
    expect(ruleFirings(monitor, runs)).toEqual([
      { seq: 3, rule: 'Tag the body', event: 'library-loaded', outcome: 'fired', stoppedAt: undefined, where: 'worker and page' },
      { seq: 2, rule: 'Page View', event: 'direct-call', outcome: 'fired', stoppedAt: undefined },
      { seq: 1, rule: 'Tag the body', event: 'library-loaded', outcome: 'fired', stoppedAt: undefined, where: 'worker and page', pageMs: 0.75 },
    ]);
  });
});

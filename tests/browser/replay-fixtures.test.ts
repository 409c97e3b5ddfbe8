/**
 * The storefront's replay fixtures, run in real Chromium: the same engine, container and
 * services give, line for line, the goldens the Node run gives.
 */
import { describe, expect, it } from 'vitest';
import { replay, type Fixture } from '../../tools/replay/replay.ts';

const fixtures = import.meta.glob<Fixture>('../fixtures/storefront/*.json', { eager: true, import: 'default' });
const goldens = import.meta.glob<string>('../fixtures/storefront/*.golden.jsonl', { eager: true, query: '?raw', import: 'default' });

describe.each(Object.keys(fixtures))('fixture %s in the browser', (path) => {
  it('matches the golden the Node run gives', async () => {
    const result = await replay(fixtures[path]);
    const lines = result.effects.filter((e) => e.type !== 'monitor').map((e) => JSON.stringify(e));
    expect(lines).toEqual(goldens[path.replace(/\.json$/, '.golden.jsonl')].trimEnd().split('\n'));
  });
});

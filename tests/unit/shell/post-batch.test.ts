import { describe, expect, it } from 'vitest';
import type { Effect } from '../../../src/protocol.ts';
import { postBatch } from '../../../src/worker-engine/shell/post-batch.ts';

/** A port that clones what it is given, as `postMessage` does. */
const port = () => {
  const got: unknown[] = [];
  return { got, postMessage: (m: unknown) => void got.push(structuredClone(m)) };
};

describe('postBatch', () => {
  it('posts the batch as it is when it can be cloned', () => {
    const p = port();
    const effects: Effect[] = [{ type: 'vars', values: { a: 1 } }];
    postBatch(p, 4, effects);
    expect(p.got).toEqual([{ n: 4, effects }]);
  });

  it('leaves out, by name, what cannot be cloned, sends the rest, and says so in the console', () => {
    const p = port();
    const reply = { type: 'reply', seq: 1, value: () => 1 } as unknown as Effect;
    postBatch(p, 2, [{ type: 'vars', values: { ok: 'x', fn: () => 1 } }, reply, { type: 'image', src: 'https://x.test/p.gif' }]);
    expect(p.got).toEqual([
      {
        n: 2,
        effects: [
          { type: 'vars', values: { ok: 'x' } },
          { type: 'image', src: 'https://x.test/p.gif' },
          { type: 'log', level: 'error', message: 'Offtag could not send these values to the page (DataCloneError); left out: values.fn, a reply effect.' },
        ],
      },
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import type { Effect, Snapshot } from '../../../src/protocol.ts';
import { pageEffects } from '../../../src/worker-engine/shell/page-effects.ts';
import { createPageWrites } from '../../../src/worker-engine/shell/page-writes.ts';
import { createVarCache } from '../../../src/worker-engine/shell/var-cache.ts';

describe('pageEffects: the page\'s share of a batch', () => {
  it('keeps what changes the page, in order, each write with its key; drops unchanged writes and values', () => {
    const writes = createPageWrites();
    const vars = createVarCache();
    writes.saw({ cookie: '', session: { same: 'v' } } as unknown as Snapshot);
    vars.update({ known: 1 });
    const log: Effect = { type: 'log', level: 'log', message: 'hi' };
    const out = pageEffects(
      [
        { type: 'storage', key: 'same', value: 'v' },
        log,
        { type: 'vars', values: { known: 1 } },
        { type: 'storage', key: 'new', value: 'w' },
        { type: 'vars', values: { known: 1, fresh: 2 } },
        { type: 'cookie', name: 'c', value: '1' },
      ],
      writes,
      vars,
    );
    expect(out.effects).toEqual([
      log,
      { type: 'storage', key: 'new', value: 'w' },
      { type: 'vars', values: { fresh: 2 } },
      { type: 'cookie-string', cookie: 'c=1; path=/' },
    ]);
    expect(out.keys).toEqual([undefined, 'snew', undefined, 'cc;;/']);
  });
});

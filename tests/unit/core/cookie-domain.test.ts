/**
 * The engine on a page with a real cookie domain (`.example.com`, the bridge probe's form): data
 * elements see it in `page.cookieDomain`, and the engine's cookie jar carries a write's or a
 * removal's domain into the effect batch, where the bridge applies it to `document.cookie`.
 */
import { describe, expect, it } from 'vitest';
import type { CookieWrite } from '../../../src/protocol.ts';
import type { Container } from '../../../src/worker-engine/core/types.ts';
import { makeEngine } from '../harness.ts';

type N = 'stamp';

const container: Container<N, object> = {
  name: 'cookie-domain',
  sessionKeys: [],
  dataElements: {
    stamp: {
      type: 'custom',
      // Reading it writes a cookie: only the rule that reads it reads it.
      sideEffects: true,
      fn: (c) => {
        c.cookies.set('seen', '1', { path: '/', domain: c.page.cookieDomain });
        return c.page.cookieDomain;
      },
    },
  },
  rules: [
    {
      name: 'stamp and forget',
      events: [{ type: 'direct-call', id: 'go' }],
      actions: [
        {
          name: 'stamp',
          fn: (c) => {
            c.log('log', `domain ${String(c.get('stamp'))}`);
            c.cookies.remove('old', { domain: '.example.com' });
          },
        },
      ],
    },
  ],
};

const cookieWrites = (effects: { type: string }[]) => effects.filter((e): e is CookieWrite => e.type === 'cookie');

describe('engine cookies on a real cookie domain', () => {
  it('a write and a removal carry the cookie domain into the batch', async () => {
    const { fire } = makeEngine(container, {}, { cookieDomain: '.example.com' });
    const batch = await fire({ type: 'direct-call', id: 'go' });
    expect(cookieWrites(batch.effects)).toEqual([
      { type: 'cookie', name: 'seen', value: '1', path: '/', domain: '.example.com' },
      { type: 'cookie', name: 'old', value: '', path: '/', domain: '.example.com', expires: 0 },
    ]);
    expect(batch.effects).toContainEqual(expect.objectContaining({ type: 'log', message: 'domain .example.com' }));
  });
});

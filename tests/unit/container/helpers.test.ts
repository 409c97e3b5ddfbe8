import { beforeEach, describe, expect, it } from 'vitest';
import { constant, cookie, dataLayer, defineContainer, fn, queryString, sessionStorage, storedKey } from '../../../src/container/index.ts';
import { logs, makeEngine } from '../harness.ts';

/** The data element helpers of `offtag/container`, resolved by the engine (docs/containers.md). */
/** Built in each test, not when the file loads, so that what it runs is each test's (mutation testing sees it). */
const build = () =>
  defineContainer({
  name: 'helpers',
  version: '2.1.0',
  sessionKeys: ['{brand}Cart'],
  dataElements: {
    section: dataLayer('page.section', { default: 'home', lowerCase: true }),
    title: dataLayer('page.title', { cleanText: true }),
    consent: cookie('consent'),
    rawConsent: cookie('consent', { decode: false }),
    cart: sessionStorage('{brand}Cart'),
    campaign: queryString('cid', { storage: 'session' }),
    answer: constant(42),
    both: fn((ctx) => `${String(ctx.get('section'))}/${String(ctx.get('answer'))}`, { reads: [] }),
  },
  rules: (k) => [
    {
      name: 'Read',
      events: [{ type: 'direct-call', id: 'read' }],
      actions: [
        k.run('log values', (ctx) => {
          for (const name of ['section', 'title', 'consent', 'rawConsent', 'campaign', 'answer', 'both'] as const)
            ctx.log('log', `${name}=${JSON.stringify(ctx.get(name))}`);
        }),
      ],
    },
  ],
});
let container: ReturnType<typeof build>;
beforeEach(() => {
  container = build();
});

const read = { type: 'direct-call', id: 'read' } as const;

describe('data element helpers', () => {
  it('read the data layer, cookies, the query string and constants, and finish the values', async () => {
    const { fire } = makeEngine(container);
    const batch = await fire(read, {
      url: 'https://news.example/a?cid=spring%20sale',
      cookie: 'consent=a%3Db',
      dataLayer: { page: { section: 'World', title: '  Big \n news  ' } },
    });
    expect(logs(batch.effects)).toEqual([
      'section="world"',
      'title="Big news"',
      'consent="a=b"',
      'rawConsent="a%3Db"',
      'campaign="spring sale"',
      'answer=42',
      'both="world/42"',
    ]);
  });

  it('a missing value takes the default; storage "session" answers with the stored value', async () => {
    const { fire } = makeEngine(container);
    const first = await fire(read, { url: 'https://news.example/a?cid=x1' });
    expect(first.effects).toContainEqual({ type: 'storage', key: storedKey('campaign'), value: '"x1"' });
    expect(logs(first.effects)).toContain('section="home"');
    const later = await fire(read, { url: 'https://news.example/b', session: { [storedKey('campaign')]: '"x1"' } });
    expect(logs(later.effects)).toContain('campaign="x1"');
  });

  it('the container lists the session keys the bridge must read: its own and the stored elements', () => {
    expect(container.sessionKeys).toEqual(['{brand}Cart', storedKey('campaign')]);
    expect(container.version).toBe('2.1.0');
  });
});

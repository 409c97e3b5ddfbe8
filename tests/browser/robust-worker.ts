// A worker for tests/browser/robust.test.ts: the real worker shell, a container whose values can be
// hostile (BigInt, cycles, functions), and a beacon sink that throws.
import { startWorker } from '../../src/worker-engine/worker-shell.ts';
import type { Container } from '../../src/worker-engine/core/types.ts';

type N = 'pageType' | 'fn';
const container: Container<N, object> = {
  name: 'robust-test',
  sessionKeys: [],
  dataElements: {
    pageType: { type: 'data-layer', path: 'page.pageInfo.pageType', default: 'none' },
    fn: { type: 'custom', fn: () => () => 'a function is not data' },
  },
  rules: [
    {
      name: 'Page View',
      events: [{ type: 'direct-call', id: 'Page View' }],
      actions: [{ name: 'log', fn: (c) => c.log('log', `page view ${String(c.get('pageType'))}`) }],
    },
    {
      name: 'Function value',
      events: [{ type: 'direct-call', id: 'Function' }],
      actions: [{ name: 'read', fn: (c) => void c.get('fn') }],
    },
    {
      name: 'Beacon',
      events: [{ type: 'direct-call', id: 'Beacon' }],
      actions: [
        {
          name: 'send',
          fn: (c) =>
            void (c as unknown as { services: { net: { beacon(): Promise<unknown> } } }).services.net.beacon(),
        },
      ],
    },
  ],
};

startWorker({
  container,
  services: (ctx) => ({
    net: {
      beacon: () =>
        ctx.fetch({ kind: 'beacon', method: 'GET', url: `${ctx.page.origin}/b/ss/x`, credentials: 'omit', fireAndForget: true }),
    },
  }),
  beacons: () => ({
    send: () => {
      throw new Error('the queue is broken');
    },
  }),
});

// A worker for the browser tests: the real worker shell around a small test container.
import { startWorker } from '../../src/worker-engine/worker-shell.ts';
import type { Container } from '../../src/worker-engine/core/types.ts';

type N = 'pageType' | 'consent' | 'counter';
const container: Container<N, object> = {
  name: 'browser-test',
  sessionKeys: ['acmeUserData'],
  dataElements: {
    pageType: { type: 'data-layer', path: 'page.pageInfo.pageType', default: 'none' },
    consent: { type: 'cookie', name: 'sat_track' },
    counter: { type: 'session', key: 'acmeUserData' },
  },
  rules: [
    {
      name: 'Page View',
      events: [{ type: 'direct-call', id: 'Page View' }],
      actions: [
        {
          name: 'write',
          fn: (c) => {
            c.cookies.set('pt', String(c.get('pageType')));
            c.session.set('acmeUserData', JSON.stringify({ seen: c.get('pageType') }));
            c.log('log', `page view ${c.get('pageType')}`);
          },
        },
      ],
    },
    {
      // The same writes as Page View, without a log: nothing for the page when nothing changed.
      name: 'Again',
      events: [{ type: 'direct-call', id: 'Again' }],
      actions: [
        {
          name: 'write',
          fn: (c) => {
            c.cookies.set('pt', String(c.get('pageType')));
            c.session.set('acmeUserData', JSON.stringify({ seen: c.get('pageType') }));
          },
        },
      ],
    },
    {
      name: 'Network',
      events: [{ type: 'direct-call', id: 'Fetch' }],
      actions: [
        {
          name: 'fetch',
          fn: (c) => {
            void (c as unknown as { services: { net: { go(): Promise<void> } } }).services.net.go();
          },
        },
      ],
    },
  ],
};

startWorker({
  container,
  services: (ctx) => ({
    net: {
      async go() {
        const r = await ctx.fetch({ kind: 'other', method: 'GET', url: `${ctx.page.origin}/__nothing_here__`, credentials: 'omit', timeout: 5000 });
        ctx.log('log', `answer ${r.status}`);
      },
    },
  }),
  beacons: () => ({ send: () => {} }),
});

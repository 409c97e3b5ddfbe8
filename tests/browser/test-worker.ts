// The worker of the browser tests (tests/browser/start-test-worker.ts starts it): the real worker
// shell around a small test container whose values can be hostile (BigInt, cycles, functions), a
// service that makes requests, and a beacon sink that throws.
import { startWorker } from '../../src/worker-engine/worker-shell.ts';
import type { Container, EngineContext, RuleContext } from '../../src/worker-engine/core/types.ts';

type N = 'pageType' | 'consent' | 'counter' | 'fn';

function testServices(ctx: EngineContext) {
  return {
    net: {
      async go() {
        const r = await ctx.fetch({ kind: 'other', method: 'GET', url: `${ctx.page.origin}/__nothing_here__`, credentials: 'omit', timeout: 5000 });
        ctx.log('log', `answer ${r.status}`);
      },
      beacon: () => ctx.fetch({ kind: 'beacon', method: 'GET', url: `${ctx.page.origin}/b/ss/x`, credentials: 'omit', fireAndForget: true }),
    },
  };
}
type TestServices = ReturnType<typeof testServices>;

/** The page type in a cookie and in sessionStorage. */
const write = (c: RuleContext<N, TestServices>) => {
  const pageType = String(c.get('pageType'));
  c.cookies.set('pt', pageType);
  c.session.set('acmeUserData', JSON.stringify({ seen: pageType }));
};

const container: Container<N, TestServices> = {
  name: 'browser-test',
  sessionKeys: ['acmeUserData'],
  // The engine's messages are what these tests read: printed without debug on.
  settings: { alwaysLog: true },
  dataElements: {
    pageType: { type: 'data-layer', path: 'page.pageInfo.pageType', default: 'none' },
    consent: { type: 'cookie', name: 'sat_track' },
    counter: { type: 'session', key: 'acmeUserData' },
    fn: { type: 'custom', fn: () => () => 'a function is not data', reads: [] },
  },
  rules: [
    {
      name: 'Page View',
      events: [{ type: 'direct-call', id: 'Page View' }],
      actions: [{ name: 'write', fn: (c) => (write(c), c.log('log', `page view ${String(c.get('pageType'))}`)) }],
    },
    // The same writes as Page View, without a log: nothing for the page when nothing changed.
    { name: 'Again', events: [{ type: 'direct-call', id: 'Again' }], actions: [{ name: 'write', fn: write }] },
    { name: 'Network', events: [{ type: 'direct-call', id: 'Fetch' }], actions: [{ name: 'fetch', fn: (c) => void c.services.net.go() }] },
    { name: 'Function value', events: [{ type: 'direct-call', id: 'Function' }], actions: [{ name: 'read', fn: (c) => void c.get('fn') }] },
    { name: 'Beacon', events: [{ type: 'direct-call', id: 'Beacon' }], actions: [{ name: 'send', fn: (c) => void c.services.net.beacon() }] },
  ],
};

startWorker({
  container,
  services: testServices,
  // Effects held during a burst go out when no input waits, however slow the machine (not after 16 ms).
  batchHoldMs: 5_000,
  beacons: () => ({
    send: () => {
      throw new Error('the queue is broken');
    },
  }),
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EffectBatch, InitMessage, Snapshot } from '../../../src/protocol.ts';
import { startWorker } from '../../../src/worker-engine/worker-shell.ts';
import type { Container } from '../../../src/worker-engine/core/types.ts';

afterEach(() => vi.unstubAllGlobals());

/** One rule that writes a cookie: each event has a page effect. */
const container: Container<'x', object> = {
  name: 'ack-with-batch',
  dataElements: { x: { type: 'constant', value: 'v' } },
  rules: [{ name: 'Write', events: [{ type: 'direct-call', id: 'Write' }], actions: [{ name: 'write', fn: (c: { cookies: { set(k: string, v: string): void } }) => c.cookies.set('w', String(Date.now())) }] }],
} as unknown as Container<'x', object>;

/**
 * The real worker shell on a fake worker scope, with a beacon sink whose commits the test settles
 * (`release`); `holdMs` is how long page effects may wait.
 */
function serve(holdMs: number) {
  vi.stubGlobal('navigator', { userAgent: 'test', language: 'en' });
  const onInit: Array<(e: MessageEvent) => void> = [];
  const commits: Array<() => void> = [];
  const scope = { addEventListener: (_: string, f: (e: MessageEvent) => void) => onInit.push(f), removeEventListener: () => {}, postMessage: () => {} };
  startWorker(
    {
      container,
      services: () => ({}),
      batchHoldMs: holdMs,
      beacons: () => ({ send: () => {}, commit: () => new Promise<void>((r) => commits.push(r)), committed: async () => 0 }),
    },
    scope as never,
  );
  const events = new MessageChannel();
  const api = new MessageChannel();
  const got: EffectBatch[] = [];
  events.port1.onmessage = (e: MessageEvent<EffectBatch>) => void got.push(e.data);
  const init: InitMessage = { type: 'init', config: {}, debug: false, page: { screen: { width: 1, height: 1, colorDepth: 24 }, cookieDomain: '', origin: 'https://shop.test', cookiesEnabled: true }, pid: 'p1', orphans: [] };
  onInit[0]!({ data: init, ports: [events.port2, api.port2] } as unknown as MessageEvent);
  let seq = 0;
  const send = () =>
    events.port1.postMessage({
      type: 'event',
      event: { type: 'direct-call', id: 'Write' },
      snapshot: { seq: ++seq, applied: 0, time: Date.now(), url: 'https://shop.test/', referrer: '', dataLayer: {}, gpc: false, problems: [], cookie: '', session: {}, viewport: { width: 1, height: 1 } } as unknown as Snapshot,
    });
  const close = () => (events.port1.close(), api.port1.close());
  /** What reaches the page for its events (the start-up message with the read set aside): batches numbered for it, acknowledgements. */
  const page = () => got.filter((b) => b.n || b.a);
  return { page, commits, send, close };
}

const writes = (b: EffectBatch) => b.effects.filter((e) => e.type === 'cookie-string').length;

describe('an event\'s page effects and its acknowledgement', () => {
  it('reach the page in one message (one task of its main thread) when the commit is over within the hold', async () => {
    const w = serve(60_000);
    w.send();
    // The commit is being written: the cookie write waits for it.
    await vi.waitFor(() => expect(w.commits).toHaveLength(1));
    expect(w.page()).toEqual([]);
    w.commits[0]!();
    await vi.waitFor(() => expect(w.page().filter((b) => b.a)).toHaveLength(1));
    expect(w.page().map((b) => [b.n, writes(b), b.a])).toEqual([[1, 1, 1]]);
    // A second event alone: one message again.
    w.send();
    await vi.waitFor(() => expect(w.commits).toHaveLength(2));
    w.commits[1]!();
    await vi.waitFor(() => expect(w.page()).toHaveLength(2));
    expect(w.page().map((b) => [b.n, writes(b), b.a])).toEqual([
      [1, 1, 1],
      [2, 1, 2],
    ]);
    w.close();
  });

  it('a commit slower than the hold does not hold the page effects: they go, and the acknowledgement after them (nothing lost)', async () => {
    const w = serve(30);
    w.send();
    await vi.waitFor(() => expect(w.page()).toHaveLength(1));
    expect(w.commits).toHaveLength(1);
    expect(w.page().map((b) => [b.n, writes(b), b.a])).toEqual([[1, 1, undefined]]);
    w.commits[0]!();
    await vi.waitFor(() => expect(w.page()).toHaveLength(2));
    expect(w.page()[1]).toEqual({ n: 0, effects: [], a: 1 });
    w.close();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import type { InitMessage, RequestEffect, Snapshot } from '../../../src/protocol.ts';
import type { Container, EngineContext } from '../../../src/worker-engine/core/types.ts';
import { ACK_RECHECK_MS } from '../../../src/worker-engine/shell/acknowledgements.ts';
import { startWorker } from '../../../src/worker-engine/worker-shell.ts';

afterEach(() => vi.unstubAllGlobals());

interface Hits {
  pending: number;
  hit(): Promise<void>;
}

/**
 * One rule whose hit is shaped like the analytics tracker's where it matters: it waits for an ID
 * call; in the dispatch of that call's answer it stops counting as pending, and its beacon leaves
 * with that dispatch's batch, which work of its own keeps open past the acknowledger's recheck.
 */
function lateBeaconContainer(): Container<'x', Hits> {
  return {
    name: 'ack-late-beacon',
    dataElements: { x: { type: 'constant', value: 'v' } },
    services: (ctx: EngineContext): Hits => {
      const s: Hits = {
        pending: 0,
        async hit() {
          s.pending++;
          try {
            await ctx.fetch({ kind: 'id-service', method: 'GET', url: 'https://id.test/id', credentials: 'include' });
          } finally {
            s.pending--;
          }
          await ctx.track(new Promise((r) => setTimeout(r, 2 * ACK_RECHECK_MS)));
          const beacon: Omit<RequestEffect, 'id'> = { type: 'request', kind: 'beacon', method: 'GET', url: 'https://collect.test/b/ss/x/1', credentials: 'include', fireAndForget: true };
          ctx.emit({ ...beacon, id: ctx.nextId('beacon') });
        },
      };
      return s;
    },
    hooks: (s: Hits) => ({ pendingHits: () => s.pending }),
    rules: [{ name: 'Hit', events: [{ type: 'direct-call', id: 'Hit' }], actions: [{ name: 'hit', fn: (c: { services: Hits }) => void c.services.hit() }] }],
  } as unknown as Container<'x', Hits>;
}

describe('a beacon built in the dispatch of the answer its hit waited for', () => {
  it('is handed to the queue before the acknowledgement that covers its event is committed', async () => {
    vi.stubGlobal('navigator', { userAgent: 'test', language: 'en' });
    // The ID call's answer (the shell's own fetch): at once.
    vi.stubGlobal('fetch', async () => ({ status: 200, text: async () => '{}' }));
    const calls: string[] = [];
    const onInit: Array<(e: MessageEvent) => void> = [];
    const scope = { addEventListener: (_: string, f: (e: MessageEvent) => void) => onInit.push(f), removeEventListener: () => {}, postMessage: () => {} };
    startWorker(
      {
        container: lateBeaconContainer(),
        batchHoldMs: 0,
        beacons: () => ({
          send: (req: RequestEffect, _d: unknown, page?: string) => void calls.push(`send ${req.url} for ${page}`),
          commit: async (page: string, seq: number) => void calls.push(`commit ${page} up to ${seq}`),
          committed: async () => 0,
        }),
      },
      scope as never,
    );
    const events = new MessageChannel();
    const api = new MessageChannel();
    const init: InitMessage = { type: 'init', config: {}, debug: false, page: { screen: { width: 1, height: 1, colorDepth: 24 }, cookieDomain: '', origin: 'https://shop.test', cookiesEnabled: true }, pid: 'p1', orphans: [] };
    onInit[0]!({ data: init, ports: [events.port2, api.port2] } as unknown as MessageEvent);
    events.port1.postMessage({
      type: 'event',
      event: { type: 'direct-call', id: 'Hit' },
      snapshot: { seq: 1, applied: 0, time: Date.now(), url: 'https://shop.test/', referrer: '', dataLayer: {}, gpc: false, problems: [], cookie: '', session: {}, viewport: { width: 1, height: 1 } } as unknown as Snapshot,
    });
    // A limit far above the scenario's own half second, for a loaded machine: the wait ends when the commit comes.
    await vi.waitFor(() => expect(calls).toContain('commit p1 up to 1'), { timeout: 15_000 });
    expect(calls[0]).toBe('send https://collect.test/b/ss/x/1 for p1');
    events.port1.close();
    api.port1.close();
  });
});

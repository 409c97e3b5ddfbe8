/**
 * The worker shell's end of the transport: beacon requests the engine made (`kind: 'beacon'`,
 * fire-and-forget) go into the durable queue over IndexedDB, with the real `fetch` and clock.
 */
import type { RequestEffect } from '../../protocol.ts';
import { openBeaconStore } from './idb-store.ts';
import { createBeaconQueue, type BeaconQueue } from './queue.ts';

export interface BeaconSink {
  /** `delivered` is called once, on a 2xx answer, with the fetch round trip in ms. */
  send(req: RequestEffect, delivered?: (rttMs: number) => void): void;
  /** Sends what earlier pages left behind (call once at worker start). */
  resume(): void;
  /** The queue, once its store is open (tests and the devtools). */
  queue: Promise<BeaconQueue>;
}

export function createBeaconSink(log: (message: string) => void): BeaconSink {
  const queue = openBeaconStore(log).then((store) =>
    createBeaconQueue({
      store,
      fetch: (url, init) => fetch(url, init),
      now: () => Date.now(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      log,
    }),
  );
  // Back online: retry at once instead of waiting out the back-off.
  if (typeof addEventListener === 'function') addEventListener('online', () => void queue.then((q) => q.retryNow()));
  return {
    send(req, delivered) {
      void queue.then((q) => q.enqueue({ method: req.method, url: req.url, body: req.body, headers: req.headers }, delivered));
    },
    resume() {
      void queue.then((q) => q.resumePending());
    },
    queue,
  };
}

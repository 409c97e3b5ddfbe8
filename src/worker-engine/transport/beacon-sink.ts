/**
 * The worker shell's end of the transport: beacon requests the engine made (`kind: 'beacon'`,
 * fire-and-forget) go into the durable queue over IndexedDB, with the real `fetch` and clock.
 */
import type { RequestEffect } from '../../protocol.ts';
import { openBeaconStore } from './idb-store.ts';
import { createBeaconQueue, type BeaconQueue } from './queue.ts';
import { connectSender, fetchStatus, SENDER_AFTER_BEACONS } from './sender.ts';

export interface BeaconSink {
  /**
   * `delivered` is called on a 2xx answer, with the fetch round trip in ms, unless a later beacon
   * of the same page was delivered in the same task (`latestDelivered`). With a `page` the beacon
   * waits for that page's next `commit` (stored with its marker, then sent).
   */
  send(req: RequestEffect, delivered?: (rttMs: number) => void, page?: string): void;
  /** Resolves once every beacon sent so far is safe (stored with the marker `ack:<page>` = seq, or delivered). */
  commit(page: string, seq: number): Promise<void>;
  /** The highest seq `commit` stored for `page` (0: none). */
  committed(page: string): Promise<number>;
  /** Sends what earlier pages left behind (call once at worker start). */
  resume(): void;
  /** The sender's port, when the page started it on `askSender`'s request. */
  sender(port: MessagePort): void;
  /** The queue, once its store is open (tests and the devtools). */
  queue: Promise<BeaconQueue>;
}

/**
 * Deliveries reported once per task and page, the latest: a run's answers arrive together, and the
 * engine keeps only the last round trip (the next beacon's `lrt`, docs/analytics.md), each
 * report being a dispatch of its own on the worker's thread: in a burst, one per answer message
 * instead of one per beacon (docs/delivery.md, "Throughput").
 */
export function latestDelivered(): (page: string, delivered: (rttMs: number) => void) => (rttMs: number) => void {
  const latest = new Map<string, () => void>();
  const report = () => {
    const calls = [...latest.values()];
    latest.clear();
    for (const call of calls) call();
  };
  return (page, delivered) => (rttMs) => {
    if (!latest.size) setTimeout(report, 0);
    latest.set(page, () => delivered(rttMs));
  };
}

/**
 * `sender`: the port of the origin's SharedWorker sender (sender.ts), when the page handed one
 * over at init. `askSender`: asks the page for it, once, at the `SENDER_AFTER_BEACONS`th beacon
 * (its port then comes to `BeaconSink.sender`).
 */
export function createBeaconSink(
  log: (message: string) => void,
  monitor?: (name: string, data: unknown) => void,
  sender?: MessagePort,
  askSender?: () => void,
): BeaconSink {
  // The devtools feed says who sends: `sender` { shared: true } once the SharedWorker is there, { shared: false } if it stops answering.
  const link = connectSender(
    sender,
    fetchStatus,
    () => monitor?.('sender', { shared: true }),
    () => monitor?.('sender', { shared: false }),
  );
  const queue = openBeaconStore(log).then(({ store, durable }) =>
    createBeaconQueue({
      store,
      durable,
      fetch: link.fetch,
      chain: link.chain,
      now: () => Date.now(),
      sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
      log,
      monitor,
    }),
  );
  // Back online: retry at once instead of waiting out the back-off.
  if (typeof addEventListener === 'function') addEventListener('online', () => void queue.then((q) => q.retryNow()));
  // Sends are started synchronously so that beacons of one dispatch share one transaction.
  let ready: BeaconQueue | undefined;
  void queue.then((q) => (ready = q));
  const latest = latestDelivered();
  let made = 0;
  const count = (n: number) => {
    if (sender || !askSender || made >= SENDER_AFTER_BEACONS) return;
    if ((made += n) >= SENDER_AFTER_BEACONS) askSender();
  };
  return {
    send(req, delivered, page) {
      count(1);
      const b = { method: req.method, url: req.url, body: req.body, headers: req.headers };
      const d = delivered && latest(page ?? '', delivered);
      if (ready) void ready.enqueue(b, d, page);
      else void queue.then((q) => q.enqueue(b, d, page));
    },
    commit: (page, seq) => (ready ? ready.commit(page, seq) : queue.then((q) => q.commit(page, seq))),
    committed: (page) => queue.then((q) => q.committed(page)),
    resume() {
      void queue.then((q) => q.resumePending()).then(count);
    },
    sender: link.attach,
    queue,
  };
}

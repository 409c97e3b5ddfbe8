/**
 * The origin's beacon sender (docs/delivery.md, "The sender"). offtag.js starts a SharedWorker
 * (offtag-sender.js) and hands its port to the page's worker; the worker's durable queue then
 * makes its requests through it. A request a dedicated worker makes costs the page's main thread
 * (Chrome routes its network reports through the page); one a SharedWorker makes, next to nothing
 * (`npm run bench:requests`). The queue, its store and its order stay in the page's worker: the
 * sender only fetches, one request per message, and answers with the status.
 *
 * Until the sender said it is there, and from the moment it stops answering, the worker fetches
 * itself: a sender whose script did not load, or that died, costs time, never a beacon.
 */
import type { BeaconFetch, BeaconFetchInit } from './queue.ts';

/** Worker → sender: a request to make, or one to abort (the queue's timeout). */
export type SenderRequest = { id: number; url: string; init: Omit<BeaconFetchInit, 'signal'> } | { id: number; abort: true };
/** Sender → worker: "here" once per connection, then one answer per request (an aborted one included). */
export type SenderAnswer = { ready: true } | { id: number; status: number } | { id: number; error: string };

/** An aborted request with no answer from the sender by then: the sender is gone, the worker sends. */
export const SENDER_GONE_MS = 2_000;

type Fetch = (url: string, init: RequestInit) => Promise<{ status: number }>;

/** The sender's side of one connection (offtag-sender.js calls it for each page's worker). */
export function servePort(port: MessagePort, doFetch: Fetch): void {
  const open = new Map<number, AbortController>();
  port.onmessage = ({ data }: MessageEvent<SenderRequest>) => {
    if ('abort' in data) return void open.get(data.id)?.abort();
    const ctl = new AbortController();
    open.set(data.id, ctl);
    const answer = (a: SenderAnswer) => {
      open.delete(data.id);
      port.postMessage(a);
    };
    doFetch(data.url, { ...data.init, signal: ctl.signal }).then(
      (r) => answer({ id: data.id, status: r.status }),
      (e: unknown) => answer({ id: data.id, error: e instanceof Error ? e.message : String(e) }),
    );
  };
  port.postMessage({ ready: true } satisfies SenderAnswer);
}

/**
 * The worker's side: a `fetch` for the queue that goes through the sender once it said it is
 * there, and `direct` before that, without one, and after it stopped answering.
 */
export function senderFetch(port: MessagePort | undefined, direct: BeaconFetch, onReady?: () => void, onGone?: () => void): BeaconFetch {
  if (!port) return direct;
  let ready = false;
  let gone = false;
  let next = 0;
  const waiting = new Map<number, (a: SenderAnswer) => void>();
  port.onmessage = ({ data }: MessageEvent<SenderAnswer>) => {
    if ('ready' in data) {
      if (!ready && !gone) onReady?.();
      ready = true;
      return;
    }
    const settle = waiting.get(data.id);
    waiting.delete(data.id);
    settle?.(data);
  };
  return (url, init) => {
    if (!ready || gone) return direct(url, init);
    const id = ++next;
    const { signal, ...rest } = init;
    return new Promise((resolve, reject) => {
      waiting.set(id, (a) => ('status' in a ? resolve({ status: a.status }) : reject(new Error('error' in a ? a.error : 'no answer'))));
      signal?.addEventListener('abort', () => {
        if (!waiting.has(id)) return;
        port.postMessage({ id, abort: true } satisfies SenderRequest);
        // A live sender answers an abort at once (its fetch rejects); silence means it is gone.
        setTimeout(() => {
          if (!waiting.delete(id)) return;
          if (!gone) onGone?.();
          gone = true;
          reject(new Error('the sender did not answer'));
        }, SENDER_GONE_MS);
      });
      port.postMessage({ id, url, init: rest } satisfies SenderRequest);
    });
  };
}

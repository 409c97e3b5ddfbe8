/**
 * The origin's beacon sender (docs/delivery.md, "The sender"). offtag.js starts a SharedWorker
 * (offtag-sender.js) and hands its port to the page's worker; the worker's durable queue then
 * makes its requests through it. A request a dedicated worker makes costs the page's main thread
 * (Chrome routes its network reports through the page); one a SharedWorker makes, next to nothing
 * (`npm run bench:requests`). The queue, its store and its order stay in the page's worker: the
 * sender fetches — one request, or a run of them one after another (`ChainFetch`) — and answers.
 *
 * Until the sender said it is there, and from the moment it stops answering, the worker fetches
 * itself: a sender whose script did not load, that died, or that speaks another version of these
 * messages (`SENDER_PROTOCOL`), costs time, never a beacon.
 */
import { settles, type BeaconFetch, type BeaconFetchInit, type ChainFetch, type ChainRequest, type ChainResult } from './queue.ts';

/** Worker → sender: a request to make, one to abort (the queue's timeout), or one of a run. */
export type SenderRequest =
  | { id: number; url: string; init: Omit<BeaconFetchInit, 'signal'> }
  | { id: number; abort: true }
  | ({ id: number; run: 'first' | 'next' } & ChainRequest);
/** Sender → worker: "here" once per connection (with its protocol), then one answer per request. */
export type SenderAnswer = { ready: true; v: number } | ({ id: number } & ChainResult);

/**
 * The messages' version. A SharedWorker lives as long as a page of the origin uses it: after a
 * deploy, a tab opened before it keeps the old sender running, and new pages connect to that one
 * (same script URL). A worker uses a sender only of its own version, and fetches itself otherwise.
 */
export const SENDER_PROTOCOL = 2;

/** An aborted request (or a run's next answer) with no word from the sender this long after its timeout: the sender is gone. */
export const SENDER_GONE_MS = 2_000;

type Fetch = (url: string, init: RequestInit) => Promise<{ status: number }>;

/** One request with a timeout of its own: its status and round trip, or why it failed. */
async function fetchWithin(doFetch: Fetch, url: string, init: RequestInit, timeoutMs: number): Promise<ChainResult> {
  const ctl = new AbortController();
  const timer = setTimeout(() => ctl.abort(), timeoutMs);
  const t0 = Date.now();
  try {
    const r = await doFetch(url, { ...init, signal: ctl.signal });
    return { status: r.status, ms: Date.now() - t0 };
  } catch (e) {
    return { error: ctl.signal.aborted ? 'timeout' : e instanceof Error ? e.message : String(e) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Runs, one request after another: each once the one before settled, within its start limit; the
 * rest skipped. A new run waits for the runs before it; a continuation also for how they ended.
 * The worker's own (no sender) and the sender's (`servePort`, one message per request) alike.
 */
function chainHere(doFetch: Fetch): ChainFetch {
  let tail: Promise<boolean> = Promise.resolve(true);
  return (requests, continues = false) => {
    const t0 = Date.now();
    let go = continues ? tail : tail.then(() => true);
    const out = requests.map((r) => {
      const p = go.then((ok): Promise<ChainResult> | ChainResult =>
        ok && Date.now() - t0 <= r.startWithinMs ? fetchWithin(doFetch, r.url, r.init as RequestInit, r.timeoutMs) : { skipped: true },
      );
      go = p.then((x) => 'status' in x && settles(x.status));
      return p;
    });
    tail = go;
    return out;
  };
}

/** The sender's side of one connection (offtag-sender.js calls it for each page's worker). */
export function servePort(port: MessagePort, doFetch: Fetch): void {
  const open = new Map<number, AbortController>();
  /** The runs of this connection, one after another. */
  const runs = chainHere(doFetch);
  port.onmessage = ({ data }: MessageEvent<SenderRequest>) => {
    if ('abort' in data) return void open.get(data.id)?.abort();
    if ('run' in data) {
      void runs([data], data.run === 'next')[0]!.then((r) => port.postMessage({ id: data.id, ...r } satisfies SenderAnswer));
      return;
    }
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
  port.postMessage({ ready: true, v: SENDER_PROTOCOL } satisfies SenderAnswer);
}

export interface SenderLink {
  /** One request: through the sender once it is there, else `direct`. */
  fetch: BeaconFetch;
  /** A run (queue.ts `ChainFetch`): on the sender's thread once it is there, else on this one with `direct`. */
  chain: ChainFetch;
}

/**
 * The worker's side: the queue's `fetch` and `chain` go through the sender once it said it is
 * there, and use `direct` on this thread before that, without one, and after it stopped answering.
 */
export function connectSender(port: MessagePort | undefined, direct: BeaconFetch, onReady?: () => void, onGone?: () => void): SenderLink {
  const here = chainHere((url, init) => direct(url, init as BeaconFetchInit));
  if (!port) return { fetch: direct, chain: here };
  let ready = false;
  let gone = false;
  let next = 0;
  const waiting = new Map<number, (a: ChainResult) => void>();
  /** Requests of runs not answered yet, and the watch on them. */
  const inRun = new Set<number>();
  let watch: ReturnType<typeof setTimeout> | undefined;
  let watchMs = 0;
  const giveUp = () => {
    if (!gone) onGone?.();
    gone = true;
    for (const [id, settle] of waiting) {
      if (inRun.has(id)) settle({ error: 'the sender did not answer' });
    }
    for (const id of inRun) waiting.delete(id);
    inRun.clear();
  };
  /** While a run waits, each answer must come within a request's timeout plus `SENDER_GONE_MS` of the one before. */
  const rewatch = () => {
    clearTimeout(watch);
    watch = inRun.size ? setTimeout(giveUp, watchMs + SENDER_GONE_MS) : undefined;
  };
  port.onmessage = ({ data }: MessageEvent<SenderAnswer>) => {
    if ('ready' in data) {
      // Another version (an older sender kept alive by a tab opened before a deploy): not used.
      if (data.v !== SENDER_PROTOCOL) return;
      if (!ready && !gone) onReady?.();
      ready = true;
      return;
    }
    const settle = waiting.get(data.id);
    waiting.delete(data.id);
    if (inRun.delete(data.id)) rewatch();
    settle?.(data);
  };
  const fetch: BeaconFetch = (url, init) => {
    if (!ready || gone) return direct(url, init);
    const id = ++next;
    const { signal, ...rest } = init;
    return new Promise((resolve, reject) => {
      waiting.set(id, (a) => ('status' in a ? resolve({ status: a.status }) : reject(new Error('error' in a ? a.error : 'not sent'))));
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
  /** Where the run being extended went: a continuation never switches (its order would be lost). */
  let runOnSender = false;
  const chain: ChainFetch = (requests, continues = false) => {
    const onSender = ready && !gone;
    if (continues && onSender !== runOnSender) return requests.map(() => Promise.resolve({ skipped: true }));
    runOnSender = onSender;
    if (!onSender) return here(requests, continues);
    const out = requests.map((r, i) => {
      const id = ++next;
      inRun.add(id);
      watchMs = Math.max(watchMs, r.timeoutMs);
      const p = new Promise<ChainResult>((resolve) => waiting.set(id, resolve));
      port.postMessage({ id, run: i === 0 && !continues ? 'first' : 'next', ...r } satisfies SenderRequest);
      return p;
    });
    if (!watch) rewatch();
    return out;
  };
  return { fetch, chain };
}

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
 *
 * The sender costs the page to start (a thread of its renderer, ~6 ms, and ~2 ms of its main
 * thread) and saves it ~0.2 ms of main thread and ~0.5 ms of renderer per beacon, so it pays back
 * after about ten beacons: the worker asks the page for it at its `SENDER_AFTER_BEACONS`th beacon,
 * and a page that sends fewer never starts it (docs/delivery.md, "The sender").
 */
export const SENDER_AFTER_BEACONS = 10;
import { settles } from './queue-policy.ts';
import type { BeaconFetch, BeaconFetchInit, ChainFetch, ChainRequest, ChainResult } from './queue-types.ts';

/** One request of a run, numbered by the worker. */
export type RunRequest = { id: number } & ChainRequest;
/** A request's answer, by its number. */
export type RunAnswer = { id: number } & ChainResult;
/** Worker → sender: a request to make, one to abort (the queue's timeout), or the requests of a run (a new one, or more of the one out). */
export type SenderRequest =
  | { id: number; url: string; init: Omit<BeaconFetchInit, 'signal'> }
  | { id: number; abort: true }
  | { run: 'first' | 'next'; reqs: RunRequest[] };
/** Sender → worker: "here" once per connection (with its protocol), then answers: a lone request's at once, runs' together. */
export type SenderAnswer = { ready: true; v: number } | { answers: RunAnswer[] };

/**
 * The messages' version. A SharedWorker lives as long as a page of the origin uses it: after a
 * deploy, a tab opened before it keeps the old sender running, and new pages connect to that one
 * (same script URL). A worker uses a sender only of its own version, and fetches itself otherwise.
 */
export const SENDER_PROTOCOL = 3;

/**
 * Runs' answers wait in the sender at most this long, or until `ANSWER_BATCH_MAX` are there, and
 * go to the worker in one message; the requests the worker hands over in one call go in one
 * message too (docs/delivery.md, "The sender"). The sender does not wait for the worker between
 * requests, so this costs a burst nothing but a later delete and acknowledgement.
 */
export const ANSWER_BATCH_MS = 8;
export const ANSWER_BATCH_MAX = 16;

/** An aborted request (or a run's next answer) with no word from the sender this long after its timeout: the sender is gone. */
export const SENDER_GONE_MS = 2_000;

type Fetch = (url: string, init: RequestInit) => Promise<{ status: number }>;

/**
 * `fetch` for a beacon: the answer's status, its body let go at once. Chromium 150 stopped
 * answering a worker's requests after 16,383 answers whose bodies nobody read (the collector's
 * 1×1 GIF; a keepalive request each, from one SharedWorker): the 16,384th neither answered nor
 * failed. Cancelling each body keeps that count at zero (bench/delivery/many-beacons.ts).
 */
export function fetchStatus(url: string, init: RequestInit): Promise<{ status: number }> {
  return fetch(url, init).then((r) => {
    r.body?.cancel().catch(() => {});
    return { status: r.status };
  });
}

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
 * The worker's own (no sender) and the sender's (`servePort`) alike.
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
  let answers: RunAnswer[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    port.postMessage({ answers } satisfies SenderAnswer);
    answers = [];
  };
  port.onmessage = ({ data }: MessageEvent<SenderRequest>) => {
    if ('abort' in data) return void open.get(data.id)?.abort();
    if ('run' in data) {
      runs(data.reqs, data.run === 'next').forEach((p, i) =>
        p.then((r) => {
          if (answers.push({ id: data.reqs[i]!.id, ...r }) >= ANSWER_BATCH_MAX) flush();
          else timer ??= setTimeout(flush, ANSWER_BATCH_MS);
        }),
      );
      return;
    }
    const ctl = new AbortController();
    open.set(data.id, ctl);
    const answer = (a: RunAnswer) => {
      open.delete(data.id);
      port.postMessage({ answers: [a] } satisfies SenderAnswer);
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
  /** A run (queue-types.ts `ChainFetch`): on the sender's thread once it is there, else on this one with `direct`. */
  chain: ChainFetch;
  /** The sender's port, when it comes after the link was made (the page starts the sender when the worker asks: `SENDER_AFTER_BEACONS`); a second one is ignored. */
  attach(port: MessagePort): void;
}

/**
 * The worker's side: the queue's `fetch` and `chain` go through the sender once it said it is
 * there, and use `direct` on this thread before that, without one, and after it stopped answering.
 */
export function connectSender(first: MessagePort | undefined, direct: BeaconFetch, onReady?: () => void, onGone?: () => void): SenderLink {
  const here = chainHere((url, init) => direct(url, init as BeaconFetchInit));
  let port: MessagePort | undefined;
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
  const answered = (a: RunAnswer) => {
    const settle = waiting.get(a.id);
    waiting.delete(a.id);
    if (inRun.delete(a.id)) rewatch();
    settle?.(a);
  };
  const attach = (p: MessagePort) => {
    if (port) return;
    port = p;
    p.onmessage = ({ data }: MessageEvent<SenderAnswer>) => {
      if ('ready' in data) {
        // Another version (an older sender kept alive by a tab opened before a deploy): not used.
        if (data.v !== SENDER_PROTOCOL) return;
        if (!ready && !gone) onReady?.();
        ready = true;
        return;
      }
      data.answers.forEach(answered);
    };
  };
  if (first) attach(first);
  const fetch: BeaconFetch = (url, init) => {
    if (!ready || gone) return direct(url, init);
    const to = sender();
    const id = ++next;
    const { signal, ...rest } = init;
    return new Promise((resolve, reject) => {
      waiting.set(id, (a) => ('status' in a ? resolve({ status: a.status }) : reject(new Error('error' in a ? a.error : 'not sent'))));
      signal?.addEventListener('abort', () => {
        if (!waiting.has(id)) return;
        to.postMessage({ id, abort: true } satisfies SenderRequest);
        // A live sender answers an abort at once (its fetch rejects); silence means it is gone.
        setTimeout(() => {
          if (!waiting.delete(id)) return;
          if (!gone) onGone?.();
          gone = true;
          reject(new Error('the sender did not answer'));
        }, SENDER_GONE_MS);
      });
      to.postMessage({ id, url, init: rest } satisfies SenderRequest);
    });
  };
  /** Where the run being extended went: a continuation never switches (its order would be lost). */
  let runOnSender = false;
  const chain: ChainFetch = (requests, continues = false) => {
    const onSender = ready && !gone;
    if (continues && onSender !== runOnSender) return requests.map(() => Promise.resolve({ skipped: true }));
    runOnSender = onSender;
    if (!onSender) return here(requests, continues);
    const to = sender();
    const reqs = requests.map((r): RunRequest => ({ id: ++next, ...r }));
    const out = reqs.map((r) => {
      inRun.add(r.id);
      watchMs = Math.max(watchMs, r.timeoutMs);
      return new Promise<ChainResult>((resolve) => waiting.set(r.id, resolve));
    });
    to.postMessage({ run: continues ? 'next' : 'first', reqs } satisfies SenderRequest);
    if (!watch) rewatch();
    return out;
  };
  /** (`ready` is only ever set by a port's message, so there is one whenever it is true.) */
  const sender = () => port!;
  return { fetch, chain, attach };
}

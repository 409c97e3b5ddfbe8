/**
 * The origin's SharedWorker sender (src/worker-engine/transport/sender.ts), both sides over a real
 * MessageChannel, requests to the project's collector: the worker's queue sends through it once
 * it said it is there, and by itself before that, without one, and once it stops answering.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBeaconQueue, type BeaconFetch } from '../../../src/worker-engine/transport/queue.ts';
import { ANSWER_BATCH_MAX, SENDER_GONE_MS, SENDER_PROTOCOL, connectSender, fetchStatus, servePort } from '../../../src/worker-engine/transport/sender.ts';
import { memoryStore } from '../../../src/worker-engine/transport/store.ts';
import { startCollector, type Collector } from '../../../tools/collector/server.ts';

let collector: Collector;
const beaconUrl = (n: number) => `${collector.url}/b/ss/acmeprod/1/JS-2.27.0/s${1000 + n}?AQB=1&ndh=1&pf=1&t=x&pageName=p${n}&AQE=1`;
const withOrigin = (url: string, init: RequestInit) => fetch(url, { ...init, headers: { ...(init.headers as object), Origin: 'http://page.test' } });

beforeAll(async () => {
  collector = await startCollector({ port: 0, quiet: true });
});
afterAll(() => collector.close());
beforeEach(async () => {
  await fetch(`${collector.url}/__reset`, { method: 'POST' });
});

/** A sender on one end of a channel; `calls` lists who fetched what. */
function world(opts: { serve?: boolean } = {}) {
  const calls: string[] = [];
  const channel = new MessageChannel();
  if (opts.serve !== false)
    servePort(channel.port1, (url, init) => {
      calls.push(`sender ${new URL(url).searchParams.get('pageName')}`);
      return withOrigin(url, init);
    });
  const feed: string[] = [];
  const direct: BeaconFetch = (url, init) => {
    calls.push(`worker ${new URL(url).searchParams.get('pageName')}`);
    return withOrigin(url, init as RequestInit);
  };
  const link = connectSender(channel.port2, direct, () => feed.push('ready'), () => feed.push('gone'));
  const send = link.fetch;
  const close = () => {
    channel.port1.close();
    channel.port2.close();
  };
  return { calls, feed, send, link, channel, close };
}
const init = { method: 'GET' as const, credentials: 'include' as const, keepalive: true as const };
/** Looks again after each task until `ok` holds (the test's own timeout bounds it, not a count of looks). */
const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setImmediate(r));
};
/** Resolves once `port` has received a message, after the listeners registered before this one. */
const delivered = (port: MessagePort) => new Promise<void>((r) => port.addEventListener('message', () => r(), { once: true }));
/** How many requests the collector has refused (or held) on purpose so far (`GET /__fail`). */
const refused = async (): Promise<number> => (await (await fetch(`${collector.url}/__fail`)).json()).refused;

describe('the sender', () => {
  it('without a sender port the worker fetches itself', async () => {
    const calls: string[] = [];
    const direct: BeaconFetch = (url, i) => (calls.push(new URL(url).searchParams.get('pageName')!), withOrigin(url, i as RequestInit));
    expect((await connectSender(undefined, direct).fetch(beaconUrl(0), init)).status).toBe(200);
    expect(calls).toEqual(['p0']);
  });

  it('a sender attached later (the page started it when the worker asked) takes the requests from its "ready" on; a second one is ignored', async () => {
    const calls: string[] = [];
    const direct: BeaconFetch = (url, i) => (calls.push(`worker ${new URL(url).searchParams.get('pageName')}`), withOrigin(url, i as RequestInit));
    const feed: string[] = [];
    const link = connectSender(undefined, direct, () => feed.push('ready'));
    expect((await link.fetch(beaconUrl(0), init)).status).toBe(200);
    const serve = (name: string) => {
      const ch = new MessageChannel();
      servePort(ch.port1, (url, i) => (calls.push(`${name} ${new URL(url).searchParams.get('pageName')}`), withOrigin(url, i)));
      return ch;
    };
    const a = serve('sender');
    const b = serve('second');
    link.attach(a.port2);
    link.attach(b.port2);
    await until(() => feed.includes('ready'));
    expect((await link.fetch(beaconUrl(1), init)).status).toBe(200);
    expect(await Promise.all(link.chain([{ url: beaconUrl(2), init, timeoutMs: 5000, startWithinMs: 5000 }]))).toMatchObject([{ status: 200 }]);
    expect(calls).toEqual(['worker p0', 'sender p1', 'sender p2']);
    for (const ch of [a, b]) ch.port1.close(), ch.port2.close();
  });

  it('until the sender said it is there the worker fetches itself; then every request goes through the sender, with its status', async () => {
    const w = world();
    // The "ready" message has not been handled yet: this one is the worker's own.
    expect((await w.send(beaconUrl(0), init)).status).toBe(200);
    await until(() => w.feed.includes('ready'));
    expect((await w.send(beaconUrl(1), init)).status).toBe(200);
    expect((await w.send(`${collector.url}/nothing-here`, init)).status).toBe(404);
    expect(w.calls).toEqual(['worker p0', 'sender p1', 'sender null']);
    expect(collector.beacons.map((b) => b.pageName)).toEqual(['p0', 'p1']);
    expect(w.feed).toEqual(['ready']);
    w.close();
  });

  it('a network error in the sender rejects the request in the worker, with its message', async () => {
    const w = world();
    await until(() => w.feed.includes('ready'));
    await expect(w.send('http://127.0.0.1:9/b/ss/x/1/JS/s1', init)).rejects.toThrow(/fetch failed/);
  });

  it('a sender port nobody serves is never used: the worker fetches itself', async () => {
    const w = world({ serve: false });
    // No wait: nobody will ever say "ready" on this port.
    expect((await w.send(beaconUrl(0), init)).status).toBe(200);
    expect(w.calls).toEqual(['worker p0']);
    expect(w.feed).toEqual([]);
    w.close();
  });

  it('a sender of another protocol version (an old one a tab kept alive across a deploy) is never used: the worker fetches itself', async () => {
    const w = world({ serve: false });
    // What an older sender says, and then does with whatever reaches it.
    w.channel.port1.onmessage = () => {
      w.calls.push('old sender');
    };
    const heard = delivered(w.channel.port2);
    w.channel.port1.postMessage({ ready: true, v: SENDER_PROTOCOL - 1 });
    // The worker's end has had the old sender's "ready" (its own listener runs first).
    await heard;
    expect((await w.send(beaconUrl(0), init)).status).toBe(200);
    await Promise.all(w.link.chain([{ url: beaconUrl(1), init, startWithinMs: 5_000, timeoutMs: 2_000 }]));
    expect(w.calls).toEqual(['worker p0', 'worker p1']);
    expect(w.feed).toEqual([]);
    expect(collector.beacons.map((b) => b.pageName)).toEqual(['p0', 'p1']);
    w.close();
  });

  it('an abort reaches the sender, which answers it; a sender that does not answer an abort is gone, and the worker fetches itself from then on', async () => {
    const w = world();
    await until(() => w.feed.includes('ready'));
    // A request the collector holds: the queue's timeout aborts it, the sender's fetch rejects, the answer comes back.
    await fetch(`${collector.url}/__fail?count=1&status=-1`, { method: 'POST' });
    const ctl = new AbortController();
    const held = w.send(beaconUrl(0), { ...init, signal: ctl.signal });
    // The collector holds it: the request is in flight in the sender.
    await expect.poll(refused).toBe(1);
    ctl.abort();
    await expect(held).rejects.toThrow(/abort/i);
    expect(w.feed).toEqual(['ready']);
    // Now the sender dies (its end closes): the next aborted request gets no answer.
    w.channel.port1.onmessage = null;
    const lost = new AbortController();
    const unanswered = w.send(beaconUrl(1), { ...init, signal: lost.signal });
    lost.abort();
    const t0 = Date.now();
    await expect(unanswered).rejects.toThrow('the sender did not answer');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(SENDER_GONE_MS - 50);
    expect(w.feed).toEqual(['ready', 'gone']);
    expect((await w.send(beaconUrl(2), init)).status).toBe(200);
    expect(w.calls.slice(-1)).toEqual(['worker p2']);
    w.close();
  });

  it('the durable queue over the sender: every beacon once, in the order made', async () => {
    const w = world();
    await until(() => w.feed.includes('ready'));
    const q = createBeaconQueue({ store: memoryStore(), fetch: w.send, now: () => Date.now(), sleep: (ms) => new Promise((r) => setTimeout(r, ms)), log: () => {} });
    for (let i = 0; i < 20; i++) void q.enqueue({ method: 'GET', url: beaconUrl(i) });
    await q.idle();
    expect(collector.beacons.map((b) => b.pageName)).toEqual(Array.from({ length: 20 }, (_, i) => `p${i}`));
    expect(w.calls.every((c) => c.startsWith('sender'))).toBe(true);
    w.close();
  });

  describe('runs (one after another on the sender\'s thread)', () => {
    const run = (ns: number[], over: Partial<{ startWithinMs: number; timeoutMs: number }>[] = []) =>
      ns.map((n, i) => ({ url: beaconUrl(n), init, startWithinMs: 10_000, timeoutMs: 2_000, ...over[i] }));
    const names = (rs: unknown[]) => rs.map((r) => ('status' in (r as object) ? (r as { status: number }).status : 'skipped' in (r as object) ? 'skipped' : 'error'));

    it('a run goes through the sender in order; after a request that did not settle the rest are not sent, and the next run starts afresh', async () => {
      const w = world();
      await until(() => w.feed.includes('ready'));
      const { link } = w;
      await fetch(`${collector.url}/__fail?count=1&status=503`, { method: 'POST' });
      // The first request is refused (503): nothing after it leaves.
      expect(names(await Promise.all(link.chain(run([0, 1, 2]))))).toEqual([503, 'skipped', 'skipped']);
      expect(names(await Promise.all(link.chain(run([0, 1, 2]))))).toEqual([200, 200, 200]);
      expect(collector.beacons.map((b) => b.pageName)).toEqual(['p0', 'p1', 'p2']);
      expect(w.calls).toEqual(['sender p0', 'sender p0', 'sender p1', 'sender p2']);
      w.close();
    });

    it('a continuation extends the run before it: it waits for it, and is skipped if that run ended on a request that did not settle; a new run is not', async () => {
      for (const viaSender of [true, false]) {
        await fetch(`${collector.url}/__reset`, { method: 'POST' });
        const w = world();
        const link = viaSender ? w.link : connectSender(undefined, (url, i) => withOrigin(url, i as RequestInit));
        if (viaSender) await until(() => w.feed.includes('ready'));
        await fetch(`${collector.url}/__fail?count=1&status=503`, { method: 'POST' });
        const first = link.chain(run([0, 1]));
        const extended = link.chain(run([2]), true);
        expect(names(await Promise.all([...first, ...extended]))).toEqual([503, 'skipped', 'skipped']);
        // A new run starts whatever the one before it did; extending it works while it settles.
        const again = link.chain(run([0, 1]));
        const more = link.chain(run([2, 3]), true);
        expect(names(await Promise.all([...again, ...more]))).toEqual([200, 200, 200, 200]);
        expect(collector.beacons.map((b) => b.pageName)).toEqual(['p0', 'p1', 'p2', 'p3']);
        w.close();
      }
    });

    it('a continuation never switches threads: one handed after the sender was given up is skipped', async () => {
      const w = world({ serve: false });
      // A sender that says it is there, takes the run, and never answers.
      w.channel.port1.postMessage({ ready: true, v: SENDER_PROTOCOL });
      await until(() => w.feed.includes('ready'));
      const first = w.link.chain(run([0], [{ timeoutMs: 100 }]));
      await until(() => w.feed.includes('gone'));
      expect(names(await Promise.all(first))).toEqual(['error']);
      expect(names(await Promise.all(w.link.chain(run([1]), true)))).toEqual(['skipped']);
      // A new run goes on this thread.
      expect(names(await Promise.all(w.link.chain(run([2]))))).toEqual([200]);
      expect(w.calls).toEqual(['worker p2']);
      w.close();
    });

    it('the requests handed over together travel in one message, and their answers come back together (within ANSWER_BATCH_MS, or ANSWER_BATCH_MAX at a time)', async () => {
      const w = world({ serve: false });
      // Count what crosses the channel each way: a real sender behind a counting relay.
      const relay = new MessageChannel();
      const toSender: unknown[] = [];
      const toWorker: unknown[] = [];
      w.channel.port1.onmessage = ({ data }) => (toSender.push(data), relay.port1.postMessage(data));
      relay.port1.onmessage = ({ data }) => (toWorker.push(data), w.channel.port1.postMessage(data));
      servePort(relay.port2, (url, i) => (w.calls.push(`sender ${new URL(url).searchParams.get('pageName')}`), withOrigin(url, i)));
      await until(() => w.feed.includes('ready'));
      const first = w.link.chain(run(Array.from({ length: 20 }, (_, i) => i)));
      const more = w.link.chain(run([20, 21, 22]), true);
      expect(names(await Promise.all([...first, ...more]))).toEqual(Array(23).fill(200));
      expect(collector.beacons.map((b) => b.pageName)).toEqual(Array.from({ length: 23 }, (_, i) => `p${i}`));
      expect(toSender.map((m) => [(m as { run: string }).run, (m as { reqs: unknown[] }).reqs.length])).toEqual([['first', 20], ['next', 3]]);
      const answers = toWorker.slice(1) as Array<{ answers: unknown[] }>;
      expect(answers.flatMap((m) => m.answers)).toHaveLength(23);
      expect(answers.length).toBeLessThan(23);
      for (const m of answers) expect(m.answers.length).toBeLessThanOrEqual(ANSWER_BATCH_MAX);
      relay.port1.close();
      w.close();
    });

    it('a request not started within its start limit is skipped, with the rest of its run', async () => {
      const w = world();
      await until(() => w.feed.includes('ready'));
      const { link } = w;
      expect(names(await Promise.all(link.chain(run([0, 1, 2], [{}, { startWithinMs: -1 }]))))).toEqual([200, 'skipped', 'skipped']);
      expect(collector.beacons.map((b) => b.pageName)).toEqual(['p0']);
      w.close();
    });

    it('without a sender the run goes on this thread, with the same rules', async () => {
      const calls: string[] = [];
      const link = connectSender(undefined, (url, i) => (calls.push(new URL(url).searchParams.get('pageName')!), withOrigin(url, i as RequestInit)));
      await fetch(`${collector.url}/__fail?count=1&status=503`, { method: 'POST' });
      expect(names(await Promise.all(link.chain(run([0, 1]))))).toEqual([200, 200].map((x, i) => (i === 0 ? 503 : 'skipped')));
      expect(names(await Promise.all(link.chain(run([0, 1]))))).toEqual([200, 200]);
      expect(calls).toEqual(['p0', 'p0', 'p1']);
    });

    it('a sender that stops answering during a run is given up after a request\'s timeout plus SENDER_GONE_MS; the run fails at its head and later runs go on this thread', async () => {
      const w = world();
      await until(() => w.feed.includes('ready'));
      const { link } = w;
      // The sender dies: nothing it receives is answered any more.
      w.channel.port1.onmessage = null;
      const t0 = Date.now();
      const rs = await Promise.all(link.chain(run([0, 1], [{ timeoutMs: 300 }, { timeoutMs: 300 }])));
      expect(Date.now() - t0).toBeGreaterThanOrEqual(300 + SENDER_GONE_MS - 50);
      expect(rs[0]).toEqual({ error: 'the sender did not answer' });
      expect(w.feed).toEqual(['ready', 'gone']);
      expect(names(await Promise.all(link.chain(run([0, 1]))))).toEqual([200, 200]);
      expect(w.calls).toEqual(['worker p0', 'worker p1']);
      w.close();
    });
  });
});

describe('fetchStatus (what the sender and the worker fetch a beacon with)', () => {
  afterEach(() => vi.unstubAllGlobals());
  it('answers with the status and cancels the body at once: nobody reads a beacon\'s answer, and Chromium stops answering after 16,383 unread ones', async () => {
    let cancelled = false;
    const seen: RequestInit[] = [];
    // The body of the answer never ends by itself: only a cancel ends it.
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      seen.push(init);
      return new Response(new ReadableStream({ pull: () => new Promise(() => {}), cancel: () => void (cancelled = true) }), { status: 200 });
    });
    expect(await fetchStatus('http://collector.test/b/ss/x/1/JS-2.27.0/s1', { keepalive: true, credentials: 'include' })).toEqual({ status: 200 });
    expect(cancelled).toBe(true);
    expect(seen).toEqual([{ keepalive: true, credentials: 'include' }]);
  });
});

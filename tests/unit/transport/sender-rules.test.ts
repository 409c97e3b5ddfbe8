/**
 * The sender's messages one by one (sender.ts), both sides on ports the test reads and writes
 * itself, requests that wait until the test answers them, and fake timers for the sender's
 * answer batching, the request timeouts and the watch on a silent sender. sender.test.ts runs
 * the same code over a real MessageChannel against the collector.
 *
 * Mutants left Survived (equivalent): `chainHere`'s `continues = false` default → true (no coverage:
 * every caller passes a boolean); `giveUp`'s `!gone` → true (the watch gives up once: after it no run
 * goes to the sender, so it is never set again).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { BeaconFetch, ChainRequest, ChainResult } from '../../../src/worker-engine/transport/queue.ts';
import { ANSWER_BATCH_MAX, ANSWER_BATCH_MS, SENDER_GONE_MS, SENDER_PROTOCOL, connectSender, servePort } from '../../../src/worker-engine/transport/sender.ts';
import { asPort, port } from './fake-port.ts';

interface Pending {
  url: string;
  init: RequestInit;
  answer(status: number): void;
  fail(e: unknown): void;
}
/** Requests that wait for the test; an abort rejects them as a browser's fetch does. */
function network() {
  const pending: Pending[] = [];
  const doFetch = (url: string, init: RequestInit) =>
    new Promise<{ status: number }>((resolve, reject) => {
      init.signal?.addEventListener('abort', () => reject(new DOMException('This operation was aborted', 'AbortError')));
      pending.push({ url, init, answer: (status) => resolve({ status }), fail: reject });
    });
  return { pending, doFetch };
}
const init = { method: 'GET' as const, credentials: 'include' as const, keepalive: true as const };
const req = (url: string, over: Partial<ChainRequest> = {}): ChainRequest => ({ url, init, startWithinMs: 10_000, timeoutMs: 1_000, ...over });
/** Runs the timers due within `ms` and the promises they settle. */
const tick = (ms = 0) => vi.advanceTimersByTimeAsync(ms);
/** What each promise has come to so far ('…' while pending). */
function watch(ps: Array<Promise<unknown>>) {
  const out: unknown[] = ps.map(() => '…');
  ps.forEach((p, i) => p.then((v) => (out[i] = v), (e: Error) => (out[i] = `rejected: ${e.message}`)));
  return out;
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the sender\'s side (servePort)', () => {
  it('says it is there with its protocol; answers a lone request at once with its status, or its error in words', async () => {
    const p = port();
    const net = network();
    servePort(asPort(p), net.doFetch);
    expect(p.sent).toEqual([{ ready: true, v: SENDER_PROTOCOL }]);
    p.hear({ id: 1, url: 'http://c/1', init: { method: 'POST', body: 'a', credentials: 'include', keepalive: true } });
    p.hear({ id: 2, url: 'http://c/2', init });
    p.hear({ id: 3, url: 'http://c/3', init });
    expect(net.pending.map((r) => [r.url, r.init.method, r.init.body, r.init.credentials, r.init.keepalive, r.init.signal instanceof AbortSignal])).toEqual([
      ['http://c/1', 'POST', 'a', 'include', true, true],
      ['http://c/2', 'GET', undefined, 'include', true, true],
      ['http://c/3', 'GET', undefined, 'include', true, true],
    ]);
    net.pending[1]!.answer(503);
    net.pending[0]!.fail(new TypeError('fetch failed'));
    net.pending[2]!.fail('refused');
    await tick();
    expect(p.sent.slice(1)).toEqual([{ answers: [{ id: 2, status: 503 }] }, { answers: [{ id: 1, error: 'fetch failed' }] }, { answers: [{ id: 3, error: 'refused' }] }]);
  });

  it('an abort stops its request (answered with the abort\'s error); an abort of a request already answered does nothing', async () => {
    const p = port();
    const net = network();
    servePort(asPort(p), net.doFetch);
    p.hear({ id: 1, url: 'http://c/1', init });
    p.hear({ id: 1, abort: true });
    await tick();
    expect(net.pending[0]!.init.signal!.aborted).toBe(true);
    expect(p.sent.slice(1)).toEqual([{ answers: [{ id: 1, error: 'This operation was aborted' }] }]);
    p.hear({ id: 1, abort: true });
    p.hear({ id: 9, abort: true });
    await tick();
    expect(p.sent).toHaveLength(2);
  });

  it(`a run's answers go back together: within ${ANSWER_BATCH_MS} ms of the first, or at once when ${ANSWER_BATCH_MAX} are there`, async () => {
    const p = port();
    const net = network();
    servePort(asPort(p), net.doFetch);
    p.hear({ run: 'first', reqs: [1, 2, 3].map((id) => ({ id, ...req(`http://c/${id}`) })) });
    for (let n = 0; n < 3; n++) {
      await tick();
      net.pending[n]!.answer(204);
    }
    await tick(ANSWER_BATCH_MS - 1);
    expect(p.sent).toHaveLength(1);
    await tick(1);
    expect(p.sent.slice(1)).toEqual([{ answers: [1, 2, 3].map((id) => ({ id, status: 204, ms: expect.any(Number) })) }]);
    // A run of its own: the timer starts again with its first answer.
    const ids = Array.from({ length: ANSWER_BATCH_MAX + 1 }, (_, i) => 10 + i);
    p.hear({ run: 'first', reqs: ids.map((id) => ({ id, ...req(`http://c/${id}`) })) });
    for (let n = 0; n < ANSWER_BATCH_MAX; n++) {
      await tick();
      net.pending[3 + n]!.answer(204);
    }
    await tick();
    expect((p.sent as Array<{ answers: RunAnswerLike[] }>).slice(2).map((m) => m.answers.map((a) => a.id))).toEqual([ids.slice(0, ANSWER_BATCH_MAX)]);
    net.pending.at(-1)!.answer(204);
    await tick(ANSWER_BATCH_MS);
    expect((p.sent as Array<{ answers: RunAnswerLike[] }>).slice(3).map((m) => m.answers.map((a) => a.id))).toEqual([[10 + ANSWER_BATCH_MAX]]);
  });

  it('a "next" run continues the one before it: skipped after it ended on a request that did not settle', async () => {
    const p = port();
    const net = network();
    servePort(asPort(p), net.doFetch);
    p.hear({ run: 'first', reqs: [{ id: 1, ...req('http://c/1') }] });
    p.hear({ run: 'next', reqs: [{ id: 2, ...req('http://c/2') }] });
    p.hear({ run: 'first', reqs: [{ id: 3, ...req('http://c/3') }] });
    await tick();
    net.pending[0]!.answer(500);
    await tick(ANSWER_BATCH_MS);
    expect(net.pending.map((r) => r.url)).toEqual(['http://c/1', 'http://c/3']);
    net.pending[1]!.answer(200);
    await tick(ANSWER_BATCH_MS);
    expect((p.sent.slice(1) as Array<{ answers: unknown[] }>).flatMap((m) => m.answers)).toEqual([
      { id: 1, status: 500, ms: 0 },
      { id: 2, skipped: true },
      { id: 3, status: 200, ms: ANSWER_BATCH_MS },
    ]);
  });
});

type RunAnswerLike = { id: number };

describe('runs on this thread (no sender)', () => {
  it('each request once the one before it settled, timed on its own; the rest of a run skipped after an error or a refusal, not after a 4xx', async () => {
    const net = network();
    const link = connectSender(undefined, (u, i) => net.doFetch(u, i as RequestInit));
    const out = watch(link.chain([req('http://c/1'), req('http://c/2'), req('http://c/3'), req('http://c/4')]));
    await tick();
    expect(net.pending.map((r) => r.url)).toEqual(['http://c/1']);
    await tick(25);
    net.pending[0]!.answer(404);
    await tick();
    expect(net.pending.map((r) => r.url)).toEqual(['http://c/1', 'http://c/2']);
    net.pending[1]!.answer(204);
    await tick();
    net.pending[2]!.fail(new TypeError('fetch failed'));
    await tick();
    expect(out).toEqual([{ status: 404, ms: 25 }, { status: 204, ms: 0 }, { error: 'fetch failed' }, { skipped: true }]);
    expect(net.pending).toHaveLength(3);
    const again = watch(link.chain([req('http://c/5'), req('http://c/6')]));
    await tick();
    net.pending[3]!.fail('refused');
    await tick();
    expect(again).toEqual([{ error: 'refused' }, { skipped: true }]);
  });

  it('a request not answered within its timeout is aborted: a timeout; one answered in time is never aborted afterwards', async () => {
    const net = network();
    const link = connectSender(undefined, (u, i) => net.doFetch(u, i as RequestInit));
    const out = watch(link.chain([req('http://c/1', { timeoutMs: 300 }), req('http://c/2', { timeoutMs: 300 })]));
    await tick();
    net.pending[0]!.answer(204);
    await tick(299);
    expect(net.pending[1]!.init.signal!.aborted).toBe(false);
    await tick(1);
    expect(net.pending[1]!.init.signal!.aborted).toBe(true);
    await tick(1_000);
    expect(net.pending[0]!.init.signal!.aborted).toBe(false);
    expect(out).toEqual([{ status: 204, ms: 0 }, { error: 'timeout' }]);
  });

  it('a request starts while its start limit (from when the run was handed over) has not passed, to the ms', async () => {
    const net = network();
    const link = connectSender(undefined, (u, i) => net.doFetch(u, i as RequestInit));
    const out = watch(link.chain([req('http://c/1'), req('http://c/2', { startWithinMs: 40 }), req('http://c/3', { startWithinMs: 70 })]));
    await tick(40);
    net.pending[0]!.answer(204);
    await tick(31);
    net.pending[1]!.answer(204);
    await tick();
    expect(out).toEqual([{ status: 204, ms: 40 }, { status: 204, ms: 31 }, { skipped: true }]);
    const first = watch(link.chain([req('http://c/4', { startWithinMs: 0 })]));
    await tick();
    expect(net.pending.map((r) => r.url)).toEqual(['http://c/1', 'http://c/2', 'http://c/4']);
    net.pending[2]!.answer(204);
    await tick();
    expect(first).toEqual([{ status: 204, ms: 0 }]);
  });

  it('a new run waits for the one before it, then starts whatever it came to', async () => {
    const net = network();
    const link = connectSender(undefined, (u, i) => net.doFetch(u, i as RequestInit));
    const a = watch(link.chain([req('http://c/1')]));
    const b = watch(link.chain([req('http://c/2')]));
    await tick();
    expect(net.pending.map((r) => r.url)).toEqual(['http://c/1']);
    net.pending[0]!.answer(503);
    await tick();
    net.pending[1]!.answer(204);
    await tick();
    expect([...a, ...b]).toEqual([{ status: 503, ms: 0 }, { status: 204, ms: 0 }]);
  });
});

describe('the worker\'s side (connectSender)', () => {
  function linked() {
    const p = port();
    const direct: string[] = [];
    const feed: string[] = [];
    const link = connectSender(asPort(p), async (url) => (direct.push(url), { status: 299 }), () => feed.push('ready'), () => feed.push('gone'));
    return { p, link, direct, feed };
  }

  it('uses a sender once it said it is there, said once; a request goes with its number and without its signal, and its status comes back', async () => {
    const { p, link, direct, feed } = linked();
    expect(await link.fetch('http://c/0', { ...init, signal: new AbortController().signal })).toEqual({ status: 299 });
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    expect(feed).toEqual(['ready']);
    const r = link.fetch('http://c/1', { ...init, method: 'POST', body: 'x', signal: new AbortController().signal });
    expect(p.sent).toEqual([{ id: 1, url: 'http://c/1', init: { ...init, method: 'POST', body: 'x' } }]);
    p.hear({ answers: [{ id: 1, status: 204, ms: 5 }] });
    expect(await r).toEqual({ status: 204 });
    const e = link.fetch('http://c/2', init);
    const s = link.fetch('http://c/3', init);
    p.hear({ answers: [{ id: 2, error: 'fetch failed' }, { id: 3, skipped: true }, { id: 77, status: 200 }] });
    await expect(e).rejects.toThrow('fetch failed');
    await expect(s).rejects.toThrow('not sent');
    expect(direct).toEqual(['http://c/0']);
    // A second port is not taken.
    const other = port();
    link.attach(asPort(other));
    expect(other.onmessage).toBe(null);
  });

  it('a sender of another version is not used, and not reported', async () => {
    const { p, link, direct, feed } = linked();
    p.hear({ ready: true, v: SENDER_PROTOCOL + 1 });
    await link.fetch('http://c/1', init);
    expect(await Promise.all(link.chain([req('http://c/2')]))).toEqual([{ status: 299, ms: 0 }]);
    expect(direct).toEqual(['http://c/1', 'http://c/2']);
    expect(p.sent).toEqual([]);
    expect(feed).toEqual([]);
  });

  it(`an abort goes to the sender; answered, the request fails with its answer; unanswered within ${SENDER_GONE_MS} ms, the sender is gone (said once) and the worker fetches itself`, async () => {
    const { p, link, direct, feed } = linked();
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    const ctl = new AbortController();
    const r = watch([link.fetch('http://c/1', { ...init, signal: ctl.signal })]);
    ctl.abort();
    expect(p.sent.at(-1)).toEqual({ id: 1, abort: true });
    await tick(SENDER_GONE_MS - 1);
    p.hear({ answers: [{ id: 1, error: 'aborted' }] });
    await tick(10);
    expect(r).toEqual(['rejected: aborted']);
    expect(feed).toEqual(['ready']);
    // An abort after the answer is not sent.
    const late = new AbortController();
    const answered = link.fetch('http://c/2', { ...init, signal: late.signal });
    p.hear({ answers: [{ id: 2, status: 204 }] });
    await answered;
    late.abort();
    expect(p.sent.filter((m) => 'abort' in (m as object))).toHaveLength(1);
    const lost = new AbortController();
    const gone = watch([link.fetch('http://c/3', { ...init, signal: lost.signal })]);
    lost.abort();
    await tick(SENDER_GONE_MS - 1);
    expect(gone).toEqual(['…']);
    await tick(1);
    expect(gone).toEqual(['rejected: the sender did not answer']);
    expect(feed).toEqual(['ready', 'gone']);
    expect(await link.fetch('http://c/4', init)).toEqual({ status: 299 });
    expect(direct).toEqual(['http://c/4']);
    // Its "ready" again changes nothing.
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    expect(feed).toEqual(['ready', 'gone']);
  });

  it('a run goes in one message, numbered after the requests before it; a continuation as "next"; answers settle their own requests', async () => {
    const { p, link } = linked();
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    void link.fetch('http://c/0', init);
    const a = watch(link.chain([req('http://c/1'), req('http://c/2')]));
    const b = watch(link.chain([req('http://c/3')], true));
    expect(p.sent.slice(1)).toEqual([
      { run: 'first', reqs: [{ id: 2, ...req('http://c/1') }, { id: 3, ...req('http://c/2') }] },
      { run: 'next', reqs: [{ id: 4, ...req('http://c/3') }] },
    ]);
    p.hear({ answers: [{ id: 3, status: 204, ms: 4 }, { id: 2, skipped: true }] });
    await tick();
    expect([...a, ...b]).toEqual([{ id: 2, skipped: true }, { id: 3, status: 204, ms: 4 }, '…']);
  });

  it(`a run with no answer for its longest timeout plus ${SENDER_GONE_MS} ms gives the sender up: its open requests fail, a lone request still waits, a continuation is skipped and new runs go on this thread`, async () => {
    const { p, link, direct, feed } = linked();
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    const lone = watch([link.fetch('http://c/0', init)]);
    const run = watch(link.chain([req('http://c/1', { timeoutMs: 300 }), req('http://c/2', { timeoutMs: 500 }), req('http://c/3', { timeoutMs: 100 })]));
    await tick(400);
    // An answer restarts the watch.
    p.hear({ answers: [{ id: 2, status: 204, ms: 1 }] });
    await tick(500 + SENDER_GONE_MS - 1);
    expect(feed).toEqual(['ready']);
    await tick(1);
    expect(feed).toEqual(['ready', 'gone']);
    expect(run).toEqual([{ id: 2, status: 204, ms: 1 }, { error: 'the sender did not answer' }, { error: 'the sender did not answer' }]);
    expect(lone).toEqual(['…']);
    // Late answers of the given-up run change nothing.
    p.hear({ answers: [{ id: 3, status: 204 }] });
    await tick();
    expect(run[1]).toEqual({ error: 'the sender did not answer' });
    expect(await Promise.all(link.chain([req('http://c/4')], true))).toEqual([{ skipped: true }]);
    expect(await Promise.all(link.chain([req('http://c/5')]))).toEqual([{ status: 299, ms: 0 }]);
    expect(await Promise.all(link.chain([req('http://c/6')], true))).toEqual([{ status: 299, ms: 0 }]);
    expect(direct).toEqual(['http://c/5', 'http://c/6']);
    // Nothing is waited for any more: no second "gone".
    await tick(10 * SENDER_GONE_MS);
    expect(feed).toEqual(['ready', 'gone']);
  });

  it('a run answered in full stops the watch; the next run starts its own', async () => {
    const { p, link, feed } = linked();
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    const a = link.chain([req('http://c/1', { timeoutMs: 100 })]);
    p.hear({ answers: [{ id: 1, status: 204 }] });
    await a[0];
    await tick(10 * SENDER_GONE_MS);
    expect(feed).toEqual(['ready']);
    const b = watch(link.chain([req('http://c/2', { timeoutMs: 100 })]));
    await tick(100 + SENDER_GONE_MS);
    expect(feed).toEqual(['ready', 'gone']);
    expect(b).toEqual([{ error: 'the sender did not answer' }]);
  });

  it('a continuation handed while the run before it went on this thread, to a sender that came since, is skipped', async () => {
    const { p, link, direct } = linked();
    const first = link.chain([req('http://c/1')]);
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    expect(await Promise.all(link.chain([req('http://c/2')], true))).toEqual([{ skipped: true }]);
    await Promise.all(first);
    expect(direct).toEqual(['http://c/1']);
    link.chain([req('http://c/3')]);
    expect(p.sent).toEqual([{ run: 'first', reqs: [{ id: 1, ...req('http://c/3') }] }]);
  });
});

describe('the watch on a silent sender', () => {
  function linked() {
    const p = port();
    const feed: string[] = [];
    const link = connectSender(asPort(p), async () => ({ status: 299 }), () => feed.push('ready'), () => feed.push('gone'));
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    return { p, link, feed };
  }

  it('runs from the last answer of a run or the run that started it: neither a continuation handed since nor a lone request\'s answer restarts it', async () => {
    const { p, link, feed } = linked();
    const lone = link.fetch('http://c/0', init);
    link.chain([req('http://c/1', { timeoutMs: 300 })]);
    await tick(1_000);
    link.chain([req('http://c/2', { timeoutMs: 300 })], true);
    p.hear({ answers: [{ id: 1, status: 204 }] });
    await lone;
    await tick(300 + SENDER_GONE_MS - 1_000 - 1);
    expect(feed).toEqual(['ready']);
    await tick(1);
    expect(feed).toEqual(['ready', 'gone']);
  });

  it('two aborted requests the sender does not answer: gone is said once', async () => {
    const { link, feed } = linked();
    const ctls = [new AbortController(), new AbortController()];
    const rs = watch(ctls.map((c, i) => link.fetch(`http://c/${i}`, { ...init, signal: c.signal })));
    for (const c of ctls) c.abort();
    await tick(SENDER_GONE_MS);
    expect(rs).toEqual(['rejected: the sender did not answer', 'rejected: the sender did not answer']);
    expect(feed).toEqual(['ready', 'gone']);
  });
});

describe('the worker and a real sender (servePort) on the two ends', () => {
  it('a run through the sender reaches the network in order and its answers come back to the right requests', async () => {
    const w = port();
    const s = port();
    // The two ends of a channel.
    w.postMessage = (data: unknown) => void queueMicrotask(() => s.onmessage!({ data: structuredClone(data) }));
    s.postMessage = (data: unknown) => void queueMicrotask(() => w.onmessage!({ data: structuredClone(data) }));
    const net = network();
    const direct: BeaconFetch = () => Promise.reject(new Error('not here'));
    const link = connectSender(asPort(w), direct);
    servePort(asPort(s), net.doFetch);
    await tick();
    const out = watch(link.chain([req('http://c/1'), req('http://c/2')]) as Array<Promise<ChainResult>>);
    await tick();
    net.pending[0]!.answer(204);
    await tick();
    net.pending[1]!.answer(400);
    await tick(ANSWER_BATCH_MS);
    expect(out).toEqual([{ id: 1, status: 204, ms: 0 }, { id: 2, status: 400, ms: 0 }]);
  });
});

describe('edges of the link', () => {
  it('a continuation handed first, with no run before it, is sent', async () => {
    const link = connectSender(undefined, async () => ({ status: 204 }));
    expect(await Promise.all(link.chain([req('http://c/1')], true))).toEqual([{ status: 204, ms: 0 }]);
  });

  it('without devtools callbacks a silent sender is still given up, after a run or an abort', async () => {
    const p = port();
    const link = connectSender(asPort(p), async () => ({ status: 204 }));
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    const run = watch(link.chain([req('http://c/1', { timeoutMs: 100 })]));
    await tick(100 + SENDER_GONE_MS);
    expect(run).toEqual([{ error: 'the sender did not answer' }]);
    const q = port();
    const other = connectSender(asPort(q), async () => ({ status: 204 }));
    q.hear({ ready: true, v: SENDER_PROTOCOL });
    const ctl = new AbortController();
    const lone = watch([other.fetch('http://c/2', { ...init, signal: ctl.signal })]);
    ctl.abort();
    await tick(SENDER_GONE_MS);
    expect(lone).toEqual(['rejected: the sender did not answer']);
  });
});

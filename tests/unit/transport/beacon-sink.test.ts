/**
 * The worker's end of the transport (beacon-sink.ts): deliveries reported once per page and task,
 * the sender asked for at the tenth beacon, and the sink itself in Node, where there is no
 * IndexedDB (its queue keeps beacons in memory), with a sender port the test drives.
 *
 * Mutants left Survived:
 * - `latestDelivered`: `!latest.size` → true (a second timer finds nothing left to report); the
 *   `''` that stands for "no page" → another text (any one key does).
 * - `resume()`: its block → `{}` and `q.resumePending()` → undefined. Not equivalent, but in Node the
 *   sink's queue has no store to resume from; only a browser (IndexedDB) can tell, and
 *   tests/browser/transport-idb.test.ts resumes through the queue itself.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestEffect } from '../../../src/protocol.ts';
import { createBeaconSink, latestDelivered } from '../../../src/worker-engine/transport/beacon-sink.ts';
import { SENDER_AFTER_BEACONS, SENDER_GONE_MS, SENDER_PROTOCOL } from '../../../src/worker-engine/transport/sender.ts';
import { MEMORY_FALLBACK_MESSAGE } from '../../../src/worker-engine/transport/store.ts';
import { asPort, port, type FakePort } from './fake-port.ts';

describe('latestDelivered', () => {
  it("reports one delivery per page and task, the latest round trip (a run's answers arrive together; the engine keeps only the last, its lrt)", async () => {
    const latest = latestDelivered();
    const calls: string[] = [];
    let seen!: () => void;
    const b = new Promise<void>((r) => (seen = r));
    const a = (n: number) => latest('page-a', (ms) => calls.push(`a${n}:${ms}`));
    a(1)(11);
    a(2)(12);
    a(3)(13);
    latest('orphan-b', (ms) => (calls.push(`b:${ms}`), seen()))(20);
    expect(calls).toEqual([]);
    await b;
    expect(calls).toEqual(['a3:13', 'b:20']);
    // A delivery in a later task is reported too.
    let again!: () => void;
    const later = new Promise<void>((r) => (again = r));
    latest('page-a', (ms) => (calls.push(`a4:${ms}`), again()))(14);
    await later;
    expect(calls).toEqual(['a3:13', 'b:20', 'a4:14']);
  });
});

describe('the beacon sink asks for the sender', () => {
  const beacon = (n: number): RequestEffect => ({ type: 'request', id: `b${n}`, kind: 'beacon', method: 'GET', url: `data:,${n}`, credentials: 'omit', fireAndForget: true });

  it(`once, at the page's ${SENDER_AFTER_BEACONS}th beacon (a page that sends fewer never starts it); not when the page handed one over at init`, () => {
    let asked = 0;
    const sink = createBeaconSink(() => {}, undefined, undefined, () => asked++);
    for (let n = 1; n < SENDER_AFTER_BEACONS; n++) sink.send(beacon(n));
    expect(asked).toBe(0);
    sink.send(beacon(SENDER_AFTER_BEACONS));
    expect(asked).toBe(1);
    for (let n = 0; n < 5; n++) sink.send(beacon(100 + n));
    expect(asked).toBe(1);
    const given = new MessageChannel();
    let again = 0;
    const withSender = createBeaconSink(() => {}, undefined, given.port2, () => again++);
    for (let n = 1; n <= SENDER_AFTER_BEACONS; n++) withSender.send(beacon(n));
    expect(again).toBe(0);
    given.port1.close();
    given.port2.close();
  });
});

describe('the beacon sink in a worker without IndexedDB, with the sender', () => {
  const beacon = (url: string, over: Partial<RequestEffect> = {}): RequestEffect => ({ type: 'request', id: url, kind: 'beacon', method: 'GET', url, credentials: 'omit', fireAndForget: true, ...over });
  const tick = (ms = 0) => vi.advanceTimersByTimeAsync(ms);
  /** Runs the timers due and what they settle until the sender has `n` messages. */
  const sent = async (p: FakePort, n: number) => {
    for (let i = 0; i < 100 && p.sent.length < n; i++) await tick(0);
    expect(p.sent).toHaveLength(n);
  };
  function world() {
    const logs: string[] = [];
    const feed: Array<[string, unknown]> = [];
    const p = port();
    const sink = createBeaconSink((m) => logs.push(m), (n, d) => feed.push([n, d]), asPort(p));
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    return { sink, p, logs, feed };
  }
  const g = globalThis as { addEventListener?: unknown };
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
  });
  afterEach(() => {
    vi.useRealTimers();
    delete g.addEventListener;
  });

  it('says the beacons are kept in memory; sends each through the sender with its request, and reports its delivery with the round trip', async () => {
    const { sink, p, logs, feed } = world();
    expect(feed).toEqual([['sender', { shared: true }]]);
    const rtts: number[] = [];
    sink.send(beacon('data:,1', { method: 'POST', body: 'a=1', headers: { 'Content-Type': 'text/plain' } }), (ms) => rtts.push(ms));
    await sent(p, 1);
    expect(logs).toEqual([`${MEMORY_FALLBACK_MESSAGE} (no indexedDB in this context).`]);
    expect(p.sent).toEqual([{ id: 1, url: 'data:,1', init: { method: 'POST', body: 'a=1', headers: { 'Content-Type': 'text/plain' }, credentials: 'include', keepalive: true } }]);
    await tick(30);
    p.hear({ answers: [{ id: 1, status: 204 }] });
    await tick(1);
    expect(rtts).toEqual([30]);
    expect(await sink.committed('pg')).toBe(0);
  });

  it("a page's beacon sent and committed in one go is released by that commit (sends start at once once the queue is open)", async () => {
    const { sink, p } = world();
    await sink.queue;
    sink.send(beacon('data:,2'), undefined, 'pg');
    let done = false;
    void sink.commit('pg', 1).then(() => (done = true));
    await sent(p, 1);
    expect(p.sent[0]).toMatchObject({ id: 1, url: 'data:,2' });
    expect(done).toBe(false);
    p.hear({ answers: [{ id: 1, status: 204 }] });
    await tick(50);
    expect(done).toBe(true);
  });

  it('back online, a beacon waiting out its back-off is retried at once', async () => {
    const online: Array<() => void> = [];
    g.addEventListener = (type: string, f: () => void) => type === 'online' && online.push(f);
    const { sink, p } = world();
    expect(online).toHaveLength(1);
    sink.send(beacon('data:,3'));
    await sent(p, 1);
    p.hear({ answers: [{ id: 1, error: 'offline' }] });
    await tick(100);
    expect(p.sent).toHaveLength(1);
    online[0]!();
    await sent(p, 2);
    expect(p.sent[1]).toMatchObject({ id: 2, url: 'data:,3' });
    sink.resume();
    await tick(10);
  });

  it('a sender that stops answering is reported gone to the devtools', async () => {
    const { sink, p, feed } = world();
    sink.send(beacon('data:,4'));
    await sent(p, 1);
    // The queue's request timeout aborts it; the sender does not answer the abort.
    await tick(5_000);
    expect(p.sent[1]).toEqual({ id: 1, abort: true });
    await tick(SENDER_GONE_MS);
    expect(feed).toEqual([['sender', { shared: true }], ['sender', { shared: false }]]);
  });

  it("a run's answers that come back together are reported once per page, the latest", async () => {
    const { sink, p } = world();
    await sink.queue;
    const reports: string[] = [];
    for (const [name, page] of [['a1', 'A'], ['a2', 'A'], ['b1', 'B']] as const) sink.send(beacon(`data:,${name}`), (ms) => reports.push(`${name} ${ms}`), page);
    void sink.commit('A', 1);
    void sink.commit('B', 1);
    await sent(p, 1);
    expect(p.sent[0]).toMatchObject({ run: 'first', reqs: [{ id: 1, url: 'data:,a1' }, { id: 2, url: 'data:,a2' }, { id: 3, url: 'data:,b1' }] });
    p.hear({ answers: [{ id: 1, status: 204, ms: 5 }, { id: 2, status: 204, ms: 6 }, { id: 3, status: 204, ms: 7 }] });
    await tick(1);
    expect(reports).toEqual(['a2 6', 'b1 7']);
  });

  it('a beacon sent and committed before the queue opened is sent once it did', async () => {
    const p = port();
    const sink = createBeaconSink(() => {}, undefined, asPort(p));
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    sink.send(beacon('data:,6'), undefined, 'pg');
    void sink.commit('pg', 1);
    await sent(p, 1);
    expect(p.sent[0]).toMatchObject({ id: 1, url: 'data:,6' });
  });

  it('a sender handed over later is used from its "ready" on; without a devtools feed, its coming and going are simply not reported', async () => {
    const sink = createBeaconSink(() => {});
    const p = port();
    sink.sender(asPort(p));
    p.hear({ ready: true, v: SENDER_PROTOCOL });
    sink.send(beacon('data:,5'));
    await sent(p, 1);
    expect(p.sent[0]).toMatchObject({ id: 1, url: 'data:,5' });
    await tick(5_000);
    await tick(SENDER_GONE_MS);
    expect(p.sent[1]).toEqual({ id: 1, abort: true });
  });

  it('without a sender the worker fetches the beacon itself', async () => {
    vi.useRealTimers();
    const sink = createBeaconSink(() => {});
    const rtt = await new Promise<number>((r) => sink.send(beacon('data:,7'), r));
    expect(rtt).toBeGreaterThanOrEqual(0);
  });

  it('a beacon is in the queue as soon as it is sent once the queue is open; a failed one is retried after its back-off', async () => {
    const { sink, p } = world();
    const q = await sink.queue;
    sink.send(beacon('data:,8'));
    expect(q.size).toBe(1);
    await sent(p, 1);
    p.hear({ answers: [{ id: 1, error: 'offline' }] });
    await tick(999);
    expect(p.sent).toHaveLength(1);
    await tick(1);
    await sent(p, 2);
    expect(p.sent[1]).toMatchObject({ id: 2, url: 'data:,8' });
  });
});

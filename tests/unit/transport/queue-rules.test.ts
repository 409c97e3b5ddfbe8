/**
 * The beacon queue's rules one by one (queue.ts and its parts), on a clock, a network, back-off
 * waits and a store the test drives itself: the store writer's grouping timer and the request
 * timeout run on fake timers, every request waits until the test answers it, every back-off
 * until the test ends it. Nothing here waits for real time (queue.test.ts runs the same queue
 * against the collector).
 *
 * Mutants no test can tell apart (left Survived on purpose):
 * - queue.ts `resumePending`: `.sort()` of the stored keys: each adopted beacon goes into the line
 *   in key order (`insert`), and the pump starts only after the last one, whatever the order read;
 *   `let keys = []` and the `[]` read without a store → `["Stryker was here"]`: a key without the
 *   `beacon:` or `ack:` prefix is neither resumed nor pruned. `enqueue`: `if (delivered)` → true
 *   (an undefined listener is only ever called with `?.`).
 * - queue-run.ts `if (!held.has(key)) continue` → false: a beacon handed in a run is only forgotten
 *   by its own answer (`renewClaims` and `stepAside` never touch a beacon that is in a run).
 * - queue-state.ts `insert`: `i < work.length` → true / `<=` and `work[i] < key` → `<=`: past the end
 *   the comparison with undefined is false, and an equal key returned earlier (`includes`).
 *   `pumpSoon`'s guard (`q.pumpAsked` → false, its `= true` → false): a second pump in the same turn
 *   finds the loop running and every beacon in line handed (`extendRun` hands nothing). The state's
 *   placeholder `pump` → `() => undefined`: `createBeaconQueue` replaces it before any use.
 * - queue-commit.ts `committed`: `r?.seq` → `r.seq`: the TypeError on a missing marker is caught, 0 too.
 * - queue-claims.ts `renewClaims`: `!mine` → false: every key renewed is the head or in line, all held.
 * - queue-delivery.ts `settle`: `q.running && q.work.some((k) => k !== key)` → `||`, and `k !== key` →
 *   true / `k === key`: what changes is only when a delivered beacon's delete goes, at once or with the
 *   line's others at its end (`pump` releases them as it stops), never what is deleted.
 * - queue-writer.ts: `lastFlush = -Infinity` → `+Infinity` (an endless timer runs at the next ms in
 *   Node, at once under fake timers: the first transaction a ms later); the store call's
 *   `finally { clearTimeout }` → `{}` (its timer then rejects a race already over); `p.length ||
 *   d.length` → true: nothing starts a flush with nothing to write (`release` returns first).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { beaconKey, createBeaconQueue, type BeaconFetchInit, type BeaconQueueOptions, type ChainRequest, type ChainResult } from '../../../src/worker-engine/transport/queue.ts';
import { ACK_MAX_AGE_MS, DELETES_WAIT_MAX, GIVE_UP_AFTER, RUN_MAX, STEP_ASIDE_AFTER, STORE_GROUP_MS } from '../../../src/worker-engine/transport/queue-policy.ts';
import { createQueueState } from '../../../src/worker-engine/transport/queue-state.ts';
import { pruneMarkers } from '../../../src/worker-engine/transport/queue-commit.ts';
import { createStoreWriter } from '../../../src/worker-engine/transport/queue-writer.ts';
import { memoryStore, type BeaconStore, type StoredBeacon } from '../../../src/worker-engine/transport/store.ts';

const T = 1_000_000;

interface Req {
  url: string;
  init: BeaconFetchInit;
  answer(status: number): void;
  fail(e: unknown): void;
}

/**
 * A queue named 'me' whose requests (`reqs`) and back-off waits (`sleeps`) wait for the test,
 * unless `respond` answers a request at once; `txns` lists the store's transactions.
 */
function world(over: Partial<BeaconQueueOptions> = {}, opts: { wrap?: (s: BeaconStore) => BeaconStore; respond?: (url: string) => number | undefined } = {}) {
  const base = memoryStore();
  const w = {
    clock: T,
    base,
    logs: [] as string[],
    feed: [] as Array<[string, unknown]>,
    reqs: [] as Req[],
    sleeps: [] as Array<{ ms: number; wake(): void }>,
    txns: [] as Array<{ puts: string[]; dels: string[] }>,
  };
  const recording: BeaconStore = {
    ...base,
    setMany: (e, d = []) => (w.txns.push({ puts: e.map(([k]) => k), dels: [...d] }), base.setMany(e, d)),
  };
  const q = createBeaconQueue({
    store: opts.wrap ? opts.wrap(recording) : recording,
    owner: 'me',
    fetch: (url, init) =>
      new Promise((resolve, reject) => {
        const status = opts.respond?.(url);
        if (status !== undefined) return resolve({ status });
        w.reqs.push({ url, init, answer: (s) => resolve({ status: s }), fail: reject });
      }),
    now: () => w.clock,
    sleep: (ms) => new Promise<void>((wake) => w.sleeps.push({ ms, wake })),
    log: (m) => w.logs.push(m),
    monitor: (n, d) => w.feed.push([n, d]),
    ...over,
  });
  return Object.assign(w, { q });
}

/** Lets the store writer's grouping timers and everything waiting on them run. */
async function drain(rounds = 6): Promise<void> {
  for (let i = 0; i < rounds; i++) await vi.advanceTimersByTimeAsync(STORE_GROUP_MS);
}
/** Queues a beacon and lets its write go. */
async function enq(w: ReturnType<typeof world>, url: string, delivered?: (ms: number) => void, page?: string): Promise<string> {
  const id = w.q.enqueue({ method: 'GET', url }, delivered, page);
  await drain();
  return id;
}
/** `idle()`, with the timers run until it resolves. */
async function idle(w: ReturnType<typeof world>): Promise<void> {
  let done = false;
  const p = w.q.idle().then(() => (done = true));
  for (let i = 0; i < 50 && !done; i++) await drain(1);
  expect(done).toBe(true);
  await p;
}
const stored = (w: ReturnType<typeof world>, id: string) => w.base.get(id) as Promise<StoredBeacon | undefined>;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('what is stored, and when it leaves', () => {
  it('a beacon is stored under its key (time, counter, owner) with its request, no attempts, and a claim of a request timeout plus a lease; then sent', async () => {
    expect(beaconKey(35, 36, 'o')).toBe('beacon:000000000z:000010:o');
    const w = world();
    const id = w.q.enqueue({ method: 'POST', url: 'http://c/b', body: 'a=1', headers: { 'Content-Type': 'text/plain' } });
    const id2 = w.q.enqueue({ method: 'GET', url: 'http://c/c' });
    await drain();
    expect(await id).toBe('beacon:000000lfls:000000:me');
    expect(await id2).toBe(beaconKey(T, 1, 'me'));
    expect(w.txns).toEqual([{ puts: [await id, await id2], dels: [] }]);
    expect(await stored(w, await id)).toEqual({
      id: await id,
      method: 'POST',
      url: 'http://c/b',
      body: 'a=1',
      headers: { 'Content-Type': 'text/plain' },
      createdAt: T,
      attempts: 0,
      owner: 'me',
      leaseUntil: T + 5_000 + 5_000,
    });
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/b']);
    expect(w.reqs[0]!.init).toEqual({ method: 'POST', body: 'a=1', headers: { 'Content-Type': 'text/plain' }, credentials: 'include', keepalive: true, signal: expect.any(AbortSignal) });
    expect(w.q.size).toBe(2);
    expect(w.q.durable).toBe(true);
  });

  it('the claim follows the timings given (request timeout, lease)', async () => {
    const w = world({ requestTimeoutMs: 300, leaseMs: 700 });
    const id = await enq(w, 'http://c/1');
    expect((await stored(w, id))!.leaseUntil).toBe(T + 1_000);
  });

  it('a queue without a name is named q, its start time and eight random characters', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0.123456789);
    const w = world({ owner: undefined });
    const id = await enq(w, 'http://c/1');
    expect(id).toBe('beacon:000000lfls:000000:qlfls4fzzzxjy');
    expect((await stored(w, id))!.owner).toBe('qlfls4fzzzxjy');
  });

  it('a failed send is said once, stored with its attempts and a claim past its back-off, retried after a back-off that doubles; the delivery reports its round trip and says how many attempts it took', async () => {
    const w = world();
    const rtts: number[] = [];
    const id = await enq(w, 'http://c/1', (ms) => rtts.push(ms));
    w.clock += 50;
    w.reqs[0]!.fail(new Error('offline'));
    await drain();
    expect(w.logs).toEqual(['Analytics beacon not delivered (offline); it stays queued and is retried with back-off.']);
    const first = (await stored(w, id))!;
    expect(first).toMatchObject({ attempts: 1, leaseUntil: T + 50 + 1_000 + 10_000 });
    expect(first).not.toHaveProperty('answered');
    expect(w.sleeps.map((s) => s.ms)).toEqual([1_000]);
    expect(w.q.size).toBe(1);
    w.sleeps[0]!.wake();
    await drain();
    expect(w.reqs).toHaveLength(2);
    w.reqs[1]!.answer(503);
    await drain();
    expect(await stored(w, id)).toMatchObject({ attempts: 2, answered: 1, leaseUntil: T + 50 + 2_000 + 10_000 });
    expect(w.sleeps.map((s) => s.ms)).toEqual([1_000, 2_000]);
    expect(w.logs).toHaveLength(1);
    w.sleeps[1]!.wake();
    await drain();
    w.clock += 42;
    w.reqs[2]!.answer(204);
    await idle(w);
    expect(rtts).toEqual([42]);
    expect(w.logs).toEqual(['Analytics beacon not delivered (offline); it stays queued and is retried with back-off.', 'Analytics beacon delivered after 3 attempts.']);
    expect(await w.base.keys()).toEqual([]);
    expect(w.q.size).toBe(0);
  });

  it('the back-off starts at a second and stops doubling at 30 s by default; at the timings given otherwise', async () => {
    for (const [over, waits] of [
      [{}, [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000]],
      [{ baseDelayMs: 10, maxDelayMs: 25 }, [10, 20, 25, 25, 25, 25, 25]],
    ] as const) {
      const w = world(over);
      await enq(w, 'http://c/1');
      for (let n = 0; n < 7; n++) {
        w.reqs[n]!.fail(n % 2 ? 'refused' : new TypeError('fetch failed'));
        await drain();
        w.sleeps[n]!.wake();
        await drain();
      }
      expect(w.sleeps.map((s) => s.ms)).toEqual(waits);
      // Network errors never count as refusals: the beacon stays at the head, and is said once.
      expect(w.feed).toEqual([]);
      expect(w.logs).toEqual(['Analytics beacon not delivered (fetch failed); it stays queued and is retried with back-off.']);
    }
  });

  it('a failure that is not an Error is said as its text; a refusal by its status', async () => {
    const w = world();
    await enq(w, 'http://c/1');
    w.reqs[0]!.fail('offline');
    const v = world();
    await enq(v, 'http://c/1');
    v.reqs[0]!.answer(500);
    await drain();
    expect(w.logs).toEqual(['Analytics beacon not delivered (offline); it stays queued and is retried with back-off.']);
    expect(v.logs).toEqual(['Analytics beacon not delivered (HTTP 500); it stays queued and is retried with back-off.']);
  });

  it('a 2xx answer is a delivery (its round trip reported); 1xx, 3xx and 4xx end the beacon without one; 408 and 429 are retried', async () => {
    const outcome: Record<number, string> = {};
    for (const status of [199, 200, 299, 300, 404, 408, 429]) {
      const w = world();
      const rtts: number[] = [];
      await enq(w, 'http://c/1', (ms) => rtts.push(ms));
      w.clock += 9;
      w.reqs[0]!.answer(status);
      await drain();
      outcome[status] = `${rtts.join()}|${w.sleeps.length ? 'retried' : 'ended'}|${w.logs.length}`;
    }
    expect(outcome).toEqual({ 199: '|ended|0', 200: '9|ended|0', 299: '9|ended|0', 300: '|ended|0', 404: '|ended|0', 408: '|retried|1', 429: '|retried|1' });
  });

  it('a request with no answer within the request timeout (5 s by default) is aborted and counts as failed', async () => {
    for (const [over, ms] of [[{}, 5_000], [{ requestTimeoutMs: 300 }, 300]] as const) {
      const w = world(over);
      await enq(w, 'http://c/1');
      await vi.advanceTimersByTimeAsync(ms - 60);
      expect(w.logs).toEqual([]);
      expect(w.reqs[0]!.init.signal!.aborted).toBe(false);
      await vi.advanceTimersByTimeAsync(20);
      expect(w.logs).toEqual(['Analytics beacon not delivered (timeout); it stays queued and is retried with back-off.']);
      expect(w.reqs[0]!.init.signal!.aborted).toBe(true);
    }
  });

  it('a network error is not a timeout: the request is not aborted', async () => {
    const w = world();
    await enq(w, 'http://c/1');
    w.reqs[0]!.fail(new Error('timeout'));
    await drain();
    expect(w.reqs[0]!.init.signal!.aborted).toBe(true);
    const v = world();
    await enq(v, 'http://c/1');
    v.reqs[0]!.fail(new Error('offline'));
    await drain();
    expect(v.reqs[0]!.init.signal!.aborted).toBe(false);
  });

  it('idle waits for the store to catch up with the delivered beacon\'s delete; retryNow with nothing waiting does nothing', async () => {
    const w = world();
    const id = await enq(w, 'http://c/1');
    w.q.retryNow();
    w.reqs[0]!.answer(204);
    let done = false;
    void w.q.idle().then(() => (done = true));
    await Promise.resolve();
    await Promise.resolve();
    expect(done).toBe(false);
    await drain();
    expect(done).toBe(true);
    expect(w.txns.at(-1)).toEqual({ puts: [], dels: [id] });
  });
});

describe('the store fails', () => {
  it('a store that does not answer within 3 s (by default) fails, said once with the one beacon at risk; the beacon is still sent', async () => {
    const w = world({}, { wrap: (s) => ({ ...s, setMany: () => new Promise(() => {}) }) });
    void w.q.enqueue({ method: 'GET', url: 'http://c/1' });
    await vi.advanceTimersByTimeAsync(2_950);
    expect(w.logs).toEqual([]);
    expect(w.q.durable).toBe(true);
    await vi.advanceTimersByTimeAsync(100);
    expect(w.logs).toEqual([
      'Beacon queue: IndexedDB failed (no answer within 3 s). 1 analytics beacon is now kept in memory only, with every later one: they are still sent while this page stays open, and lost if it closes before they are.',
    ]);
    expect(w.q.durable).toBe(false);
    await drain();
    expect(w.reqs).toHaveLength(1);
  });

  it('a failure that is not an Error is said as its text', async () => {
    const w = world({}, { wrap: (s) => ({ ...s, setMany: () => Promise.reject('quota') }) });
    await enq(w, 'http://c/1');
    await enq(w, 'http://c/2');
    expect(w.logs).toEqual([
      'Beacon queue: IndexedDB failed (quota). 1 analytics beacon is now kept in memory only, with every later one: they are still sent while this page stays open, and lost if it closes before they are.',
    ]);
  });

  it('the writer: says a failure once; runs nothing once the store failed; a write resolves with whether its transaction committed', async () => {
    const logs: string[] = [];
    const base = memoryStore();
    let broken = false;
    const store: BeaconStore = { ...base, setMany: (e, d) => (broken ? Promise.reject(new Error('gone')) : base.setMany(e, d)) };
    const writer = createStoreWriter({ store, durable: true, timeoutMs: 1_000, log: (m) => logs.push(m), holding: () => 2 });
    const ok = writer.write('a', 1);
    await drain();
    expect(await ok).toBe(true);
    broken = true;
    const failed = writer.write('b', 2);
    await drain();
    expect(await failed).toBe(false);
    writer.failed(new Error('again'));
    expect(logs).toEqual([
      'Beacon queue: IndexedDB failed (gone). 2 analytics beacons are now kept in memory only, with every later one: they are still sent while this page stays open, and lost if it closes before they are.',
    ]);
    let ran = false;
    const r = writer.run(async () => void (ran = true));
    await drain();
    expect(await r).toBe(false);
    expect(ran).toBe(false);
    expect(await base.keys()).toEqual(['a']);
  });

  it(`the writer: the first transaction starts at once, the next at most every ${STORE_GROUP_MS} ms after it; staged values wait for a write`, async () => {
    const base = memoryStore();
    const txns: string[][] = [];
    const store: BeaconStore = { ...base, setMany: (e, d = []) => (txns.push([...e.map(([k]) => k), ...d.map((k) => `-${k}`)]), base.setMany(e, d)) };
    const writer = createStoreWriter({ store, durable: true, timeoutMs: 1_000, log: () => {}, holding: () => 0 });
    writer.stage('s', 0);
    await vi.advanceTimersByTimeAsync(50);
    expect(txns).toEqual([]);
    void writer.write('a', 1);
    await vi.advanceTimersByTimeAsync(0);
    expect(txns).toEqual([['s', 'a']]);
    await vi.advanceTimersByTimeAsync(1);
    void writer.write('b', 2);
    writer.remove('s');
    await vi.advanceTimersByTimeAsync(STORE_GROUP_MS - 2);
    expect(txns).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(txns).toEqual([['s', 'a'], ['b', '-s']]);
    // Long after the last one, a transaction starts at once again.
    await vi.advanceTimersByTimeAsync(100);
    void writer.write('c', 3);
    await vi.advanceTimersByTimeAsync(0);
    expect(txns).toHaveLength(3);
    // Nothing held back: release starts no transaction.
    writer.release();
    await vi.advanceTimersByTimeAsync(100);
    expect(txns).toHaveLength(3);
    await writer.caughtUp();
    expect(await base.keys()).toEqual(['a', 'b', 'c']);
  });

  it(`the writer: deletes held back go with the next transaction once released, or by themselves once ${DELETES_WAIT_MAX} wait`, async () => {
    const base = memoryStore();
    const txns: number[] = [];
    const store: BeaconStore = { ...base, setMany: (e, d = []) => (txns.push(d.length), base.setMany(e, d)) };
    const writer = createStoreWriter({ store, durable: true, timeoutMs: 1_000, log: () => {}, holding: () => 0 });
    for (let n = 1; n < DELETES_WAIT_MAX; n++) writer.removeLater(`k${n}`);
    await drain();
    expect(txns).toEqual([]);
    writer.removeLater('last');
    await drain();
    expect(txns).toEqual([DELETES_WAIT_MAX]);
    writer.removeLater('again');
    await drain();
    expect(txns).toEqual([DELETES_WAIT_MAX]);
    writer.release();
    await drain();
    expect(txns).toEqual([DELETES_WAIT_MAX, 1]);
  });
});

describe('a page\'s beacons and its marker', () => {
  it('the marker holds the seq and when; the page\'s beacons are stored with it, their claims taken from the commit; until then they count but are not stored', async () => {
    const w = world();
    const a = await enq(w, 'http://c/a', undefined, 'pg');
    const b = await enq(w, 'http://c/b', undefined, 'pg');
    expect(w.q.size).toBe(2);
    expect(w.txns).toEqual([]);
    expect(w.reqs).toEqual([]);
    w.clock += 4_000;
    const c = w.q.commit('pg', 7);
    await drain();
    await c;
    expect(w.txns).toEqual([{ puts: [a, b, 'ack:pg'], dels: [] }]);
    expect(await w.base.get('ack:pg')).toEqual({ seq: 7, at: T + 4_000 });
    expect((await stored(w, a))!.leaseUntil).toBe(T + 4_000 + 10_000);
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/a']);
    expect(w.q.size).toBe(2);
    expect(await w.q.committed('pg')).toBe(7);
    expect(await w.q.committed('other')).toBe(0);
  });

  it('committed is 0 without a store (never read), and when the store cannot be read', async () => {
    let reads = 0;
    const m = world({ durable: false }, { wrap: (s) => ({ ...s, get: (k) => (reads++, s.get(k)) }) });
    expect(await m.q.committed('pg')).toBe(0);
    expect(reads).toBe(0);
    const w = world({}, { wrap: (s) => ({ ...s, get: () => Promise.reject(new Error('gone')) }) });
    expect(await w.q.committed('pg')).toBe(0);
  });

  it('without a store, a commit resolves once every beacon queued before it was delivered, not waiting for another page\'s parked ones', async () => {
    const w = world({ durable: false });
    await enq(w, 'http://c/parked', undefined, 'other');
    await enq(w, 'http://c/x');
    await enq(w, 'http://c/y');
    let done = false;
    void w.q.commit('pg', 1).then(() => (done = true));
    await drain();
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/x']);
    w.reqs[0]!.answer(204);
    await drain();
    expect(done).toBe(false);
    w.reqs[1]!.answer(204);
    await drain(10);
    expect(done).toBe(true);
    expect(w.q.size).toBe(1);
    expect(w.txns).toEqual([]);
  });
});

describe('beacons earlier pages left', () => {
  it('resumes only stored beacons it does not hold; reads nothing without a store', async () => {
    const w = world();
    await enq(w, 'http://c/mine');
    await w.base.setMany([['note:beacon:x', { id: 'note:beacon:x' }]]);
    const r = w.q.resumePending();
    await drain();
    expect(await r).toBe(0);
    expect(w.reqs).toHaveLength(1);
    let keys = 0;
    const m = world({ durable: false }, { wrap: (s) => ({ ...s, keys: () => (keys++, s.keys()) }) });
    expect(await m.q.resumePending()).toBe(0);
    expect(keys).toBe(0);
  });

  it('a store that cannot list its keys, or claim one, fails: said once, nothing resumed', async () => {
    const w = world({}, { wrap: (s) => ({ ...s, keys: () => Promise.reject(new Error('closed')) }) });
    expect(await w.q.resumePending()).toBe(0);
    expect(w.q.durable).toBe(false);
    expect(w.logs).toEqual([
      'Beacon queue: IndexedDB failed (closed). 0 analytics beacons are now kept in memory only, with every later one: they are still sent while this page stays open, and lost if it closes before they are.',
    ]);
    const v = world({}, { wrap: (s) => ({ ...s, claim: () => Promise.reject(new Error('locked')) }) });
    await v.base.setMany([[beaconKey(1, 0, 'dead'), { id: beaconKey(1, 0, 'dead'), method: 'GET', url: 'http://c/d', createdAt: 1, attempts: 0, owner: 'dead', leaseUntil: 0 }]]);
    expect(await v.q.resumePending()).toBe(0);
    expect(v.q.durable).toBe(false);
    expect(v.logs[0]).toContain('IndexedDB failed (locked)');
  });

  it('a beacon a live page holds is looked at again one ms after its claim ends; idle waits for that', async () => {
    const w = world();
    const k = beaconKey(1, 0, 'live');
    await w.base.setMany([[k, { id: k, method: 'GET', url: 'http://c/live', createdAt: 1, attempts: 0, owner: 'live', leaseUntil: T + 2_500 }]]);
    expect(await w.q.resumePending()).toBe(0);
    expect(w.sleeps.map((s) => s.ms)).toEqual([2_501]);
    expect(w.q.size).toBe(0);
    let done = false;
    void w.q.idle().then(() => (done = true));
    // Still held when looked at again: another wait.
    w.sleeps[0]!.wake();
    await drain();
    expect(w.sleeps.map((s) => s.ms)).toEqual([2_501, 2_501]);
    expect(done).toBe(false);
    w.clock += 3_000;
    w.sleeps[1]!.wake();
    await drain();
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/live']);
    expect((await stored(w, k))!.owner).toBe('me');
    w.reqs[0]!.answer(204);
    await drain();
    expect(done).toBe(true);
  });

  it('markers older than a week (or unreadable) are deleted at start, read in one call, or one get each when the store has no getMany; a store that cannot read them loses them all', async () => {
    const now = 30 * 24 * 3600_000;
    expect(ACK_MAX_AGE_MS).toBe(604_800_000);
    const fill = async (s: BeaconStore) =>
      s.setMany([
        ['ack:edge', { seq: 1, at: now - ACK_MAX_AGE_MS }],
        ['ack:old', { seq: 2, at: now - ACK_MAX_AGE_MS - 1 }],
        ['ack:none', undefined],
        ['beacon:x', { id: 'beacon:x' }],
      ]);
    const prune = async (s: BeaconStore) => {
      const q = createQueueState({ store: s, fetch: async () => ({ status: 204 }), now: () => now, sleep: async () => {}, log: () => {} });
      await pruneMarkers(q, await s.keys());
      await drain();
      await q.writer.caughtUp();
      return s.keys();
    };
    const a = memoryStore();
    await fill(a);
    let gets = 0;
    const { getMany: _, ...noGetMany } = a;
    expect(await prune({ ...noGetMany, get: (k) => (gets++, a.get(k)) })).toEqual(['ack:edge', 'beacon:x']);
    expect(gets).toBe(3);
    const b = memoryStore();
    await fill(b);
    expect(await prune({ ...b, getMany: () => Promise.reject(new Error('gone')) })).toEqual(['beacon:x']);
    // No marker: nothing read.
    let reads = 0;
    const c = memoryStore();
    await c.setMany([['beacon:y', {}]]);
    expect(await prune({ ...c, getMany: (ks) => (reads++, c.getMany!(ks)), get: (k) => (reads++, c.get(k)) })).toEqual(['beacon:y']);
    expect(reads).toBe(0);
  });
});

describe('claims renewed before a send', () => {
  /** b1 sent at T and held; b2 queued at T, b3 at T+8 s, b4 at T+46 s; b1 answered at T+40 s. */
  async function line(change?: (w: ReturnType<typeof world>, keys: string[]) => Promise<void>, wrap?: (s: BeaconStore) => BeaconStore) {
    const calls: Array<{ keys: string[]; now: number; leaseUntil: number }> = [];
    const w = world({}, {
      wrap: (s) => {
        const inner = wrap ? wrap(s) : s;
        return { ...inner, claimMany: (keys, owner, now, leaseUntil) => (calls.push({ keys, now, leaseUntil }), inner.claimMany(keys, owner, now, leaseUntil)) };
      },
    });
    const keys = [await enq(w, 'http://c/1'), await enq(w, 'http://c/2')];
    w.clock = T + 8_000;
    keys.push(await enq(w, 'http://c/3'));
    w.clock = T + 46_000;
    keys.push(await enq(w, 'http://c/4'));
    w.clock = T + 40_000;
    await change?.(w, keys);
    w.reqs[0]!.answer(204);
    await drain();
    return { w, calls, keys };
  }

  it('the head\'s claim, run short, is renewed with those in line that run out within 10 s more, in one transaction', async () => {
    const { w, calls, keys } = await line();
    // b4's claim ends exactly at the limit (T+56 s): not renewed.
    expect(calls).toEqual([{ keys: [keys[1], keys[2]], now: T + 40_000, leaseUntil: T + 50_000 }]);
    expect((await stored(w, keys[2]!))!.leaseUntil).toBe(T + 50_000);
    for (let n = 1; n < 4; n++) {
      expect(w.reqs.map((r) => r.url)).toHaveLength(n + 1);
      w.reqs[n]!.answer(204);
      await drain();
    }
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/1', 'http://c/2', 'http://c/3', 'http://c/4']);
    expect(calls).toHaveLength(1);
  });

  it('a head another page took and delivered meanwhile is not sent; nor is one in line; one another page holds is looked at when its claim ends', async () => {
    const { w } = await line(async (v, keys) => {
      await v.base.delMany([keys[1]!]);
      await v.base.claim(keys[2]!, 'other', v.clock, v.clock + 3_000);
    });
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/1', 'http://c/4']);
    expect(w.sleeps.map((s) => s.ms)).toEqual([3_001]);
    expect(w.q.size).toBe(1);
    const { w: v } = await line(async (x, keys) => void (await x.base.delMany([keys[2]!])));
    expect(v.reqs.map((r) => r.url)).toEqual(['http://c/1', 'http://c/2']);
    v.reqs[1]!.answer(204);
    await drain();
    expect(v.reqs.map((r) => r.url)).toEqual(['http://c/1', 'http://c/2', 'http://c/4']);
  });

  it('a store that fails the renewal: said, and the beacon is sent from memory', async () => {
    const { w } = await line(undefined, (s) => ({ ...s, claimMany: () => Promise.reject(new Error('gone')) }));
    expect(w.logs[0]).toContain('IndexedDB failed (gone). 3 analytics beacons');
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/1', 'http://c/2']);
  });

  it('at most 200 claims in one renewal', async () => {
    const sizes: number[] = [];
    const w = world({}, { wrap: (s) => ({ ...s, claimMany: (keys, ...a) => (sizes.push(keys.length), s.claimMany(keys, ...a)) }), respond: (u) => (u === 'http://c/0' ? undefined : 204) });
    for (let n = 0; n < 250; n++) void w.q.enqueue({ method: 'GET', url: `http://c/${n}` });
    await drain();
    w.clock += 60_000;
    w.reqs[0]!.answer(204);
    await idle(w);
    expect(sizes).toEqual([200, 49]);
  });
});

describe('a beacon the server keeps refusing', () => {
  it(`steps aside after exactly ${STEP_ASIDE_AFTER} refusals once the next goes through, is retried alone and given up after ${GIVE_UP_AFTER}: said and fed to the devtools word for word`, async () => {
    const poisoned = 'http://c/poison';
    const tries: string[] = [];
    const w = world({ sleep: async () => {} }, { respond: (u) => (tries.push(u), u === poisoned ? 500 : 204) });
    void w.q.enqueue({ method: 'GET', url: poisoned });
    void w.q.enqueue({ method: 'GET', url: 'http://c/1' });
    void w.q.enqueue({ method: 'GET', url: 'http://c/2' });
    await idle(w);
    expect(tries.slice(0, 4)).toEqual([poisoned, poisoned, poisoned, 'http://c/1']);
    expect(tries.filter((u) => u === poisoned)).toHaveLength(GIVE_UP_AFTER);
    expect(tries.filter((u) => u !== poisoned)).toEqual(['http://c/1', 'http://c/2']);
    expect(w.logs).toEqual([
      'Analytics beacon not delivered (HTTP 500); it stays queued and is retried with back-off.',
      `Analytics beacon set aside after 3 refusals (HTTP 500) while the next one went through: the beacons after it go on; it is retried on its own and given up after 10 refusals. ${poisoned}`,
      `Analytics beacon given up after 10 refusals (HTTP 500); the server accepted the beacons after it. ${poisoned}`,
    ]);
    expect(w.feed).toEqual([
      ['beacon-set-aside', { url: poisoned, attempts: 3, answered: 3, last: 'HTTP 500' }],
      ['beacon-given-up', { url: poisoned, attempts: 10, answered: 10, last: 'HTTP 500' }],
    ]);
    expect(await w.base.keys()).toEqual([]);
  });

  it('set aside, it counts in the size and keeps idle waiting; delivered on a later try, it leaves without being given up', async () => {
    let refuse = true;
    const w = world({}, { respond: (u) => (u === 'http://c/p' ? (refuse ? 503 : 204) : 204) });
    void w.q.enqueue({ method: 'GET', url: 'http://c/p' });
    void w.q.enqueue({ method: 'GET', url: 'http://c/1' });
    await drain();
    for (let n = 0; n < 2; n++) {
      w.sleeps[n]!.wake();
      await drain();
    }
    expect(w.feed.map(([n]) => n)).toEqual(['beacon-set-aside']);
    expect(w.q.size).toBe(1);
    let done = false;
    void w.q.idle().then(() => (done = true));
    await drain();
    expect(done).toBe(false);
    expect(w.sleeps.map((s) => s.ms)).toEqual([1_000, 2_000, 4_000]);
    refuse = false;
    w.sleeps[2]!.wake();
    await drain();
    expect(done).toBe(true);
    expect(w.q.size).toBe(0);
    expect(w.feed.map(([n]) => n)).toEqual(['beacon-set-aside']);
    expect(w.logs.at(-1)).toBe('Analytics beacon delivered after 4 attempts.');
  });

  it('two refusals and network errors after them never set it aside: the next beacon waits', async () => {
    let n = 0;
    const w = world({ sleep: async () => {} }, { respond: (u) => (u === 'http://c/p' ? (n++ < 2 ? 503 : undefined) : 204) });
    void w.q.enqueue({ method: 'GET', url: 'http://c/p' });
    void w.q.enqueue({ method: 'GET', url: 'http://c/1' });
    await drain();
    for (let i = 0; i < 4; i++) {
      w.reqs.at(-1)!.fail(new Error('offline'));
      await drain();
    }
    expect(w.reqs.map((r) => r.url)).toEqual(Array(5).fill('http://c/p'));
    expect(w.feed).toEqual([]);
  });
});

describe('runs handed to the sender', () => {
  type Call = { reqs: ChainRequest[]; continues: boolean | undefined };
  /** A sender that answers with `answer` (204 by default) at once. */
  function runWorld(over: Partial<BeaconQueueOptions> = {}, answer: (url: string, n: number) => ChainResult = () => ({ status: 204 })) {
    const calls: Call[] = [];
    let n = 0;
    const w = world({
      ...over,
      chain: (reqs, continues) => (calls.push({ reqs, continues }), reqs.map((r) => Promise.resolve(answer(r.url, n++)))),
    });
    return Object.assign(w, { calls });
  }

  it('a lone beacon is sent by itself; two go as one run, each with its request, its timeout, and a start limit its claim still covers', async () => {
    const w = runWorld();
    await enq(w, 'http://c/1');
    expect(w.calls).toEqual([]);
    expect(w.reqs).toHaveLength(1);
    w.reqs[0]!.answer(204);
    await drain();
    w.clock += 1_500;
    void w.q.enqueue({ method: 'POST', url: 'http://c/2', body: 'x' });
    void w.q.enqueue({ method: 'GET', url: 'http://c/3' });
    await idle(w);
    expect(w.calls).toEqual([
      {
        reqs: [
          { url: 'http://c/2', init: { method: 'POST', body: 'x', headers: undefined, credentials: 'include', keepalive: true }, startWithinMs: 4_000, timeoutMs: 5_000 },
          { url: 'http://c/3', init: { method: 'GET', body: undefined, headers: undefined, credentials: 'include', keepalive: true }, startWithinMs: 4_000, timeoutMs: 5_000 },
        ],
        continues: false,
      },
    ]);
    const m = runWorld({ durable: false, requestTimeoutMs: 100 });
    void m.q.enqueue({ method: 'GET', url: 'http://c/1' });
    void m.q.enqueue({ method: 'GET', url: 'http://c/2' });
    await idle(m);
    expect(m.calls[0]!.reqs.map((r) => r.startWithinMs)).toEqual([RUN_MAX * 100, RUN_MAX * 100]);
  });

  it(`at most ${RUN_MAX} handed and not answered; refills once half a run is left`, async () => {
    const w = runWorld();
    for (let n = 0; n < 100; n++) void w.q.enqueue({ method: 'GET', url: `http://c/${n}` });
    await idle(w);
    expect(w.calls.map((c) => [c.reqs.length, c.continues])).toEqual([[64, false], [32, true], [4, true]]);
    expect(w.calls.flatMap((c) => c.reqs.map((r) => r.url))).toEqual(Array.from({ length: 100 }, (_, n) => `http://c/${n}`));
    expect(await w.base.keys()).toEqual([]);
  });

  it('the sender\'s own round trip is reported; a request it skipped is sent again at the head of the line; one it failed waits its back-off', async () => {
    const rtts: number[] = [];
    const w = runWorld({}, (_, n) => (n === 0 ? { status: 200, ms: 17 } : n === 1 ? { skipped: true } : { status: 503 }));
    void w.q.enqueue({ method: 'GET', url: 'http://c/1' }, (ms) => rtts.push(ms));
    void w.q.enqueue({ method: 'GET', url: 'http://c/2' });
    await drain();
    expect(rtts).toEqual([17]);
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/2']);
    expect(w.logs).toEqual([]);
    const v = runWorld({}, (_, n) => (n === 0 ? { status: 503 } : { skipped: true }));
    void v.q.enqueue({ method: 'GET', url: 'http://c/1' });
    void v.q.enqueue({ method: 'GET', url: 'http://c/2' });
    await drain();
    expect(v.sleeps.map((s) => s.ms)).toEqual([1_000]);
    expect(v.logs).toEqual(['Analytics beacon not delivered (HTTP 503); it stays queued and is retried with back-off.']);
  });
});

describe('more of the line', () => {
  it('the renewal covers exactly the beacons whose claims end within a request timeout, a second and 10 s more; it lasts a request timeout and a lease', async () => {
    const calls: string[][] = [];
    const w = world({}, { wrap: (s) => ({ ...s, claimMany: (keys, ...a) => (calls.push(keys), s.claimMany(keys, ...a)) }) });
    const keys = [await enq(w, 'http://c/1'), await enq(w, 'http://c/2')];
    for (const at of [8_000, 45_000, 46_000]) {
      w.clock = T + at;
      keys.push(await enq(w, `http://c/${at}`));
    }
    w.clock = T + 40_000;
    w.reqs[0]!.answer(204);
    await drain();
    // Claims end at T+10 s, T+18 s, T+55 s; T+56 s is the limit.
    expect(calls).toEqual([keys.slice(1, 4)]);
    for (let n = 1; n < 5; n++) {
      w.reqs[n]!.answer(204);
      await drain();
    }
    // The renewed claims hold (T+50 s): no second renewal.
    expect(calls).toHaveLength(1);
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/1', 'http://c/2', 'http://c/8000', 'http://c/45000', 'http://c/46000']);
  });

  it('a stored beacon gone by the time it is claimed is not resumed, nor looked at again', async () => {
    const w = world({}, { wrap: (s) => ({ ...s, claim: async () => ({ gone: true }) }) });
    const k = beaconKey(1, 0, 'dead');
    await w.base.setMany([[k, { id: k }]]);
    expect(await w.q.resumePending()).toBe(0);
    expect(w.sleeps).toEqual([]);
    await idle(w);
  });

  it('a lone beacon refused again and again stays at the head with its back-off: nothing to step aside for', async () => {
    let n = 0;
    const w = world({ sleep: async () => {} }, { respond: () => (n++ < 4 ? 503 : 204) });
    void w.q.enqueue({ method: 'GET', url: 'http://c/1' });
    await idle(w);
    expect(n).toBe(5);
    expect(w.feed).toEqual([]);
    expect(w.logs.at(-1)).toBe('Analytics beacon delivered after 5 attempts.');
  });

  it('without a devtools feed a poisoned beacon is still set aside, given up and deleted', async () => {
    const w = world({ sleep: async () => {}, monitor: undefined }, { respond: (u) => (u === 'http://c/p' ? 500 : 204) });
    void w.q.enqueue({ method: 'GET', url: 'http://c/p' });
    void w.q.enqueue({ method: 'GET', url: 'http://c/1' });
    await idle(w);
    expect(w.logs.filter((l) => l.startsWith('Analytics beacon given up after 10 refusals'))).toHaveLength(1);
    expect(await w.base.keys()).toEqual([]);
  });
});

describe('more of the runs', () => {
  function runWorld(answer: (url: string, n: number, w: { clock: number }) => ChainResult = () => ({ status: 204 })) {
    const calls: Array<[number, boolean | undefined]> = [];
    let n = 0;
    const w: ReturnType<typeof world> = world({
      chain: (reqs, continues) => (calls.push([reqs.length, continues]), reqs.map((r) => Promise.resolve(answer(r.url, n++, w)))),
    });
    return Object.assign(w, { calls });
  }

  it('a head whose claim ran short is renewed and sent by itself; the rest then go as a run', async () => {
    const w = runWorld();
    for (let n = 1; n <= 3; n++) void w.q.enqueue({ method: 'GET', url: `http://c/${n}` });
    w.clock += 60_000;
    await drain();
    expect(w.calls).toEqual([]);
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/1']);
    w.reqs[0]!.answer(204);
    await idle(w);
    expect(w.calls).toEqual([[2, false]]);
  });

  it('a refill stops at the first beacon whose claim ran short: that one is renewed and sent by itself', async () => {
    const w = runWorld((_, n, c) => {
      if (n === 31) c.clock = T + 5_000;
      return { status: 204 };
    });
    for (let n = 0; n < 70; n++) void w.q.enqueue({ method: 'GET', url: `http://c/${n}` });
    await drain();
    expect(w.calls).toEqual([[64, false]]);
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/64']);
  });

  it('once a run is over, a beacon that joins the line while one is sent by itself is not handed to the sender', async () => {
    const w = runWorld();
    void w.q.enqueue({ method: 'GET', url: 'http://c/1' });
    void w.q.enqueue({ method: 'GET', url: 'http://c/2' });
    await idle(w);
    await enq(w, 'http://c/3');
    await enq(w, 'http://c/4');
    expect(w.calls).toEqual([[2, false]]);
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/3']);
    w.reqs[0]!.answer(204);
    await drain();
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/3', 'http://c/4']);
    expect(w.calls).toEqual([[2, false]]);
  });
});

describe('edges', () => {
  it('an adopted beacon is claimed for a request timeout and a lease from now', async () => {
    const w = world({ requestTimeoutMs: 300, leaseMs: 700 });
    const k = beaconKey(1, 0, 'dead');
    await w.base.setMany([[k, { id: k, method: 'GET', url: 'http://c/d', createdAt: 1, attempts: 0, owner: 'dead', leaseUntil: 0 }]]);
    expect(await w.q.resumePending()).toBe(1);
    expect(await stored(w, k)).toMatchObject({ owner: 'me', leaseUntil: T + 1_000 });
  });

  it('where there is no AbortController, a request still times out (it is not aborted)', async () => {
    vi.stubGlobal('AbortController', undefined);
    try {
      const w = world({ requestTimeoutMs: 300 });
      await enq(w, 'http://c/1');
      expect(w.reqs[0]!.init.signal).toBe(undefined);
      await vi.advanceTimersByTimeAsync(300);
      expect(w.logs).toEqual(['Analytics beacon not delivered (timeout); it stays queued and is retried with back-off.']);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('a set-aside beacon delivered once the line is empty is deleted from the store', async () => {
    let refuse = true;
    const w = world({}, { respond: (u) => (u === 'http://c/p' ? (refuse ? 503 : 204) : 204) });
    void w.q.enqueue({ method: 'GET', url: 'http://c/p' });
    void w.q.enqueue({ method: 'GET', url: 'http://c/1' });
    await drain();
    for (let n = 0; n < 2; n++) {
      w.sleeps[n]!.wake();
      await drain();
    }
    expect(w.feed.map(([n]) => n)).toEqual(['beacon-set-aside']);
    refuse = false;
    w.sleeps[2]!.wake();
    await idle(w);
    expect(await w.base.keys()).toEqual([]);
  });

  it('no stale marker: no delete; the writer has caught up with a prune once caughtUp resolves', async () => {
    const now = 30 * 24 * 3600_000;
    const base = memoryStore();
    let deletes = 0;
    // A delete that takes a turn of the event loop, as IndexedDB's does.
    const store: BeaconStore = { ...base, delMany: async (ks) => (deletes++, await new Promise((r) => setImmediate(r)), base.delMany(ks)) };
    await base.setMany([['ack:fresh', { seq: 1, at: now }]]);
    const q = createQueueState({ store, fetch: async () => ({ status: 204 }), now: () => now, sleep: async () => {}, log: () => {} });
    await pruneMarkers(q, await base.keys());
    await drain();
    expect(deletes).toBe(0);
    await base.setMany([['ack:old', { seq: 1, at: 0 }]]);
    await pruneMarkers(q, await base.keys());
    await q.writer.caughtUp();
    expect(await base.keys()).toEqual(['ack:fresh']);
    expect(deletes).toBe(1);
  });

  it('an empty release does not hold the next write back', async () => {
    const base = memoryStore();
    let txns = 0;
    const writer = createStoreWriter({ store: { ...base, setMany: (e, d) => (txns++, base.setMany(e, d)) }, durable: true, timeoutMs: 1_000, log: () => {}, holding: () => 0 });
    writer.release();
    await vi.advanceTimersByTimeAsync(1);
    void writer.write('a', 1);
    await vi.advanceTimersByTimeAsync(0);
    expect(txns).toBe(1);
  });
});

describe('an adopted beacon', () => {
  it('is claimed for a request timeout and a lease from now: long enough to be sent without a renewal', async () => {
    let renewals = 0;
    const w = world({}, { wrap: (s) => ({ ...s, claimMany: (...a) => (renewals++, s.claimMany(...a)) }) });
    const k = beaconKey(1, 0, 'dead');
    await w.base.setMany([[k, { id: k, method: 'GET', url: 'http://c/d', createdAt: 1, attempts: 0, owner: 'dead', leaseUntil: 0 }]]);
    expect(await w.q.resumePending()).toBe(1);
    await drain();
    expect(w.reqs.map((r) => r.url)).toEqual(['http://c/d']);
    expect(renewals).toBe(0);
    expect(await stored(w, k)).toMatchObject({ owner: 'me', leaseUntil: T + 10_000 });
  });
});

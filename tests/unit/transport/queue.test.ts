import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createBeaconQueue, retryDelay, settles, type BeaconFetch, type BeaconQueueOptions } from '../../../src/worker-engine/transport/queue.ts';
import { memoryStore, MEMORY_FALLBACK_MESSAGE, withMemoryFallback, type BeaconStore } from '../../../src/worker-engine/transport/store.ts';
import { startCollector, type Collector } from '../../../tools/collector/server.ts';

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const nodeFetch: BeaconFetch = (url, init) => fetch(url, { ...init, headers: { ...init.headers, Origin: 'http://page.test' } });

function queue(over: Partial<BeaconQueueOptions> & { store?: BeaconStore } = {}) {
  const logs: string[] = [];
  const q = createBeaconQueue({
    store: memoryStore(),
    fetch: nodeFetch,
    now: () => Date.now(),
    sleep: realSleep,
    log: (m) => logs.push(m),
    baseDelayMs: 5,
    maxDelayMs: 40,
    requestTimeoutMs: 2_000,
    ...over,
  });
  return { q, logs };
}

let collector: Collector;
const beaconUrl = (n: number) => `${collector.url}/b/ss/acmeprod/1/JS-2.27.0/s${1000 + n}?AQB=1&ndh=1&pf=1&t=x&pageName=p${n}&AQE=1`;

beforeAll(async () => {
  collector = await startCollector({ port: 0, quiet: true });
});
afterAll(() => collector.close());
beforeEach(async () => {
  await fetch(`${collector.url}/__reset`, { method: 'POST' });
});

describe('rules', () => {
  it('settles on 2xx, 3xx and 4xx except 408 and 429; retries 5xx', () => {
    for (const s of [200, 204, 302, 400, 404, 0]) expect(settles(s), String(s)).toBe(true);
    for (const s of [408, 429, 500, 502, 503]) expect(settles(s), String(s)).toBe(false);
  });
  it('backs off exponentially, capped', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => retryDelay(n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000]);
  });
});

describe('against the collector', () => {
  it('delivers in order, each once, and empties the store', async () => {
    const store = memoryStore();
    const { q } = queue({ store });
    for (let i = 0; i < 5; i++) await q.enqueue({ method: 'GET', url: beaconUrl(i) });
    await q.idle();
    expect(collector.beacons.map((b) => b.pageName)).toEqual(['p0', 'p1', 'p2', 'p3', 'p4']);
    expect(collector.beacons.some((b) => b.duplicate)).toBe(false);
    expect(await store.keys()).toEqual([]);
  });
  it('tells the sender each delivered beacon\'s round trip once, on its 2xx answer only (the next beacon\'s lrt)', async () => {
    const rtts: Array<[number, number]> = [];
    let t = 1_000;
    // The clock moves 7 ms on every read: the round trip is the difference between two reads around the fetch.
    const { q } = queue({ now: () => (t += 7) });
    // The first beacon is answered 404 (settled, not delivered), the second 200; the third has no listener.
    await fetch(`${collector.url}/__fail?count=1&status=404`, { method: 'POST' });
    await q.enqueue({ method: 'GET', url: beaconUrl(1) }, (ms) => rtts.push([1, ms]));
    await q.enqueue({ method: 'GET', url: beaconUrl(2) }, (ms) => rtts.push([2, ms]));
    await q.enqueue({ method: 'GET', url: beaconUrl(3) });
    await q.idle();
    expect(rtts).toEqual([[2, 7]]);
    expect(collector.beacons.map((b) => b.pageName)).toEqual(['p2', 'p3']);
  });
  it('retries 503 and network errors with back-off, then delivers once', async () => {
    await fetch(`${collector.url}/__fail?count=2&status=503`, { method: 'POST' });
    const { q, logs } = queue();
    await q.enqueue({ method: 'GET', url: beaconUrl(1) });
    await q.idle();
    await fetch(`${collector.url}/__fail?count=2&status=0`, { method: 'POST' });
    await q.enqueue({ method: 'GET', url: beaconUrl(2) });
    await q.idle();
    expect(collector.beacons.map((b) => [b.pageName, b.duplicate])).toEqual([['p1', false], ['p2', false]]);
    expect(logs.filter((l) => l.includes('not delivered'))).toHaveLength(2);
    expect(logs.filter((l) => l.includes('delivered after 3 attempts'))).toHaveLength(2);
  });
  it('POSTs with the body and the form content type', async () => {
    const { q } = queue();
    const path = `${collector.url}/b/ss/acmeprod/1/JS-2.27.0/s77`;
    await q.enqueue({ method: 'POST', url: path, body: 'AQB=1&ndh=1&pf=1&t=x&mid=1&eVar1=x&v1=long&AQE=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    await q.idle();
    expect(collector.beacons[0]).toMatchObject({ method: 'POST', mid: '1', eVar1: 'long' });
  });
  it('a 4xx settles without a retry', async () => {
    const { q } = queue();
    let calls = 0;
    const counting: BeaconFetch = (u, i) => (calls++, nodeFetch(u, i));
    const { q: q2 } = queue({ fetch: counting });
    await q2.enqueue({ method: 'GET', url: `${collector.url}/nowhere` });
    await q2.idle();
    expect(calls).toBe(1);
    expect(q.size).toBe(0);
  });
});

describe('durability', () => {
  it('writes the beacon to the store before sending it', async () => {
    const store = memoryStore();
    const seen: string[][] = [];
    const { q } = queue({
      store,
      fetch: async () => {
        seen.push(await store.keys());
        return { status: 204 };
      },
    });
    const id = await q.enqueue({ method: 'GET', url: 'http://x/b/ss/a/1/JS-2.27.0/s1?AQB=1&AQE=1' });
    await q.idle();
    expect(seen).toEqual([[id]]);
    expect(await store.keys()).toEqual([]);
  });
  it('a new page resumes what a dead page left, once its claim ran out', async () => {
    const store = memoryStore();
    let clock = 1_000_000;
    // The first page dies with its request in flight: the fetch never answers.
    const dead = createBeaconQueue({ store, fetch: () => new Promise(() => {}), now: () => clock, sleep: () => new Promise(() => {}), log: () => {}, owner: 'dead' });
    await dead.enqueue({ method: 'GET', url: beaconUrl(1) });
    await dead.enqueue({ method: 'GET', url: beaconUrl(2) });
    expect(await store.keys()).toHaveLength(2);
    clock += 60_000;
    const { q } = queue({ store, now: () => clock, owner: 'next' });
    expect(await q.resumePending()).toBe(2);
    await q.idle();
    expect(collector.beacons.map((b) => b.pageName)).toEqual(['p1', 'p2']);
    expect(await store.keys()).toEqual([]);
  });
  it('does not take a beacon a live page is working on; picks it up if that page dies', async () => {
    const store = memoryStore();
    let clock = 5_000_000;
    const sleeps: number[] = [];
    let releaseSleep: () => void = () => {};
    const alive = createBeaconQueue({ store, fetch: () => new Promise(() => {}), now: () => clock, sleep: () => new Promise(() => {}), log: () => {}, owner: 'alive', requestTimeoutMs: 5_000, leaseMs: 5_000 });
    await alive.enqueue({ method: 'GET', url: beaconUrl(9) });
    const { q } = queue({
      store,
      now: () => clock,
      owner: 'other',
      sleep: (ms) => {
        sleeps.push(ms);
        return ms > 1_000 ? new Promise<void>((r) => (releaseSleep = r)) : realSleep(ms);
      },
    });
    await q.resumePending();
    await realSleep(30);
    expect(collector.beacons).toHaveLength(0);
    expect(sleeps[0]).toBe(10_001);
    // The live page's claim runs out without it finishing (it died): now the other page sends it.
    clock += 11_000;
    releaseSleep();
    await q.idle();
    expect(collector.beacons.map((b) => b.pageName)).toEqual(['p9']);
  });
  it('retryNow cuts a back-off short', async () => {
    let n = 0;
    const { q } = queue({
      baseDelayMs: 60_000,
      maxDelayMs: 60_000,
      fetch: async () => ({ status: n++ === 0 ? 503 : 204 }),
    });
    await q.enqueue({ method: 'GET', url: 'http://x/b/ss/a/1/JS-2.27.0/s1?AQB=1&AQE=1' });
    await realSleep(10);
    expect(q.size).toBe(1);
    q.retryNow();
    await q.idle();
    expect(n).toBe(2);
  });
});

describe('memory fallback', () => {
  it('moves to memory when the store throws, says so once, and still delivers', async () => {
    const broken: BeaconStore = {
      get: () => Promise.reject(new Error('quota')),
      set: () => Promise.reject(new Error('quota')),
      del: () => Promise.reject(new Error('quota')),
      keys: () => Promise.reject(new Error('quota')),
    };
    const logs: string[] = [];
    const store = withMemoryFallback(broken, (m) => logs.push(m));
    const { q } = queue({ store });
    await q.enqueue({ method: 'GET', url: beaconUrl(3) });
    await q.enqueue({ method: 'GET', url: beaconUrl(4) });
    await q.idle();
    expect(logs).toHaveLength(1);
    expect(logs[0]!.startsWith(MEMORY_FALLBACK_MESSAGE)).toBe(true);
    expect(collector.beacons.map((b) => b.pageName)).toEqual(['p3', 'p4']);
  });
  it('keeps delivering when a raw store fails (the queue holds its own copy)', async () => {
    const flaky: BeaconStore = { ...memoryStore(), set: () => Promise.reject(new Error('disk')), get: async () => undefined };
    const { q, logs } = queue({ store: flaky });
    await q.enqueue({ method: 'GET', url: beaconUrl(5) });
    await q.idle();
    expect(collector.beacons.map((b) => b.pageName)).toEqual(['p5']);
    expect(logs.some((l) => l.includes('store failed to write'))).toBe(true);
  });
});

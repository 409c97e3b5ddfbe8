import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBeaconQueue, type BeaconFetch, type BeaconQueueOptions } from '../../../src/worker-engine/transport/queue.ts';
import { GIVE_UP_AFTER, retryDelay, RUN_MAX, settles, STEP_ASIDE_AFTER, STORE_GROUP_MS } from '../../../src/worker-engine/transport/queue-policy.ts';
import { memoryStore, type BeaconStore } from '../../../src/worker-engine/transport/store.ts';
import { connectSender, servePort } from '../../../src/worker-engine/transport/sender.ts';
import { startCollector, type Collector } from '../../../tools/collector/server.ts';

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
/** Looks again after each task until `ok` holds: waits for what the queue does, however long a busy machine takes (the test's timeout bounds it). */
const until = async (ok: () => boolean) => {
  while (!ok()) await new Promise((r) => setImmediate(r));
};
const nodeFetch: BeaconFetch = (url, init) => fetch(url, { ...init, headers: { ...init.headers, Origin: 'http://page.test' } });

/**
 * Every test below runs three ways: one request at a time (no sender), runs of beacons sent on
 * the queue's own thread, and runs through a real sender over a MessageChannel (sender.ts: the
 * SharedWorker's code), each with the test's own fetch.
 */
const MODES = ['one at a time', 'runs here', 'runs through the sender'] as const;
let mode: (typeof MODES)[number] = 'one at a time';
function chainFor(f: BeaconFetch) {
  if (mode === 'one at a time') return undefined;
  if (mode === 'runs here') return connectSender(undefined, f).chain;
  const { port1, port2 } = new MessageChannel();
  servePort(port1, (u, i) => f(u, i as Parameters<BeaconFetch>[1]));
  (port1 as unknown as { unref(): void }).unref();
  (port2 as unknown as { unref(): void }).unref();
  return connectSender(port2, f).chain;
}

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
    chain: chainFor(over.fetch ?? nodeFetch),
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

describe.each(MODES)('%s', (m) => {
  beforeEach(() => {
    mode = m;
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
      // Queued together (one dispatch): no clock read of a later enqueue falls inside a send.
      void q.enqueue({ method: 'GET', url: beaconUrl(1) }, (ms) => rtts.push([1, ms]));
      void q.enqueue({ method: 'GET', url: beaconUrl(2) }, (ms) => rtts.push([2, ms]));
      await q.enqueue({ method: 'GET', url: beaconUrl(3) });
      await q.idle();
      // In a run the sender times the request itself, on its own clock.
      if (mode === 'one at a time') expect(rtts).toEqual([[2, 7]]);
      else {
        expect(rtts.map(([n]) => n)).toEqual([2]);
        expect(rtts[0]![1]).toBeGreaterThanOrEqual(0);
        expect(rtts[0]![1]).toBeLessThan(2_000);
      }
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
    it('a claim that ran out while the beacon waited in line is renewed atomically before the send: two pages never both send it', async () => {
      const store = memoryStore();
      let clock = 9_000_000;
      const sent: string[] = [];
      let release: () => void = () => {};
      // Page A: its first request hangs until released, so its second beacon waits in line past its claim.
      const a = createBeaconQueue({
        store,
        now: () => clock,
        sleep: realSleep,
        log: () => {},
        owner: 'a',
        fetch: (u) => (sent.push(`a ${u.slice(-12)}`), sent.length === 1 ? new Promise((r) => (release = () => r({ status: 204 }))) : Promise.resolve({ status: 204 })),
      });
      await a.enqueue({ method: 'GET', url: 'http://x/b/ss/a/1/s1?first' });
      await a.enqueue({ method: 'GET', url: 'http://x/b/ss/a/1/s2?second' });
      await realSleep(10);
      clock += 60_000;
      // Page B opens: A's claims ran out, B takes both over (the first one is A's answer-lost case).
      const b = createBeaconQueue({ store, now: () => clock, sleep: realSleep, log: () => {}, owner: 'b', fetch: async (u) => (sent.push(`b ${u.slice(-12)}`), { status: 204 }) });
      expect(await b.resumePending()).toBe(2);
      await b.idle();
      release();
      await a.idle();
      expect(sent.filter((x) => x.endsWith('s2?second'))).toEqual(['b /1/s2?second']);
    });
    it('a line whose claims ran out is renewed in one transaction, not one per beacon; a beacon another page took and sent meanwhile leaves the line', async () => {
      const base = memoryStore();
      const claims: number[] = [];
      const store: BeaconStore = {
        ...base,
        claim: (...a) => (claims.push(1), base.claim(...a)),
        claimMany: (keys, ...a) => (claims.push(keys.length), base.claimMany(keys, ...a)),
      };
      let clock = 5_000_000;
      const sent: string[] = [];
      let release: () => void = () => {};
      const q = createBeaconQueue({
        store,
        now: () => clock,
        sleep: realSleep,
        log: () => {},
        owner: 'a',
        fetch: (u) => (sent.push(u.slice(-3)), sent.length === 1 ? new Promise((r) => (release = () => r({ status: 204 }))) : Promise.resolve({ status: 204 })),
      });
      for (let i = 10; i < 30; i++) await q.enqueue({ method: 'GET', url: `http://x/b/ss/a/1/s?${i}` });
      await realSleep(10);
      clock += 60_000;
      // Another page took beacon 15 over while A's claims were out, and delivered it.
      const keys = (await base.keys()).filter((k) => k.startsWith('beacon:'));
      expect(keys).toHaveLength(20);
      await base.claim(keys[5]!, 'b', clock, clock + 60_000);
      await base.delMany([keys[5]!]);
      release();
      await q.idle();
      expect(claims).toEqual([19]);
      expect(sent).toEqual(Array.from({ length: 20 }, (_, i) => `?${10 + i}`).filter((x) => x !== '?15'));
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

  describe('store failures', () => {
    it('IndexedDB failing mid-life loses nothing: the queue holds its beacons, says how many are at risk, and delivers them', async () => {
      const base = memoryStore();
      let broken = false;
      const store: BeaconStore = { ...base, setMany: (e) => (broken ? Promise.reject(new Error('QuotaExceededError')) : base.setMany(e)) };
      // Offline first: three beacons wait, stored.
      let online = false;
      const { q, logs } = queue({ store, fetch: (u, i) => (online ? nodeFetch(u, i) : Promise.reject(new Error('offline'))) });
      for (let i = 0; i < 3; i++) await q.enqueue({ method: 'GET', url: beaconUrl(i) });
      expect(q.durable).toBe(true);
      // Then the store starts failing (a quota): the next write fails, the store is gone for this page.
      broken = true;
      await q.enqueue({ method: 'GET', url: beaconUrl(3) });
      expect(q.durable).toBe(false);
      expect(logs.filter((l) => l.startsWith('Beacon queue: IndexedDB failed'))).toEqual([
        'Beacon queue: IndexedDB failed (QuotaExceededError). 4 analytics beacons are now kept in memory only, with every later one: they are still sent while this page stays open, and lost if it closes before they are.',
      ]);
      online = true;
      q.retryNow();
      await q.idle();
      expect(collector.beacons.map((b) => b.pageName)).toEqual(['p0', 'p1', 'p2', 'p3']);
    });
    it('a store call that never answers counts as failed after the store timeout', async () => {
      const store: BeaconStore = { ...memoryStore(), setMany: () => new Promise(() => {}) };
      const { q, logs } = queue({ store, storeTimeoutMs: 50 });
      await q.enqueue({ method: 'GET', url: beaconUrl(5) });
      await q.idle();
      expect(collector.beacons.map((b) => b.pageName)).toEqual(['p5']);
      expect(logs[0]).toContain('IndexedDB failed (no answer within 0.05 s)');
    });
    it('commit: one transaction holds the dispatch\'s beacons and the page\'s marker; without a store it waits for delivery', async () => {
      const base = memoryStore();
      const batches: string[][] = [];
      const store: BeaconStore = { ...base, setMany: (e) => (batches.push(e.map(([k]) => k.split(':')[0]!)), base.setMany(e)) };
      const { q } = queue({ store, fetch: () => new Promise(() => {}) });
      void q.enqueue({ method: 'GET', url: beaconUrl(1) });
      void q.enqueue({ method: 'GET', url: beaconUrl(2) });
      await q.commit('page1', 7);
      expect(batches[0]).toEqual(['beacon', 'beacon', 'ack']);
      expect(await q.committed('page1')).toBe(7);
      expect(await q.committed('page2')).toBe(0);
      // No store: commit resolves only once the beacons are delivered.
      const { q: m } = queue({ store: memoryStore(), durable: false });
      let committed = false;
      await fetch(`${collector.url}/__fail?count=1&status=0`, { method: 'POST' });
      void m.enqueue({ method: 'GET', url: beaconUrl(3) });
      const c = m.commit('page3', 1).then(() => (committed = true));
      await realSleep(2);
      expect(committed).toBe(false);
      await c;
      expect(collector.beacons.map((b) => b.pageName)).toEqual(['p3']);
    });
    it('a delivered beacon\'s delete waits while the line has more to send; the line\'s end deletes them together', async () => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
      try {
        const base = memoryStore();
        const deletes: string[][] = [];
        const store: BeaconStore = { ...base, setMany: async (e, d = []) => (d.length && deletes.push(d), base.setMany(e, d)) };
        let release!: () => void;
        const gate = new Promise<void>((r) => (release = r));
        const sent: string[] = [];
        const { q } = queue({
          store,
          fetch: async (u) => {
            sent.push(u);
            if (sent.length === 3) await gate;
            return { status: 204 };
          },
        });
        for (let n = 1; n <= 3; n++) void q.enqueue({ method: 'GET', url: beaconUrl(n) });
        // 1 and 2 delivered, 3 out: many transaction slots later, nothing is deleted yet.
        await vi.advanceTimersByTimeAsync(10 * STORE_GROUP_MS);
        expect(sent).toHaveLength(3);
        expect(deletes).toEqual([]);
        release();
        await vi.advanceTimersByTimeAsync(3 * STORE_GROUP_MS);
        await q.idle();
        expect(deletes.map((d) => d.length)).toEqual([3]);
        expect(await base.keys()).toEqual([]);
      } finally {
        vi.useRealTimers();
      }
    });
    it(`store transactions start at most every ${STORE_GROUP_MS} ms: a burst's events share them`, async () => {
      // The queue's own clock: twelve events 1 ms apart are 1 ms apart however busy the machine is.
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance', 'Date'] });
      try {
        const base = memoryStore();
        const txns: number[] = [];
        const store: BeaconStore = { ...base, setMany: async (e, d) => (txns.push(e.filter(([k]) => k.startsWith('beacon:')).length), base.setMany(e, d)) };
        const { q } = queue({ store, fetch: () => new Promise(() => {}) });
        await q.enqueue({ method: 'GET', url: beaconUrl(0) }, undefined, 'page1');
        const first = q.commit('page1', 1);
        await vi.advanceTimersByTimeAsync(3 * STORE_GROUP_MS);
        await first;
        txns.length = 0;
        // Twelve events, one per task, a millisecond apart.
        const commits: Promise<void>[] = [];
        for (let n = 1; n <= 12; n++) {
          await q.enqueue({ method: 'GET', url: beaconUrl(n) }, undefined, 'page1');
          commits.push(q.commit('page1', n + 1));
          await vi.advanceTimersByTimeAsync(1);
        }
        await vi.advanceTimersByTimeAsync(3 * STORE_GROUP_MS);
        await Promise.all(commits);
        expect(txns.reduce((a, b) => a + b, 0)).toBe(12);
        // 12 ms of events, a transaction at most every STORE_GROUP_MS: two, or three at a boundary.
        expect(txns.length).toBeLessThanOrEqual(Math.ceil(12 / STORE_GROUP_MS) + 1);
      } finally {
        vi.useRealTimers();
      }
    });
    it('beacons that join the line while a run is out extend it: the sender has them before the run\'s answers are back, and they keep their order', async () => {
      if (mode === 'one at a time') return;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const started: string[] = [];
      const held: BeaconFetch = async (u, i) => {
        started.push(new URL(u).searchParams.get('pageName')!);
        if (started.length === 1) await gate;
        return nodeFetch(u, i);
      };
      // What the queue hands the sender, and when.
      const handed: string[] = [];
      const inner = chainFor(held)!;
      const q = createBeaconQueue({
        store: memoryStore(),
        fetch: held,
        now: () => Date.now(),
        sleep: realSleep,
        log: () => {},
        chain: (rs, continues) => (handed.push(...rs.map((r) => `${continues ? '+' : ''}${new URL(r.url).searchParams.get('pageName')}`)), inner(rs, continues)),
      });
      void q.enqueue({ method: 'GET', url: beaconUrl(1) });
      await q.enqueue({ method: 'GET', url: beaconUrl(2) });
      await until(() => started.length > 0);
      // p1 is out and unanswered; p3 and p4 join the line now.
      void q.enqueue({ method: 'GET', url: beaconUrl(3) });
      await q.enqueue({ method: 'GET', url: beaconUrl(4) });
      await until(() => handed.includes('+p4'));
      expect(started).toEqual(['p1']);
      expect(handed).toEqual(['p1', 'p2', '+p3', '+p4']);
      release();
      await q.idle();
      expect(started).toEqual(['p1', 'p2', 'p3', 'p4']);
      expect(collector.beacons.map((b) => b.pageName)).toEqual(['p1', 'p2', 'p3', 'p4']);
    });
    it('the sender gets few messages: a transaction\'s beacons in one, and a long line in refills of at least half a run, not one per answer', async () => {
      if (mode === 'one at a time') return;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let started = 0;
      const held: BeaconFetch = async (u, i) => {
        if (started++ === 0) await gate;
        return nodeFetch(u, i);
      };
      // Each call of `chain` is one message to the sender.
      const calls: string[][] = [];
      const inner = chainFor(held)!;
      const q = createBeaconQueue({
        store: memoryStore(),
        fetch: held,
        now: () => Date.now(),
        sleep: realSleep,
        log: () => {},
        chain: (rs, continues) => (calls.push(rs.map((r) => `${continues ? '+' : ''}${new URL(r.url).searchParams.get('pageName')}`)), inner(rs, continues)),
      });
      q.enqueue({ method: 'GET', url: beaconUrl(1) }, undefined, 'page1');
      q.enqueue({ method: 'GET', url: beaconUrl(2) }, undefined, 'page1');
      await q.commit('page1', 2);
      await until(() => started > 0);
      // p1 is out and unanswered; four events' commits in one task share a transaction: one message.
      const commits: Promise<void>[] = [];
      for (let n = 3; n <= 6; n++) {
        q.enqueue({ method: 'GET', url: beaconUrl(n) }, undefined, 'page1');
        commits.push(q.commit('page1', n));
      }
      await Promise.all(commits);
      await until(() => calls.length > 1);
      expect(calls).toEqual([['p1', 'p2'], ['+p3', '+p4', '+p5', '+p6']]);
      // A line longer than a run (RUN_MAX, 64): refills of at least half a run as answers come back.
      for (let n = 7; n <= 150; n++) q.enqueue({ method: 'GET', url: beaconUrl(n) }, undefined, 'page1');
      await q.commit('page1', 150);
      release();
      await q.idle();
      expect(collector.beacons.map((b) => b.pageName)).toEqual(Array.from({ length: 150 }, (_, i) => `p${i + 1}`));
      const refills = calls.slice(2).map((c) => c.length);
      expect(refills.slice(0, -1).every((n) => n >= RUN_MAX / 2), refills.join(',')).toBe(true);
    });
    it('group commit: what is asked for while a transaction runs goes in the next one, not a transaction per event, with the page\'s marker put once (its latest seq); delivered beacons are deleted', async () => {
      const base = memoryStore();
      const txns: string[] = [];
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const store: BeaconStore = {
        ...base,
        setMany: async (e, d = []) => {
          txns.push([...e.map(([k]) => k.split(':')[0]!), ...d.map(() => 'delete')].join('+'));
          if (txns.length === 1) await gate;
          await base.setMany(e, d);
        },
      };
      const { q } = queue({ store });
      // Four events, each in a task of its own (as a burst reaches the worker), each with its beacon and marker.
      const commits: Promise<void>[] = [];
      for (let n = 1; n <= 4; n++) {
        await q.enqueue({ method: 'GET', url: beaconUrl(n) }, undefined, 'page1');
        commits.push(q.commit('page1', n));
        await realSleep(5);
      }
      expect(txns).toEqual(['beacon+ack']);
      release();
      await Promise.all(commits);
      // Three commits wrote the marker meanwhile: one put of it, the latest (4), not three.
      expect(txns).toEqual(['beacon+ack', 'beacon+ack+beacon+beacon']);
      await q.idle();
      expect(collector.beacons.map((b) => b.pageName)).toEqual(['p1', 'p2', 'p3', 'p4']);
      expect(await base.keys()).toEqual(['ack:page1']);
      expect(await q.committed('page1')).toBe(4);
      expect(txns.slice(2).join('+').split('+')).toEqual(['delete', 'delete', 'delete', 'delete']);
    });
  });


  describe('a page\'s beacons wait for its marker', () => {
    it('a beacon queued for a page is neither stored nor sent before that page\'s commit; then it is stored with the marker in one transaction and sent only once that transaction is over', async () => {
      const base = memoryStore();
      const log: string[] = [];
      let release!: () => void;
      const slow = new Promise<void>((r) => (release = r));
      const store: BeaconStore = {
        ...base,
        // (Transactions that only delete — delivered beacons, later — are not what this test is about.)
        setMany: async (e, d) => {
          if (!e.length) return base.setMany(e, d);
          log.push(`store ${e.map(([k]) => k.split(':')[0]).join('+')}`);
          await slow;
          await base.setMany(e, d);
          log.push('stored');
        },
      };
      const fetchLogged: BeaconFetch = (u, i) => (log.push('send'), nodeFetch(u, i));
      const { q } = queue({ store, fetch: fetchLogged });
      await q.enqueue({ method: 'GET', url: beaconUrl(1) }, undefined, 'page1');
      await q.enqueue({ method: 'GET', url: beaconUrl(2) }, undefined, 'page1');
      await realSleep(30);
      expect(log).toEqual([]);
      expect(await base.keys()).toEqual([]);
      expect(q.size).toBe(2);
      const committed = q.commit('page1', 3);
      await until(() => log.length > 0);
      expect(log).toEqual(['store beacon+beacon+ack']);
      release();
      await committed;
      await q.idle();
      expect(log).toEqual(['store beacon+beacon+ack', 'stored', 'send', 'send']);
      expect(collector.beacons.map((b) => b.pageName)).toEqual(['p1', 'p2']);
      expect(await q.committed('page1')).toBe(3);
      expect(await base.keys()).toEqual(['ack:page1']);
    });
    it('another page\'s commit does not release them; without a store a commit releases them and waits for their delivery', async () => {
      const { q } = queue();
      await q.enqueue({ method: 'GET', url: beaconUrl(1) }, undefined, 'page1');
      await q.enqueue({ method: 'GET', url: beaconUrl(2) }, undefined, 'orphan');
      await q.commit('orphan', 1);
      await until(() => collector.beacons.length > 0);
      expect(collector.beacons.map((b) => b.pageName)).toEqual(['p2']);
      await q.commit('page1', 1);
      await q.idle();
      expect(collector.beacons.map((b) => b.pageName)).toEqual(['p2', 'p1']);
      const { q: m } = queue({ store: memoryStore(), durable: false });
      await m.enqueue({ method: 'GET', url: beaconUrl(3) }, undefined, 'page3');
      await m.commit('page3', 1);
      expect(collector.beacons.map((b) => b.pageName)).toEqual(['p2', 'p1', 'p3']);
    });
  });

  describe('a poisoned beacon', () => {
    it(`steps aside after ${STEP_ASIDE_AFTER} refusals once the next one goes through, and is given up after ${GIVE_UP_AFTER}, logged and in the devtools feed; the others keep their order`, async () => {
      const poisoned = beaconUrl(0);
      const fetchPoison: BeaconFetch = (u, i) => (u === poisoned ? Promise.resolve({ status: 500 }) : nodeFetch(u, i));
      const feed: Array<[string, unknown]> = [];
      const store = memoryStore();
      const { q, logs } = queue({ store, fetch: fetchPoison, baseDelayMs: 1, maxDelayMs: 2, monitor: (n, d) => feed.push([n, d]) });
      await q.enqueue({ method: 'GET', url: poisoned });
      for (let i = 1; i <= 20; i++) await q.enqueue({ method: 'GET', url: beaconUrl(i) });
      await q.idle();
      expect(collector.beacons.map((b) => b.pageName)).toEqual(Array.from({ length: 20 }, (_, i) => `p${i + 1}`));
      expect(feed.map(([n]) => n)).toEqual(['beacon-set-aside', 'beacon-given-up']);
      expect(feed[1]![1]).toMatchObject({ url: poisoned, answered: GIVE_UP_AFTER, last: 'HTTP 500' });
      expect(logs.some((l) => l.startsWith(`Analytics beacon set aside after ${STEP_ASIDE_AFTER} refusals (HTTP 500)`))).toBe(true);
      expect(logs.some((l) => l.startsWith(`Analytics beacon given up after ${GIVE_UP_AFTER} refusals (HTTP 500)`))).toBe(true);
      expect(await store.keys()).toEqual([]);
    });
    it('an outage (every beacon refused) sets nothing aside and gives nothing up: order is kept', async () => {
      await fetch(`${collector.url}/__fail?count=${3 * GIVE_UP_AFTER}&status=503`, { method: 'POST' });
      const feed: string[] = [];
      const { q } = queue({ baseDelayMs: 1, maxDelayMs: 2, monitor: (n) => feed.push(n) });
      for (let i = 1; i <= 3; i++) await q.enqueue({ method: 'GET', url: beaconUrl(i) });
      await q.idle();
      expect(collector.beacons.map((b) => b.pageName)).toEqual(['p1', 'p2', 'p3']);
      expect(feed).toEqual([]);
    });
  });
});

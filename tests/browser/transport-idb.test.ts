import { describe, expect, it } from 'vitest';
import { idbStore, openBeaconStore } from '../../src/worker-engine/transport/idb-store.ts';
import { createBeaconQueue, type BeaconFetch } from '../../src/worker-engine/transport/queue.ts';
import { MEMORY_FALLBACK_MESSAGE } from '../../src/worker-engine/transport/store.ts';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const dbName = () => `offtag-test-${Math.random().toString(36).slice(2)}`;
const url = (n: number) => `https://metrics.example.com/b/ss/acmeprod/1/JS-2.27.0/s${n}?AQB=1&pageName=p${n}&AQE=1`;

describe('idb-keyval beacon store in Chromium', () => {
  it('stores, lists and deletes beacons', async () => {
    const store = idbStore(dbName());
    const b = { id: 'beacon:1', method: 'GET' as const, url: url(1), createdAt: 1, attempts: 0, owner: 'a', leaseUntil: 2 };
    await store.setMany([[b.id, b]]);
    expect(await store.get(b.id)).toEqual(b);
    expect(await store.keys()).toEqual(['beacon:1']);
    await store.delMany([b.id]);
    expect(await store.keys()).toEqual([]);
  });

  it('writes and deletes in one transaction (the queue\'s group commit): a failing write deletes nothing', async () => {
    const store = idbStore(dbName());
    const b = (n: number) => ({ id: `beacon:${n}`, method: 'GET' as const, url: url(n), createdAt: n, attempts: 0, owner: 'a', leaseUntil: 2 });
    await store.setMany([['beacon:1', b(1)], ['beacon:2', b(2)]]);
    await store.setMany([['beacon:3', b(3)], ['ack:p', { seq: 3, at: 1 }]], ['beacon:1']);
    expect(await store.keys()).toEqual(['ack:p', 'beacon:2', 'beacon:3']);
    // A value IndexedDB cannot clone aborts the whole transaction: beacon:2 is still there.
    await expect(store.setMany([['beacon:4', { f: () => 1 }]], ['beacon:2'])).rejects.toThrow();
    expect(await store.keys()).toEqual(['ack:p', 'beacon:2', 'beacon:3']);
  });

  it('claims in one transaction: of two pages claiming the same orphan at once, exactly one gets it', async () => {
    const name = dbName();
    const b = { id: 'beacon:1', method: 'GET' as const, url: url(1), createdAt: 1, attempts: 0, owner: 'dead', leaseUntil: 2 };
    await idbStore(name).setMany([[b.id, b]]);
    // Two store objects (two pages) over the same database, claiming in the same instant.
    const [x, y] = await Promise.all([idbStore(name).claim(b.id, 'x', 10, 10_000), idbStore(name).claim(b.id, 'y', 10, 10_000)]);
    expect([x, y].filter((r) => 'claimed' in r)).toHaveLength(1);
    expect([x, y].filter((r) => 'busyUntil' in r)).toEqual([{ busyUntil: 10_000 }]);
    expect(((await idbStore(name).get(b.id)) as { owner: string }).owner).toMatch(/^[xy]$/);
  });

  it("the keys read to open the store are its first keys() (the queue's resume at start): one transaction fewer; later ones read again", async () => {
    const name = dbName();
    await idbStore(name).setMany([['beacon:1', { id: 'beacon:1' }]]);
    const { store, durable } = await openBeaconStore(() => {}, name);
    expect(durable).toBe(true);
    const tx = IDBDatabase.prototype.transaction;
    let transactions = 0;
    IDBDatabase.prototype.transaction = function (this: IDBDatabase, ...a: Parameters<typeof tx>) {
      transactions++;
      return tx.apply(this, a);
    } as typeof tx;
    try {
      expect(await store.keys()).toEqual(['beacon:1']);
      expect(transactions).toBe(0);
      await store.setMany([['beacon:2', { id: 'beacon:2' }]]);
      expect(await store.keys()).toEqual(['beacon:1', 'beacon:2']);
      expect(transactions).toBe(2);
    } finally {
      IDBDatabase.prototype.transaction = tx;
    }
  });

  it('indexedDB.open that never answers: memory after the timeout, said once', async () => {
    const logs: string[] = [];
    const realOpen = indexedDB.open;
    indexedDB.open = (() => ({}) as IDBOpenDBRequest) as typeof indexedDB.open;
    try {
      const { durable } = await openBeaconStore((m) => logs.push(m), dbName(), 200);
      expect(durable).toBe(false);
    } finally {
      indexedDB.open = realOpen;
    }
    expect(logs).toEqual([`${MEMORY_FALLBACK_MESSAGE} (indexedDB.open did not answer within 0.2 s).`]);
  });

  it('the queue survives a reload: a new queue over the same database sends what the dead one left', async () => {
    const name = dbName();
    let clock = 1_000_000;
    // First "page": the requests never answer (the page dies with them in flight).
    const dead = createBeaconQueue({ store: idbStore(name), fetch: () => new Promise(() => {}), now: () => clock, sleep: () => new Promise(() => {}), log: () => {} });
    await dead.enqueue({ method: 'GET', url: url(1) });
    await dead.enqueue({ method: 'POST', url: url(2).split('?')[0]!, body: 'AQB=1&mid=1&AQE=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    clock += 60_000;
    // Second "page": a fresh store object over the same database.
    const sent: { url: string; method: string; body?: string; keepalive: boolean; credentials: string }[] = [];
    const fetch: BeaconFetch = async (u, init) => {
      sent.push({ url: u, method: init.method, body: init.body, keepalive: init.keepalive, credentials: init.credentials });
      return { status: 200 };
    };
    const { store } = await openBeaconStore(() => {}, name);
    const next = createBeaconQueue({ store, fetch, now: () => clock, sleep, log: () => {} });
    expect(await next.resumePending()).toBe(2);
    await next.idle();
    expect(sent.map((s) => [s.method, s.url])).toEqual([
      ['GET', url(1)],
      ['POST', url(2).split('?')[0]],
    ]);
    expect(sent[1]).toMatchObject({ body: 'AQB=1&mid=1&AQE=1', keepalive: true, credentials: 'include' });
    expect(await idbStore(name).keys()).toEqual([]);
    // A third page finds nothing: no beacon is sent twice.
    const third = createBeaconQueue({ store: idbStore(name), fetch, now: () => clock, sleep, log: () => {} });
    expect(await third.resumePending()).toBe(0);
  });

  it('falls back to memory when IndexedDB is missing, and says so once', async () => {
    const logs: string[] = [];
    // Private modes that lack IndexedDB: hide it, then put the original back.
    const owner = Object.prototype.hasOwnProperty.call(globalThis, 'indexedDB') ? globalThis : Object.getPrototypeOf(globalThis);
    const original = Object.getOwnPropertyDescriptor(owner, 'indexedDB')!;
    Object.defineProperty(globalThis, 'indexedDB', { value: undefined, configurable: true, writable: true });
    try {
      const { store, durable } = await openBeaconStore((m) => logs.push(m), dbName());
      expect(durable).toBe(false);
      await store.setMany([['beacon:1', { id: 'beacon:1', method: 'GET', url: url(1), createdAt: 1, attempts: 0, owner: 'a', leaseUntil: 2 }]]);
      expect(await store.keys()).toEqual(['beacon:1']);
    } finally {
      delete (globalThis as { indexedDB?: unknown }).indexedDB;
      if (owner === globalThis) Object.defineProperty(globalThis, 'indexedDB', original);
    }
    expect(logs).toHaveLength(1);
    expect(logs[0]!.startsWith(MEMORY_FALLBACK_MESSAGE)).toBe(true);
    expect(typeof indexedDB).toBe('object');
  });
});

import { describe, expect, it } from 'vitest';
import type { RequestEffect } from '../../../src/protocol.ts';
import { createBeaconSink, latestDelivered } from '../../../src/worker-engine/transport/beacon-sink.ts';
import { SENDER_AFTER_BEACONS } from '../../../src/worker-engine/transport/sender.ts';

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

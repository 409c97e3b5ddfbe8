import { describe, expect, it } from 'vitest';
import { latestDelivered } from '../../../src/worker-engine/transport/beacon-sink.ts';

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

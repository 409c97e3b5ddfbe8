/**
 * One hostile value or one failing input must not stop the worker. Each test
 * starts the real worker shell (tests/browser/test-worker.ts), sends one probe, then a plain
 * "Page View" that must still be processed. On the old shell the probe rejected the input chain
 * and nothing after it was ever processed.
 */
import { describe, expect, it } from 'vitest';
import { startTestWorker as start } from './start-test-worker.ts';

const dl = window as unknown as { digitalData?: unknown };

describe('the worker survives any single input', () => {
  it('a BigInt in the data layer: the event is processed, its value sent as a string, and the next event too', async () => {
    const w = start();
    dl.digitalData = { page: { pageInfo: { pageType: 10n } } };
    w.send({ type: 'direct-call', id: 'Page View' });
    dl.digitalData = { page: { pageInfo: { pageType: 'Cart' } } };
    w.send({ type: 'direct-call', id: 'Page View' });
    await expect.poll(w.messages, { timeout: 5000 }).toContain('page view Cart');
    expect(w.messages()).toContain('page view 10');
    w.worker.terminate();
  });

  it('setVar with a BigInt and with a cyclic object: the next event is processed', async () => {
    const w = start();
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    w.send({ type: 'set-var', values: { big: 1n } });
    w.send({ type: 'set-var', values: { cyclic } });
    dl.digitalData = { page: { pageInfo: { pageType: 'Cart' } } };
    w.send({ type: 'direct-call', id: 'Page View' });
    await expect.poll(w.messages, { timeout: 5000 }).toContain('page view Cart');
    const vars = w.effects().filter((e) => e.type === 'vars');
    expect(vars).toContainEqual({ type: 'vars', values: { big: 1n } });
    w.worker.terminate();
  });

  it('an input whose handling throws (the beacon queue fails) is said once, with its name, and the next event is processed', async () => {
    const w = start();
    w.send({ type: 'direct-call', id: 'Beacon' });
    dl.digitalData = { page: { pageInfo: { pageType: 'Cart' } } };
    w.send({ type: 'direct-call', id: 'Page View' });
    await expect.poll(w.messages, { timeout: 5000 }).toContain('page view Cart');
    const said = w.messages().filter((m) => m.startsWith('Offtag could not process'));
    expect(said).toEqual(['Offtag could not process "direct-call" ("Beacon"): the queue is broken. Later events are processed as usual.']);
    w.worker.terminate();
  });

  it('a value the page cannot receive (a function) is left out by name, and the rest of the batch arrives', async () => {
    const w = start();
    w.send({ type: 'direct-call', id: 'Function' });
    dl.digitalData = { page: { pageInfo: { pageType: 'Cart' } } };
    w.send({ type: 'direct-call', id: 'Page View' });
    await expect.poll(w.messages, { timeout: 5000 }).toContain('page view Cart');
    expect(w.messages().some((m) => /^Offtag could not send these values to the page \(DataCloneError\); left out: .*values\.fn\.$/.test(m))).toBe(true);
    w.worker.terminate();
  });
});

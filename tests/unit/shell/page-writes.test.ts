import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../../src/protocol.ts';
import { createPageWrites } from '../../../src/worker-engine/shell/page-writes.ts';

const snapshot = (cookie: string, session: Record<string, string | null> = {}) => ({ cookie, session }) as Snapshot;

describe('page writes: a write that leaves the page as it is does not travel', () => {
  it('sessionStorage: skipped when the snapshot shows the value and this worker wrote nothing else since', () => {
    const w = createPageWrites();
    w.saw(snapshot('', { k: 'v' }));
    expect(w.toPage({ type: 'storage', key: 'k', value: 'v' })).toBeUndefined();
    expect(w.toPage({ type: 'storage', key: 'k', value: 'w' })).toEqual({ effect: { type: 'storage', key: 'k', value: 'w' }, key: 'sk' });
    // The page has not shown 'w' yet: writing 'v' back must travel.
    expect(w.toPage({ type: 'storage', key: 'k', value: 'v' })).toBeDefined();
  });

  it('cookies travel as their document.cookie string; the same write again is skipped once the snapshot shows its value', () => {
    const w = createPageWrites();
    const write = { type: 'cookie' as const, name: 'c', value: '1', path: '/', domain: '.example.test' };
    expect(w.toPage(write)).toEqual({ effect: { type: 'cookie-string', cookie: 'c=1; path=/; domain=.example.test' }, key: 'cc;.example.test;/' });
    // Not shown by the page yet: it travels again.
    expect(w.toPage(write)).toBeDefined();
    w.saw(snapshot('c=1; other=2'));
    expect(w.toPage(write)).toBeUndefined();
    // Another value, or another expiry, travels.
    expect(w.toPage({ ...write, value: '2' })).toBeDefined();
  });

  it('a removal (expiry in the past) is skipped only when the page no longer has the cookie', () => {
    const w = createPageWrites();
    const removal = { type: 'cookie' as const, name: 'c', value: '', expires: 0 };
    expect(w.toPage(removal)).toBeDefined();
    w.saw(snapshot('c=1'));
    expect(w.toPage(removal)).toBeDefined();
    w.saw(snapshot('d=1'));
    expect(w.toPage(removal)).toBeUndefined();
  });
});

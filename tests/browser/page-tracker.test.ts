/**
 * The page-side `s` of imported Analytics code in real Chromium (src/launch/appmeasurement/page-tracker.ts):
 * within one step, `document.cookie` is read from the browser once until something writes it, and
 * the page's `document` is as it was once the step has ended.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { installPageAnalytics, type PageAnalyticsStep, type PageRecord } from '../../src/launch/appmeasurement/page-tracker.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the page-side s, whatever a site's code puts on it
type S = Record<string, any>;
const w = window as unknown as { __offtagAnalytics?: { s: S; define(setup: (s: S) => void, blocks: unknown[]): void; step(step: PageAnalyticsStep, event: object): PageRecord } };
const native = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie')!;
let browserReads = 0;

beforeEach(() => {
  delete w.__offtagAnalytics;
  browserReads = 0;
  // Counts the reads that reach the browser's cookie text.
  Object.defineProperty(Document.prototype, 'cookie', {
    configurable: true,
    get() {
      browserReads++;
      return native.get!.call(this);
    },
    set(v: string) {
      native.set!.call(this, v);
    },
  });
});
afterEach(() => {
  Object.defineProperty(Document.prototype, 'cookie', native);
  for (const n of ['memo_a', 'memo_direct', 'memo_w']) document.cookie = `${n}=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT`;
});

function analytics(doPlugins: (s: S) => void) {
  installPageAnalytics();
  const api = w.__offtagAnalytics!;
  api.define((s) => {
    s.doPlugins = doPlugins;
  }, []);
  api.step({ analytics: 'setup', vars: {} }, {});
  // The plain variables are the worker's, as the step brings them.
  return () => api.step({ analytics: 'plugins', vars: { usePlugins: true } }, {});
}

describe("the page-side s reads document.cookie once per step until it is written", () => {
  it("a doPlugins' many reads take the browser's text once; a write through s.c_w or document.cookie makes the next read take it again, with what was written", () => {
    document.cookie = 'memo_a=1; path=/';
    const plugins = analytics((s) => {
      for (let i = 0; i < 20; i++) s.c_r('memo_a');
      document.cookie = 'memo_direct=d; path=/';
      s.eVar1 = s.c_r('memo_direct');
      s.c_w('memo_w', 'x y');
      s.eVar2 = s.c_r('memo_w');
      for (let i = 0; i < 20; i++) s.eVar3 = s.c_r('memo_a') + document.cookie.includes('memo_w=x%20y');
    });
    browserReads = 0;
    const record = plugins();
    expect(record.error).toBeUndefined();
    expect(record.ops).toEqual([['set', 'eVar1', 'd'], ['set', 'eVar2', 'x y'], ['set', 'eVar3', '1true']]);
    // Once at the start, once after each of the two writes (s.c_w's own check of what it wrote among them).
    expect(browserReads).toBe(3);
    // The step's own accessor is gone: the page reads the browser's again.
    expect(Object.getOwnPropertyDescriptor(document, 'cookie')).toBeUndefined();
    document.cookie = 'memo_a=2; path=/';
    expect(w.__offtagAnalytics!.s.c_r('memo_a')).toBe('2');
  });

  it('a step that throws leaves document as it was', () => {
    const plugins = analytics(() => {
      throw new Error('plugin broke');
    });
    expect(plugins().error).toBe('Error: plugin broke');
    expect(Object.getOwnPropertyDescriptor(document, 'cookie')).toBeUndefined();
  });

  it("a page's own accessor on document (a consent tool's) is left alone: every read goes through it", () => {
    let own = 0;
    Object.defineProperty(document, 'cookie', {
      configurable: true,
      get() {
        own++;
        return native.get!.call(document);
      },
      set(v: string) {
        native.set!.call(document, v);
      },
    });
    try {
      const plugins = analytics((s) => {
        for (let i = 0; i < 5; i++) s.c_r('memo_a');
      });
      own = 0;
      plugins();
      expect(own).toBe(5);
      expect(Object.getOwnPropertyDescriptor(document, 'cookie')?.get).toBeTypeOf('function');
    } finally {
      delete (document as unknown as Record<string, unknown>).cookie;
    }
  });
});

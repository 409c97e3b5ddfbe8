/**
 * The import's narrowed page globals and block reads (src/launch/data-elements.ts
 * `pageGlobalBranches`, `dataLayerReads`) as data: the page read's code run against a window of
 * the test's own, as offtag.js runs it on the page (the same case in Chromium, through the page
 * side: tests/browser/page-reads.test.ts "an imported page global read as data").
 */
import { describe, expect, it } from 'vitest';
import * as launch from '../../../src/launch/index.ts';

type PageDe = { page?: { from: string; source?: string }; reads?: string[]; fn(c: never): unknown };

/** Runs the element's page code with `win` as the window. */
function readOn(de: unknown, win: Record<string, unknown>): unknown {
  const page = (de as PageDe).page!;
  expect(page.from).toBe('launch-code');
  return (new Function('window', `return (${page.source})()`) as (w: unknown) => unknown)(win);
}

describe('pageGlobalBranches', () => {
  const de = launch.pageGlobalBranches('siteTag', ['record.current', 'user.id', 'list.0.sku']);

  it('copies only the branches at its paths, whole below them; what sits beside them (functions) stays on the page', () => {
    const siteTag = { record: { current: { page: 'home', n: [1, 2] }, past: [{ page: 'x' }] }, user: { id: 'u1', hash: () => 'h' }, list: [{ sku: 'A', fn: () => 1 }], resume: () => 0 };
    const copy = readOn(de, { siteTag });
    expect(copy).toEqual({ record: { current: { page: 'home', n: [1, 2] } }, user: { id: 'u1' }, list: { 0: { sku: 'A' } } });
    expect(() => structuredClone(copy)).not.toThrow();
    // A branch that is missing or not an object is copied as it is.
    expect(readOn(de, { siteTag: { record: null, user: 'anon' } })).toEqual({ record: null, user: 'anon', list: undefined });
  });

  it('a global that is no object, or missing, is read as it is; one whose getter throws is given whole', () => {
    expect(readOn(de, { siteTag: 'text' })).toBe('text');
    expect(readOn(de, { siteTag: null })).toBeNull();
    expect(readOn(de, {})).toBeUndefined();
    const whole = {
      get record(): unknown {
        throw new Error('no');
      },
    };
    expect(readOn(de, { siteTag: whole })).toBe(whole);
  });

  it('reads the global its name says, and nothing of the data layer', () => {
    expect(readOn(launch.pageGlobalBranches('other', ['a']), { siteTag: { a: 1 }, other: { a: 2, b: 3 } })).toEqual({ a: 2 });
    expect((de as PageDe).reads).toEqual([]);
  });
});

describe('dataLayerReads', () => {
  it('declares the paths the worker blocks read, or the whole layer without paths; its value is always undefined', () => {
    const some = launch.dataLayerReads(['page.name', 'user.id']) as unknown as PageDe;
    expect(some.reads).toEqual(['page.name', 'user.id']);
    expect(some.fn({ snapshot: { dataLayer: { page: { name: 'x' } } }, session: { get: () => null }, event: { type: 'dom-ready' } } as never)).toBeUndefined();
    const all = launch.dataLayerReads() as unknown as PageDe;
    expect('reads' in all).toBe(false);
    expect(launch.BLOCK_READS).toBe('offtag:data layer reads');
  });
});

/**
 * Page reads in real Chromium (docs/containers.md, "Page reads"): the code `offtag build` writes
 * into offtag.js for a container's page reads (tools/build/page-reads.ts), run on a real DOM, with
 * a read that throws, a missing element and a localStorage that cannot be read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineContainer, domAttribute, localStorage as localItem, pageCode, pageTitle } from '../../src/container/index.ts';
import { pageReadsDefine, pageReadsIn } from '../../tools/build/page-reads.ts';
import type { EngineEvent, PageValues, SnapshotProblem } from '../../src/protocol.ts';

const container = defineContainer({
  name: 'page reads',
  dataElements: {
    basket: localItem('basket'),
    heading: domAttribute('h1.title', 'text'),
    sku: domAttribute('#product', 'data-sku'),
    link: domAttribute('#product a', 'href'),
    missing: domAttribute('#nothing-here', 'id', { default: 'none' }),
    title: pageTitle(),
    broken: pageCode(() => (document.querySelector('#nothing-here') as HTMLElement).dataset.x),
    width: pageCode((event) => (event.type === 'dom-ready' ? document.documentElement.clientWidth > 0 : 'other')),
  },
  rules: (k) => [
    {
      name: 'Buy',
      events: [{ type: 'direct-call', id: 'buy' }],
      conditions: [k.pageCondition('in stock', () => document.querySelector('#product')!.getAttribute('data-stock') === 'yes')],
      actions: [],
    },
  ],
});

/** The reads as offtag.js holds them: the define's text, evaluated on this page. */
const reads = new Function(`return ${pageReadsDefine(pageReadsIn(container))}`)() as (e: EngineEvent, p: SnapshotProblem[]) => PageValues;

const run = (event: EngineEvent) => {
  const problems: SnapshotProblem[] = [];
  return { values: reads(event, problems), problems };
};

afterEach(() => {
  document.body.innerHTML = '';
  localStorage.clear();
});

describe('page reads on a real page', () => {
  it('reads localStorage, the title, DOM attributes and properties, and page code; a missing element gives undefined', () => {
    document.title = 'Keepstock — Boots';
    document.body.innerHTML = '<h1 class="title">  Winter   boots </h1><div id="product" data-sku="B-42" data-stock="yes"><a href="/buy">Buy</a></div>';
    localStorage.setItem('basket', '3');
    const { values, problems } = run({ type: 'dom-ready' });
    expect(values.d).toMatchObject({ basket: '3', heading: 'Winter boots', sku: 'B-42', link: `${location.origin}/buy`, title: 'Keepstock — Boots', width: true });
    expect('missing' in values.d!).toBe(true);
    expect(values.d!.missing).toBeUndefined();
    // The page condition is read only for its rule's event.
    expect(values.c).toBeUndefined();
    expect(run({ type: 'direct-call', id: 'buy' }).values.c).toEqual({ 'Buy#0': true });
    // A read that throws is left out and named; the others are kept, and the result travels to a worker as it is.
    expect(problems).toEqual([{ kind: 'page', g: 'd', k: 'broken', detail: "TypeError: Cannot read properties of null (reading 'dataset')" }]);
    expect('broken' in values.d!).toBe(false);
    expect(structuredClone(values)).toEqual(values);
  });

  it('a localStorage that cannot be read gives null, as Launch does, and the other reads go on', () => {
    document.body.innerHTML = '<div id="product" data-sku="B-1"></div>';
    const original = Storage.prototype.getItem;
    Storage.prototype.getItem = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    try {
      const { values, problems } = run({ type: 'window-loaded' });
      expect(values.d!.basket).toBeNull();
      expect(values.d!.sku).toBe('B-1');
      expect(problems.map((p) => (p as { k: string }).k)).toEqual(['broken']);
    } finally {
      Storage.prototype.getItem = original;
    }
  });

  it('a page condition that throws is named under its rule and index; the event goes on', () => {
    document.body.innerHTML = '';
    const { values, problems } = run({ type: 'direct-call', id: 'buy' });
    expect(values.c).toBeUndefined();
    expect(problems).toContainEqual({ kind: 'page', g: 'c', k: 'Buy#0', detail: "TypeError: Cannot read properties of null (reading 'getAttribute')" });
  });
});

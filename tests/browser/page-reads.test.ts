/**
 * Page reads in real Chromium (docs/containers.md, "Page reads"): the page data `offtag build`
 * writes into offtag.js for a container's page reads (tools/build/page-reads.ts), evaluated as
 * offtag.js evaluates it and read by offtag.js's page side (src/page-side), on a real DOM and real
 * page globals, with a read that throws, a missing element and a localStorage that cannot be read.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { defineContainer, domAttribute, localStorage as localItem, pageCode, pageTitle, pageVariable } from '../../src/container/index.ts';
import { pageText } from '../../tools/build/page-reads.ts';
import { pageGlobalBranches } from '../../src/launch/data-elements.ts';
import { pageSide } from '../../src/page-side/index.ts';
import type { PageData } from '../../src/page-side/types.ts';
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
    currency: pageVariable('shopConfig.currency'),
    firstSku: pageVariable('shopConfig.cart[0].sku'),
    noGlobal: pageVariable('noSuchGlobal.value'),
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
    {
      name: 'Clicked',
      events: [{ type: 'click', selector: '#product' }],
      conditions: [k.pageCondition('the clicked element', (_event, element) => element?.getAttribute('data-sku'))],
      actions: [],
    },
  ],
});

/** The reads as offtag.js holds them: the page data's text, evaluated on this page, read by the page side. */
const side = pageSide(new Function(`return (${pageText(container).data})`)() as PageData);
let seq = 0;

const run = (event: EngineEvent, element?: Element) => {
  const problems: SnapshotProblem[] = [];
  return { values: side.read(event, problems, element, ++seq) as PageValues, problems };
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
    (window as unknown as { shopConfig: unknown }).shopConfig = { currency: 'EUR', cart: [{ sku: 'C-7' }] };
    const { values, problems } = run({ type: 'dom-ready' });
    expect(values.d).toMatchObject({ basket: '3', heading: 'Winter boots', sku: 'B-42', link: `${location.origin}/buy`, title: 'Keepstock — Boots', width: true, currency: 'EUR', firstSku: 'C-7' });
    expect('noGlobal' in values.d! && values.d!.noGlobal === undefined).toBe(true);
    expect('missing' in values.d!).toBe(true);
    expect(values.d!.missing).toBeUndefined();
    // The page condition is read only for its rule's event.
    expect(values.c).toBeUndefined();
    expect(run({ type: 'direct-call', id: 'buy' }).values.c).toEqual({ 'Buy#0': true });
    // A page trigger's event: the element it matched is the read's second argument.
    const trigger = { type: 'trigger', key: 'k1', on: 'click' } as EngineEvent;
    expect(run(trigger, document.querySelector('#product')!).values.c).toEqual({ 'Clicked#0': 'B-42' });
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

describe('a page read that sends an event', () => {
  it('the inner event gets no page reads (no endless reading); the outer one gets its values', () => {
    const inner: PageValues[] = [];
    const c = defineContainer({
      name: 'reentrant',
      dataElements: { tracked: pageCode(() => (window as unknown as { trackForTest(): number }).trackForTest()) },
      rules: [],
    });
    const reentrant = pageSide(new Function(`return (${pageText(c).data})`)() as PageData);
    (window as unknown as { trackForTest(): number }).trackForTest = () => (inner.push(reentrant.read({ type: 'direct-call', id: 'x' }, [], undefined, 2)), 7);
    expect(reentrant.read({ type: 'dom-ready' }, [], undefined, 1)).toEqual({ d: { tracked: 7 } });
    expect(inner).toEqual([{}]);
    expect(reentrant.read({ type: 'dom-ready' }, [], undefined, 3)).toEqual({ d: { tracked: 7 } });
  });

  it('reads one data element alone when asked (a synchronous getVar of it)', () => {
    document.body.innerHTML = '<div id="product" data-sku="B-9"></div>';
    expect(side.read({ type: 'get-var', name: 'sku' }, [], undefined, 9, 'sku')).toEqual({ d: { sku: 'B-9' } });
  });
});

describe('values that cannot travel', () => {
  it("a promise (custom code whose value only the page holds, for getVar): an event's snapshot carries an empty object, which clones; getVar of it alone gets the promise", () => {
    const c = defineContainer({ name: 'promised', dataElements: { later: pageCode(() => Promise.resolve(1)), plain: pageCode(() => 'p') }, rules: [] });
    const s = pageSide(new Function(`return (${pageText(c).data})`)() as PageData);
    const values = s.read({ type: 'dom-ready' }, [], undefined, 1) as PageValues;
    expect(values).toEqual({ d: { later: {}, plain: 'p' } });
    // What the bridge posts: refused before, when the promise itself went.
    expect(() => structuredClone(values)).not.toThrow();
    expect((s.read({ type: 'get-var', name: 'later' }, [], undefined, 2, 'later') as PageValues).d!.later).toBeInstanceOf(Promise);
  });

  it("an imported page global read as data holds only the branches the worker's blocks read: a helper function beside them no longer refuses the clone; a getter that throws gives the whole value", () => {
    const c = defineContainer({ name: 'branches', dataElements: { g: pageGlobalBranches('siteTag', ['record.current', 'user.id', 'list.0.sku']) }, rules: [] });
    const s = pageSide(new Function(`return (${pageText(c).data})`)() as PageData);
    const w = window as unknown as { siteTag?: unknown };
    try {
      w.siteTag = { record: { current: { page: 'home', n: [1, 2] }, past: [{ page: 'x' }] }, user: { id: 'u1', hash: () => 'h' }, list: [{ sku: 'A', fn: () => 1 }], resume: () => 0 };
      const values = s.read({ type: 'dom-ready' }, [], undefined, 1) as PageValues;
      expect(values.d!.g).toEqual({ record: { current: { page: 'home', n: [1, 2] } }, user: { id: 'u1' }, list: { 0: { sku: 'A' } } });
      expect(() => structuredClone(values)).not.toThrow();
      w.siteTag = 'text';
      expect((s.read({ type: 'dom-ready' }, [], undefined, 2) as PageValues).d!.g).toBe('text');
      const whole = { get record(): unknown { throw new Error('no'); } };
      w.siteTag = whole;
      expect((s.read({ type: 'dom-ready' }, [], undefined, 3) as PageValues).d!.g).toBe(whole);
    } finally {
      delete w.siteTag;
    }
  });
});

import { describe, expect, it } from 'vitest';
import { dataLayer, defineContainer, domAttribute, localStorage, pageCode, pageTitle, storedKey } from '../../../src/container/index.ts';
import { buildConstants } from '../../../tools/build/build.ts';
import { codeSource, pageReadProblems, pageReadsDefine, pageReadsIn } from '../../../tools/build/page-reads.ts';
import type { EngineEvent, PageValues, SnapshotProblem } from '../../../src/protocol.ts';
import { logs, logsOf, makeEngine } from '../harness.ts';
import storefront from '../../../containers/storefront/container.ts';

/** Page reads (docs/containers.md, "Page reads"): values read on the page with each event's snapshot. */
const container = defineContainer({
  name: 'page-reads',
  dataElements: {
    basket: localStorage('basket', { default: 'empty' }),
    heading: domAttribute('h1', 'text', { cleanText: true, lowerCase: true }),
    sku: domAttribute('#product', 'data-sku', { storage: 'session' }),
    title: pageTitle(),
    width: pageCode(() => innerWidth),
    section: dataLayer('page.section'),
  },
  rules: (k) => [
    {
      name: 'Read',
      events: [{ type: 'direct-call', id: 'read' }],
      actions: [
        k.run('log values', (ctx) => {
          for (const name of ['basket', 'heading', 'sku', 'title', 'width'] as const) ctx.log('log', `${name}=${JSON.stringify(ctx.get(name))}`);
        }),
      ],
    },
    {
      name: 'Logged in',
      events: [{ type: 'direct-call', id: 'read' }, { type: 'dom-ready' }],
      conditions: [k.valueIs('section', 'shop'), k.pageCondition('has a login cookie', () => document.cookie.includes('login='))],
      actions: [k.run('say so', (ctx) => ctx.log('log', 'logged in'))],
    },
  ],
});

const read = { type: 'direct-call', id: 'read' } as const;

describe('page read data elements in the engine', () => {
  it('take their values from the snapshot, finished as the other kinds (default, clean text, lower case, session storage)', async () => {
    const { fire } = makeEngine(container);
    const batch = await fire(read, { page: { d: { basket: null, heading: '  Big \n SALE ', sku: 'A-1', title: 'Shop', width: 1024 } } });
    expect(logs(batch.effects).filter((l) => l.includes('='))).toEqual(['basket="empty"', 'heading="big sale"', 'sku="A-1"', 'title="Shop"', 'width=1024']);
    expect(batch.effects).toContainEqual({ type: 'storage', key: storedKey('sku'), value: '"A-1"' });
  });

  it('a read that threw on the page: the worker says which and why, the element takes its default, the rest goes on', async () => {
    const { fire } = makeEngine(container);
    const problems: SnapshotProblem[] = [{ kind: 'page', g: 'd', k: 'basket', detail: 'SecurityError: denied' }];
    const batch = await fire(read, { problems, page: { d: { heading: 'x', sku: 'B', title: 'T', width: 1 } } });
    expect(logsOf(batch, 'warn')).toContain('The page read of data element "basket" threw: SecurityError: denied. The event goes on without its value.');
    expect(logsOf(batch, 'error')).toContain('Failed to execute data element module for data element "basket". Its page read threw on the page: SecurityError: denied');
    expect(logs(batch.effects)).toContain('basket="empty"');
    expect(logs(batch.effects)).toContain('title="T"');
  });

  it('a snapshot without page values (an offtag.js built for another container) names the cause', async () => {
    const { fire } = makeEngine(container);
    const batch = await fire(read, {});
    expect(logsOf(batch, 'error').join('\n')).toContain('The event carries no value of its page read (offtag.js was built for a container without it: rebuild with offtag build).');
    expect(logs(batch.effects)).toContain('basket="empty"');
  });

  it("a page condition's result is read from the snapshot by the rule engine, under its rule and index", async () => {
    const { fire } = makeEngine(container);
    const shop = { dataLayer: { page: { section: 'shop' } } };
    const passed = await fire(read, { ...shop, page: { c: { 'Logged in#1': true } } });
    expect(logs(passed.effects)).toContain('logged in');
    const failed = await fire(read, { ...shop, page: { c: { 'Logged in#1': false } } });
    expect(logs(failed.effects)).not.toContain('logged in');
    const threw = await fire(read, { ...shop, problems: [{ kind: 'page', g: 'c', k: 'Logged in#1', detail: 'ReferenceError: x is not defined' }] });
    expect(logs(threw.effects)).not.toContain('logged in');
    expect(logsOf(threw, 'warn')).toContain('The page read of condition 2 of rule "Logged in" threw: ReferenceError: x is not defined. The event goes on without its value.');
    expect(logsOf(threw, 'error')).toContain('Failed to execute "has a login cookie" for "Logged in" rule. Its page read threw on the page: ReferenceError: x is not defined');
  });
});

/** Runs the generated define as offtag.js would, on a fake page. */
function runDefine(code: string, event: EngineEvent, page: Record<string, unknown>): { values: PageValues; problems: SnapshotProblem[] } {
  const problems: SnapshotProblem[] = [];
  const fn = new Function(...Object.keys(page), `return ${code}`)(...Object.values(page)) as (e: EngineEvent, p: SnapshotProblem[]) => PageValues;
  return { values: fn(event, problems), problems };
}

describe('offtag build: the page reads define', () => {
  it('is 0 for a container without page reads (storefront), so the bridge does not grow', () => {
    expect(buildConstants(storefront, 'production', '2026-01-01T00:00:00Z').__OFFTAG_PAGE_READS__).toBe('0');
  });

  it('is a function reading each element, and each page condition only on its rule\'s events; a throwing read is named, the others kept', () => {
    const code = buildConstants(container, 'production', '2026-01-01T00:00:00Z').__OFFTAG_PAGE_READS__;
    const h1 = { innerText: '', textContent: ' Big SALE ' };
    const product = { getAttribute: (n: string) => (n === 'data-sku' ? 'A-1' : null) };
    const document = { title: 'Shop', cookie: 'login=1', querySelector: (s: string) => (s === 'h1' ? h1 : s === '#product' ? product : null) };
    const localStorage = { getItem: () => { throw new Error('denied'); } };
    const page = { document, localStorage, innerWidth: 800 };
    const { values, problems } = runDefine(code, read, page);
    expect(values).toEqual({ d: { basket: null, heading: ' Big SALE ', sku: 'A-1', title: 'Shop', width: 800 }, c: { 'Logged in#1': true } });
    expect(problems).toEqual([]);
    // Not an event of the rule: no condition read.
    expect(runDefine(code, { type: 'window-loaded' }, page).values.c).toBeUndefined();
    expect(runDefine(code, { type: 'dom-ready' }, page).values.c).toEqual({ 'Logged in#1': true });
    // A read that throws: left out, named; the others stay.
    const broken = runDefine(code, read, { ...page, innerWidth: undefined, document: { ...document, querySelector: () => { throw new TypeError('bad selector'); } } });
    expect(broken.problems).toEqual([
      { kind: 'page', g: 'd', k: 'heading', detail: 'TypeError: bad selector' },
      { kind: 'page', g: 'd', k: 'sku', detail: 'TypeError: bad selector' },
    ]);
    expect(broken.values.d).toEqual({ basket: null, title: 'Shop', width: undefined });
  });

  it('names page code it cannot write into offtag.js', () => {
    const bad = defineContainer({
      name: 'bad',
      dataElements: { a: pageCode(Math.random), b: pageCode({ read(e: EngineEvent) { return e.type; } }.read) },
      rules: (k) => [{ name: 'R', events: [{ type: 'dom-ready' }], conditions: [k.pageCondition('bound', (() => 1).bind(null))], actions: [] }],
    });
    expect(pageReadProblems(pageReadsIn(bad), 'c.ts')).toEqual([
      'c.ts: data element "a": its page code is a built-in or bound function, whose source cannot be written into offtag.js',
      'c.ts: data element "b": its page code cannot be written into offtag.js as source text (write it as an arrow function or a function expression, not a method)',
      'c.ts: rule "R", page condition 1: its page code is a built-in or bound function, whose source cannot be written into offtag.js',
    ]);
    expect(codeSource((e: EngineEvent) => e.type)).toEqual({ source: '(e) => e.type' });
    expect(pageReadsDefine({ elements: [], conditions: [] })).toBe('0');
  });
});

describe('offtag build: a page read that sends an event', () => {
  it('the inner event gets no page reads (no endless reading); the outer one gets its values', () => {
    const inner: PageValues[] = [];
    const c = defineContainer({
      name: 'reentrant',
      dataElements: { tracked: pageCode(() => (globalThis as unknown as { track(): number }).track()) },
      rules: [],
    });
    const code = pageReadsDefine(pageReadsIn(c));
    const fn = new Function('globalThis', `return ${code}`);
    const page = { track: () => (inner.push(reads({ type: 'direct-call', id: 'x' }, [])), 7) };
    const reads = fn(page) as (e: EngineEvent, p: SnapshotProblem[]) => PageValues;
    expect(reads({ type: 'dom-ready' }, [])).toEqual({ d: { tracked: 7 } });
    expect(inner).toEqual([{}]);
    expect(reads({ type: 'dom-ready' }, [])).toEqual({ d: { tracked: 7 } });
  });
});

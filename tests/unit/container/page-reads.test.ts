import { beforeEach, describe, expect, it } from 'vitest';
import { dataLayer, defineContainer, domAttribute, localStorage, pageCode, pageTitle, pageVariable, storedKey } from '../../../src/container/index.ts';
import { buildConstants } from '../../../tools/build/build.ts';
import { codeSource, PAGE_PARAMETER, pageReadProblems, pageReadsIn, pageText, withoutNameHelper, wrapBridge } from '../../../tools/build/page-reads.ts';
import { pageCustomCode } from '../../../src/launch/index.ts';
import type { PageData } from '../../../src/page-side/types.ts';
import type { EngineEvent, SnapshotProblem } from '../../../src/protocol.ts';
import { logs, logsOf, makeEngine } from '../harness.ts';
import storefront from '../../../containers/storefront/container.ts';

/** Page reads (docs/containers.md, "Page reads"): values read on the page with each event's snapshot. */
/** Built in each test, not when the file loads, so that what it runs is each test's (mutation testing sees it). */
const build = () =>
  defineContainer({
  name: 'page-reads',
  dataElements: {
    basket: localStorage('basket', { default: 'empty' }),
    heading: domAttribute('h1', 'text', { cleanText: true, lowerCase: true }),
    sku: domAttribute('#product', 'data-sku', { storage: 'session' }),
    title: pageTitle(),
    width: pageCode(() => innerWidth),
    cartSku: pageVariable('shop.cart[0].sku'),
    noShop: pageVariable('nope.cart', { default: 'none' }),
    section: dataLayer('page.section'),
  },
  rules: (k) => [
    {
      name: 'Read',
      events: [{ type: 'direct-call', id: 'read' }],
      actions: [
        k.run('log values', (ctx) => {
          for (const name of ['basket', 'heading', 'sku', 'title', 'width', 'cartSku', 'noShop'] as const) ctx.log('log', `${name}=${JSON.stringify(ctx.get(name))}`);
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
let container: ReturnType<typeof build>;
beforeEach(() => {
  container = build();
});

const read = { type: 'direct-call', id: 'read' } as const;

describe('page read data elements in the engine', () => {
  it('take their values from the snapshot, finished as the other kinds (default, clean text, lower case, session storage)', async () => {
    const { fire } = makeEngine(container);
    const batch = await fire(read, { page: { d: { basket: null, heading: '  Big \n SALE ', sku: 'A-1', title: 'Shop', width: 1024, cartSku: 'S-9', noShop: undefined } } });
    expect(logs(batch.effects).filter((l) => l.includes('='))).toEqual(['basket="empty"', 'heading="big sale"', 'sku="A-1"', 'title="Shop"', 'width=1024', 'cartSku="S-9"', 'noShop="none"']);
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
    // The devtools overlay marks the rule as run partly on the page.
    expect(passed.effects).toContainEqual(expect.objectContaining({ type: 'monitor', name: 'rule-page-part', data: expect.objectContaining({ rule: 'Logged in', block: 'condition 2' }) }));
    const failed = await fire(read, { ...shop, page: { c: { 'Logged in#1': false } } });
    expect(logs(failed.effects)).not.toContain('logged in');
    const threw = await fire(read, { ...shop, problems: [{ kind: 'page', g: 'c', k: 'Logged in#1', detail: 'ReferenceError: x is not defined' }] });
    expect(logs(threw.effects)).not.toContain('logged in');
    expect(logsOf(threw, 'warn')).toContain('The page read of condition 2 of rule "Logged in" threw: ReferenceError: x is not defined. The event goes on without its value.');
    expect(logsOf(threw, 'error')).toContain('Failed to execute "has a login cookie" for "Logged in" rule. Its page read threw on the page: ReferenceError: x is not defined');
  });
});

/** The page data offtag build writes into offtag.js, evaluated as offtag.js evaluates it (its functions compiled, not run). */
const dataOf = (c: Parameters<typeof pageText>[0]) => new Function(`return (${pageText(c).data})`)() as PageData;

describe('offtag build: the page code it writes into offtag.js', () => {
  it('is nothing for a container without page code (storefront): the page side is left out, so the bridge does not grow', () => {
    const c = buildConstants(storefront, 'production', '2026-01-01T00:00:00Z');
    expect([c.__OFFTAG_PAGE__, c.__OFFTAG_PAGE_HOST__, c.__OFFTAG_PAGE_STEPS__]).toEqual(['0', '0', '0']);
    expect(pageText(storefront)).toEqual({ host: false });
  });

  it("writes each read, and each page condition with the events it is read for; the page side's define names offtag.js's wrapper parameter", () => {
    expect(buildConstants(container, 'production', '2026-01-01T00:00:00Z').__OFFTAG_PAGE__).toBe(PAGE_PARAMETER);
    const data = dataOf(container);
    expect(Object.keys(data.elements!)).toEqual(['basket', 'heading', 'sku', 'title', 'width', 'cartSku', 'noShop']);
    expect(data.elements!.basket).toEqual(['l', 'basket']);
    expect(data.elements!.heading).toEqual(['a', 'h1', 'text']);
    expect(data.elements!.cartSku).toEqual(['v', ['shop', 'cart', '0', 'sku']]);
    expect(data.elements!.title).toEqual(['t']);
    expect(data.elements!.width![0]).toBe('f');
    // Read for the rule's direct call and DOM Ready, nothing else.
    expect(data.conditions!.map(([k, on]) => [k, on])).toEqual([['Logged in#1', [['direct-call', 'read'], ['dom-ready']]]]);
    expect(data.host).toBeUndefined();
  });

  it("reads a Page Bottom rule's page condition on page-bottom, and on DOM Ready and Window Loaded, which run its rules when the page never called _satellite.pageBottom()", () => {
    const bottom = defineContainer({
      name: 'page bottom',
      dataElements: {},
      rules: (k) => [{ name: 'Bottom', events: [{ type: 'page-bottom' }], conditions: [k.pageCondition('wide', () => innerWidth > 100)], actions: [] }],
    });
    expect(dataOf(bottom).conditions!.map(([k, on]) => [k, on])).toEqual([['Bottom#0', [['page-bottom'], ['dom-ready'], ['window-loaded']]]]);
  });

  it('writes page code as it is, outside the bridge: a function the build loaded through its TypeScript loader loses the __name helper calls, which the page does not have', () => {
    // What tsx (esbuild's keepNames) makes of a function with named inner functions, a named arrow and a class.
    const transformed = 'e=>{function inner(){return 1}__name(inner,"inner");const g=__name(()=>2,"g");const h=__name(function named(){return __name(()=>3,"x")()},"h");class K{static{__name(this,"K")}}return[inner(),g(),h(),typeof K]}';
    const plain = withoutNameHelper(transformed);
    expect(plain).not.toContain('__name');
    expect((new Function(`return (${plain})`)() as () => unknown)()).toEqual([1, 2, 3, 'function']);
    // Sloppy code and a name a bundler helper has are the code's own: kept as written.
    expect(withoutNameHelper('function (event) {\n  a = JSON.parse("1"); var __name = 2;\n}')).toBe('function (event) {\n  a = JSON.parse("1"); var __name = 2;\n}');
  });

  it('wraps the bundled bridge so the page data is evaluated at the top level of offtag.js, with nothing of the bridge in its scope', () => {
    const text = wrapBridge('(()=>{const a=1;window.__seen=[__offtagPage.elements.x[1](), typeof a];})();', '{elements: {"x": ["b",(function () { return typeof a + ":" + typeof __offtagPage; }\n)]}}');
    const page: Record<string, unknown> = {};
    new Function('window', text)(page);
    // The block sees neither the bridge's `a` nor the wrapper's parameter.
    expect(page.__seen).toEqual(['undefined:undefined', 'number']);
  });

  it('names page code it cannot write into offtag.js, and Launch code that does not compile', () => {
    const bad = defineContainer({
      name: 'bad',
      dataElements: { a: pageCode(Math.random), b: pageCode({ read(e: EngineEvent) { return e.type; } }.read), c: pageCustomCode('function (event) { return ; ) }') },
      rules: (k) => [{ name: 'R', events: [{ type: 'dom-ready' }], conditions: [k.pageCondition('bound', (() => 1).bind(null))], actions: [] }],
    });
    expect(pageReadProblems(pageReadsIn(bad), 'c.ts')).toEqual([
      'c.ts: data element "a": its page code is a built-in or bound function, whose source cannot be written into offtag.js',
      'c.ts: data element "b": its page code cannot be written into offtag.js as source text (write it as an arrow function or a function expression, not a method)',
      "c.ts: data element \"c\": its custom code does not compile (SyntaxError: Unexpected token ')')",
      'c.ts: rule "R", page condition 1: its page code is a built-in or bound function, whose source cannot be written into offtag.js',
    ]);
    expect(codeSource((e: EngineEvent) => e.type)).toEqual({ source: '(e) => e.type' });
  });
});

describe('a page read whose value structured clone refuses', () => {
  it('is named as that page read when the copy leaves it out', async () => {
    const { describeProblem } = await import('../../../src/worker-engine/core/page-state.ts');
    expect(describeProblem({ kind: 'uncloneable', detail: 'DataCloneError', paths: ['snapshot.page.d.parent node', 'snapshot.dataLayer.fn'] }, 'digitalData')).toBe(
      'The data layer could not be copied as it is (DataCloneError). Left out: the page read of data element "parent node", digitalData.fn.',
    );
  });
});

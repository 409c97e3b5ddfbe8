/**
 * The corpus runner's page states (bench/corpus/plan.ts, selector.ts), generated from the
 * project's own Launch library `tests/fixtures/launch/every-module.js`: the data layer paths its
 * data elements and conditions read, filled with the values its conditions ask for; its direct
 * calls, custom events and clicks as steps, on elements made to match their selectors.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readLibrary } from '../../../tools/import/read.ts';
import { CONSENT_COOKIES, codePaths, planPage, sampleForRegex, type Step } from '../../../bench/corpus/plan.ts';
import { elementsFor, nthValue, renderElements, type ElementSpec } from '../../../bench/corpus/selector.ts';

const LIBRARY = 'tests/fixtures/launch/every-module.js';
const plan = planPage(readLibrary(readFileSync(LIBRARY, 'utf8'), LIBRARY));
const dl = plan.globals.digitalData as Record<string, any>;

/** Every element of a tree, depth first. */
const all = (els: ElementSpec[]): ElementSpec[] => els.flatMap((e) => [e, ...all(e.children)]);
const marked = (mark: number) => all(plan.elements).find((e) => e.attrs['data-corpus'] === String(mark));

describe('the page states of every-module.js', () => {
  test("the page is at the property's site, the same plan on each call", () => {
    expect(plan.url).toBe('https://www.keepstock.example/');
    expect(planPage(readLibrary(readFileSync(LIBRARY, 'utf8'), LIBRARY))).toEqual(plan);
  });

  test('data layer paths: the values its conditions ask for, else a word from the path; browser globals left alone', () => {
    expect(dl.page.pageInfo.pageUID).toBe('pageUID-1');
    // Value comparisons on %page type%, %cart total%, %messy title%, %first sku%, %missing with default%: the first plain value asked for.
    expect(dl.page.pageInfo.pageType).toBe('product detail');
    expect(dl.cart.total).toBe('42');
    expect(dl.page.pageInfo.contentTitle).toBe('Gloves');
    // Core splits paths on dots only: `product[0]` is a key as written.
    expect(dl['product[0]'].productInfo.sku).toBe('1AB');
    expect(dl.nothing.here).toBe('fallback');
    // `isTrue` asks for a boolean, which no string is.
    expect(dl.user.loggedIn).toBe(true);
    expect(plan.paths.skipped).toContainEqual({ path: 'location.href', why: 'a browser global' });
    expect(plan.paths.filled).toContain('digitalData.page.pageInfo.pageUID');
    expect(Object.keys(plan.globals)).toEqual(['digitalData']);
  });

  test('cookies: those its Cookie data elements and conditions read, with the values the conditions ask for, and a consenting visitor’s', () => {
    const own = plan.cookies.map((c) => c.split(';')[0]).slice(CONSENT_COOKIES.length);
    expect(own).toEqual(['consent=yes', 'segment=b2b', 'nope=nope-1']);
    expect(plan.cookies[0]).toBe(`${CONSENT_COOKIES[0]}; Domain=.keepstock.example; Path=/; Max-Age=31536000`);
  });

  test("what a Web SDK Send Event's tokens read has the type the action takes: objects for xdm and data, a list for the decision scopes", () => {
    const jsVar = (path: string) => ({ modulePath: 'core/src/lib/dataElements/javascriptVariable.js', settings: { path } });
    const p = planPage({
      dataElements: { x: jsVar('dl.xdm'), d: jsVar('dl.target.data'), scopes: jsVar('dl.target.scopes'), other: jsVar('dl.name') },
      rules: [{ id: 'RL1', name: 'mbox', events: [], actions: [{ modulePath: 'adobe-alloy/dist/lib/actions/sendEvent/index.js', settings: { xdm: '%x%', data: '%d%', personalization: { decisionScopes: '%scopes%' } } }] }],
    });
    expect(p.globals.dl).toEqual({ xdm: {}, target: { data: {}, scopes: ['scope-1'] }, name: 'name-1' });
  });

  test('paths its code reads under the data layer globals are filled too', () => {
    expect(codePaths('var e=digitalData.page.x,t=window.digitalData.page.y; o.digitalData.no; digitalData.page.z.replace(/a/,""); digitalData.list.length; digitalData[k].w', new Set(['digitalData']))).toEqual([
      'digitalData.page.x',
      'digitalData.page.y',
      'digitalData.page.z',
      'digitalData.list',
    ]);
  });

  test('steps: each direct call once, custom events on document or on a matching element, a click for each selector', () => {
    const kinds = (k: Step['kind']) => plan.steps.filter((s) => s.kind === k);
    expect(kinds('track').map((s) => (s as { id: string }).id)).toEqual(['compare']);
    const customs = kinds('custom') as Array<Extract<Step, { kind: 'custom' }>>;
    expect(customs.filter((s) => s.target === 'document').map((s) => s.type)).toEqual(['cart:add', 'cart:remove']);
    const onButton = customs.find((s) => s.selector === 'button.add')!;
    expect(marked(onButton.target as number)).toMatchObject({ tag: 'button', attrs: { class: 'add' } });
    // An element property filter without a selector: an element with that property.
    const byClass = customs.find((s) => s.target !== 'document' && !s.selector)!;
    expect(marked(byClass.target as number)?.attrs.class).toBe('add');
    // Element property filters shape the clicked element: its id, a regular expression's sample, its text.
    const clicks = kinds('click') as Array<Extract<Step, { kind: 'click' }>>;
    // One click per selector and filter: the three `.card` rules that differ only in their bubbling options share one.
    expect(clicks.map((c) => c.selector ?? null)).toEqual(['.card', null, '.card', '.card', '.card']);
    expect(clicks.map((c) => marked(c.target)?.attrs.id).filter(Boolean)).toEqual(['outer', 'INN']);
    expect(clicks.map((c) => marked(c.target)?.text)).toContain('Remove');
    // Without a selector: a button of its own.
    expect(marked(clicks[1]!.target)).toMatchObject({ tag: 'button', attrs: { type: 'button' } });
    expect(plan.unbuildable).toEqual([]);
  });
});

describe('elements made to match a selector', () => {
  const root = () => ({ html: {}, body: {} });

  test('compounds, combinators and :nth-child', () => {
    const b = elementsFor('div.menu.open > div:nth-child(3) > div > button[data-x="y z"]', root())!;
    expect(renderElements(b.roots)).toBe('<div class="menu open"><span></span><span></span><div><div><button data-x="y z"></button></div></div></div>');
    expect(b.target.tag).toBe('button');
    expect(b.unbuilt).toEqual([]);
  });

  test('attribute operators combine into one value; links point inside the page', () => {
    expect(elementsFor('a[href^="https://"][href$=".pdf"][href*="files"]', root())!.target.attrs.href).toBe('https://files.pdf');
    expect(elementsFor('a.nav', root())!.target.attrs.href).toBe('#corpus');
    expect(elementsFor('[data-analytics]', root())!.target).toMatchObject({ tag: 'div', attrs: { 'data-analytics': '' } });
  });

  test('a list takes its first alternative that parses; body and html compounds go on the page itself', () => {
    const r = root();
    const b = elementsFor('a:::bad, body.home #main .promo ~ a.cta', r)!;
    expect(r.body).toEqual({ class: 'home' });
    expect(renderElements(b.roots)).toBe('<div id="main"><div class="promo"></div><a class="cta" href="#corpus"></a></div>');
  });

  test('what it cannot build is named, for the page to check with matches()', () => {
    expect(elementsFor('li:not(.x):hover', root())!.unbuilt).toEqual([':not(.x)', ':hover']);
    expect(elementsFor('((', root())).toBeUndefined();
  });

  test('an+b, odd and even', () => {
    expect([nthValue('3'), nthValue('odd'), nthValue('even'), nthValue('2n+1'), nthValue('-n+3'), nthValue('4n')]).toEqual([3, 1, 2, 1, 3, 4]);
  });

  test('a string each simple regular expression matches', () => {
    expect(sampleForRegex('^C0002$')).toBe('C0002');
    expect(sampleForRegex('search|results')).toBe('search');
    expect(sampleForRegex('^/article/.*')).toBe('/article/x');
    expect(sampleForRegex('(?i)broken')).toBeUndefined();
  });
});

/**
 * What each helper of `offtag/container` returns, as `offtag build`, `offtag diff` and the engine
 * read it: the kit's conditions (`valueIs`, `compare`, `anyOf`, `not`, `when`, their names, the
 * names they read, what they were made from, their results), its actions (what they need, read
 * and were made from), exceptions, `defineContainer`'s result, the data element helpers' elements
 * and results, and the analytics hits of a variable map. Each container is built inside its test,
 * so that the mutation run (docs/testing.md) sees the helpers run by that test.
 *
 * Equivalent mutants (no container can tell them apart):
 * - define.ts: `/Regex$/` → `/Regex/` in `comparisonProblem`: only Launch's operators get there,
 *   and the two with "Regex" in their names end with it.
 * - selectors.ts: the `^` of the parser's prefix (it is always at the start), `"?` → `"` in the
 *   vendor-prefix test (css-selector-parser quotes the name in both its messages), the trailing
 *   `\.?$` of `Pos: N.` (its messages all end so), and the strict parser's options → `{}`
 *   (`latest` without substitutes is its default).
 */
import { describe, expect, it } from 'vitest';
import {
  adobeServices,
  constant,
  cookie,
  dataLayer,
  defineContainer,
  evaluateVariables,
  fn,
  fromEvent,
  linkHit,
  lookupTable,
  queryString,
  regexTable,
  send,
  sessionKeysOf,
  sessionStorage,
  storedKey,
  type ConditionDef,
} from '../../../src/container/index.ts';
import { selectorProblem } from '../../../src/container/selectors.ts';
import { replaceTokens } from '../../../src/worker-engine/core/tokens.ts';
import { makeContext } from '../harness.ts';

type Values = Record<string, unknown>;
/** A rule context of these data element values: `get`, and `replaceTokens` as the engine replaces. */
const ctxOf = (values: Values) => {
  const lookup = { has: (n: string) => n in values, get: (n: string) => values[n] };
  return { get: (n: string) => values[n], replaceTokens: (t: string) => replaceTokens(t, lookup) } as never;
};
/** The kit, from a container of elements `a`, `b`, `section`. */
const kitOf = () => {
  let kit: Parameters<Extract<Parameters<typeof defineContainer>[0]['rules'], (...a: never[]) => unknown>>[0] | undefined;
  defineContainer({
    name: 'kit',
    dataElements: { a: constant(1), b: constant(2), section: dataLayer('page.section') },
    rules: (k) => ((kit = k as never), []),
  });
  return kit!;
};
/** A function element's value in `ctx` (the engine calls it so), and a helper's finding. */
const value = (e: unknown, ctx: unknown) => (e as { fn: (c: never) => unknown }).fn(ctx as never);
const problemOf = (e: unknown) => (e as { problem?: string }).problem;
const met = async (c: ConditionDef<string, object, object>, values: Values) => {
  const r = await c.fn!(ctxOf(values));
  return c.negate ? !r : r;
};

describe('conditions', () => {
  it('valueIs: its name, what it reads, what it was made from; equal strictly, or one of a list', () => {
    const k = kitOf();
    const c = k.valueIs('section', 'news');
    expect({ ...c, fn: undefined }).toEqual({ name: 'section is "news"', uses: ['section'], def: { valueIs: 'section', value: 'news' }, fn: undefined });
    expect(c.fn!(ctxOf({ section: 'news' }))).toBe(true);
    expect(c.fn!(ctxOf({ section: 'sport' }))).toBe(false);
    expect(k.valueIs('a', 1).fn!(ctxOf({ a: '1' }))).toBe(false);
    expect(k.valueIs('section', ['news', 'sport']).name).toBe('section is ["news","sport"]');
    expect(k.valueIs('section', ['news', 'sport']).fn!(ctxOf({ section: 'sport' }))).toBe(true);
    expect(k.valueIs('section', ['news', 'sport']).fn!(ctxOf({ section: 'home' }))).toBe(false);
  });

  it('compare: its name, what it reads (a value with %tokens% too), what it was made from', () => {
    const k = kitOf();
    const plain = k.compare('section', 'equals', 'deals');
    expect({ ...plain, fn: undefined }).toEqual({ name: 'section equals "deals"', uses: ['section'], def: { compare: 'section', operator: 'equals', value: 'deals', options: {} }, fn: undefined });
    const flag = k.compare('a', 'isTruthy');
    expect(flag.name).toBe('a isTruthy');
    expect(flag.uses).toEqual(['a']);
    expect(flag).not.toHaveProperty('negate');
    const tokens = k.compare('section', 'startsWith', '%b%-', { caseInsensitive: true, negate: true });
    expect({ ...tokens, fn: undefined }).toEqual({
      name: 'section startsWith "%b%-"',
      uses: ['section', '%b%-'],
      negate: true,
      def: { compare: 'section', operator: 'startsWith', value: '%b%-', options: { caseInsensitive: true, negate: true } },
      fn: undefined,
    });
    expect(k.compare('a', 'lessThan', 10).name).toBe('a lessThan 10');
    expect(k.compare('a', 'lessThan', 10).uses).toEqual(['a']);
  });

  it("compare: the Launch runtime's comparison, %tokens% of the value replaced, case ignored only when asked", () => {
    const k = kitOf();
    expect(k.compare('section', 'startsWith', '%b%-').fn!(ctxOf({ section: '2-deals', b: 2 }))).toBe(true);
    expect(k.compare('section', 'startsWith', '%b%-').fn!(ctxOf({ section: '%b%-deals', b: 2 }))).toBe(false);
    expect(k.compare('section', 'equals', 'DEALS').fn!(ctxOf({ section: 'deals' }))).toBe(false);
    expect(k.compare('section', 'equals', 'DEALS', { caseInsensitive: true }).fn!(ctxOf({ section: 'deals' }))).toBe(true);
    expect(k.compare('a', 'lessThan', 10).fn!(ctxOf({ a: '9.5' }))).toBe(true);
    expect(k.compare('a', 'lessThan', 10).fn!(ctxOf({ a: 11 }))).toBe(false);
  });

  it('compare: an operator Launch does not have, a pattern that is no regular expression; a pattern with %tokens% or not a text is left to run time', () => {
    const k = kitOf();
    expect(k.compare('section', 'isEqual' as 'equals', 'x').problem).toBe(
      '"isEqual" is no comparison operator (the operators: equals, contains, startsWith, endsWith, matchesRegex, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual, isTrue, isTruthy, isFalse, isFalsy, doesNotEqual, doesNotContain, doesNotStartWith, doesNotEndWith, doesNotMatchRegex)',
    );
    expect(k.compare('section', 'matchesRegex', 'deal(').problem).toBe('"deal(" is not a regular expression (Invalid regular expression: /deal(/: Unterminated group)');
    expect(k.compare('section', 'doesNotMatchRegex', '[').problem).toBe('"[" is not a regular expression (Invalid regular expression: /[/: Unterminated character class)');
    expect(k.compare('section', 'matchesRegex', '^deals?$')).not.toHaveProperty('problem');
    expect(k.compare('section', 'contains', 'deal(')).not.toHaveProperty('problem');
    expect(k.compare('section', 'matchesRegex', '%b%(')).not.toHaveProperty('problem');
    expect(k.compare('section', 'matchesRegex', 5)).not.toHaveProperty('problem');
    // "Regex" at the end of the operator's name only.
    expect(k.compare('section', 'Regexy' as 'equals', 'x').problem).toMatch(/^"Regexy" is no comparison operator/);
  });

  it('anyOf: met when any is (each with its own negation); its name, what it reads and was made from; a page condition in it is refused', async () => {
    const k = kitOf();
    const group = k.anyOf(k.valueIs('a', 5), k.not(k.valueIs('section', 'news')), k.when('custom', (ctx) => ctx.get('b') === 3));
    expect(group.name).toBe('any of (a is 5, not section is "news", custom)');
    expect(group.uses).toEqual(['a', 'section']);
    expect(group.def).toEqual({ anyOf: [{ valueIs: 'a', value: 5 }, { valueIs: 'section', value: 'news', negate: true }, { name: 'custom' }] });
    expect(group).not.toHaveProperty('problem');
    expect(group).not.toHaveProperty('negate');
    expect(await met(group, { a: 1, section: 'news', b: 2 })).toBe(false);
    expect(await met(group, { a: 5, section: 'news', b: 2 })).toBe(true);
    expect(await met(group, { a: 1, section: 'sport', b: 2 })).toBe(true);
    expect(await met(group, { a: 1, section: 'news', b: 3 })).toBe(true);
    const withPage = k.anyOf(k.valueIs('a', 5), k.pageCondition('wide', () => true));
    expect(withPage.problem).toBe('"wide" is a page condition, which cannot be in a group (give it its own place in the rule\'s conditions)');
    // The page condition is the page's: the group in the worker skips it.
    expect(await met(withPage, { a: 1 })).toBe(false);
    expect(await met(k.anyOf(), {})).toBe(false);
  });

  it('not: the same condition, named "not …", negated; twice is the condition again', async () => {
    const k = kitOf();
    const c = k.not(k.valueIs('a', 1));
    expect(c.name).toBe('not a is 1');
    expect(c.negate).toBe(true);
    expect(c.uses).toEqual(['a']);
    expect(await met(c, { a: 1 })).toBe(false);
    expect(await met(c, { a: 2 })).toBe(true);
    expect(k.not(c).negate).toBe(false);
    expect(k.not(k.compare('a', 'equals', 1, { negate: true })).negate).toBe(false);
  });

  it('when and pageCondition, run: a name and a function', () => {
    const k = kitOf();
    const f = () => true;
    expect(k.when('mine', f)).toEqual({ name: 'mine', fn: f });
    expect(k.run('act', () => {}).name).toBe('act');
    expect(k.run('act', f as () => void)).toEqual({ name: 'act', fn: f });
    expect(k.pageCondition('wide', f)).toEqual({ name: 'wide', page: { from: 'code', code: f } });
    expect(k.text('%a% and %b%')).toBe('%a% and %b%');
    expect(k.variables({ pageName: '%a%' })).toEqual({ pageName: '%a%' });
  });

  it("exceptions: after the rule's own conditions, each met when its condition is not, named as an exception", async () => {
    const c = defineContainer({
      name: 'ex',
      dataElements: { a: constant(1) },
      rules: (k) => [
        { name: 'With', events: [{ type: 'dom-ready' }], conditions: [k.valueIs('a', 1)], exceptions: [k.valueIs('a', 2), k.not(k.valueIs('a', 3))], actions: [] },
        { name: 'Only exceptions', events: [{ type: 'dom-ready' }], exceptions: [k.valueIs('a', 2)], actions: [] },
        { name: 'Empty', events: [{ type: 'dom-ready' }], exceptions: [], actions: [] },
      ],
    });
    const [withEx, only, empty] = c.rules;
    expect(withEx!.conditions!.map((x) => [x.name, x.negate ?? false])).toEqual([['a is 1', false], ['exception: a is 2', true], ['exception: not a is 3', false]]);
    expect(withEx).not.toHaveProperty('exceptions');
    expect(only!.conditions!.map((x) => x.name)).toEqual(['exception: a is 2']);
    expect(empty).toEqual({ name: 'Empty', events: [{ type: 'dom-ready' }], exceptions: [], actions: [] });
  });
});

describe('actions', () => {
  it('pageView, link, startVisitor: their names, the service they need, the %tokens% they read, what they were made from', () => {
    const k = kitOf();
    const view = k.pageView({ pageName: '%section%', channel: 'news', eVar1: 'D=pageName' });
    expect({ ...view, fn: undefined }).toEqual({ name: 'Send page view beacon', needs: 'the analytics service of adobeServices()', uses: ['%section%'], def: { pageView: { pageName: '%section%', channel: 'news', eVar1: 'D=pageName' } }, fn: undefined });
    expect(k.pageView({}, 'Mine').name).toBe('Mine');
    const link = k.link('%a% deal', { prop1: '%b%', prop2: 'x' }, { trackVars: ['prop1'] });
    expect({ ...link, fn: undefined }).toEqual({
      name: 'Send link beacon',
      needs: 'the analytics service of adobeServices()',
      uses: ['%a% deal', '%b%'],
      def: { link: '%a% deal', variables: { prop1: '%b%', prop2: 'x' }, options: { trackVars: ['prop1'] } },
      fn: undefined,
    });
    const start = k.startVisitor();
    expect({ ...start, fn: undefined }).toEqual({ name: 'Start the visitor service', needs: 'the visitor-ID service of adobeServices()', def: { startVisitor: true }, fn: undefined });
  });

  it('a visitor service that does not start is an error in the log', async () => {
    const logged: unknown[] = [];
    const ctx = { services: { visitor: { start: () => Promise.reject(new Error('no org')) } }, log: (...a: unknown[]) => logged.push(a) };
    kitOf().startVisitor().fn!(ctx as never);
    await new Promise((r) => setImmediate(r));
    expect(logged).toEqual([['error', 'The visitor service did not start: no org']]);
  });

  it('a beacon the tracker refuses is an error in the log, naming the rule', async () => {
    const logged: unknown[] = [];
    send({ services: { analytics: { track: () => Promise.reject(new Error('full')) } }, log: (...a: unknown[]) => logged.push(a), rule: { name: 'View' } } as never, { type: 't', vars: {} });
    await new Promise((r) => setImmediate(r));
    expect(logged).toEqual([['error', 'Analytics beacon of rule "View" failed: full']]);
  });
});

describe('the hits of a variable map', () => {
  it('a variable left undefined is not sent; a link whose name is no value is "link clicked"', () => {
    const ctx = ctxOf({ page: 'Home', nothing: undefined, empty: '' });
    expect(evaluateVariables({ pageName: '%page%', prop1: undefined, prop2: '%nothing%', prop3: '%empty%' }, ctx)).toEqual({ pageName: 'Home' });
    expect(linkHit('%nothing%', {}, ctx).linkName).toBe('link clicked');
    expect(linkHit('%empty%', {}, ctx).linkName).toBe('link clicked');
    expect(linkHit('%page%', {}, ctx).linkName).toBe('Home');
  });
});

describe('defineContainer', () => {
  it('takes what the container gives and nothing it does not', () => {
    const page = { reads: [] } as never;
    const bare = defineContainer({ name: 'bare', dataElements: {}, rules: [] });
    expect(bare).toStrictEqual({ name: 'bare', sessionKeys: [], dataElements: {}, rules: [] });
    const full = defineContainer({ name: 'full', version: '1.0', buildDate: '2024-01-01T00:00:00Z', settings: { site: 'x' }, dataElements: {}, services: adobeServices(), page, rules: [] });
    expect(full).toMatchObject({ name: 'full', version: '1.0', buildDate: '2024-01-01T00:00:00Z', settings: { site: 'x' }, page });
    expect(typeof full.services).toBe('function');
    expect(typeof full.hooks).toBe('function');
    const noHooks = defineContainer({ name: 'n', dataElements: {}, services: { create: () => ({ mine: 1 }) }, rules: [] });
    expect(noHooks.services!({} as never)).toEqual({ mine: 1 });
    expect(noHooks).not.toHaveProperty('hooks');
  });

  it("adobeServices() builds the visitor service and the tracker in the engine's context; its hooks reach them", () => {
    const c = defineContainer({ name: 's', dataElements: {}, services: adobeServices(), rules: [] });
    const services = c.services!(makeContext()) as { visitor: { orgId: string }; analytics: { track: unknown; pendingHits?: () => number } };
    expect(typeof services.analytics.track).toBe('function');
    expect(typeof services.visitor).toBe('object');
    expect(c.hooks!(services as never).pendingHits!()).toBe(0);
  });

  it('the session keys: its own, each sessionStorage key and each session-stored element, once each', () => {
    expect(
      sessionKeysOf(['{brand}Cart', 'seen'], {
        cart: sessionStorage('{brand}Cart'),
        wish: sessionStorage('wish'),
        odd: { type: 'session', key: (() => 'x') as never },
        campaign: queryString('cid', { storage: 'session' }),
        label: constant('x'),
      } as never),
    ).toEqual(['{brand}Cart', 'seen', 'wish', storedKey('campaign')]);
    expect(sessionKeysOf([], { key: { type: 'custom', key: 'k', fn: () => 1 } } as never)).toEqual([]);
    const c = defineContainer({ name: 'k', sessionKeys: ['own'], dataElements: { wish: sessionStorage('wish') }, rules: [] });
    expect(c.sessionKeys).toEqual(['own', 'wish']);
  });
});

describe('data element helpers', () => {
  it('each helper gives the engine its element, finished as asked and nothing more', () => {
    expect(sessionStorage('wish')).toStrictEqual({ type: 'session', key: 'wish' });
    expect(dataLayer('page.section', { default: 'home', lowerCase: true, cleanText: true, missingMessage: 'no section', storage: 'session' })).toEqual({
      type: 'data-layer',
      path: 'page.section',
      default: 'home',
      forceLowerCase: true,
      cleanText: true,
      missingMessage: 'no section',
      storage: 'session',
    });
    expect(dataLayer('p', { default: undefined, lowerCase: false, cleanText: false, missingMessage: '', storage: 'pageview' })).toStrictEqual({ type: 'data-layer', path: 'p' });
    expect(dataLayer('p', { default: 0 })).toEqual({ type: 'data-layer', path: 'p', default: 0 });
    expect(cookie('c', { decode: false })).toEqual({ type: 'cookie', name: 'c', decode: false });
    expect(cookie('c')).toStrictEqual({ type: 'cookie', name: 'c' });
    const q = queryString('cid');
    expect({ ...q, fn: undefined }).toEqual({ type: 'custom', reads: [], def: { queryString: 'cid' }, fn: undefined });
    const f = () => 1;
    expect(fn(f)).toStrictEqual({ type: 'custom', fn: f });
    expect(fn(f, { reads: ['page'], sideEffects: true })).toEqual({ type: 'custom', fn: f, reads: ['page'], sideEffects: true });
    expect(fn(f, { sideEffects: false })).toStrictEqual({ type: 'custom', fn: f });
    const e = fromEvent('event.detail.sku');
    expect({ ...e, fn: undefined }).toEqual({ type: 'custom', reads: [], def: { fromEvent: 'event.detail.sku' }, fn: undefined });
  });

  it('queryString: the first value of the parameter, decoded; undefined when absent', () => {
    const read = (url: string) => value(queryString('cid'), { snapshot: { url } });
    expect(read('https://x.example/?cid=a%20b&cid=c')).toBe('a b');
    expect(read('https://x.example/')).toBeUndefined();
  });

  it('lookupTable: the row of the value as text (a missing value is the empty text), case ignored only when asked', () => {
    const table = lookupTable('country', { fr: 'europe', '': 'none', 7: 'seven' });
    expect({ ...table, fn: undefined }).toEqual({ type: 'custom', reads: [], fn: undefined });
    const at = (t: typeof table, country: unknown) => value(t, ctxOf({ country }));
    expect(at(table, 'fr')).toBe('europe');
    expect(at(table, 'FR')).toBeUndefined();
    expect(at(table, undefined)).toBe('none');
    expect(at(table, null)).toBe('none');
    expect(at(table, 7)).toBe('seven');
    const ci = lookupTable('country', { FR: 'europe' }, { caseInsensitive: true });
    expect(at(ci, 'fr')).toBe('europe');
    expect(at(ci, 'Fr')).toBe('europe');
  });

  it('regexTable: the first row whose pattern matches, $n its groups (a group that took no part is empty), an output that is no text as it is', () => {
    const table = regexTable('path', [['/(?:(a)|(b))/', '$1$2!'], ['/obj', { kind: 'object' }], ['/x/(\\d+)', '$1']]);
    expect({ ...table, fn: undefined }).toEqual({ type: 'custom', reads: [], fn: undefined });
    const at = (path: unknown) => value(table, ctxOf({ path }));
    expect(at('/b/')).toBe('b!');
    expect(at('/a/')).toBe('a!');
    expect(at('/OBJ')).toEqual({ kind: 'object' });
    expect(at('/x/12')).toBe('12');
    expect(at('/x/12/more')).toBeUndefined();
    expect(at(undefined)).toBeUndefined();
  });

  it('regexTable: a row whose pattern is no regular expression is left out; the rows after it still match', () => {
    expect(value(regexTable('path', [['(', 'x'], ['deals?', 'deal']]), ctxOf({ path: 'deals' }))).toBe('deal');
  });

  it('fromEvent: the event token read from the event; undefined on an event without it', () => {
    const sku = fromEvent('event.detail.sku');
    expect(value(sku, { event: { type: 'direct-call', id: 'x', detail: { sku: 'A-1' } } })).toBe('A-1');
    expect(value(sku, { event: { type: 'dom-ready' } })).toBeUndefined();
  });

  it('regexTable: every pattern that is no regular expression, in one problem', () => {
    expect(problemOf(regexTable('path', [['(', 'x'], ['ok', 'y'], ['[', 'z']]))).toBe(
      'regexTable("path"): "(" is not a regular expression (Invalid regular expression: /^(?:()$/i: Unterminated group); regexTable("path"): "[" is not a regular expression (Invalid regular expression: /^(?:[)$/i: Unterminated character class)',
    );
  });
});

describe('selectors', () => {
  it('a $ placeholder is no CSS, next to a vendor pseudo-class or not', () => {
    expect(selectorProblem('a[href=$x]')).toBe('Expected attribute value (at character 7)');
    expect(selectorProblem('a:-moz-any[href=$x]')).toBe('Unknown pseudo-class: "-moz-any" (at character 10)');
    expect(selectorProblem('a::-webkit-foo')).toBeUndefined();
  });
});

/**
 * Core's conditions and data elements on what the other tests leave out: Value Comparison with
 * operands that are no text or number (Core compares text and numbers only), a regular expression
 * ignoring case, the URL conditions with several values (any one matches), the query string
 * parameter's name matched exactly and a missing parameter never matching; storage for the session
 * of a value JSON cannot write; Data Layer Manager's state kept across other events; the data
 * elements that read no other one and those with side effects.
 *
 * Mutants no input can tell apart (left Survived on purpose):
 * - conditions isNum: `typeof v === 'number'` → true: Number.isFinite is false for anything but a number.
 * - data elements, session storage: `kept === null` → false: JSON.parse(null) is null.
 */
import { describe, expect, it } from 'vitest';
import * as launch from '../../../src/launch/index.ts';

type Custom = { fn(c: never): unknown; reads?: string[]; sideEffects?: boolean };
const custom = (d: unknown) => d as Custom;
const ruleCtx = (url: string, cookies: Record<string, string> = {}) => ({ snapshot: { url }, cookies: { get: (n: string) => cookies[n] }, settings: {} }) as never;

describe("Core's Value Comparison on operands that are no text or number", () => {
  it('contains and the numeric operators take text and numbers only; a regular expression ignores case when asked', () => {
    expect(launch.compare('contains', 'true story', true, false)).toBe(false);
    expect(launch.compare('contains', 'a 1 b', 1, false)).toBe(true);
    expect(launch.compare('lessThan', 0, true, false)).toBe(false);
    expect(launch.compare('lessThan', 0, '1', false)).toBe(true);
    expect(launch.compare('matchesRegex', 'ABC', '^abc$', true)).toBe(true);
    expect(launch.compare('matchesRegex', 'ABC', '^abc$', false)).toBe(false);
  });
});

describe("Core's URL and cookie conditions", () => {
  const at = 'https://www.shop.example.com/p?cid=Spring&X=1';
  it('path, path and query string and subdomain: any of the values matches', () => {
    const two = [{ value: '/other' }, { value: '/p' }];
    expect(launch.path(two).fn!(ruleCtx(at))).toBe(true);
    expect(launch.pathAndQuerystring([{ value: '/none' }, { value: '/p?cid=Spring&X=1' }]).fn!(ruleCtx(at))).toBe(true);
    expect(launch.subdomain([{ value: 'nope' }, { value: '^www\\.', valueIsRegex: true }]).fn!(ruleCtx(at))).toBe(true);
  });
  it('the query string parameter: its name as written, and a missing one never matches, not even ".*"', () => {
    expect(launch.queryStringParameterIs('x', { value: '1' }).fn!(ruleCtx(at))).toBe(false);
    expect(launch.queryStringParameterIs('X', { value: '1' }).fn!(ruleCtx(at))).toBe(true);
    expect(launch.queryStringParameterIs('missing', { value: '.*', valueIsRegex: true }).fn!(ruleCtx(at))).toBe(false);
  });
  it("the conditions carry Core's names; a page condition a timeout only when given", () => {
    const m = { value: 'x' };
    expect([launch.domain([]), launch.path([]), launch.pathAndQuerystring([]), launch.subdomain([]), launch.queryStringParameterIs('q', m), launch.cookieIs('c', m), launch.variableIs('v', m)].map((c) => c.name)).toEqual([
      'Domain',
      'Path Without Query String',
      'Path And Query String',
      'Subdomain',
      'Query String Parameter',
      'Cookie',
      'Variable',
    ]);
    expect(launch.pageCondition('function () {}')).toStrictEqual({ name: 'Custom Code', page: { from: 'launch-code', source: 'function () {}' } });
    expect(launch.pageCondition('function () {}', { timeout: 0 }).timeout).toBe(0);
  });
});

describe("Core's data elements: storage, Data Layer Manager's state, what they read", () => {
  const session = () => {
    const store = new Map<string, string>();
    return { get: (k: string) => store.get(k) ?? null, set: (k: string, v: string | null) => void (v === null ? store.delete(k) : store.set(k, v)), store };
  };
  const dctx = (s: ReturnType<typeof session>, event: object = { type: 'direct-call', id: 'x' }) => ({ settings: { dataLayer: 'digitalData' }, snapshot: { url: 'https://x.example/', dataLayer: {} }, event, session: s, page: {}, get: () => undefined, has: () => false }) as never;
  it('a value kept for the session that JSON cannot write (a function, a cycle) is not kept, as turbine keeps it: the next read without a value gives the default', () => {
    const s = session();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    let value: unknown = () => 1;
    const table = launch.dataElements({ kept: launch.finished(() => value, { storageDuration: 'session', defaultValue: 'none' }, []) });
    expect(typeof custom(table.kept).fn(dctx(s))).toBe('function');
    value = cyclic;
    expect(custom(table.kept).fn(dctx(s))).toBe(cyclic);
    expect(s.store.size).toBe(0);
    value = undefined;
    expect(custom(table.kept).fn(dctx(s))).toBe('none');
    value = { a: 1 };
    custom(table.kept).fn(dctx(s));
    value = null;
    expect(custom(table.kept).fn(dctx(s))).toEqual({ a: 1 });
  });
  it("Data Layer Manager's state: a push event's, kept through other events (a click's too); '' is all of it", () => {
    const s = session();
    const all = launch.dataLayerState('');
    const page = launch.dataLayerState('page.name');
    const push = { type: 'trigger', on: 'data-layer-push', state: { page: { name: 'home' } } };
    expect(custom(all).fn(dctx(s, push))).toEqual({ page: { name: 'home' } });
    expect(custom(page).fn(dctx(s, { type: 'trigger', on: 'click', state: { page: { name: 'click state' } } }))).toBe('home');
    expect(custom(page).fn(dctx(s, { type: 'direct-call', id: 'x', on: 'data-layer-push', state: { page: { name: 'not a push' } } }))).toBe('home');
  });
  it('they read no other data element through the engine; Random Number has side effects, page reads none', () => {
    const elements = [
      launch.cookie('c'),
      launch.constant(1),
      launch.queryStringParameter('q', false),
      launch.pageInfo('url'),
      launch.mergedObjects([]),
      launch.xdmObject({}),
      launch.identityMap({}),
      launch.conditionalValue('a', 'equals', 'a', false, {}),
      launch.randomNumber(1, 2),
      launch.sessionStorageItem('k'),
      launch.pageVariable('w.x'),
      launch.dataLayerState(''),
      launch.customCode((() => () => 1) as never),
    ];
    expect(elements.map((d) => custom(d).reads)).toEqual(elements.map(() => []));
    expect([launch.randomNumber(1, 2), launch.pageVariable('w.x'), launch.constant(1)].map((d) => custom(d).sideEffects)).toEqual([true, undefined, undefined]);
  });
});

describe("Core's regular expression ignoring case", () => {
  it('takes the pattern as written, with the i flag (Core lower-cases the text operators only): \\D, \\S, \\W keep their meaning', () => {
    expect(launch.compare('matchesRegex', 'ABC', '^\\D+$', true)).toBe(true);
    expect(launch.compare('matchesRegex', 'A B', '^\\S+$', true)).toBe(false);
    expect(launch.compare('matchesRegex', 'A-B', '\\W', true)).toBe(true);
    expect(launch.compare('doesNotMatchRegex', 'ABC', '^\\D+$', true)).toBe(false);
    expect(launch.compare('matchesRegex', 'Abc', '^aBC$', true)).toBe(true);
    expect(launch.compare('contains', 'Shoes/Red', 'RED', true)).toBe(true);
  });
});

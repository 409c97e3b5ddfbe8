/**
 * Core's and the Web SDK's data elements on what the other tests leave out: an element outside a
 * table (no name), the query string parameter found by any case when a parameter is literally
 * named "undefined", Merged Objects with an empty list, the identity map's refusals, Runtime
 * Environment on the page's getVar, and custom code's event on a rule and on a getVar.
 *
 * Mutants no input can tell apart (left Survived on purpose):
 * - dataLayerState: `path === ''` → false and its '' literal: readPath of '' has no step and gives
 *   the state itself.
 * - custom-code.ts run(): the getVar event `{ type: 'get-var', name: '' }` → {} and its texts, and
 *   `'element'` → '' (both): runBlock and the virtual page read only the event's element (neither
 *   has one) and only test `self === 'window'`.
 */
import { describe, expect, it } from 'vitest';
import * as launch from '../../../src/launch/index.ts';

type Custom = { fn(c: never): unknown; reads?: string[]; sideEffects?: boolean };
const custom = (d: unknown) => d as Custom;

function dctx(o: { url?: string; pageCall?: boolean; event?: object; values?: Record<string, unknown> } = {}) {
  const store = new Map<string, string>();
  const values = o.values ?? {};
  return {
    settings: { environment: 'production', dataLayer: 'digitalData' },
    snapshot: { url: o.url ?? 'https://x.example/', referrer: '', time: 0, dataLayer: {} },
    event: o.event ?? { type: 'direct-call', id: 'go' },
    session: { get: (k: string) => store.get(k) ?? null, set: (k: string, v: string | null) => void (v === null ? store.delete(k) : store.set(k, v)) },
    cookies: { get: () => undefined, all: () => ({}) },
    page: {},
    get: (n: string) => values[n],
    has: (n: string) => n in values,
    log: () => {},
    ...(o.pageCall !== undefined ? { pageCall: o.pageCall } : {}),
  } as never;
}

describe('data elements on their edges', () => {
  it("an element outside a table reads under the name ''; one in a table under its own", () => {
    const read = (_c: unknown, name: string) => `name:${name}`;
    expect(custom(launch.finished(read, {}, [])).fn(dctx())).toBe('name:');
    const table = launch.dataElements({ mine: launch.finished(read, {}, []) });
    expect(custom(table.mine).fn(dctx())).toBe('name:mine');
  });
  it('the query string parameter by any case: no parameter of that name gives undefined, even beside one named "undefined"', () => {
    const de = launch.queryStringParameter('cid', true);
    expect(custom(de).fn(dctx({ url: 'https://x.example/?undefined=1&other=2' }))).toBeUndefined();
    expect(custom(de).fn(dctx({ url: 'https://x.example/?undefined=1&CID=2' }))).toBe('2');
  });
  it('Merged Objects keeps an empty list as an empty list', () => {
    expect(custom(launch.mergedObjects([{ a: [] }, { b: 1 }])).fn(dctx())).toStrictEqual({ a: [], b: 1 });
    expect(custom(launch.mergedObjects([{ a: [] }, { a: [] }])).fn(dctx())).toStrictEqual({ a: [] });
  });
  it("the identity map refuses a namespace that is no list, and keeps only identities whose id is text that is not empty", () => {
    expect(() => custom(launch.identityMap({ ECID: 'x' })).fn(dctx())).toThrow(new Error("the identity map's namespace ECID is not a list of identities"));
    const map = { Email: [null, { id: 7 }, { id: ['a'] }, { id: '' }, { id: 'a@example.com', primary: true }], Phone: [{ id: 1 }] };
    expect(custom(launch.identityMap(map)).fn(dctx())).toStrictEqual({ Email: [{ id: 'a@example.com', primary: true }] });
  });
  it("Runtime Environment's event attributes fail on the page's getVar, which gives no event; it reads no other element", () => {
    const de = launch.runtimeEnvironment('eventType');
    expect(() => custom(de).fn(dctx({ pageCall: true }))).toThrow(new TypeError('Runtime Environment eventType needs an event; getVar gives none'));
    expect(custom(de).fn(dctx({ pageCall: false }))).toBe('core.direct-call');
    expect(custom(launch.runtimeEnvironment('environmentStage')).fn(dctx({ pageCall: true }))).toBe('production');
    expect(custom(de).reads).toEqual([]);
  });
  it("custom code: no side effects unless told; on a rule's read it gets the event (its rule nameless) and the element as this; on a getVar one undefined argument and no this", () => {
    const block = (() =>
      function (this: { id?: string } | undefined, ...args: unknown[]) {
        return { self: this?.id, count: args.length, event: args[0] };
      }) as never;
    expect(launch.customCode(block)).not.toHaveProperty('sideEffects');
    const click = { type: 'trigger', on: 'click', element: { tagName: 'A', id: 'buy', attributes: {} } };
    const onRule = custom(launch.customCode(block)).fn(dctx({ pageCall: false, event: click })) as { self?: string; count: number; event: { $type: string; $rule: { name: string } } };
    expect([onRule.self, onRule.count, onRule.event.$type, onRule.event.$rule]).toEqual(['buy', 1, 'core.click', { name: '' }]);
    expect(custom(launch.customCode(block)).fn(dctx({ pageCall: true, event: click }))).toStrictEqual({ self: undefined, count: 1, event: undefined });
  });
});

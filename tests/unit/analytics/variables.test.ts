/**
 * Variable names and wire values.
 *
 * Equivalent: variables.ts the hierarchy pattern `/^h\d+$/` made `/^h\d$/`, `/^h\d+/` or `/h\d+$/`:
 * the only query keys with an h before digits are h1–h5, which each of them matches.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { HIER_MAX_CHARS, queryKeyOf, wireValue, type TrackerVars } from '../../../src/worker-engine/analytics/variables.ts';

describe('variable names', () => {
  it('maps JS names to query keys', () => {
    expect(queryKeyOf('pageName')).toBe('pageName');
    expect(queryKeyOf('channel')).toBe('ch');
    expect(queryKeyOf('currencyCode')).toBe('cc');
    expect(queryKeyOf('campaign')).toBe('v0');
    expect(queryKeyOf('transactionID')).toBe('xact');
    expect(queryKeyOf('pageURL')).toBe('g');
    expect(queryKeyOf('prop75')).toBe('c75');
    expect(queryKeyOf('eVar250')).toBe('v250');
    expect(queryKeyOf('hier5')).toBe('h5');
    expect(queryKeyOf('list3')).toBe('l3');
  });
  it('rejects names outside the ranges props 1-75, eVars 1-250, hier 1-5, lists 1-3', () => {
    for (const n of ['prop0', 'prop76', 'eVar0', 'eVar251', 'hier6', 'list4', 'eVar01', 'evar1', 'toString', 'constructor']) {
      expect(queryKeyOf(n), n).toBeUndefined();
    }
  });
  it('carries the ranges in the types', () => {
    expectTypeOf<{ eVar250: string }>().toMatchTypeOf<TrackerVars>();
    expectTypeOf<{ prop75: string; list3: string; hier5: string }>().toMatchTypeOf<TrackerVars>();
    // @ts-expect-error eVar251 is outside the range
    const bad: TrackerVars = { eVar251: 'x' };
    // @ts-expect-error list4 is outside the range
    const bad2: TrackerVars = { list4: 'x' };
    expect([bad, bad2]).toHaveLength(2);
  });
});

describe('values go out whole, as AppMeasurement sends them', () => {
  it('pageName, props, eVars and lists are never cut on the client', () => {
    expect(wireValue('pageName', 'x'.repeat(300))).toHaveLength(300);
    expect(wireValue('c1', 'x'.repeat(150))).toHaveLength(150);
    expect(wireValue('v1', 'é'.repeat(300))).toBe('é'.repeat(300));
    expect(wireValue('l1', `a,${'y'.repeat(300)},b`)).toBe(`a,${'y'.repeat(300)},b`);
    expect(wireValue('events', 'e'.repeat(70_000))).toHaveLength(70_000);
  });
  it('hierarchies keep the library\'s own rule: their first 255 characters (UTF-16 units, not bytes)', () => {
    expect(HIER_MAX_CHARS).toBe(255);
    expect(wireValue('h1', 'x'.repeat(300))).toBe('x'.repeat(255));
    expect(wireValue('h5', 'é'.repeat(300))).toBe('é'.repeat(255));
    expect(wireValue('h1', 'short')).toBe('short');
  });
});

import { describe, expect, expectTypeOf, it } from 'vitest';
import { isTrackerVarName, limitValue, queryKeyOf, truncateBytes, type TrackerVars } from '../../../src/worker-engine/analytics/variables.ts';

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
      expect(isTrackerVarName(n)).toBe(false);
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

describe('length limits (bytes)', () => {
  it('props 100, eVars 255, hier 255, pageName 100', () => {
    expect(limitValue('c1', 'x'.repeat(150))).toEqual({ value: 'x'.repeat(100), cut: true });
    expect(limitValue('v1', 'x'.repeat(300)).value).toHaveLength(255);
    expect(limitValue('h1', 'x'.repeat(300)).value).toHaveLength(255);
    expect(limitValue('pageName', 'x'.repeat(101)).value).toHaveLength(100);
    expect(limitValue('v1', 'short')).toEqual({ value: 'short', cut: false });
  });
  it('counts UTF-8 bytes and never splits a character', () => {
    expect(truncateBytes('é'.repeat(60), 100)).toBe('é'.repeat(50));
    expect(truncateBytes('a' + '€'.repeat(40), 100)).toBe('a' + '€'.repeat(33));
  });
  it('lists are limited per value', () => {
    const long = 'y'.repeat(300);
    expect(limitValue('l1', `a,${long},b`).value).toBe(`a,${'y'.repeat(255)},b`);
  });
  it('D= copies are never cut', () => {
    expect(limitValue('c1', 'D=' + 'v'.repeat(200)).cut).toBe(false);
  });
  it('events and products allow 64 KB', () => {
    expect(limitValue('events', 'e'.repeat(70_000)).value).toHaveLength(65_536);
  });
});

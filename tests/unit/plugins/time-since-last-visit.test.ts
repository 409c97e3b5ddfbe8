/**
 * getTimeSinceLastVisit: the gap bucketed as the public plugin buckets it, kept for the visit in s_inv.
 *
 * Equivalent: time-since-last-visit.ts `kept === NEW_VISITOR` → false: a kept `New Visitor` is then
 * matched by nothing, and what matches nothing is answered New Visitor.
 */
import { describe, expect, it } from 'vitest';
import {
  formatTimeSinceLastVisit,
  getTimeSinceLastVisit,
  NEW_VISITOR,
} from '../../../src/worker-engine/analytics/plugins/time-since-last-visit.ts';
import { DAY, HOUR, MIN, memoryJar, T0 } from './jar.ts';

describe('getTimeSinceLastVisit', () => {
  it('is New Visitor without a cookie; writes s_tslv (2 years) and s_inv (30 minutes)', () => {
    const jar = memoryJar();
    expect(getTimeSinceLastVisit(jar, T0)).toBe('New Visitor');
    expect(jar.writes).toEqual([
      { name: 's_tslv', value: String(T0), expires: T0 + 2 * 365 * DAY, path: '/', domain: '' },
      { name: 's_inv', value: 'New%20Visitor', expires: T0 + 30 * MIN, path: '/', domain: '' },
    ]);
  });
  it('measures the gap at the first hit of a visit and keeps it for the visit', () => {
    const jar = memoryJar({ s_tslv: String(T0 - 3 * DAY) });
    expect(getTimeSinceLastVisit(jar, T0)).toBe('3 days');
    // The bucket text, escaped as the plugin writes it, not the seconds.
    expect(jar.store.s_inv).toBe('3%20days');
    expect(getTimeSinceLastVisit(jar, T0 + 10 * MIN)).toBe('3 days');
    expect(jar.store.s_inv).toBe('3%20days');
  });
  it('a return visit 40 days later writes s_inv as 40%20days', () => {
    const jar = memoryJar({ s_tslv: String(T0 - 40 * DAY) });
    expect(getTimeSinceLastVisit(jar, T0)).toBe('40 days');
    expect(jar.writes.find((w) => w.name === 's_inv')).toMatchObject({ value: '40%20days', expires: T0 + 30 * MIN });
  });
  it('an s_inv in seconds (as Offtag wrote it before) is still read as its bucket', () => {
    expect(getTimeSinceLastVisit(memoryJar({ s_inv: String(3 * 86400 + 1) }), T0)).toBe('3 days');
  });
  it('is New Visitor when the last visit is more than 2 years ago', () => {
    expect(getTimeSinceLastVisit(memoryJar({ s_tslv: String(T0 - 2 * 365 * DAY - 1) }), T0)).toBe('New Visitor');
  });
  it.each([
    [30.5 * MIN, '30.5 minutes'],
    [53 * MIN + 10_000, '53 minutes'],
    [2 * HOUR + 16 * MIN, '2.25 hours'],
    [7.5 * HOUR, '7.5 hours'],
    [HOUR, '1 hour'],
    [DAY, '1 day'],
    [9 * DAY + 5 * HOUR, '9 days'],
    [372 * DAY, '372 days'],
  ])('rounds %i ms to %s', (gap, text) => {
    expect(formatTimeSinceLastVisit(gap)).toBe(text);
    expect(getTimeSinceLastVisit(memoryJar({ s_tslv: String(T0 - gap) }), T0)).toBe(text);
  });
  it('a corrupt cookie is a new visitor', () => {
    expect(getTimeSinceLastVisit(memoryJar({ s_tslv: 'garbage' }), T0)).toBe('New Visitor');
  });
  it.each([
    ['12 days', '12 days'],
    ['2.25 hours', '2.25 hours'],
    ['1 day', '1 day'],
    ['30.5 minutes', '30.5 minutes'],
    ['about 3 days', NEW_VISITOR],
    ['3 days ago', NEW_VISITOR],
    ['x86400', NEW_VISITOR],
    ['86400x', NEW_VISITOR],
  ])('an in-visit answer kept as %j is answered as %j for the rest of the visit', (kept, answer) => {
    expect(getTimeSinceLastVisit(memoryJar({ s_inv: encodeURIComponent(kept), s_tslv: String(T0 - 5 * DAY) }), T0)).toBe(answer);
  });
  it('a last-visit time of 0 or before is no visit, even on a device whose clock reads early 1970 (a reset clock)', () => {
    expect(getTimeSinceLastVisit(memoryJar({ s_tslv: '0' }), DAY)).toBe(NEW_VISITOR);
    expect(getTimeSinceLastVisit(memoryJar({ s_tslv: '-60000' }), DAY)).toBe(NEW_VISITOR);
  });
});

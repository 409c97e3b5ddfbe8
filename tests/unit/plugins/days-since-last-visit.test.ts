import { describe, expect, it } from 'vitest';
import {
  daysSinceLastVisitBucket,
  getDaysSinceLastVisit,
} from '../../../src/worker-engine/analytics/plugins/days-since-last-visit.ts';
import { DAY, MIN, memoryJar, T0 } from './jar.ts';

describe('getDaysSinceLastVisit', () => {
  it('is First Visit without a cookie; writes s_lv (3 years) and s_lv_s (30 minutes)', () => {
    const jar = memoryJar();
    expect(getDaysSinceLastVisit(jar, T0)).toBe('First Visit');
    expect(jar.writes).toEqual([
      { name: 's_lv', value: String(T0), expires: T0 + 3 * 365 * DAY, path: '/', domain: '' },
      { name: 's_lv_s', value: 'First%20Visit', expires: T0 + 30 * MIN, path: '/', domain: '' },
    ]);
  });
  it('keeps the visit\'s bucket within 30 minutes of the last hit', () => {
    const jar = memoryJar();
    getDaysSinceLastVisit(jar, T0);
    expect(getDaysSinceLastVisit(jar, T0 + 20 * MIN)).toBe('First Visit');
    expect(getDaysSinceLastVisit(jar, T0 + 40 * MIN)).toBe('First Visit');
  });
  it.each([
    [31 * MIN, 'Less than 1 day'],
    [DAY, 'Less than 1 day'],
    [DAY + 1, 'Less than 7 days'],
    [7 * DAY, 'Less than 7 days'],
    [7 * DAY + 1, 'More than 7 days'],
    [30 * DAY, 'More than 7 days'],
    [30 * DAY + 1, 'More than 30 days'],
    [365 * DAY, 'More than 30 days'],
    [365 * DAY + 1, 'More than 1 year'],
  ])('a gap of %i ms is %s', (gap, bucket) => {
    expect(daysSinceLastVisitBucket(gap)).toBe(bucket);
    expect(getDaysSinceLastVisit(memoryJar({ s_lv: String(T0 - gap) }), T0)).toBe(bucket);
  });
  it('within a visit whose bucket cookie is gone, buckets the gap', () => {
    expect(getDaysSinceLastVisit(memoryJar({ s_lv: String(T0 - 5 * MIN) }), T0)).toBe('Less than 1 day');
  });
  it('a corrupt cookie is a first visit', () => {
    expect(getDaysSinceLastVisit(memoryJar({ s_lv: 'garbage' }), T0)).toBe('First Visit');
  });
});

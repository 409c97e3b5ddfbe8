import { describe, expect, it } from 'vitest';
import { getGeoCoordinates, storeGeoCoordinates } from '../../../src/worker-engine/analytics/plugins/geo-coordinates.ts';
import { MIN, memoryJar, T0 } from './jar.ts';

describe('getGeoCoordinates (cookie only)', () => {
  it('answers from s_ggc', () => {
    expect(getGeoCoordinates(memoryJar({ s_ggc: '41.8781%7C-87.6298' }))).toBe('latitude=41.8781 | longitude=-87.6298');
  });
  it('is "geo coordinates not available" without the cookie (the browser is never asked)', () => {
    expect(getGeoCoordinates(memoryJar())).toBe('geo coordinates not available');
  });
  it.each(['nowhere', '1|2|3', '91|0', '0|181', '|5'])('is "error retrieving geo coordinates" for %j', (value) => {
    expect(getGeoCoordinates(memoryJar({ s_ggc: value }))).toBe('error retrieving geo coordinates');
  });
  it('stores a position with four decimals for 30 minutes', () => {
    const jar = memoryJar();
    storeGeoCoordinates(jar, T0, 41.878113, -87.629799);
    expect(jar.writes).toEqual([{ name: 's_ggc', value: '41.8781%7C-87.6298', expires: T0 + 30 * MIN, path: '/', domain: '' }]);
    expect(getGeoCoordinates(jar)).toBe('latitude=41.8781 | longitude=-87.6298');
  });
});

import { describe, expect, it } from 'vitest';
import { getPreviousValue } from '../../../src/worker-engine/analytics/plugins/previous-value.ts';
import { MIN, memoryJar, T0 } from './jar.ts';

describe('getPreviousValue', () => {
  it('returns "" the first time and stores the value in s_gpv for 30 minutes', () => {
    const jar = memoryJar();
    expect(getPreviousValue(jar, T0, 'acme:home:home')).toBe('');
    expect(jar.writes).toEqual([{ name: 's_gpv', value: 'acme%3Ahome%3Ahome', expires: T0 + 30 * MIN, path: '/', domain: '' }]);
  });
  it('returns the previous value and stores the new one', () => {
    const jar = memoryJar();
    getPreviousValue(jar, T0, 'a');
    expect(getPreviousValue(jar, T0 + MIN, 'b')).toBe('a');
    expect(getPreviousValue(jar, T0 + 2 * MIN, 'c')).toBe('b');
  });
  it('reads without storing when the value is empty; takes a cookie name', () => {
    const jar = memoryJar({ gpv_pn: 'x' });
    expect(getPreviousValue(jar, T0, '', 'gpv_pn')).toBe('x');
    expect(jar.writes).toEqual([]);
  });
  it('keeps a value whose encoding is broken as it is', () => {
    expect(getPreviousValue(memoryJar({ s_gpv: '%E0%A4%A' }), T0, 'x')).toBe('%E0%A4%A');
  });
});

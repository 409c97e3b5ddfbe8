import { describe, expect, it } from 'vitest';
import { getNewRepeat, NEW_REPEAT_DAYS } from '../../../src/worker-engine/analytics/plugins/new-repeat.ts';
import { DAY, MIN, memoryJar, T0 } from './jar.ts';

describe('getNewRepeat', () => {
  it('is New without a cookie, and writes s_nr30 for 30 days', () => {
    const jar = memoryJar();
    expect(getNewRepeat(jar, T0)).toBe('New');
    expect(NEW_REPEAT_DAYS).toBe(30);
    expect(jar.writes).toEqual([{ name: 's_nr30', value: encodeURIComponent(`${T0}-New`), expires: T0 + 30 * DAY, path: '/', domain: '' }]);
  });
  it('stays New within the first visit (last call under 30 minutes ago)', () => {
    const jar = memoryJar();
    getNewRepeat(jar, T0);
    expect(getNewRepeat(jar, T0 + 29 * MIN)).toBe('New');
    expect(getNewRepeat(jar, T0 + 58 * MIN)).toBe('New');
  });
  it('is Repeat after 30 minutes without a call, and stays Repeat', () => {
    const jar = memoryJar();
    getNewRepeat(jar, T0);
    expect(getNewRepeat(jar, T0 + 30 * MIN)).toBe('Repeat');
    expect(getNewRepeat(jar, T0 + 31 * MIN)).toBe('Repeat');
    expect(jar.store.s_nr30).toBe(encodeURIComponent(`${T0 + 31 * MIN}-Repeat`));
  });
  it('names the cookie after its lifetime and writes the given domain', () => {
    const jar = memoryJar();
    getNewRepeat(jar, T0, 7, { domain: '.example.com' });
    expect(jar.writes[0]).toMatchObject({ name: 's_nr7', expires: T0 + 7 * DAY, domain: '.example.com' });
  });
  it('reads the plain value written by the public plugin', () => {
    expect(getNewRepeat(memoryJar({ s_nr30: `${T0 - MIN}-New` }), T0)).toBe('New');
  });
  it('a corrupt cookie counts as a returning visitor', () => {
    expect(getNewRepeat(memoryJar({ s_nr30: 'garbage' }), T0)).toBe('Repeat');
  });
});

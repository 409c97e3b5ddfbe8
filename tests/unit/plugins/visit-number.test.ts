import { describe, expect, it } from 'vitest';
import { getVisitNumber, VISIT_NUMBER_DAYS } from '../../../src/worker-engine/analytics/plugins/visit-number.ts';
import { DAY, MIN, memoryJar, T0 } from './jar.ts';

/** The jar as a browser would hold it at `now`: expired cookies gone. */
function expire(jar: ReturnType<typeof memoryJar>, now: number) {
  const last = new Map(jar.writes.map((w) => [w.name, w]));
  for (const w of last.values()) if (w.expires !== undefined && w.expires <= now) delete jar.store[w.name];
}

describe('getVisitNumber', () => {
  it('is 1 on the first visit; writes s_ivc (30 minutes) and s_vnc365 (365 days)', () => {
    const jar = memoryJar();
    expect(getVisitNumber(jar, T0)).toBe('1');
    expect(VISIT_NUMBER_DAYS).toBe(365);
    expect(jar.writes).toEqual([
      { name: 's_ivc', value: 'true', expires: T0 + 30 * MIN, path: '/', domain: '' },
      { name: 's_vnc365', value: encodeURIComponent(`${T0 + 365 * DAY}&vn=1`), expires: T0 + 365 * DAY, path: '/', domain: '' },
    ]);
  });
  it('stays the same within a visit and counts the next visit after 30 minutes of inactivity', () => {
    const jar = memoryJar();
    getVisitNumber(jar, T0);
    expire(jar, T0 + 25 * MIN);
    expect(getVisitNumber(jar, T0 + 25 * MIN)).toBe('1');
    expire(jar, T0 + 50 * MIN);
    expect(getVisitNumber(jar, T0 + 50 * MIN)).toBe('1');
    expire(jar, T0 + 81 * MIN);
    expect(getVisitNumber(jar, T0 + 81 * MIN)).toBe('2');
  });
  it('keeps the reset time of the first counted visit', () => {
    const jar = memoryJar({ s_vnc365: encodeURIComponent(`${T0 + 10 * DAY}&vn=7`) });
    expect(getVisitNumber(jar, T0)).toBe('8');
    expect(jar.writes[1]).toMatchObject({ value: encodeURIComponent(`${T0 + 10 * DAY}&vn=8`), expires: T0 + 10 * DAY });
  });
  it('starts over once the counter has expired', () => {
    expect(getVisitNumber(memoryJar({ s_vnc365: `${T0 - 1}%26vn%3D7` }), T0)).toBe('1');
  });
  it('is "unknown visit number" inside a visit whose count is lost', () => {
    expect(getVisitNumber(memoryJar({ s_ivc: 'true' }), T0)).toBe('unknown visit number');
  });
  it('a corrupt counter starts over', () => {
    expect(getVisitNumber(memoryJar({ s_vnc365: 'garbage' }), T0)).toBe('1');
  });
});

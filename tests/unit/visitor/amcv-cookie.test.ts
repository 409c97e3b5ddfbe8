import { describe, expect, it } from 'vitest';
import {
  amcvCookieName,
  amcvDigest,
  dayNumber,
  decodeAmcv,
  encodeAmcv,
  hash32,
  isFieldExpired,
} from '../../../src/worker-engine/visitor/amcv-cookie.ts';
import { DEFAULT_AMCV_DIGEST } from '../../../src/worker-engine/visitor/constants.ts';
import { FIXED_NOW } from './helpers.ts';

/** A cookie as VisitorAPI.js 5.5.0 writes it at FIXED_NOW for a first page view with an AID lookup. */
const REAL =
  '179643557|MCIDTS|19899|MCMID|87281349862349576210981234567890123456|MCAAMLH-1719835200|7|' +
  'MCAAMB-1719835200|RKhpRz8krg2tLO6pguXWp5olkAcUniQYPHaMWWgdJ3xzPWQmdj0y|MCAID|NONE|' +
  'MCOPTOUT-1719237600s|NONE|vVersion|5.5.0';
const REAL_ENCODED = encodeURIComponent(REAL);

describe('AMCV cookie', () => {
  it('has the digest real cookies carry with the default server', () => {
    expect(amcvDigest()).toBe(DEFAULT_AMCV_DIGEST);
    expect(amcvDigest('dpm.demdex.net')).toBe(179643557);
    expect(amcvDigest('https://dpm.demdex.net')).toBe(179643557);
    expect(amcvDigest('http://127.0.0.1:4176')).toBe(hash32('5.5.0|127.0.0.1:4176'));
  });

  it('hashes in signed 32-bit arithmetic', () => {
    expect(hash32('')).toBe(0);
    expect(hash32('a')).toBe(97);
    expect(hash32('5.5.0|dpm.demdex.net|x.example.com')).toBeLessThan(2 ** 31);
  });

  it('names the cookie with the encoded org', () => {
    expect(amcvCookieName('0123456789ABCDEF01234567@AdobeOrg')).toBe('AMCV_0123456789ABCDEF01234567%40AdobeOrg');
  });

  it('decodes a cookie written by the real library, encoded or not', () => {
    for (const raw of [REAL, REAL_ENCODED]) {
      const d = decodeAmcv(raw);
      expect(d.digest).toBe(179643557);
      expect(d.version).toBe('5.5.0');
      expect([...d.fields.keys()]).toEqual(['MCIDTS', 'MCMID', 'MCAAMLH', 'MCAAMB', 'MCAID', 'MCOPTOUT']);
      expect(d.fields.get('MCIDTS')).toEqual({ value: '19899' });
      expect(d.fields.get('MCAAMLH')).toEqual({ value: '7', expiry: 1719835200 });
      expect(d.fields.get('MCOPTOUT')).toEqual({ value: 'NONE', expiry: 1719237600, session: true });
    }
  });

  it('writes back exactly what it read, in the same field order, version last', () => {
    const d = decodeAmcv(REAL_ENCODED);
    expect(encodeAmcv(d.fields, 179643557)).toBe(REAL_ENCODED);
  });

  it('skips empty values and keeps insertion order', () => {
    const fields = new Map([
      ['MCMID', { value: '123' }],
      ['MCAID', { value: '' }],
      ['MCCIDH', { value: '-42' }],
    ]);
    expect(decodeURIComponent(encodeAmcv(fields, 1))).toBe('1|MCMID|123|MCCIDH|-42|vVersion|5.5.0');
  });

  it('reads the server-set s_ecid, which has no digest', () => {
    const d = decodeAmcv('MCMID%7C48714222390775171701892080411221373876');
    expect(d.digest).toBeUndefined();
    expect(d.fields.get('MCMID')?.value).toBe('48714222390775171701892080411221373876');
  });

  it('expires by time, by session, and by digest mismatch', () => {
    const d = decodeAmcv(REAL).fields;
    const live = { sessionAlive: true, digestMatches: true };
    expect(isFieldExpired(d.get('MCAAMLH'), FIXED_NOW, live)).toBe(false);
    expect(isFieldExpired(d.get('MCAAMLH'), 1719835200 * 1000, live)).toBe(true);
    expect(isFieldExpired(d.get('MCOPTOUT'), FIXED_NOW, { sessionAlive: false })).toBe(true);
    expect(isFieldExpired(d.get('MCAAMB'), FIXED_NOW, { sessionAlive: true, digestMatches: false })).toBe(true);
    expect(isFieldExpired(d.get('MCMID'), FIXED_NOW, { sessionAlive: false, digestMatches: false })).toBe(false);
    expect(isFieldExpired(undefined, FIXED_NOW, live)).toBe(true);
  });

  it('counts days as the library does', () => {
    expect(dayNumber(FIXED_NOW)).toBe(19899);
  });
});

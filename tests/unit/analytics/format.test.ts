import { describe, expect, it } from 'vitest';
import { buildQuery, nestedBlock, NUMBERED_KEYS, PARAM_ORDER } from '../../../src/worker-engine/analytics/beacon-query.ts';
import { beaconPath, sessionRandom, tagContainerMarker, trackingOrigin } from '../../../src/worker-engine/analytics/beacon-url.ts';
import { escapeValue, unescapeValue } from '../../../src/worker-engine/analytics/encoding.ts';
import { timeString } from '../../../src/worker-engine/analytics/time-string.ts';
import { FIXED_TIME, FIXED_TZ, keysOf } from '../harness.ts';

describe('time string (t)', () => {
  it('matches the documented example: 0-based month, no padding, weekday, offset', () => {
    expect(timeString(FIXED_TIME, FIXED_TZ)).toBe('24/2/2026 14:4:36 2 -330');
  });
  it('uses the page zone, not the worker zone', () => {
    // 00:30 UTC on 1 Jan is still 31 Dec in New York (offset 300).
    expect(timeString(Date.UTC(2026, 0, 1, 0, 30, 5), 300)).toBe('31/11/2025 19:30:5 3 300');
    expect(timeString(Date.UTC(2026, 0, 1, 0, 30, 5), 0)).toBe('1/0/2026 0:30:5 4 0');
  });
});

describe('encoding', () => {
  it("escapes ~!*()' on top of encodeURIComponent", () => {
    expect(escapeValue("a~b!c*d(e)f'g")).toBe('a%7Eb%21c%2Ad%28e%29f%27g');
    expect(escapeValue('a b+c&d=e/f:g')).toBe('a%20b%2Bc%26d%3De%2Ff%3Ag');
    expect(escapeValue('D=v1')).toBe('D%3Dv1');
    expect(escapeValue('ü€')).toBe('%C3%BC%E2%82%AC');
  });
  it('round-trips', () => {
    const s = "acme:product:gloves (large) ~ 'best'! *new* ü";
    expect(unescapeValue(escapeValue(s))).toBe(s);
    expect(unescapeValue('a+b%2')).toBe('a b%2');
  });
});

describe('beacon URL', () => {
  it('s + 3-hour epoch digit + floor(random·1e13), unpadded', () => {
    expect(sessionRandom({ now: () => 10_800_000 * 23 + 5, random: () => 0.5 })).toBe('s35000000000000');
    expect(sessionRandom({ now: () => 0, random: () => 0.0000000000123 })).toBe('s0123');
  });
  it('bare host follows the page scheme; a full origin is kept', () => {
    expect(trackingOrigin('metrics.example.com', true)).toBe('https://metrics.example.com');
    expect(trackingOrigin('metrics.example.com', false)).toBe('http://metrics.example.com');
    expect(trackingOrigin('http://127.0.0.1:4175/', true)).toBe('http://127.0.0.1:4175');
  });
  it("Launch's tagContainerMarker from the build date", () => {
    expect(tagContainerMarker('2025-08-19T00:00:00Z')).toBe('LF8J');
    // Later thirds of the day move the month digit on by 12 (base 36, last digit).
    expect(tagContainerMarker('2025-08-19T09:00:00Z')).toBe('LFKJ');
    expect(tagContainerMarker('2025-12-31T23:00:00Z')).toBe('LF0V');
    expect(tagContainerMarker('2010-01-01T00:00:00Z')).toBe('L011');
  });
  it('path /b/ss/<rsid>/1/JS-2.27.0[-marker]/<sid>', () => {
    expect(beaconPath({ origin: 'https://m.example.com', rsid: 'acmeprod', sid: 's1234' })).toBe('https://m.example.com/b/ss/acmeprod/1/JS-2.27.0/s1234');
    expect(beaconPath({ origin: 'https://m.example.com', rsid: 'a,b', marker: 'LGPQ', sid: 's1' })).toBe('https://m.example.com/b/ss/a,b/1/JS-2.27.0-LGPQ/s1');
  });
});

describe('parameter order', () => {
  it('interleaves numbered variables c,v,h,l by index up to v250', () => {
    expect(NUMBERED_KEYS.slice(0, 13)).toEqual(['c1', 'v1', 'h1', 'l1', 'c2', 'v2', 'h2', 'l2', 'c3', 'v3', 'h3', 'l3', 'c4']);
    expect(NUMBERED_KEYS.slice(14, 20)).toEqual(['h4', 'c5', 'v5', 'h5', 'c6', 'v6']);
    const i75 = NUMBERED_KEYS.indexOf('c75');
    expect(NUMBERED_KEYS.slice(i75, i75 + 4)).toEqual(['c75', 'v75', 'v76', 'v77']);
    expect(NUMBERED_KEYS.at(-1)).toBe('v250');
    expect(NUMBERED_KEYS.length).toBe(75 + 250 + 5 + 3);
  });
  it('puts every parameter where AppMeasurement 2.27.0: beacon URL and parameters puts it', () => {
    const all: Record<string, string> = {};
    for (const k of PARAM_ORDER) if (!k.startsWith('@')) all[k] = 'x';
    delete all['-g'];
    const q = buildQuery({
      t: 'T',
      params: { ...all, g: 'u'.repeat(300) },
      contextData: { ctxkey: 'x' },
      customerIds: { crm: { id: 'C1', authState: 1 } },
      activityMap: { 'a.activitymap.page': 'p' },
    });
    const keys = keysOf(q);
    expect(keys.slice(0, 4)).toEqual(['AQB', 'ndh', 'pf', 't']);
    expect(keys.slice(4, 11)).toEqual(['cid.', 'crm.', 'id', 'as', '.crm', '.cid', 'sdid']);
    const at = (k: string) => keys.indexOf(k);
    const chain = ['sdid', 'mid', 'aid', 'aamlh', 'fid', 'ce', 'pageName', 'g', 'r', 'c.', 'cc', 'purchaseID', 'ch', 'server', 'pageType', 'xact', 'v0', 'state', 'zip', 'events', 'products', 'aamb', 'c1', 'v1', 'h1', 'l1', 'c75', 'v250', 'pe', 'pev1', 'pev2', 's', 'c', 'j', 'v', 'k', 'bw', 'bh', '-g', 'mcorgid'];
    for (let i = 1; i < chain.length; i++) expect(at(chain[i]!), `${chain[i - 1]} before ${chain[i]}`).toBeGreaterThan(at(chain[i - 1]!));
    // The ActivityMap block is its own c. block after pev3.
    const am = keys.lastIndexOf('c.');
    expect(am).toBeGreaterThan(at('pev3'));
    expect(am).toBeLessThan(at('s'));
    expect(keys.at(-1)).toBe('AQE');
  });
  it('leaves empty values out and splits g at 255 characters', () => {
    const url = 'https://x.example/' + 'a'.repeat(300);
    const q = buildQuery({ t: 'T', params: { pageName: '', ch: undefined, g: url } });
    expect(q).toBe(`AQB=1&ndh=1&pf=1&t=T&g=${escapeValue(url.slice(0, 255))}&-g=${escapeValue(url.slice(255))}&AQE=1`);
  });
});

describe('nested blocks', () => {
  it('nests dotted keys and keeps first-seen order', () => {
    expect(nestedBlock('c', { 'a.b.k': 'v', 'a.b.j': 'w', 'a.x': 'y', z: 'q' })).toBe('&c.&a.&b.&k=v&j=w&.b&x=y&.a&z=q&.c');
  });
  it('booleans become true/false; 0 and empty are dropped; an empty block is nothing', () => {
    expect(nestedBlock('c', { t: true, f: false, zero: 0, e: '', n: 5 })).toBe('&c.&t=true&f=false&n=5&.c');
    expect(nestedBlock('c', { e: '' })).toBe('');
  });
  it('cid block omits as=0', () => {
    const q = buildQuery({ t: 'T', params: {}, customerIds: { crm: { id: 'A', authState: 0 }, sap: { id: 'B', authState: 2 } } });
    expect(q).toBe('AQB=1&ndh=1&pf=1&t=T&cid.&crm.&id=A&.crm&sap.&id=B&as=2&.sap&.cid&AQE=1');
  });
});

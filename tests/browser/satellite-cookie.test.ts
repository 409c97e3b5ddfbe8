import { afterEach, describe, expect, it } from 'vitest';
import { cookieString } from '../../src/worker-engine/core/cookies.ts';
import { installSatellite } from '../../src/main-bridge/satellite.ts';
import { clearCookies } from './clear-cookies.ts';

/**
 * `_satellite.cookie.set` writes with a compact js-cookie-style writer of its own (the bridge no
 * longer carries core/cookies.ts `cookieString`, the worker's builder): it must write the very string
 * `cookieString` would, for every option js-cookie takes.
 */
const satellite = () =>
  installSatellite(
    () => 0,
    async () => ({}),
    { base: '/', vars: {}, frameMessage: () => {}, reply: () => {} },
    'production',
    () => {},
  );

/** What `cookie.set` assigns to document.cookie (an own accessor on `document` shadows Document.prototype's). */
function written(f: () => void): string[] {
  const out: string[] = [];
  Object.defineProperty(document, 'cookie', { configurable: true, get: () => '', set: (v: string) => void out.push(v) });
  try {
    f();
  } finally {
    delete (document as { cookie?: string }).cookie;
  }
  return out;
}

afterEach(() => {
  clearCookies();
});

describe('_satellite.cookie', () => {
  it('set writes what cookieString writes: value encoded, path / by default, domain and expires (days) when given', () => {
    const s = satellite();
    const now = Date.now();
    const [plain, full] = written(() => {
      s.cookie.set('pref', 'a b;c');
      s.cookie.set('pref', 'x', { expires: 2, path: '/shop', domain: '.example.org' });
    });
    expect(plain).toBe(cookieString({ name: 'pref', value: encodeURIComponent('a b;c') }));
    // The expiry is now + 2 days, to the second (toUTCString drops the milliseconds).
    const expires = Date.parse(full.split('; expires=')[1]);
    expect(Math.abs(expires - (now + 2 * 864e5))).toBeLessThan(2000);
    expect(full).toBe(cookieString({ name: 'pref', value: 'x', path: '/shop', domain: '.example.org', expires }));
  });

  it('set, get and remove round-trip on the page', () => {
    const s = satellite();
    s.cookie.set('pref', 'a b', { expires: 1 });
    expect(s.cookie.get('pref')).toBe('a b');
    s.cookie.remove('pref');
    expect(s.cookie.get('pref')).toBeUndefined();
    expect(document.cookie).not.toContain('pref=');
  });
});

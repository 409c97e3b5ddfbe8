/**
 * The core's small helpers, as their callers see them: the SHA-256 digest (core/sha256.ts), the
 * page's facts completed in the worker (core/page-info.ts), JSON of page values (core/safe-json.ts),
 * a page read's value or why there is none (core/page-reads.ts), the words for a value left out of
 * the snapshot (core/page-state.ts), the cookie text the shell writes (core/cookies.ts).
 *
 * Equivalent mutants, with why:
 * - safe-json.ts: `open` starting with an entry (`["Stryker was here"]`), and the object test
 *   (`typeof v === 'object' && v !== null`) made `true` or `||`, or either half `true`. Every visit
 *   of an object first pops `open` down to `this`, the object holding it, which is never a string
 *   or another primitive: whatever else `open` held is gone before `includes` looks. A primitive
 *   pushed by a mutant is popped the same way, and `includes` of a primitive finds no object.
 * - page-reads.ts: `snapshot.problems ?? []` made `?? ["Stryker was here"]`: a text has no `kind`,
 *   so the loop finds nothing, as over the empty list.
 * - cookies.ts: `eq < 0` made `eq <= 0` in parseCookieString: at `eq === 0` the name is `''` either
 *   way (`part.slice(0, 0)`) and the value the same `part.slice(1)`. In the jar's `set`,
 *   `options.expires !== undefined` made `true`: `undefined <= now()` is false, as the guard gives.
 */
import { describe, expect, it } from 'vitest';
import { cookieString } from '../../../src/worker-engine/core/cookies.ts';
import { completePageInfo } from '../../../src/worker-engine/core/page-info.ts';
import { pageValue } from '../../../src/worker-engine/core/page-reads.ts';
import { describeProblem } from '../../../src/worker-engine/core/page-state.ts';
import { safeJson } from '../../../src/worker-engine/core/safe-json.ts';
import { sha256Hex } from '../../../src/worker-engine/core/sha256.ts';
import { snap } from '../harness.ts';

describe('sha256Hex', () => {
  it('is the standard digest as 64 lowercase hex digits, leading zeros kept', async () => {
    // FIPS 180-2's test vectors ("abc" has 0x01 and 0x00 bytes: both keep their leading zero).
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });
});

describe('completePageInfo', () => {
  const facts = { screen: { width: 1, height: 2, colorDepth: 24 }, cookieDomain: '.example.com', cookiesEnabled: true };
  const nav = { userAgent: 'UA', language: 'de-CH' };

  it('adds the worker\'s navigator and whether the origin is https', () => {
    expect(completePageInfo({ ...facts, origin: 'https://www.example.com' }, nav)).toEqual({
      ...facts,
      origin: 'https://www.example.com',
      userAgent: 'UA',
      language: 'de-CH',
      secure: true,
    });
    expect(completePageInfo({ ...facts, origin: 'http://www.example.com' }, nav).secure).toBe(false);
    // Only the scheme counts: a host that merely contains "https:" is not secure.
    expect(completePageInfo({ ...facts, origin: 'http://https:' }, nav).secure).toBe(false);
  });
});

describe('safeJson', () => {
  it('writes a value seen twice (not a cycle) both times, and cuts only the back-reference', () => {
    const shared = { x: 1 };
    const o: Record<string, unknown> = { a: shared, b: [shared, 'x', 'x', null, null], n: null };
    o.self = o;
    expect(safeJson(o)).toBe('{"a":{"x":1},"b":[{"x":1},"x","x",null,null],"n":null}');
  });
});

describe('pageValue', () => {
  it('a read that threw names its own problem: the group and the key must both match', () => {
    const snapshot = snap({
      page: { d: {}, c: {} },
      problems: [
        { kind: 'session', detail: 'not this (session)' },
        { kind: 'page', g: 'c', k: 'name', detail: 'not this (condition)' },
        { kind: 'page', g: 'd', k: 'other', detail: 'not this (other key)' },
        { kind: 'page', g: 'd', k: 'name', detail: 'this one' },
      ],
    });
    expect(() => pageValue(snapshot, 'd', 'name')).toThrow('Its page read threw on the page: this one');
    expect(() => pageValue(snapshot, 'c', 'name')).toThrow('Its page read threw on the page: not this (condition)');
    expect(() => pageValue(snapshot, 'd', 'third')).toThrow('The event carries no value of its page read');
    // A problem of another kind carrying the same key and group is not a page read's.
    const other = snap({ problems: [{ kind: 'uncloneable', g: 'd', k: 'name', detail: 'no', paths: [] } as never] });
    expect(() => pageValue(other, 'd', 'name')).toThrow('The event carries no value of its page read');
  });
});

describe('describeProblem', () => {
  it('names a page read\'s value only where the path starts with it', () => {
    expect(
      describeProblem({ kind: 'uncloneable', detail: 'E', paths: ['snapshot.page.d.title', 'snapshot.dataLayer.snapshot.page.d.x'] }, 'dl'),
    ).toBe('The data layer could not be copied as it is (E). Left out: the page read of data element "title", dl.snapshot.page.d.x.');
  });
});

describe('cookieString', () => {
  it('writes path, domain, expiry, SameSite and Secure as document.cookie takes them', () => {
    expect(cookieString({ name: 'a', value: '1' })).toBe('a=1; path=/');
    expect(
      cookieString({ name: 'a', value: '1', path: '/p', domain: '.example.com', expires: Date.UTC(2026, 0, 2, 3, 4, 5), sameSite: 'Lax', secure: true }),
    ).toBe('a=1; path=/p; domain=.example.com; expires=Fri, 02 Jan 2026 03:04:05 GMT; SameSite=Lax; Secure');
    expect(cookieString({ name: 'gone', value: '', expires: 0 })).toBe('gone=; path=/; expires=Thu, 01 Jan 1970 00:00:00 GMT');
  });
});

/** Cookies as the engine sees them: `document.cookie` parsed, and the engine's writes over it until applied. */
import { describe, expect, it } from 'vitest';
import type { CookieWrite } from '../../../src/protocol.ts';
import { createCookieJar, parseCookieString, safeDecode } from '../../../src/worker-engine/core/cookies.ts';

describe('parseCookieString', () => {
  it('reads name=value pairs, trimmed, keeping "=" inside a value', () => {
    expect(parseCookieString(' a=1;b = two ; c=x=y=z')).toEqual({ a: '1', b: 'two', c: 'x=y=z' });
  });

  it('the first of two same-named cookies wins; empty parts are skipped; a part without "=" is a value without a name', () => {
    expect(parseCookieString('a=first; a=second')).toEqual({ a: 'first' });
    expect(parseCookieString('a=1;; ;b=2')).toEqual({ a: '1', b: '2' });
    expect(parseCookieString('flag; a=1')).toEqual({ '': 'flag', a: '1' });
    expect(parseCookieString('=v; a=1')).toEqual({ '': 'v', a: '1' });
    expect(parseCookieString('e=; a=1')).toEqual({ e: '', a: '1' });
    expect(parseCookieString('')).toEqual({});
  });
});

describe('safeDecode', () => {
  it('decodes %-escapes and keeps broken ones as they are', () => {
    expect(safeDecode('a%20b%7C')).toBe('a b|');
    expect(safeDecode('100%')).toBe('100%');
  });
});

describe('the cookie jar', () => {
  function jar() {
    const writes: CookieWrite[] = [];
    let batch = 1;
    let clock = 1000;
    const j = createCookieJar((w) => writes.push(w), () => batch, () => clock);
    return { j, writes, setBatch: (n: number) => (batch = n), setClock: (n: number) => (clock = n) };
  }

  it('a write is emitted with path / and its options, and read back over the page\'s cookies', () => {
    const { j, writes } = jar();
    j.rebase('a=page; b=page', 0);
    j.set('a', 'mine', { domain: '.example.com', expires: 5000 });
    expect(writes).toEqual([{ type: 'cookie', name: 'a', value: 'mine', path: '/', domain: '.example.com', expires: 5000 }]);
    expect(j.get('a')).toBe('mine');
    expect(j.get('b')).toBe('page');
    expect(j.all()).toEqual({ a: 'mine', b: 'page' });
  });

  it('a write whose expiry is now or past is a removal: it reads as absent', () => {
    const { j } = jar();
    j.rebase('a=page; b=page', 0);
    j.set('a', 'x', { expires: 1000 });
    j.set('b', 'y', { expires: 1001 });
    expect(j.get('a')).toBeUndefined();
    expect(j.get('b')).toBe('y');
    expect(j.all()).toStrictEqual({ b: 'y' });
  });

  it('remove emits an empty value expiring at 0 on the given path and domain, and reads as absent', () => {
    const { j, writes } = jar();
    j.rebase('a=page', 0);
    j.remove('a', { path: '/shop', domain: '.example.com' });
    j.remove('b');
    expect(writes).toEqual([
      { type: 'cookie', name: 'a', value: '', path: '/shop', domain: '.example.com', expires: 0 },
      { type: 'cookie', name: 'b', value: '', path: '/', domain: undefined, expires: 0 },
    ]);
    expect(j.get('a')).toBeUndefined();
    expect(j.all()).toStrictEqual({});
  });

  it('rebase forgets the writes of batches the page applied, and keeps later ones', () => {
    const { j, setBatch } = jar();
    j.set('a', 'one');
    setBatch(2);
    j.set('b', 'two');
    j.rebase('c=page', 1);
    expect(j.get('a')).toBeUndefined();
    expect(j.get('b')).toBe('two');
    expect(j.get('c')).toBe('page');
    j.rebase('c=page', 2);
    expect(j.get('b')).toBeUndefined();
  });

  it('a removal is forgotten once applied too: a cookie the site sets again afterwards reads again', () => {
    const { j, setBatch } = jar();
    j.rebase('a=page', 0);
    setBatch(3);
    j.remove('a');
    j.rebase('a=page', 2);
    expect(j.get('a')).toBeUndefined();
    j.rebase('a=again', 3);
    expect(j.get('a')).toBe('again');
  });
});

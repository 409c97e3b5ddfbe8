/**
 * The beacon decoder (devtools feed, local collector, `offtag decode`) on input that is not what the
 * tracker builds: pasted, truncated or foreign URLs. What a user of the decoder reads must stay true.
 *
 * Equivalent mutants of beacon-decode.ts: the scheme and host replaced by other text instead of
 * nothing (that text has no `/`, so it is one more segment before `ss`, never `ss` itself); a part
 * starting with `=` taken for a block's start or end (`eq < 0` → `eq <= 0`: its key is '', which
 * neither ends nor starts with `.`).
 */
import { describe, expect, it } from 'vitest';
import { decodeBeacon } from '../../../src/worker-engine/analytics/beacon-decode.ts';

const PATH = 'https://metrics.example.com/b/ss/acme%2Cdev/1/JS-2.27.0-LF8J/s0601';

describe('beacon decoder on odd input', () => {
  it('reads the path after /ss/ only: rsid (unescaped), version and sid; a URL without /ss/ names none', () => {
    expect(decodeBeacon(`${PATH}?AQB=1&AQE=1`)).toMatchObject({ rsid: 'acme,dev', version: 'JS-2.27.0-LF8J', sid: 's0601', method: 'GET', hitType: 't' });
    // A tracking server whose host is literally `ss` is not mistaken for the /ss/ segment.
    expect(decodeBeacon('http://ss/b/ss/suite/1/JS-2.27.0/s9')).toMatchObject({ rsid: 'suite', version: 'JS-2.27.0', sid: 's9' });
    expect(decodeBeacon('HTTPS://SS:8080/b/ss/suite/1/JS-2.27.0/s9?pageName=x')).toMatchObject({ rsid: 'suite', sid: 's9', pageName: 'x' });
    // Not a beacon path: nothing of the path is taken for the report suite, version or sid.
    expect(decodeBeacon('https://metrics.example.com/one/two/three/four/five?pageName=x')).toMatchObject({ rsid: '', version: '', sid: '', pageName: 'x' });
    // A path cut short after the report suite.
    expect(decodeBeacon('/b/ss/suite')).toMatchObject({ rsid: 'suite', version: '', sid: '' });
    expect(decodeBeacon('/b/ss')).toMatchObject({ rsid: '', version: '', sid: '' });
    // No query at all: no parameters.
    expect(decodeBeacon(`${PATH}`).raw).toEqual([]);
  });

  it('takes the query from a POST body when there is one; an empty body leaves the URL query in force (GET)', () => {
    const post = decodeBeacon(PATH, 'AQB=1&pageName=from%20body&AQE=1');
    expect(post).toMatchObject({ method: 'POST', pageName: 'from body', rsid: 'acme,dev', sid: 's0601' });
    const get = decodeBeacon(`${PATH}?pageName=from%20url`, '');
    expect(get).toMatchObject({ method: 'GET', pageName: 'from url' });
    const both = decodeBeacon(`${PATH}?pageName=from%20url`, 'pageName=from%20body');
    expect(both).toMatchObject({ method: 'POST', pageName: 'from body' });
  });

  it('keeps parameters without a value, a lone "." and empty parts as plain parameters', () => {
    const b = decodeBeacon(`${PATH}?AQB=1&&flag&.&v3=&AQE=1`);
    expect(b.raw).toEqual([['AQB', '1'], ['flag', ''], ['.', ''], ['v3', ''], ['AQE', '1']]);
    expect(b.params).toEqual({ AQB: '1', flag: '', '.': '', v3: '', AQE: '1' });
    expect(b.eVar3).toBe('');
    expect(b.contextData).toEqual({});
  });

  it('nests c. and cid. blocks, keeps unknown blocks in params only, and closes each block at its end marker', () => {
    const b = decodeBeacon(
      `${PATH}?c.&a.&x=1&y=2&.a&top=3&.c&cid.&crm.&id=C1&as=2&.crm&.cid&zz.&k=9&.zz&after=4&v7=seven`,
    );
    expect(b.contextData).toEqual({ a: { x: '1', y: '2' }, top: '3' });
    expect(b.customerIds).toEqual({ crm: { id: 'C1', as: '2' } });
    expect(b.params).toMatchObject({ 'c.a.x': '1', 'c.a.y': '2', 'c.top': '3', 'cid.crm.id': 'C1', 'zz.k': '9', after: '4' });
    // A key inside a block is not a top-level field.
    expect(b.params.k).toBeUndefined();
    expect(b.params.x).toBeUndefined();
    expect(b.eVar7).toBe('seven');
  });

  it('a nested key that meets a value of the same name replaces the value with the block', () => {
    const b = decodeBeacon(`${PATH}?c.&a=1&a.&b=2&.a&.c`);
    expect(b.contextData).toEqual({ a: { b: '2' } });
  });

  it('names numbered variables without leading zeros, only c/v/l/h followed by digits alone', () => {
    const b = decodeBeacon(`${PATH}?v012=a&c3=b&l2=c&h5=d&vx1=e&v=N&c=24&cv1=f&v1x=g`);
    expect(b).toMatchObject({ eVar12: 'a', prop3: 'b', list2: 'c', hier5: 'd' });
    const numbered = Object.keys(b).filter((k) => /^(eVar|prop|list|hier)\d+$/.test(k));
    expect(numbered.sort()).toEqual(['eVar12', 'hier5', 'list2', 'prop3']);
  });

  it('a link hit is tl; its link type is o, d or e, and an unknown pe names no type', () => {
    expect(decodeBeacon(`${PATH}?pe=lnk_d&pev1=https%3A%2F%2Fx.test%2Fa.pdf`)).toMatchObject({ hitType: 'tl', linkType: 'd', linkUrl: 'https://x.test/a.pdf' });
    expect(decodeBeacon(`${PATH}?pe=lnk_e`).linkType).toBe('e');
    expect(decodeBeacon(`${PATH}?pe=o`).linkType).toBe('o');
    const odd = decodeBeacon(`${PATH}?pe=lnk_x`);
    expect(odd.hitType).toBe('tl');
    expect(odd.linkType).toBeUndefined();
    expect(decodeBeacon(`${PATH}?pe=xlnk_o`).linkType).toBeUndefined();
    expect(decodeBeacon(`${PATH}?pev2=name`).hitType).toBe('t');
  });

  it('joins -g to the page URL only when g is there', () => {
    expect(decodeBeacon(`${PATH}?g=https%3A%2F%2Fa.test%2F&-g=rest`).pageURL).toBe('https://a.test/rest');
    expect(decodeBeacon(`${PATH}?-g=rest`).pageURL).toBeUndefined();
    expect(decodeBeacon(`${PATH}?g=https%3A%2F%2Fa.test%2F&-g=`).pageURL).toBe('https://a.test/');
  });

  it('reads + as a space and a stray % as itself', () => {
    expect(decodeBeacon(`${PATH}?pageName=a+b%20c&v1=100%&v2=%41%zz`)).toMatchObject({ pageName: 'a b c', eVar1: '100%', eVar2: 'A%zz' });
  });
});

describe('the path, read only where it is', () => {
  it('a query pasted alone has no path: a /ss/ inside a value names no report suite', () => {
    expect(decodeBeacon('?pageName=a/ss/b')).toMatchObject({ rsid: '', version: '', sid: '', pageName: 'a/ss/b' });
  });
  it('a tracking server whose host ends in ss (oss) is dropped whole before the path is read', () => {
    expect(decodeBeacon('https://oss/b/ss/suite/1/JS-2.27.0/s9')).toMatchObject({ rsid: 'suite', version: 'JS-2.27.0', sid: 's9' });
  });
});

/**
 * The supplemental data id's hand-over between consumers (VisitorAPI.js 5.5.0: serverState, URL hand-off, SDID, `getSupplementalDataID`),
 * and the URL reading under the hand-off parameters (`adobe_mc_sdid`, `adobe_mc`).
 */
import { describe, expect, it } from 'vitest';
import { emptySdidState, queryParam, readPairs, sdidFromUrl, takeSdid } from '../../../src/worker-engine/visitor/sdid.ts';
import { FIXED_NOW, ORG, seededRandom } from './helpers.ts';

const SDID = /^[0-9A-F]{16}-[0-9A-F]{16}$/;

describe('SDID between consumers', () => {
  it('a consumer that took the previous id gets it once; its next ask is the current id', () => {
    const state = emptySdidState();
    const random = seededRandom(7);
    const x = takeSdid(state, 'aa', false, random);
    const y = takeSdid(state, 'aa', false, random); // aa asks again: a new id, x becomes the last one
    expect(x).toMatch(SDID);
    expect(y).toMatch(SDID);
    expect(y).not.toBe(x);
    expect(takeSdid(state, 'target', false, random)).toBe(x); // target has not seen x: it is stitched to it
    expect(takeSdid(state, 'target', false, random)).toBe(y); // then it joins the current one
    expect(state).toMatchObject({ current: y, last: x });
  });

  it('noGenerate: no new id after the current one was taken, and nothing recorded for the empty one', () => {
    const state = emptySdidState();
    const random = seededRandom(7);
    const x = takeSdid(state, 'aa', false, random);
    expect(takeSdid(state, 'aa', true, random)).toBe('');
    expect(state).toEqual({ current: '', currentConsumed: {}, last: x, lastConsumed: { aa: true } });
    // The next ask that may generate gets a fresh id, and keeps x as the last one.
    const z = takeSdid(state, 'aa', false, random);
    expect(z).toMatch(SDID);
    expect(z).not.toBe(x);
    expect(state).toEqual({ current: z, currentConsumed: { aa: true }, last: x, lastConsumed: { aa: true } });
  });

  it('with no current id (a server state that only had consumers) nothing moves', () => {
    const state = { current: '', currentConsumed: { aa: true }, last: 'L', lastConsumed: { aa: true } };
    expect(takeSdid(state, 'aa', true, seededRandom())).toBe('');
    expect(state).toEqual({ current: '', currentConsumed: { aa: true }, last: 'L', lastConsumed: { aa: true } });
    expect(takeSdid(state, 'target', true, seededRandom())).toBe('L');
  });
});

describe('hand-off parameters in a URL', () => {
  it('reads K=V pairs; a part without a name or without "=" is no pair', () => {
    // As VisitorAPI 5.5.0 splits a pair: the value ends at a second "=".
    expect(readPairs('=x|SDID=1|flag|TS=2=3')).toEqual({ SDID: '1', TS: '2' });
  });

  it('finds its parameter among others, decodes it, + as a space; a bare name is the empty value', () => {
    const url = 'https://www.example.com/p?a=1&flag&q=a+b%20c&next=/x?y=1&bad=%E0%A4%A#h=1';
    expect(queryParam(url, 'q')).toBe('a b c');
    expect(queryParam(url, 'flag')).toBe('');
    expect(queryParam(url, 'fla')).toBeUndefined();
    expect(queryParam(url, 'next')).toBe('/x?y=1');
    expect(queryParam(url, 'bad')).toBe('%E0%A4%A');
    expect(queryParam(url, 'h')).toBeUndefined();
  });

  it('an adobe_mc_sdid after other parameters is taken', () => {
    const ts = Math.floor(FIXED_NOW / 1000) - 10;
    const value = encodeURIComponent(`SDID=0123456789ABCDEF-0123456789ABCDEF|MCORGID=${ORG}|TS=${ts}`);
    expect(sdidFromUrl(`https://www.example.com/?utm=1&adobe_mc_sdid=${value}`, ORG, FIXED_NOW)).toBe('0123456789ABCDEF-0123456789ABCDEF');
  });
});

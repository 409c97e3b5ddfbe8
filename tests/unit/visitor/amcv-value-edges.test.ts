/**
 * The `AMCV_` value format at its edges (VisitorAPI.js 5.5.0: cookies): the digest with a secure server, hosts
 * written with a trailing slash, values that are not `<digest>|<FIELD>|<value>…` throughout.
 */
import { describe, expect, it } from 'vitest';
import { amcvDigest, decodeAmcv, hash32 } from '../../../src/worker-engine/visitor/amcv-cookie.ts';

describe('AMCV value at its edges', () => {
  it('the digest adds "|<secure server>" when one is set', () => {
    expect(amcvDigest('dpm.demdex.net', 'dpm-secure.example.com')).toBe(hash32('5.5.0|dpm.demdex.net|dpm-secure.example.com'));
    expect(amcvDigest('dpm.demdex.net', '')).toBe(179643557);
  });

  it('trailing slashes of an origin setting do not change the digest', () => {
    const bare = hash32('5.5.0|127.0.0.1:4176');
    expect(amcvDigest('http://127.0.0.1:4176/')).toBe(bare);
    expect(amcvDigest('http://127.0.0.1:4176//')).toBe(bare);
    expect(amcvDigest('https://dpm.demdex.net/')).toBe(179643557);
  });

  it('a first part that is not wholly an integer is no digest', () => {
    for (const raw of ['x179643557|MCMID|1|vVersion|5.5.0', '179643557x|MCMID|1|vVersion|5.5.0', '1.5|MCMID|1|vVersion|5.5.0']) {
      const d = decodeAmcv(raw);
      expect(d.digest, raw).toBeUndefined();
      expect(d.fields.get('MCMID'), raw).toBeUndefined();
    }
    expect(decodeAmcv('-42|MCMID|1|vVersion|5.5.0').digest).toBe(-42);
  });

  it('a digest-less value with a name left over keeps its pairs and drops the name', () => {
    const d = decodeAmcv('MCMID|48714222390775171701892080411221373876|MCAID');
    expect(d.digest).toBeUndefined();
    expect([...d.fields]).toEqual([['MCMID', { value: '48714222390775171701892080411221373876' }]]);
  });

  it('a value cut after a name (its last value lost) keeps its digest and its whole pairs, as the library reads it', () => {
    const d = decodeAmcv('179643557|MCMID|48714222390775171701892080411221373876|vVersion');
    expect(d.digest).toBe(179643557);
    expect(d.version).toBeUndefined();
    expect([...d.fields]).toEqual([['MCMID', { value: '48714222390775171701892080411221373876' }]]);
  });

  it('a field name that is not <NAME>[-<digits>[s]] is skipped, the rest still read', () => {
    const d = decodeAmcv('179643557|MC.X|a|MCAAMLH-17x|b|MCOPTOUT-1719237600ss|c|-1|d|MCMID|5|vVersion|5.5.0');
    expect([...d.fields]).toEqual([['MCMID', { value: '5' }]]);
    expect(d.version).toBe('5.5.0');
  });
});

import { describe, expect, it } from 'vitest';
import { appendVisitorIDsTo, idsFromUrl } from '../../../src/worker-engine/visitor/url-handoff.ts';
import { emptySdidState, generateSdid, sdidFromUrl, takeSdid } from '../../../src/worker-engine/visitor/sdid.ts';
import { parseServerState } from '../../../src/worker-engine/visitor/server-state.ts';
import { localMid } from '../../../src/worker-engine/visitor/local-mid.ts';
import { normalizeOrgId } from '../../../src/worker-engine/visitor/org-id.ts';
import { isPathExcluded } from '../../../src/worker-engine/visitor/service.ts';
import { FIXED_NOW, T as TS, seededRandom } from './helpers.ts';

const ORG = 'ABC@AdobeOrg';

describe('adobe_mc hand-off', () => {
  it('appends at the end of the query, before the fragment, skipping NONE', () => {
    expect(appendVisitorIDsTo('https://b.example/p?x=1#top', { MCMID: '123', MCAID: 'NONE' }, ORG, FIXED_NOW)).toBe(
      `https://b.example/p?x=1&adobe_mc=${encodeURIComponent(`MCMID=123|MCORGID=${encodeURIComponent(ORG)}|TS=${TS}`)}#top`,
    );
    expect(appendVisitorIDsTo('https://b.example/', { MCMID: '1', MCAID: '2' }, ORG, FIXED_NOW)).toBe(
      `https://b.example/?adobe_mc=${encodeURIComponent(`MCMID=1|MCAID=2|MCORGID=${encodeURIComponent(ORG)}|TS=${TS}`)}`,
    );
  });

  it('is accepted for 5 whole minutes and for the same org only', () => {
    const url = appendVisitorIDsTo('https://b.example/', { MCMID: '123' }, ORG, FIXED_NOW);
    expect(idsFromUrl(url, ORG, FIXED_NOW + 5 * 60_000 + 59_000)).toEqual({ MCMID: '123' });
    expect(idsFromUrl(url, ORG, FIXED_NOW + 6 * 60_000)).toBeUndefined();
    expect(idsFromUrl(url, 'OTHER@AdobeOrg', FIXED_NOW)).toBeUndefined();
    expect(idsFromUrl('https://b.example/?adobe_mc=MCMID%3D%3Cx%3E%7CMCORGID%3DABC%40AdobeOrg%7CTS%3D' + TS, ORG, FIXED_NOW)).toEqual({});
    // Non-hex letters are not an id either (the same check as the /id reply and the cookie).
    expect(idsFromUrl('https://b.example/?adobe_mc=MCMID%3DZZZZ-0000%7CMCAID%3D12AB-zz%7CMCORGID%3DABC%40AdobeOrg%7CTS%3D' + TS, ORG, FIXED_NOW)).toEqual({});
  });
});

describe('supplemental data id', () => {
  it('has the 16-16 uppercase hex form', () => {
    expect(generateSdid(seededRandom())).toMatch(/^[0-9A-F]{16}-[0-9A-F]{16}$/);
  });

  it('shares one id per page view and starts a new one when a consumer asks again', () => {
    const s = emptySdidState();
    const r = seededRandom();
    const a1 = takeSdid(s, 'AppMeasurement:0', false, r);
    expect(takeSdid(s, 'Target', false, r)).toBe(a1);
    const a2 = takeSdid(s, 'AppMeasurement:0', false, r);
    expect(a2).not.toBe(a1);
    expect(takeSdid(s, 'Other', false, r)).toBe(a1);
    expect(takeSdid(emptySdidState(), 'x', true, r)).toBe('');
  });

  it('accepts adobe_mc_sdid younger than 30 s', () => {
    const v = encodeURIComponent(`SDID=0123456789ABCDEF-0123456789ABCDEF|MCORGID=${ORG}|TS=${TS}`);
    const url = `https://a.example/?adobe_mc_sdid=${v}`;
    expect(sdidFromUrl(url, ORG, FIXED_NOW + 29_000)).toBe('0123456789ABCDEF-0123456789ABCDEF');
    expect(sdidFromUrl(url, ORG, FIXED_NOW + 30_000)).toBeUndefined();
    expect(sdidFromUrl(url, 'X@AdobeOrg', FIXED_NOW)).toBeUndefined();
  });
});

describe('serverState', () => {
  it('reads this org’s customer ids and SDID state from an object or JSON', () => {
    const state = {
      [ORG]: {
        customerIDs: { crm: { id: 'abc', authState: 1 } },
        sdid: { supplementalDataIDCurrent: 'A-B', supplementalDataIDCurrentConsumed: { t: true } },
      },
    };
    const expected = {
      customerIDs: { crm: { id: 'abc', authState: 1 } },
      sdid: { current: 'A-B', currentConsumed: { t: true }, last: '', lastConsumed: {} },
    };
    expect(parseServerState(state, ORG)).toEqual(expected);
    expect(parseServerState(JSON.stringify(state), ORG)).toEqual(expected);
    expect(parseServerState({ other: {} }, ORG)).toEqual({});
  });

  it('throws the library message on anything malformed', () => {
    for (const bad of ['{nope', 42, null, { [ORG]: 5 }, { [ORG]: { customerIDs: { crm: 'x' } } }, { [ORG]: { sdid: { supplementalDataIDCurrent: 4 } } }]) {
      expect(() => parseServerState(bad, ORG)).toThrow('`serverState` has an invalid format.');
    }
  });
});

describe('setup', () => {
  it('validates the org id and appends @AdobeOrg', () => {
    expect(() => normalizeOrgId('')).toThrow('Visitor requires Adobe Marketing Cloud Org ID.');
    expect(() => normalizeOrgId(undefined)).toThrow('Visitor requires Adobe Marketing Cloud Org ID.');
    expect(() => normalizeOrgId(1234)).toThrow('Org ID is not a string.');
    expect(normalizeOrgId('ABC')).toBe('ABC@AdobeOrg');
    expect(normalizeOrgId('ABC@AdobeOrg')).toBe('ABC@AdobeOrg');
  });

  it('matches path exclusions exactly or as case-insensitive regexes', () => {
    expect(isPathExcluded('/checkout', ['/checkout'])).toBe(true);
    expect(isPathExcluded('/Insights/a', ['^/insights/'])).toBe(true);
    expect(isPathExcluded('/shop', ['/checkout', '(['])).toBe(false);
  });

  it('makes a 38-digit local MID led by the reversed clock', () => {
    const mid = localMid(1719230412345, seededRandom());
    expect(mid).toMatch(/^\d{38}$/);
    expect(mid.slice(0, 6)).toBe('543214');
  });
});

import { describe, expect, it } from 'vitest';
import { isValidVisitorId, readIdReply, readIdResponse } from '../../../src/worker-engine/visitor/id-response.ts';

describe('/id reply', () => {
  it('reads every field the service sends', () => {
    const r = readIdResponse({
      status: 200,
      body: JSON.stringify({
        d_mid: '123-abc',
        id_sync_ttl: 3600,
        d_blob: 'blob',
        d_region: 9,
        ibs: [{ id: 411, tag: 'img', url: ['//x/p'], ttl: 60, fireURLSync: 1, syncOnPage: 0 }],
        subdomain: 'dpm',
        d_optout: ['aam', 'global'],
        d_ottl: 60,
      }),
    });
    expect(r).toEqual({
      kind: 'reply',
      reply: {
        mid: '123-abc',
        blob: 'blob',
        region: '9',
        ttl: 3600,
        ibs: [{ id: '411', tag: 'img', url: ['//x/p'], ttl: 60, fireURLSync: 1, syncOnPage: 0 }],
        subdomain: 'dpm',
        optOut: 'aam,global',
        optOutTtl: 60,
        rejected: [],
      },
    });
  });

  it('applies the defaults 604800 and 7200 and NONE', () => {
    const r = readIdReply({});
    expect(r.ttl).toBe(604800);
    expect(r.optOutTtl).toBe(7200);
    expect(r.optOut).toBe('NONE');
    expect(r.mid).toBeUndefined();
    expect(readIdReply({ id_sync_ttl: 'garbage', d_ottl: -5 }).ttl).toBe(604800);
    expect(readIdReply({ d_ottl: -5 }).optOutTtl).toBe(7200);
  });

  it('takes the MID from mid, d_mid, visitorID, id or uuid; NOTARGET is NONE; invalid ids are ignored', () => {
    expect(readIdReply({ mid: 'aa', d_mid: 'bb' }).mid).toBe('aa');
    expect(readIdReply({ uuid: '42' }).mid).toBe('42');
    expect(readIdReply({ d_mid: 'NOTARGET' }).mid).toBe('NONE');
    expect(readIdReply({ d_mid: '<script>' }).mid).toBeUndefined();
    expect(readIdReply({ blob: 'b', dcs_region: 3 })).toMatchObject({ blob: 'b', region: '3' });
  });

  it('drops garbage ibs entries', () => {
    expect(readIdReply({ ibs: 'nope' }).ibs).toEqual([]);
    expect(readIdReply({ ibs: [null, 5, { tag: 'img' }, { id: '1', url: '//a' }] }).ibs).toEqual([
      { id: '1', tag: 'img', url: ['//a'], ttl: 0, fireURLSync: 0, syncOnPage: 0 },
    ]);
  });

  it('reports non-JSON, non-object and error replies, timeouts and network failures', () => {
    expect(readIdResponse({ status: 200, body: '<html>' })).toEqual({ kind: 'unusable', reason: 'Error parsing response as JSON' });
    expect(readIdResponse({ status: 200, body: '[1,2]' })).toEqual({ kind: 'unusable', reason: 'Response is not JSON' });
    expect(readIdResponse({ status: 200, body: '"x"' })).toEqual({ kind: 'unusable', reason: 'Response is not JSON' });
    expect(readIdResponse({ status: 500, body: '{}' })).toEqual({ kind: 'unusable', reason: 'ID service answered HTTP 500' });
    expect(readIdResponse({ status: 0, body: '', error: 'timeout' })).toEqual({ kind: 'timeout' });
    expect(readIdResponse({ status: 0, body: '', error: 'network' })).toEqual({ kind: 'network' });
    expect(readIdReply({ error_msg: 'timeout' }).errorMsg).toBe('timeout');
  });

  it('accepts visitor ids of hex digits and dashes only', () => {
    expect(isValidVisitorId('0123abcDEF-9')).toBe(true);
    expect(isValidVisitorId('12 34')).toBe(false);
    expect(isValidVisitorId('')).toBe(false);
    expect(isValidVisitorId(12)).toBe(false);
  });

  it('rejects letters that are not hex digits (ZZZZ-…), in the check and in a reply', () => {
    for (const id of ['ZZZZ-0000', '0123g', 'abcdefG', '12345678901234567890123456789012345678Z', '00_11']) {
      expect(isValidVisitorId(id), id).toBe(false);
    }
    expect(readIdReply({ d_mid: 'ZZZZ-0000' }).mid).toBeUndefined();
  });
});

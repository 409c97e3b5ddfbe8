/**
 * The `/id` reply read field by field (VisitorAPI.js 5.5.0: response fields) on the odd values a service or a proxy can send:
 * empty strings, numbers in strings, zero, non-finite numbers, mixed arrays, a JSON null.
 */
import { describe, expect, it } from 'vitest';
import { readIdReply, readIdResponse } from '../../../src/worker-engine/visitor/id-response.ts';

const json = (body: string) => readIdResponse({ status: 200, body });

describe('/id reply: odd values', () => {
  it('a reply without fields has the defaults and no other key', () => {
    expect(readIdReply({})).toStrictEqual({ ttl: 604800, ibs: [], optOut: 'NONE', optOutTtl: 7200, rejected: [] });
    expect(Object.keys(readIdReply({ d_mid: '<bad>', d_blob: '', subdomain: '' })).sort()).toEqual(
      ['ibs', 'optOut', 'optOutTtl', 'rejected', 'ttl'],
    );
  });

  it('an empty MID field is no MID: the next name is read (mid, then d_mid…)', () => {
    expect(readIdReply({ mid: '', d_mid: '0123abc' }).mid).toBe('0123abc');
    expect(readIdReply({ mid: '', d_mid: '', visitorID: '', id: '', uuid: 'ff' }).mid).toBe('ff');
  });

  it('numbers count as text only when finite (1e999 in JSON is Infinity)', () => {
    const r = json('{"d_region":1e999,"d_blob":12,"d_mid":1e999,"uuid":42}');
    expect(r.kind === 'reply' && r.reply).toMatchObject({ blob: '12', mid: '42' });
    expect(r.kind === 'reply' && 'region' in r.reply).toBe(false);
  });

  it('the TTLs: a number in a string counts; 0, negative, true, Infinity and blanks give the defaults', () => {
    expect(readIdReply({ id_sync_ttl: '3600', d_ottl: '60' })).toMatchObject({ ttl: 3600, optOutTtl: 60 });
    for (const bad of [0, '0', -1, true, ' ', '', null, 'x']) {
      expect(readIdReply({ id_sync_ttl: bad, d_ottl: bad }), String(bad)).toMatchObject({ ttl: 604800, optOutTtl: 7200 });
    }
    const r = json('{"id_sync_ttl":1e999,"d_ottl":1e999}');
    expect(r.kind === 'reply' && r.reply).toMatchObject({ ttl: 604800, optOutTtl: 7200 });
    expect(readIdReply({ ibs: [{ id: '1', ttl: 0 }, { id: '2', ttl: '30' }] }).ibs.map((e) => e.ttl)).toEqual([0, 30]);
  });

  it('an ibs entry keeps only the string URLs; a URL that is neither list nor string gives none', () => {
    const ibs = readIdReply({
      ibs: [
        { id: '1', url: ['//a.example/p', 5, null, '//b.example/q'] },
        { id: '2', url: 7 },
        { id: '3' },
        'entry',
        7,
      ],
    }).ibs;
    expect(ibs.map((e) => [e.id, e.url])).toEqual([
      ['1', ['//a.example/p', '//b.example/q']],
      ['2', []],
      ['3', []],
    ]);
  });

  it('d_optout as a list keeps its non-empty strings, joined with ","', () => {
    expect(readIdReply({ d_optout: ['aam', '', 5, null, 'global'] }).optOut).toBe('aam,global');
    expect(readIdReply({ d_optout: ['', 3] }).optOut).toBe('NONE');
  });

  it('a JSON null is "Response is not JSON", not a reply', () => {
    expect(json('null')).toEqual({ kind: 'unusable', reason: 'Response is not JSON' });
  });
});

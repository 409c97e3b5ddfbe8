/**
 * ID-sync formats at their edges (VisitorAPI.js 5.5.0: the ID-sync iframe): the sync lists `MCSYNCS` / `MCSYNCSOP` (parse,
 * renew, expire, the 649-character cut) and `idSyncByURL`'s checks and entry.
 */
import { describe, expect, it } from 'vitest';
import {
  idSyncByUrlMessage,
  idSyncOrigin,
  isSynced,
  parseSyncList,
  pruneSyncList,
  recordSync,
  serializeSyncList,
} from '../../../src/worker-engine/visitor/id-sync.ts';

const today = 19899;

describe('sync lists at their edges', () => {
  it('skips entries that are not <id>-<day>, and keeps the rest', () => {
    expect(parseSyncList('garbage*411-19906*477-19900x*-5*a\nb-19900*9-')).toEqual([{ id: '411', expiryDay: 19906 }]);
    expect(parseSyncList('a-b-19906')).toEqual([{ id: 'a-b', expiryDay: 19906 }]);
  });

  it('a sync counts up to and including its expiry day, for its own id only', () => {
    const list = [{ id: '411', expiryDay: today }, { id: '477', expiryDay: today - 1 }];
    expect(isSynced(list, '411', today)).toBe(true);
    expect(isSynced(list, '411', today + 1)).toBe(false);
    expect(isSynced(list, '477', today)).toBe(false);
    expect(isSynced(list, '999', today)).toBe(false);
  });

  it('renewing a sync replaces its entry (moved last) and keeps the others', () => {
    const list = [{ id: '411', expiryDay: 19900 }, { id: '477', expiryDay: 19901 }];
    expect(recordSync(list, '411', 10080, today)).toEqual([{ id: '477', expiryDay: 19901 }, { id: '411', expiryDay: 19906 }]);
  });

  it('a list of exactly 649 characters is kept whole; at 650 the earliest-expiring entry goes', () => {
    // 54 entries "1000-19999" (10 characters each) joined by "*": 54 * 11 - 1 = 593; one more entry
    // with an id of the right length brings it to 649.
    const list = Array.from({ length: 54 }, (_, i) => ({ id: String(1000 + i), expiryDay: 19999 }));
    const last = { id: 'x'.repeat(649 - 593 - 1 - 6), expiryDay: 19999 };
    const exact = [...list, last];
    expect(serializeSyncList(exact)).toHaveLength(649);
    expect(pruneSyncList(exact, today)).toEqual(exact);
    const over = [...list, { ...last, id: `${last.id}y` }];
    expect(serializeSyncList(over)).toHaveLength(650);
    expect(pruneSyncList(over, today)).toHaveLength(54);
  });

  it('of entries expiring the same day, the one recorded first (listed first) is dropped first', () => {
    const list = [
      { id: 'aaaa', expiryDay: 19900 },
      { id: 'bbbb', expiryDay: 19900 },
      { id: 'cccc', expiryDay: 19950 },
    ];
    expect(pruneSyncList(list, today, 23)).toEqual([{ id: 'bbbb', expiryDay: 19900 }, { id: 'cccc', expiryDay: 19950 }]);
  });
});

describe('idSyncOrigin and idSyncByURL at their edges', () => {
  it('drops every trailing slash of the idSyncOrigin setting', () => {
    expect(idSyncOrigin('http://127.0.0.1:4176//', 'dpm')).toBe('http://127.0.0.1:4176');
  });

  it('an empty or null dpid, and an empty url, are the library errors; 0 minutes is not positive', () => {
    expect(idSyncByUrlMessage({ dpid: null, url: 'x' }, false)).toEqual({ error: 'Error: config.dpid is empty' });
    expect(idSyncByUrlMessage({ dpid: '', url: 'x' }, false)).toEqual({ error: 'Error: config.dpid is empty' });
    expect(idSyncByUrlMessage({ dpid: '22', url: '' }, false)).toEqual({ error: 'Error: config.url is empty' });
    expect(idSyncByUrlMessage({ dpid: '22', url: 'x', minutesToLive: 0 }, false)).toEqual({
      error: 'Error: config.minutesToLive needs to be a positive number',
    });
    expect(idSyncByUrlMessage({ dpid: '22', url: 'x', minutesToLive: '60' }, false)).toEqual({ message: 'ibs|22|img|x|60||%2C22%2C' });
  });

  it('without dpuuid (absent or null) the entry ends ",<dpid>,"', () => {
    expect(idSyncByUrlMessage({ dpid: '22', url: '//s.example/p' }, false)).toEqual({ message: 'ibs|22|img|%2F%2Fs.example%2Fp|20160||%2C22%2C' });
    expect(idSyncByUrlMessage({ dpid: '22', url: '//s.example/p', dpuuid: null }, false)).toEqual({
      message: 'ibs|22|img|%2F%2Fs.example%2Fp|20160||%2C22%2C',
    });
    expect(idSyncByUrlMessage({ dpid: 22, url: '//s.example/p', dpuuid: 0 }, false)).toEqual({ message: 'ibs|22|img|%2F%2Fs.example%2Fp|20160||%2C22%2C0' });
  });

  it('removes the leading http: or https: of the url only, any case', () => {
    const url = (u: string) => (idSyncByUrlMessage({ dpid: '1', url: u }, false) as { message: string }).message.split('|')[3];
    expect(url('http://s.example/p')).toBe('%2F%2Fs.example%2Fp');
    expect(url('HTTPS://s.example/p')).toBe('%2F%2Fs.example%2Fp');
    expect(url('https://s.example/r?next=https://t.example/')).toBe('%2F%2Fs.example%2Fr%3Fnext%3Dhttps%3A%2F%2Ft.example%2F');
    expect(url('//s.example/r?next=http://t.example/')).toBe('%2F%2Fs.example%2Fr%3Fnext%3Dhttp%3A%2F%2Ft.example%2F');
  });
});

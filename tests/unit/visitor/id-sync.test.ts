import { describe, expect, it } from 'vitest';
import {
  combinedMessage,
  dest5Url,
  ibsMessage,
  idSyncByUrlMessage,
  idSyncFrameId,
  idSyncOrigin,
  isRealSubdomain,
  parseSyncList,
  pruneSyncList,
  readFrameMessage,
  recordSync,
  serializeSyncList,
} from '../../../src/worker-engine/visitor/id-sync.ts';

describe('ID-sync iframe', () => {
  it('loads dest5.html from <subdomain>.demdex.net unless idSyncOrigin says otherwise', () => {
    expect(idSyncOrigin('', 'dpm')).toBe('https://dpm.demdex.net');
    expect(idSyncOrigin('http://127.0.0.1:4176/', 'dpm')).toBe('http://127.0.0.1:4176');
    expect(dest5Url('https://dpm.demdex.net', 0, 'https://www.example.com')).toBe(
      'https://dpm.demdex.net/dest5.html?d_nsid=0#https%3A%2F%2Fwww.example.com',
    );
    expect(idSyncFrameId('dpm', 0)).toBe('destination_publishing_iframe_dpm_0');
    expect(isRealSubdomain('dpm')).toBe(true);
    expect(isRealSubdomain('evil.com/x')).toBe(false);
    expect(isRealSubdomain(undefined)).toBe(false);
  });

  it('encodes entries and joins them in one combined post', () => {
    const a = ibsMessage({ id: '411', tag: 'img', url: ['//a.example/p?x=1', '//b.example/q'], ttl: 10080, fireURLSync: 1, syncOnPage: 0 });
    expect(a).toBe('ibs|411|img|%2F%2Fa.example%2Fp%3Fx%3D1%2C%2F%2Fb.example%2Fq|10080|||1');
    const msg = combinedMessage([a, 'ibs|2|img|x|1|||0'], false);
    expect(msg).toBe(`---destpub-combined---${a}%01ibs|2|img|x|1|||0`);
    expect(combinedMessage([a], true).startsWith('---destpub-clear-dextp------destpub-combined---')).toBe(true);
  });

  it('accepts the iframe answer only from the iframe origin', () => {
    const data = '---destpub-to-parent---canSetThirdPartyCookies|true';
    expect(readFrameMessage(data, 'https://dpm.demdex.net', 'https://dpm.demdex.net')).toEqual({ canSetThirdPartyCookies: true });
    expect(readFrameMessage(data, 'https://evil.example', 'https://dpm.demdex.net')).toBeUndefined();
    expect(readFrameMessage('---destpub-to-parent---canSetThirdPartyCookies|false', 'o', 'o')).toEqual({ canSetThirdPartyCookies: false });
    expect(readFrameMessage({ x: 1 }, 'o', 'o')).toBeUndefined();
    expect(readFrameMessage('---destpub-to-parent---other|true', 'o', 'o')).toBeUndefined();
  });
});

describe('sync tracking (MCSYNCS / MCSYNCSOP)', () => {
  const today = 19899;

  it('reads and writes <id>-<expiryDay> joined by *', () => {
    const list = parseSyncList('411-19906*477-19900');
    expect(list).toEqual([{ id: '411', expiryDay: 19906 }, { id: '477', expiryDay: 19900 }]);
    expect(serializeSyncList(list)).toBe('411-19906*477-19900');
  });

  it('records a sync for ceil(ttl/1440) days and prunes expired ones', () => {
    expect(recordSync([], '411', 10080, today)).toEqual([{ id: '411', expiryDay: 19906 }]);
    expect(recordSync([], '1', 1, today)).toEqual([{ id: '1', expiryDay: 19900 }]);
    expect(pruneSyncList([{ id: 'old', expiryDay: 19898 }, { id: 'ok', expiryDay: 19899 }], today)).toEqual([{ id: 'ok', expiryDay: 19899 }]);
  });

  it('keeps the list at most 649 characters, dropping the earliest-expiring first', () => {
    const list = Array.from({ length: 80 }, (_, i) => ({ id: String(1000 + i), expiryDay: today + 1 + (i % 40) }));
    const pruned = pruneSyncList(list, today);
    const text = serializeSyncList(pruned);
    expect(text.length).toBeLessThanOrEqual(649);
    expect(serializeSyncList([...pruned, { id: '9999', expiryDay: today + 50 }]).length).toBeGreaterThan(649);
    const minKept = Math.min(...pruned.map((r) => r.expiryDay));
    const dropped = list.filter((r) => !pruned.includes(r));
    expect(dropped.every((r) => r.expiryDay <= minKept)).toBe(true);
    expect(pruneSyncList(list, today, 10_000)).toHaveLength(80);
  });

  it('idSyncByURL queues an entry or returns the library error texts', () => {
    expect(idSyncByUrlMessage({ dpid: '22', url: 'https://s.example/p?u=1', dpuuid: 'abc' }, false)).toEqual({
      message: 'ibs|22|img|%2F%2Fs.example%2Fp%3Fu%3D1|20160||%2C22%2Cabc',
    });
    expect(idSyncByUrlMessage({ dpid: '22', url: 'x' }, true)).toEqual({ error: 'Error: id syncs have been disabled' });
    expect(idSyncByUrlMessage({ url: 'x' }, false)).toEqual({ error: 'Error: config.dpid is empty' });
    expect(idSyncByUrlMessage({ dpid: 1 }, false)).toEqual({ error: 'Error: config.url is empty' });
    expect(idSyncByUrlMessage({ dpid: 1, url: 'x', minutesToLive: -1 }, false)).toEqual({
      error: 'Error: config.minutesToLive needs to be a positive number',
    });
  });
});

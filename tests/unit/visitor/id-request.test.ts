import { describe, expect, it } from 'vitest';
import { buildIdUrl, buildOptOutStatusUrl, isDemdexHost } from '../../../src/worker-engine/visitor/id-request.ts';
import { ORG } from './helpers.ts';

const base = { idServiceHost: 'dpm.demdex.net', orgId: ORG, containerId: 0, now: 1719230400000 } as const;

describe('/id request', () => {
  it('puts parameters in the library order: field group second, ts last', () => {
    const url = buildIdUrl({ ...base, fieldGroup: 'MC' });
    expect(url).toBe(
      'https://dpm.demdex.net/id?d_visid_ver=5.5.0&d_fieldgroup=MC&d_rtbd=json&d_ver=2' +
        '&d_orgid=0123456789ABCDEF01234567%40AdobeOrg&d_nsid=0&ts=1719230400000',
    );
  });

  it('sends the known MID, the blob (encoded) and customer ids in order', () => {
    const url = buildIdUrl({
      ...base,
      fieldGroup: 'AAM',
      mid: '87281349862349576210981234567890123456',
      blob: 'a+b/c=',
      customerIdParams: '&d_cid_ic=crm%01abc%011',
      coppa: true,
    });
    const query = url.split('?')[1] as string;
    expect(query.split('&').map((p) => p.split('=')[0])).toEqual([
      'd_visid_ver',
      'd_fieldgroup',
      'd_rtbd',
      'd_ver',
      'd_orgid',
      'd_nsid',
      'd_mid',
      'd_coppa',
      'd_blob',
      'd_cid_ic',
      'ts',
    ]);
    expect(query).toContain('d_blob=a%2Bb%2Fc%3D');
    expect(query).not.toContain('dcs_region');
  });

  it('adds d_verify=1 for a CNAME host while no MID is known', () => {
    expect(isDemdexHost('dpm.demdex.net')).toBe(true);
    expect(isDemdexHost('https://dpm.demdex.net')).toBe(true);
    expect(isDemdexHost('id.example.com')).toBe(false);
    const local = { ...base, idServiceHost: 'http://127.0.0.1:4176', fieldGroup: 'MC' as const };
    expect(buildIdUrl(local)).toMatch(/^http:\/\/127\.0\.0\.1:4176\/id\?d_visid_ver=5\.5\.0&d_fieldgroup=MC&d_rtbd=json&d_ver=2&d_verify=1&d_orgid=/);
    expect(buildIdUrl({ ...local, mid: '123' })).not.toContain('d_verify');
    expect(buildIdUrl({ ...base, fieldGroup: 'MC' })).not.toContain('d_verify');
  });

  it('uses https for a bare host and the same query for /optOutStatus', () => {
    const url = buildOptOutStatusUrl({ ...base, idServiceHost: 'id.example.com', fieldGroup: 'MC' });
    expect(url.startsWith('https://id.example.com/optOutStatus?d_visid_ver=5.5.0&d_fieldgroup=MC&')).toBe(true);
  });
});

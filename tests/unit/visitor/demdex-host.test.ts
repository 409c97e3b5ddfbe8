/**
 * Which ID hosts are on `.demdex.net` (VisitorAPI.js 5.5.0: the /id call: `d_verify=1` goes along only for a CNAME while
 * no MID is known), for every form the `idServiceHost` setting takes (docs/spec-coverage.md D1: a bare
 * host or a full origin).
 */
import { describe, expect, it } from 'vitest';
import { buildIdUrl, isDemdexHost } from '../../../src/worker-engine/visitor/id-request.ts';

describe('/id request: the demdex host test', () => {
  it('demdex.net itself and its subdomains, bare or as an origin of either scheme, with or without a port', () => {
    for (const host of [
      'demdex.net',
      'https://demdex.net',
      'DPM.DEMDEX.NET',
      'http://dpm.demdex.net',
      'HTTP://dpm.demdex.net',
      'https://dpm.demdex.net:443',
      'dpm.demdex.net:8443',
      'https://dpm.demdex.net/',
    ]) {
      expect(isDemdexHost(host), host).toBe(true);
    }
  });

  it('a host that only contains demdex.net, or a CNAME, is not', () => {
    for (const host of ['', 'metrics.example.com', 'evildemdex.net', 'demdex.net.example.com', 'http://127.0.0.1:4176', 'https://id.example.com:443']) {
      expect(isDemdexHost(host), host).toBe(false);
    }
  });

  it('so an http origin on demdex.net sends no d_verify', () => {
    const url = buildIdUrl({ idServiceHost: 'http://dpm.demdex.net', fieldGroup: 'MC', orgId: 'X@AdobeOrg', containerId: 0, now: 1 });
    expect(url).toBe('http://dpm.demdex.net/id?d_visid_ver=5.5.0&d_fieldgroup=MC&d_rtbd=json&d_ver=2&d_orgid=X%40AdobeOrg&d_nsid=0&ts=1');
  });
});

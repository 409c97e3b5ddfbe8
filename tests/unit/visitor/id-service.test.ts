/**
 * The whole service against the local ID server: a test driver answers `ctx.fetch` with a real
 * `fetch`, and a "reload" is a new service over the same cookie jar.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startIdService, type IdService } from '../../../tools/id-service/server.ts';
import { createVisitorService } from '../../../src/worker-engine/visitor/service.ts';
import { amcvDigest, decodeAmcv } from '../../../src/worker-engine/visitor/amcv-cookie.ts';
import type { NetResponse } from '../../../src/protocol.ts';
import { AMCV, FIXED_NOW, ORG, T, makeContext, type FetchHandler, type TestContext } from './helpers.ts';

let server: IdService;

const realFetch: FetchHandler = async (req): Promise<NetResponse> => {
  try {
    const res = await fetch(req.url, { method: req.method, ...(req.headers ? { headers: req.headers } : {}) });
    return { status: res.status, body: await res.text() };
  } catch {
    return { status: 0, body: '', error: 'network' };
  }
};

function pageView(cookies: Record<string, string> = {}, now = FIXED_NOW): TestContext {
  return makeContext({
    config: { idServiceHost: server.url, idSyncOrigin: server.url },
    fetch: realFetch,
    cookies,
    now,
    url: 'http://shop.example.com/cart',
    page: { secure: false },
  });
}

beforeAll(async () => {
  server = await startIdService({ port: 0 });
});
afterAll(() => server.close());
beforeEach(() => {
  server.calls.length = 0;
});

describe('visitor service with the local ID service', () => {
  it('makes exactly one /id call on a first page view and writes an AMCV cookie the library accepts', async () => {
    const ctx = pageView();
    const svc = createVisitorService(ctx);
    expect(svc.orgId).toBe(ORG);
    await svc.start();
    const values = await svc.getVisitorValues();
    const idCalls = server.calls.filter((c) => c.path === '/id');
    expect(idCalls).toHaveLength(1);
    const q = idCalls[0]!.query;
    expect(q).toMatchObject({ d_visid_ver: '5.5.0', d_fieldgroup: 'MC', d_rtbd: 'json', d_ver: '2', d_verify: '1', d_orgid: ORG, d_nsid: '0' });
    expect(values.MCMID).toMatch(/^\d{38}$/);
    expect(values).toMatchObject({ MCAAMLH: '7', MCOPTOUT: false });
    expect(values.MCAAMB).toBeTruthy();

    const raw = ctx.cookies.get(AMCV)!;
    const decoded = decodeAmcv(raw);
    expect(decoded.digest).toBe(amcvDigest(server.url));
    expect(decoded.version).toBe('5.5.0');
    expect([...decoded.fields.keys()]).toEqual(['MCIDTS', 'MCMID', 'MCAAMLH', 'MCAAMB', 'MCOPTOUT', 'MCSYNCSOP']);
    expect(decoded.fields.get('MCAAMLH')).toEqual({ value: '7', expiry: T + 604800 });
    expect(decoded.fields.get('MCOPTOUT')).toEqual({ value: 'NONE', expiry: T + 7200, session: true });
    expect(decodeURIComponent(raw)).toMatch(/^-?\d+\|MCIDTS\|19899\|MCMID\|\d{38}\|MCAAMLH-\d+\|7\|MCAAMB-\d+\|[^|]+\|MCOPTOUT-\d+s\|NONE\|MCSYNCSOP\|477-19906\|vVersion\|5\.5\.0$/);
    expect(ctx.cookies.get('AMCVS_0123456789ABCDEF01234567%40AdobeOrg')).toBe('1');
    const write = ctx.effects.find((e) => e.type === 'cookie' && e.name === AMCV);
    expect(write).toMatchObject({ path: '/', domain: 'example.com', expires: FIXED_NOW + 2 * 31536000 * 1000 });

    const frame = ctx.effects.find((e) => e.type === 'iframe');
    expect(frame).toMatchObject({
      id: 'destination_publishing_iframe_dpm_0',
      name: 'destination_publishing_iframe_dpm_0_name',
      src: `${server.url}/dest5.html?d_nsid=0#http%3A%2F%2Fshop.example.com`,
      sandbox: 'allow-scripts allow-same-origin',
      title: 'Adobe ID Syncing iFrame',
      targetOrigin: server.url,
    });
    expect((frame as { messages: string[] }).messages[0]).toMatch(/^---destpub-combined---ibs\|411\|img\|/);
    expect(ctx.effects.filter((e) => e.type === 'image')).toEqual([
      { type: 'image', src: `${server.url}/ibs/pixel?dpid=477` },
    ]);
  });

  it('reuses the id on a reload without a new call, and asks again with d_mid when due', async () => {
    const first = pageView();
    const svc1 = createVisitorService(first);
    await svc1.start();
    const mid = (await svc1.getVisitorValues()).MCMID;
    const cookies = Object.fromEntries(first.jar);
    const jar = Object.fromEntries(Object.entries(cookies).map(([k, v]) => [k, v.value]));

    const reload = pageView(jar, FIXED_NOW + 60_000);
    const svc2 = createVisitorService(reload);
    await svc2.start();
    expect((await svc2.getVisitorValues()).MCMID).toBe(mid);
    expect(server.calls.filter((c) => c.path === '/id')).toHaveLength(1);
    expect(reload.effects.filter((e) => e.type === 'cookie')).toEqual([]);

    const later = pageView(jar, FIXED_NOW + 3 * 86400_000);
    const svc3 = createVisitorService(later);
    await svc3.start();
    expect((await svc3.getVisitorValues()).MCMID).toBe(mid);
    const calls = server.calls.filter((c) => c.path === '/id');
    expect(calls).toHaveLength(2);
    expect(calls[1]!.query.d_mid).toBe(mid);
    expect(calls[1]!.query.d_verify).toBeUndefined();
    expect(calls[1]!.query.d_blob).toBeTruthy();
  });

  it('answers /optOutStatus, serves dest5.html and lists its calls', async () => {
    const status = await fetch(`${server.url}/optOutStatus?d_visid_ver=5.5.0`, { headers: { Origin: 'http://shop.example.com' } });
    expect(status.headers.get('access-control-allow-origin')).toBe('http://shop.example.com');
    expect(status.headers.get('access-control-allow-credentials')).toBe('true');
    expect(await status.json()).toEqual({ d_optout: [], d_ottl: 7200 });
    const page = await fetch(`${server.url}/dest5.html?d_nsid=0`);
    expect(await page.text()).toContain('---destpub-to-parent---canSetThirdPartyCookies|true');
    const listed = (await (await fetch(`${server.url}/__calls`)).json()) as Array<{ path: string }>;
    expect(listed.map((c) => c.path)).toEqual(['/optOutStatus', '/dest5.html']);
    await fetch(`${server.url}/__reset`, { method: 'POST' });
    expect(server.calls).toEqual([]);
  });

  it('keeps one MID per demdex cookie when no d_mid is sent', async () => {
    const a = await fetch(`${server.url}/id?d_visid_ver=5.5.0&d_fieldgroup=MC`);
    const cookie = a.headers.get('set-cookie')!.split(';')[0]!;
    const midA = ((await a.json()) as { d_mid: string }).d_mid;
    const b = await fetch(`${server.url}/id?d_visid_ver=5.5.0&d_fieldgroup=MC`, { headers: { Cookie: cookie } });
    expect(((await b.json()) as { d_mid: string }).d_mid).toBe(midA);
  });

  it('falls back to a local MID when the service cannot be reached', async () => {
    const ctx = makeContext({ config: { idServiceHost: 'http://127.0.0.1:9' }, fetch: realFetch });
    const svc = createVisitorService(ctx);
    await svc.start();
    const v = await svc.getVisitorValues();
    expect(v.MCMID).toMatch(/^\d{38}$/);
    expect(ctx.logs.some((l) => l.message.includes('local Marketing Cloud ID'))).toBe(true);
  });
});

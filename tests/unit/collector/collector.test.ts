import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAnalyticsService } from '../../../src/worker-engine/analytics/tracker.ts';
import { decodeBeacon, decodeCommand, summarize } from '../../../tools/collector/decode.ts';
import { startCollector, type CollectedBeacon, type Collector } from '../../../tools/collector/server.ts';
import { makeContext, stubVisitor } from '../harness.ts';

/** A beacon pasted from a production page (AppMeasurement 2.27 through Launch). */
const PRODUCTION =
  'https://metrics.example.com/b/ss/acmeprod/1/JS-2.27.0-LGPQ/s71234567890123?AQB=1&ndh=1&pf=1&t=24%2F2%2F2026%2014%3A4%3A36%202%20-330' +
  '&cid.&userId.&id=U1&as=1&.userId&.cid&sdid=5F1A-1A2B&mid=12345&aamlh=7&ce=UTF-8&pageName=acme%3Ahome%3Anot%20set%20in%20pdl' +
  '&g=https%3A%2F%2Fwww.example.com%2F&c.&cm.&ssf=1&.cm&getNewRepeat=3.0&.c&cc=USD&ch=acme&server=www.example.com&events=event49%2Cevent5%3D3' +
  '&aamb=BLOB&c1=D%3Dv1&v1=Full%20Logged%20In&h1=acme%7Chome&l1=a%2Cb&c2=D%3DpageName&v12=en&pe=lnk_o&pev2=add%20to%20cart' +
  '&c.&a.&activitymap.&page=acme%3Ahome&link=Add&region=BODY&pageIDType=1&.activitymap&.a&.c&s=1920x1080&c=24&j=1.6&v=N&k=Y&bw=1280&bh=720&mcorgid=ORG%40AdobeOrg&AQE=1';

describe('decodeBeacon', () => {
  it('names every field of a production beacon', () => {
    const b = decodeBeacon(PRODUCTION);
    expect(b).toMatchObject({
      hitType: 'tl', rsid: 'acmeprod', version: 'JS-2.27.0-LGPQ', sid: 's71234567890123', method: 'GET',
      time: '24/2/2026 14:4:36 2 -330', pageName: 'acme:home:not set in pdl', pageURL: 'https://www.example.com/',
      channel: 'acme', server: 'www.example.com', currencyCode: 'USD', events: 'event49,event5=3',
      linkType: 'o', linkName: 'add to cart', mid: '12345', aamlh: '7', aamb: 'BLOB', mcorgid: 'ORG@AdobeOrg', sdid: '5F1A-1A2B',
      prop1: 'D=v1', prop2: 'D=pageName', eVar1: 'Full Logged In', eVar12: 'en', hier1: 'acme|home', list1: 'a,b',
    });
    expect(b.contextData).toEqual({ cm: { ssf: '1' }, getNewRepeat: '3.0', a: { activitymap: { page: 'acme:home', link: 'Add', region: 'BODY', pageIDType: '1' } } });
    expect(b.customerIds).toEqual({ userId: { id: 'U1', as: '1' } });
    expect(b.params['c.cm.ssf']).toBe('1');
    expect(b.params.s).toBe('1920x1080');
    expect(b.raw[0]).toEqual(['AQB', '1']);
    expect(b.raw.at(-1)).toEqual(['AQE', '1']);
  });
  it('round-trips what the tracker builds, GET and POST, g + -g', async () => {
    const ctx = makeContext({ snapshot: { url: 'https://www.example.com/' + 'p'.repeat(300) } });
    const analytics = createAnalyticsService(ctx, stubVisitor({ customerIds: { crm: { id: 'C9', authState: 2 } } }));
    const vars = { pageName: "acme:it's ~ (new)!", eVar250: 'ü€', prop75: 'x*y', list3: 'a,b', hier5: 'a|b', products: ';SKU1;1;9.99', events: 'purchase,event1:ID7' };
    await analytics.track({ type: 't', vars });
    await analytics.track({ type: 't', vars: { ...vars, eVar100: 'z'.repeat(255), eVar101: 'z'.repeat(255), eVar102: 'z'.repeat(255), eVar103: 'z'.repeat(255), eVar104: 'z'.repeat(255), eVar105: 'z'.repeat(255) } });
    const [get, post] = ctx.requests;
    expect(post!.method).toBe('POST');
    for (const r of [get!, post!]) {
      const b = decodeBeacon(r.url, r.body);
      expect(b).toMatchObject({ ...vars, pageName: vars.pageName, rsid: 'acmeprod', currencyCode: 'USD' });
      expect(b.pageURL).toBe('https://www.example.com/' + 'p'.repeat(300));
      expect(b.customerIds).toEqual({ crm: { id: 'C9', as: '2' } });
    }
  });
});

describe('decodeCommand', () => {
  it('prints the decoded JSON with --json', () => {
    const out: string[] = [];
    expect(decodeCommand(['--json', PRODUCTION], (t) => out.push(t), () => {})).toBe(0);
    expect(JSON.parse(out[0]!)).toMatchObject({ rsid: 'acmeprod', linkName: 'add to cart' });
  });
  it('prints a readable table of named fields by default, named fields first and short', () => {
    const out: string[] = [];
    expect(decodeCommand([PRODUCTION], (t) => out.push(t), () => {})).toBe(0);
    const lines = out[0]!.split('\n');
    expect(lines[0]).toBe('link beacon · acmeprod · GET · JS-2.27.0-LGPQ · s71234567890123');
    expect(lines.length).toBeLessThan(45);
    const row = (field: string) => lines.find((l) => l.startsWith(field + ' '))?.replace(/ {2,}/g, ' | ');
    expect(row('hit')).toBe('hit | pe | link, custom (lnk_o)');
    expect(row('pageName')).toBe('pageName | pageName | acme:home:not set in pdl');
    expect(row('link name')).toBe('link name | pev2 | add to cart');
    expect(row('eVar1')).toBe('eVar1 | v1 | Full Logged In');
    expect(row('c.a.activitymap.link')).toBe('c.a.activitymap.link | Add');
    expect(row('cid.userId.id')).toBe('cid.userId.id | U1');
    // The named rows come before the numbered variables, the technical parameters last, on one line.
    expect(lines.findIndex((l) => l.startsWith('pageName'))).toBeLessThan(lines.findIndex((l) => l.startsWith('eVar1')));
    expect(lines.find((l) => l.startsWith('technical: '))).toBe('technical: ndh=1 pf=1 ce=UTF-8 s=1920x1080 c=24 j=1.6 v=N k=Y bw=1280 bh=720');
  });
  it('fails with a usage line without a URL, and on something that is not a beacon', () => {
    const err: string[] = [];
    expect(decodeCommand([], () => {}, (t) => err.push(t))).toBe(2);
    expect(err[0]).toMatch(/^usage: offtag decode/);
    expect(decodeCommand(['hello'], () => {}, (t) => err.push(t))).toBe(1);
    // A URL with a query that is not AppMeasurement's path is no beacon either.
    const out: string[] = [];
    expect(decodeCommand(['https://example.com/foo?x=1'], (t) => out.push(t), (t) => err.push(t))).toBe(1);
    expect(out).toEqual([]);
    expect(err.at(-1)).toBe('not an analytics beacon (expected …/b/ss/<rsid>/…?AQB=1…): https://example.com/foo?x=1');
  });
});

describe('collector server', () => {
  let c: Collector;
  beforeAll(async () => {
    c = await startCollector({ port: 0, quiet: true });
  });
  afterAll(() => c.close());
  beforeEach(async () => {
    await fetch(`${c.url}/__reset`, { method: 'POST' });
  });

  it('answers a GET beacon with a GIF and CORS with credentials, and keeps it decoded', async () => {
    const res = await fetch(PRODUCTION.replace('https://metrics.example.com', c.url), { headers: { Origin: 'http://page.test', Cookie: 's_vi=1' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/gif');
    expect(res.headers.get('access-control-allow-origin')).toBe('http://page.test');
    expect(res.headers.get('access-control-allow-credentials')).toBe('true');
    const list = (await (await fetch(`${c.url}/__beacons`)).json()) as CollectedBeacon[];
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ pageName: 'acme:home:not set in pdl', linkName: 'add to cart', duplicate: false, cookie: 's_vi=1' });
  });
  it('accepts POST beacons (body = query) and answers the preflight', async () => {
    const pre = await fetch(`${c.url}/b/ss/acmeprod/1/JS-2.27.0/s1`, { method: 'OPTIONS', headers: { Origin: 'http://page.test' } });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-headers')).toMatch(/Content-Type/);
    const res = await fetch(`${c.url}/b/ss/acmeprod/1/JS-2.27.0/s1`, { method: 'POST', body: 'AQB=1&ndh=1&pf=1&t=x&mid=9&v7=org&AQE=1', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    expect(res.status).toBe(204);
    expect(c.beacons[0]).toMatchObject({ method: 'POST', mid: '9', eVar7: 'org' });
  });
  it('flags a re-sent beacon as a duplicate and resets', async () => {
    const u = `${c.url}/b/ss/acmeprod/1/JS-2.27.0/s42?AQB=1&t=x&AQE=1`;
    await fetch(u);
    await fetch(u);
    expect(c.beacons.map((b) => b.duplicate)).toEqual([false, true]);
    await fetch(`${c.url}/__reset`, { method: 'POST' });
    expect(c.beacons).toHaveLength(0);
  });
  it('fails on request: N answers with the status, or dropped connections with status 0', async () => {
    const u = `${c.url}/b/ss/acmeprod/1/JS-2.27.0/s5?AQB=1&t=x&AQE=1`;
    await fetch(`${c.url}/__fail?count=1&status=503`, { method: 'POST' });
    expect((await fetch(u)).status).toBe(503);
    await fetch(`${c.url}/__fail?count=1&status=0`, { method: 'POST' });
    await expect(fetch(u)).rejects.toThrow();
    expect((await fetch(u)).status).toBe(200);
    expect(c.beacons).toHaveLength(1);
  });
  it('prints one readable line per beacon unless quiet', async () => {
    const loud = await startCollector({ port: 0 });
    const spy = vi.spyOn(console, 'log').mockImplementation(() => {});
    try {
      await fetch(`${loud.url}/b/ss/acmeprod/1/JS-2.27.0/s1?AQB=1&t=x&pageName=acme%3Ahome&events=event49&v1=x&AQE=1`);
      expect(spy).toHaveBeenCalledWith('[collector] t acmeprod pageName=acme:home events=event49 vars=1');
    } finally {
      spy.mockRestore();
      await loud.close();
    }
    expect(summarize(decodeBeacon(PRODUCTION))).toBe('[collector] tl acmeprod lnk_o linkName=add to cart pageName=acme:home:not set in pdl events=event49,event5=3 vars=6');
  });
});

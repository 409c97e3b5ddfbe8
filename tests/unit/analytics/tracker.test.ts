import { describe, expect, it } from 'vitest';
import { decodeBeacon } from '../../../src/worker-engine/analytics/beacon-decode.ts';
import { EU_COMPLIANCE_MESSAGE } from '../../../src/worker-engine/analytics/consent.ts';
import { createAnalyticsService } from '../../../src/worker-engine/analytics/tracker.ts';
import type { AnalyticsHit } from '../../../src/worker-engine/services.ts';
import { keysOf, makeContext, stubVisitor } from '../harness.ts';

const PAGE_VIEW: AnalyticsHit = {
  type: 't',
  vars: {
    pageName: 'acme:product detail:12345',
    channel: 'acme',
    server: 'www.example.com',
    hier1: 'acme|product detail|12345',
    eVar1: 'Full Logged In',
    eVar4: '0801234567:Unassigned',
    prop1: 'D=v1',
    prop2: 'D=pageName',
    list1: 'imp-1,imp-2',
    events: 'event49',
  },
};

const LINK: AnalyticsHit = {
  type: 'tl',
  linkType: 'o',
  linkName: 'add-to-cart',
  linkTrackVars: 'pageName,eVar1,eVar4,list1,list2,events',
  linkTrackEvents: 'event49',
  vars: { ...PAGE_VIEW.vars, eVar2: '0801234567', list2: 'cmp-1' },
};

function setup(opts: Parameters<typeof makeContext>[0] = {}, visitorOpts: Parameters<typeof stubVisitor>[0] = {}) {
  const ctx = makeContext(opts);
  const visitor = stubVisitor(visitorOpts);
  return { ctx, visitor, analytics: createAnalyticsService(ctx, visitor) };
}

describe('page view (golden)', () => {
  it('builds the exact beacon', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    expect(ctx.requests).toHaveLength(1);
    const r = ctx.requests[0]!;
    expect(r).toMatchObject({ kind: 'beacon', method: 'GET', credentials: 'include', fireAndForget: true });
    expect(r.url).toMatchInlineSnapshot(`"https://metrics.example.com/b/ss/acmeprod/1/JS-2.27.0-LF8J/s06011037519201?AQB=1&ndh=1&pf=1&t=24%2F2%2F2026%2014%3A4%3A36%202%20-330&mid=12345678901234567890123456789012345678&aamlh=7&ce=UTF-8&pageName=acme%3Aproduct%20detail%3A12345&g=https%3A%2F%2Fwww.example.com%2Fshop%2Fproduct%3Fid%3D1&r=https%3A%2F%2Fsearch.example.net%2F%3Fq%3Dgloves&cc=USD&ch=acme&server=www.example.com&events=event49&aamb=j8Odv6LonN4r3an7LhD3WZrU1bUpAkFkkiY1ncBR96t2PTI&c1=D%3Dv1&v1=Full%20Logged%20In&h1=acme%7Cproduct%20detail%7C12345&l1=imp-1%2Cimp-2&c2=D%3DpageName&v4=0801234567%3AUnassigned&s=1920x1080&c=24&j=1.6&v=N&k=Y&bw=1280&bh=720&mcorgid=0123456789ABCDEF01234567%40AdobeOrg&AQE=1"`);
  });
  it('follows the golden parameter order', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    expect(keysOf(ctx.requests[0]!.url)).toEqual([
      'AQB', 'ndh', 'pf', 't', 'mid', 'aamlh', 'ce', 'pageName', 'g', 'r', 'cc', 'ch', 'server', 'events', 'aamb',
      'c1', 'v1', 'h1', 'l1', 'c2', 'v4', 's', 'c', 'j', 'v', 'k', 'bw', 'bh', 'mcorgid', 'AQE',
    ]);
  });
});

describe('link beacon', () => {
  it('builds the exact storefront link beacon (golden)', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    await analytics.track(LINK);
    expect(ctx.requests[1]!.url.replace(/\/s\d+\?/, '/s…?')).toMatchInlineSnapshot(`"https://metrics.example.com/b/ss/acmeprod/1/JS-2.27.0-LF8J/s…?AQB=1&ndh=1&pf=1&t=24%2F2%2F2026%2014%3A4%3A36%202%20-330&mid=12345678901234567890123456789012345678&aamlh=7&ce=UTF-8&pageName=acme%3Aproduct%20detail%3A12345&g=https%3A%2F%2Fwww.example.com%2Fshop%2Fproduct%3Fid%3D1&cc=USD&events=event49&v1=Full%20Logged%20In&l1=imp-1%2Cimp-2&l2=cmp-1&v4=0801234567%3AUnassigned&pe=lnk_o&pev2=add-to-cart&s=1920x1080&c=24&j=1.6&v=N&k=Y&bw=1280&bh=720&mcorgid=0123456789ABCDEF01234567%40AdobeOrg&AQE=1"`);
  });
  it('carries pe/pev2 and only the linkTrackVars variables (spec-coverage.md D5)', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(LINK);
    const b = decodeBeacon(ctx.requests[0]!.url);
    expect(b.hitType).toBe('tl');
    expect(b.linkType).toBe('o');
    expect(b.linkName).toBe('add-to-cart');
    expect(b.linkUrl).toBeUndefined();
    expect(b.pageName).toBe('acme:product detail:12345');
    expect(b.eVar1).toBe('Full Logged In');
    expect(b.eVar4).toBe('0801234567:Unassigned');
    expect(b.list1).toBe('imp-1,imp-2');
    expect(b.list2).toBe('cmp-1');
    expect(b.events).toBe('event49');
    for (const k of ['ch', 'server', 'v2', 'c1', 'c2', 'h1', 'aamb']) expect(b.params[k], k).toBeUndefined();
    for (const k of ['mid', 'aamlh', 'ce', 'g', 'cc', 's', 'bw', 'mcorgid']) expect(b.params[k], k).toBeDefined();
    expect(keysOf(ctx.requests[0]!.url).slice(-12)).toEqual(['v4', 'pe', 'pev2', 's', 'c', 'j', 'v', 'k', 'bw', 'bh', 'mcorgid', 'AQE']);
  });
  it('a tl() with neither URL nor name is a page view', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 'tl', vars: { pageName: 'p' } });
    expect(decodeBeacon(ctx.requests[0]!.url).hitType).toBe('t');
  });
  it('keeps pageName from the page view for a later link hit that sets none', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    await analytics.track({ type: 'tl', linkType: 'o', linkName: 'n', vars: {} });
    expect(decodeBeacon(ctx.requests[1]!.url).pageName).toBe('acme:product detail:12345');
  });
});

describe('per-page values', () => {
  it('sends r on the first hit only, and the same browser values on every hit', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    ctx.setSnapshot({ ...ctx.snapshot(), viewport: { width: 10, height: 10 } });
    await analytics.track(LINK);
    const [a, b] = ctx.requests.map((r) => decodeBeacon(r.url));
    expect(a!.referrer).toBe('https://search.example.net/?q=gloves');
    expect(b!.referrer).toBeUndefined();
    expect(b!.params.bw).toBe('1280');
  });
  it('writes s_cc=true so that k tells the truth', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    expect(ctx.jar.get('s_cc')).toBe('true');
  });
  it('uses a bare tracking server with the page scheme, or a full origin', async () => {
    const http = setup({ page: { secure: false } });
    await http.analytics.track(PAGE_VIEW);
    expect(http.ctx.requests[0]!.url.startsWith('http://metrics.example.com/b/ss/acmeprod/1/JS-2.27.0-LF8J/s')).toBe(true);
    const local = setup({ config: { trackingServer: 'http://127.0.0.1:4175', environment: 'staging' } });
    await local.analytics.track(PAGE_VIEW);
    expect(local.ctx.requests[0]!.url.startsWith('http://127.0.0.1:4175/b/ss/acmestage/1/')).toBe(true);
  });
});

describe('consent gate', () => {
  it('logs the EU message for every event and sends nothing, not even later', async () => {
    const { ctx, visitor, analytics } = setup({ cookies: { sat_track: 'false' } });
    await analytics.track(PAGE_VIEW);
    await analytics.onClick({ href: 'https://other.example.org/', text: 'x', region: 'BODY', hasTlCall: false });
    expect(ctx.logs.filter((l) => l.message === EU_COMPLIANCE_MESSAGE)).toHaveLength(2);
    expect(ctx.monitors.filter((m) => m.name === 'beacon-dropped')).toHaveLength(2);
    expect(visitor.calls).toBe(0);
    ctx.jar.set('sat_track', 'true');
    await analytics.track(LINK);
    expect(ctx.requests).toHaveLength(1);
    expect(decodeBeacon(ctx.requests[0]!.url).hitType).toBe('tl');
  });
  it('needs exactly "true"', async () => {
    for (const v of ['TRUE', 'true ', '1', '']) {
      const { ctx, analytics } = setup({ cookies: { sat_track: v } });
      await analytics.track(PAGE_VIEW);
      expect(ctx.requests, v).toHaveLength(0);
    }
    const { ctx, analytics } = setup({ config: { trackingConsentCookie: 'my_consent' }, cookies: { my_consent: 'true', sat_track: 'no' } });
    await analytics.track(PAGE_VIEW);
    expect(ctx.requests).toHaveLength(1);
  });
});

describe('visitor service', () => {
  it('the first hit waits for the visitor values; hits leave in order', async () => {
    const ctx = makeContext();
    const visitor = stubVisitor({ deferred: true });
    const analytics = createAnalyticsService(ctx, visitor);
    const first = analytics.track(PAGE_VIEW);
    const second = analytics.track(LINK);
    // Every service here answers in a microtask: one task later, all they could do is done.
    await new Promise((r) => setImmediate(r));
    expect(visitor.calls).toBeGreaterThan(0);
    expect(ctx.requests).toHaveLength(0);
    visitor.release();
    await Promise.all([first, second]);
    expect(ctx.requests.map((r) => decodeBeacon(r.url).hitType)).toEqual(['t', 'tl']);
  });
  it('sends no hit when aa is not approved, and says why', async () => {
    const { ctx, analytics } = setup({}, { approved: { aa: false } });
    await analytics.track(PAGE_VIEW);
    expect(ctx.requests).toHaveLength(0);
    expect(ctx.monitors.find((m) => m.name === 'beacon-dropped')?.data).toMatchObject({ reason: 'opt-in' });
    expect(ctx.logs.some((l) => l.level === 'warn' && l.message.includes('"aa"'))).toBe(true);
  });
  it('sends no hit when the visitor opted out, and says why', async () => {
    const { ctx, analytics } = setup({}, { values: { MCOPTOUT: true } });
    await analytics.track(PAGE_VIEW);
    expect(ctx.requests).toHaveLength(0);
    expect(ctx.monitors.find((m) => m.name === 'beacon-dropped')?.data).toMatchObject({ reason: 'opt-out' });
  });
  it('adds c.cm.ssf=1 when aam is not approved, also on filtered link hits', async () => {
    const { ctx, analytics } = setup({}, { approved: { aam: false } });
    await analytics.track(PAGE_VIEW);
    await analytics.track(LINK);
    for (const r of ctx.requests) {
      expect(r.url).toContain('&c.&cm.&ssf=1&.cm&.c&cc=USD');
      expect(decodeBeacon(r.url).contextData).toEqual({ cm: { ssf: '1' } });
    }
  });
  it('sends customer ids in the cid block before everything else', async () => {
    const { ctx, analytics } = setup({}, { customerIds: { userId: { id: 'U1', authState: 1 } }, sdid: 'AAAA-BBBB' });
    await analytics.track(PAGE_VIEW);
    expect(ctx.requests[0]!.url).toMatch(/&t=[^&]+&cid\.&userId\.&id=U1&as=1&\.userId&\.cid&sdid=/);
  });
  it('without ecid approval, sends no visitor ids but a fallback s_fid', async () => {
    const { ctx, analytics } = setup({}, { approved: { ecid: false } });
    await analytics.track(PAGE_VIEW);
    const b = decodeBeacon(ctx.requests[0]!.url);
    expect(b.mid).toBeUndefined();
    expect(b.mcorgid).toBeUndefined();
    expect(b.fid).toMatch(/^[0-7][0-9A-F]{15}-[0-3][0-9A-F]{15}$/);
    expect(ctx.jar.get('s_fid')).toBe(b.fid);
    await analytics.track(PAGE_VIEW);
    expect(decodeBeacon(ctx.requests[1]!.url).fid).toBe(b.fid);
  });
});

describe('transport choice and devtools feed', () => {
  it('POSTs above 2047 characters when an id is present', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', vars: { ...PAGE_VIEW.vars, eVar30: 'x'.repeat(250), eVar31: 'y'.repeat(250), eVar32: 'z'.repeat(250), eVar33: 'w'.repeat(250), eVar34: 'q'.repeat(250), eVar35: 'r'.repeat(250), eVar36: 's'.repeat(250) } });
    const r = ctx.requests[0]!;
    expect(r.method).toBe('POST');
    expect(r.url).toMatch(/^https:\/\/metrics\.example\.com\/b\/ss\/acmeprod\/1\/JS-2\.27\.0-LF8J\/s\d+$/);
    expect(r.body!.startsWith('AQB=1&ndh=1&pf=1&t=')).toBe(true);
    expect(r.headers).toEqual({ 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(decodeBeacon(r.url, r.body).eVar36).toBe('s'.repeat(250));
  });
  it('stays GET above 2047 characters without an id', async () => {
    const { ctx, analytics } = setup({}, { approved: { ecid: false } });
    await analytics.track({ type: 't', vars: { eVar30: 'x'.repeat(250), eVar31: 'y'.repeat(250), eVar32: 'z'.repeat(250), eVar33: 'w'.repeat(250), eVar34: 'q'.repeat(250), eVar35: 'r'.repeat(250), eVar36: 's'.repeat(250), eVar37: 's'.repeat(250), eVar38: 's'.repeat(250) } });
    expect(ctx.requests[0]!.method).toBe('GET');
    expect(ctx.requests[0]!.url.length).toBeGreaterThan(2047);
  });
  it('emits a beacon monitor entry with the decoded fields', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    const m = ctx.monitors.find((x) => x.name === 'beacon')!.data as { url: string; fields: { pageName: string } };
    expect(m.url).toBe(ctx.requests[0]!.url);
    expect(m.fields.pageName).toBe('acme:product detail:12345');
  });
  it('decodes a beacon for the devtools feed only when the feed is read (structured clone reads it)', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    const data = ctx.monitors.find((x) => x.name === 'beacon')!.data as object;
    // A getter, not a value: nothing is decoded while no overlay asks.
    expect(typeof Object.getOwnPropertyDescriptor(data, 'fields')?.get).toBe('function');
    const copy = structuredClone(data) as { fields: { pageName: string } };
    expect(copy.fields.pageName).toBe('acme:product detail:12345');
  });
  it('warns once about names that are not AppMeasurement variables', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', vars: { pageName: 'p', eVar251: 'x' } });
    await analytics.track({ type: 't', vars: { pageName: 'p', eVar251: 'x' } });
    expect(ctx.logs.filter((l) => l.message.includes('eVar251'))).toHaveLength(1);
    expect(ctx.requests[0]!.url).not.toContain('v251');
  });
});

describe('Unable to create AppMeasurement tracker', () => {
  it('when the environment has no report suite', async () => {
    const { ctx, analytics } = setup({ config: { reportSuites: { production: '' } } });
    await analytics.track(PAGE_VIEW);
    expect(ctx.requests).toHaveLength(0);
    expect(ctx.logs.find((l) => l.level === 'error')?.message).toMatch(/^Unable to create AppMeasurement tracker: no valid report suite for the "production" environment/);
  });
  it('when the tracking server is neither a host nor an origin', async () => {
    const { ctx, analytics } = setup({ config: { trackingServer: 'http://bad host/' } });
    await analytics.track(PAGE_VIEW);
    expect(ctx.requests).toHaveLength(0);
    expect(ctx.logs.find((l) => l.level === 'error')?.message).toMatch(/^Unable to create AppMeasurement tracker: the tracking server/);
  });
});

describe('automatic link tracking', () => {
  const link = (href: string) => ({ href, text: 'Spec sheet', region: 'product-docs', hasTlCall: false });
  it('sends lnk_d for downloads with the ActivityMap block after pev3', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    await analytics.onClick(link('https://www.example.com/docs/sheet.pdf?v=1'));
    const r = ctx.requests[1]!.url;
    expect(r).toContain('&pe=lnk_d&pev1=https%3A%2F%2Fwww.example.com%2Fdocs%2Fsheet.pdf&c.&a.&activitymap.&page=acme%3Aproduct%20detail%3A12345&link=Spec%20sheet&region=product-docs&pageIDType=1&.activitymap&.a&.c&s=');
    expect(decodeBeacon(r).params.v1).toBeUndefined();
  });
  it('sends lnk_e for exits', async () => {
    const { ctx, analytics } = setup();
    await analytics.onClick(link('https://partner.example.org/'));
    const b = decodeBeacon(ctx.requests[0]!.url);
    expect(b.linkType).toBe('e');
    // No pageName yet: the page is named by its URL and pageIDType 0 is dropped.
    expect(b.contextData).toEqual({ a: { activitymap: { page: 'https://www.example.com/shop/product?id=1', link: 'Spec sheet', region: 'product-docs' } } });
  });
  it('an internal click sends nothing but leaves its ActivityMap data in s_sq for the next page view', async () => {
    const first = setup();
    await first.analytics.track(PAGE_VIEW);
    await first.analytics.onClick(link('https://www.example.com/next'));
    expect(first.ctx.requests).toHaveLength(1);
    const sq = first.ctx.jar.get('s_sq')!;
    expect(decodeURIComponent(sq).startsWith('acmeprod=')).toBe(true);
    const next = setup({ cookies: { s_sq: sq } });
    await next.analytics.track({ type: 't', vars: { pageName: 'acme:next:1' } });
    expect(next.ctx.requests[0]!.url).toContain('&c.&a.&activitymap.&page=acme%3Aproduct%20detail%3A12345&link=Spec%20sheet&region=product-docs&pageIDType=1&.activitymap&.a&.c');
    // Emptied the way AppMeasurement writes every cookie value: escaped.
    expect(next.ctx.jar.get('s_sq')).toBe('%5B%5BB%5D%5D');
    await next.analytics.track({ type: 't', vars: { pageName: 'acme:next:1' } });
    expect(next.ctx.requests[1]!.url).not.toContain('activitymap');
  });
});

describe('wire parity with AppMeasurement 2.27.0', () => {
  const click = (href: string, over: Record<string, unknown> = {}) => ({ href, text: 'catalog', region: 'BODY', hasTlCall: false, tag: 'A', ...over });

  it('sdid: asks without generating (expectSupplementalData is off), so no id means no sdid', async () => {
    const { ctx, visitor, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    expect(decodeBeacon(ctx.requests[0]!.url).params.sdid).toBeUndefined();
    expect(visitor.sdidRequests).toEqual([['AppMeasurement:0', true]]);
  });
  it('sdid: an id that exists already (handed over, or made by Target) is sent first', async () => {
    const { ctx, analytics } = setup({}, { sdid: 'AAAA-BBBB' });
    await analytics.track(PAGE_VIEW);
    expect(ctx.requests[0]!.url).toMatch(/&t=[^&]+&sdid=AAAA-BBBB&mid=/);
  });
  it('sdid: not even asked for when the TARGET opt-in category is not approved', async () => {
    const { ctx, visitor, analytics } = setup({}, { sdid: 'AAAA-BBBB', approved: { target: false } });
    await analytics.track(PAGE_VIEW);
    expect(decodeBeacon(ctx.requests[0]!.url).params.sdid).toBeUndefined();
    expect(visitor.sdidRequests).toEqual([]);
  });

  it('ClickMap: download and exit beacons carry pid, pidt, oid and ot after the ActivityMap block', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    await analytics.onClick(click('https://www.example.com/files/catalog.pdf'));
    await analytics.onClick(click('https://elsewhere.example.org/x?y=1'));
    expect(ctx.requests[1]!.url).toContain(
      '&pageIDType=1&.activitymap&.a&.c&pid=acme%3Aproduct%20detail%3A12345&pidt=1&oid=https%3A%2F%2Fwww.example.com%2Ffiles%2Fcatalog.pdf&ot=A&s=',
    );
    // oid is the link's URL as it is (query kept), where pev1 drops the query.
    expect(ctx.requests[2]!.url).toContain('&pev1=https%3A%2F%2Felsewhere.example.org%2Fx&c.&');
    expect(ctx.requests[2]!.url).toContain('&oid=https%3A%2F%2Felsewhere.example.org%2Fx%3Fy%3D1&ot=A&s=');
  });
  it('ClickMap: without a page name the page is its URL and pidt is left out; s_objectID names the object', async () => {
    const { ctx, analytics } = setup();
    // A page view without a pageName first: the ClickMap page id is then the URL (before any hit there is none).
    await analytics.track({ type: 't', vars: {} });
    await analytics.onClick(click('https://www.example.com/a.pdf', { objectId: 'hero pdf', tag: 'area' }));
    expect(ctx.requests[1]!.url).toContain('&.c&pid=https%3A%2F%2Fwww.example.com%2Fshop%2Fproduct%3Fid%3D1&oid=hero%20pdf&oidt=1&ot=AREA&oi=1&s=');
  });
  it('ActivityMap needs a link text: a link without one sends only the ClickMap fields', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    await analytics.onClick(click('https://www.example.com/files/catalog.pdf', { text: '' }));
    expect(ctx.requests[1]!.url).toContain('&pev1=https%3A%2F%2Fwww.example.com%2Ffiles%2Fcatalog.pdf&pid=acme%3Aproduct%20detail%3A12345&pidt=1&oid=');
    expect(ctx.requests[1]!.url).not.toContain('activitymap');
  });
  it('ClickMap: ids are cut as the library cuts them (page 255, object 100 characters)', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', vars: { pageName: 'p'.repeat(300) } });
    await analytics.onClick(click(`https://www.example.com/${'d'.repeat(200)}.pdf`));
    const b = decodeBeacon(ctx.requests[1]!.url);
    expect(b.params.pid).toBe('p'.repeat(255));
    expect(b.params.oid).toBe(`https://www.example.com/${'d'.repeat(200)}.pdf`.slice(0, 100));
  });
  it('ClickMap: an internal click keeps pid/oid/ot in s_sq; the next hit carries them and s_sq is emptied, escaped', async () => {
    const first = setup();
    await first.analytics.track(PAGE_VIEW);
    await first.analytics.onClick(click('https://www.example.com/next'));
    const sq = first.ctx.jar.get('s_sq')!;
    // Escaped twice, as AppMeasurement stores it: rsid=escape(data), then the cookie value escaped.
    expect(decodeURIComponent(decodeURIComponent(sq))).toBe(
      'acmeprod=&c.&a.&activitymap.&page=acme%3Aproduct%20detail%3A12345&link=catalog&region=BODY&pageIDType=1&.activitymap&.a&.c&pid=acme%3Aproduct%20detail%3A12345&pidt=1&oid=https%3A%2F%2Fwww.example.com%2Fnext&ot=A',
    );
    const next = setup({ cookies: { s_sq: sq } });
    await next.analytics.track({ type: 't', vars: { pageName: 'acme:next:1' } });
    expect(next.ctx.requests[0]!.url).toContain('&.c&pid=acme%3Aproduct%20detail%3A12345&pidt=1&oid=https%3A%2F%2Fwww.example.com%2Fnext&ot=A&s=');
    expect(next.ctx.jar.get('s_sq')).toBe('%5B%5BB%5D%5D');
  });
  it('s_sq: a hit with click data of its own drops what was stored; data for another report suite is not sent', async () => {
    const first = setup();
    await first.analytics.track(PAGE_VIEW);
    await first.analytics.onClick(click('https://www.example.com/next'));
    const sq = first.ctx.jar.get('s_sq')!;
    const next = setup({ cookies: { s_sq: sq } });
    await next.analytics.onClick(click('https://www.example.com/b.pdf'));
    expect(next.ctx.requests[0]!.url).not.toContain('%2Fnext');
    expect(next.ctx.jar.get('s_sq')).toBe('%5B%5BB%5D%5D');
    const other = setup({ cookies: { s_sq: sq }, config: { reportSuites: { production: 'otherprod' } } });
    await other.analytics.track(PAGE_VIEW);
    expect(other.ctx.requests[0]!.url).not.toContain('activitymap');
  });

  it('server: automatic download/exit beacons carry the server the last hit set (clearVars keeps it); rule link beacons do not', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    await analytics.onClick(click('https://www.example.com/files/catalog.pdf'));
    await analytics.track(LINK);
    expect(keysOf(ctx.requests[1]!.url).slice(0, 14)).toEqual(['AQB', 'ndh', 'pf', 't', 'mid', 'aamlh', 'ce', 'pageName', 'g', 'cc', 'server', 'aamb', 'pe', 'pev1']);
    expect(decodeBeacon(ctx.requests[1]!.url).server).toBe('www.example.com');
    expect(decodeBeacon(ctx.requests[2]!.url).server).toBeUndefined();
  });

  it('lrt: the round trip of the last delivered beacon goes once, right before AQE=1, on the next beacon', async () => {
    const { ctx, analytics } = setup();
    await analytics.track(PAGE_VIEW);
    analytics.onBeaconDelivered(37.6);
    await analytics.track(LINK);
    await analytics.track(LINK);
    expect(ctx.requests[0]!.url).not.toContain('lrt=');
    expect(ctx.requests[1]!.url).toMatch(/&mcorgid=[^&]+&lrt=38&AQE=1$/);
    expect(ctx.requests[2]!.url).not.toContain('lrt=');
    analytics.onBeaconDelivered(Number.NaN);
    analytics.onBeaconDelivered(-1);
    await analytics.track(LINK);
    expect(ctx.requests[3]!.url).not.toContain('lrt=');
  });

  it('truncation: pageName, eVars, props and lists go out whole; hierarchies are cut at 255 characters', async () => {
    const { ctx, analytics } = setup();
    const long = 'é'.repeat(300);
    await analytics.track({ type: 't', vars: { pageName: `acme:${long}`, eVar5: long, prop3: long, list1: long, hier1: long } });
    // Above 2047 characters with an id: a POST with the query as its body (the library's other rule).
    const r = ctx.requests[0]!;
    expect(r.method).toBe('POST');
    const b = decodeBeacon(r.url, r.body);
    expect(b.pageName).toBe(`acme:${long}`);
    expect(b.eVar5).toBe(long);
    expect(b.prop3).toBe(long);
    expect(b.list1).toBe(long);
    expect(b.hier1).toBe('é'.repeat(255));
  });
});

describe('client hints (collectHighEntropyUserAgentHints)', () => {
  it('a hit that asks for them carries the browser\'s non-empty high-entropy hints as the h. block after c., asked for once; link hits whatever linkTrackVars', async () => {
    const { ctx, analytics } = setup();
    const asked: string[][] = [];
    Object.assign(ctx.env, {
      userAgentHints: async (names: string[]) => {
        asked.push(names);
        return { architecture: 'x86', bitness: '64', model: '', platformVersion: '6.5.0', wow64: false, brands: [] };
      },
    });
    await analytics.track({ ...PAGE_VIEW, clientHints: true, contextData: { k: 'v' } });
    await analytics.track({ ...LINK, clientHints: true });
    await analytics.track(PAGE_VIEW);
    const [view, link, plain] = ctx.requests.map((r) => r.url);
    expect(view).toContain('&c.&k=v&.c&h.&architecture=x86&bitness=64&platformVersion=6.5.0&.h&cc=USD');
    expect(link).toContain('&h.&architecture=x86&bitness=64&platformVersion=6.5.0&.h');
    expect(plain).not.toContain('h.');
    expect(asked).toEqual([['architecture', 'bitness', 'model', 'platformVersion', 'wow64']]);
  });
});

describe('client hints the browser fails to give', () => {
  it('the hit goes without the h. block', async () => {
    const { ctx, analytics } = setup();
    Object.assign(ctx.env, { userAgentHints: async () => { throw new Error('not allowed'); } });
    await analytics.track({ ...PAGE_VIEW, clientHints: true });
    expect(ctx.requests).toHaveLength(1);
    expect(ctx.requests[0]!.url).not.toContain('&h.&');
  });
});

describe("postbacks (AppMeasurement with its Audience Manager module ready, or usePostbacks)", () => {
  const AAM = { index: 1, d: { nsid: '0', jsonv: '1' } };
  it('the path says 10, callback=s_c_il[<index>].doPostbacks&et=1 follows pf=1 unescaped, and the d. block follows the customer ids', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ ...PAGE_VIEW, postbacks: AAM });
    const url = ctx.requests[0]!.url;
    expect(url).toMatch(/^https:\/\/metrics\.example\.com\/b\/ss\/acmeprod\/10\/JS-2\.27\.0-LF8J\/s\d+\?AQB=1&ndh=1&pf=1&callback=s_c_il\[1\]\.doPostbacks&et=1&t=[^&]+&d\.&nsid=0&jsonv=1&\.d&mid=/);
    expect(decodeBeacon(url).params).toMatchObject({ callback: 's_c_il[1].doPostbacks', et: '1', 'd.nsid': '0', 'd.jsonv': '1' });
  });
  it('usePostbacks alone: the path and the callback, no d. block; without postbacks, neither', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ ...PAGE_VIEW, postbacks: { index: 0 } });
    await analytics.track(PAGE_VIEW);
    const [on, off] = ctx.requests.map((r) => r.url);
    expect(on).toMatch(/\/10\/JS-2\.27\.0-LF8J\/s\d+\?AQB=1&ndh=1&pf=1&callback=s_c_il\[0\]\.doPostbacks&et=1&t=/);
    expect(on).not.toContain('&d.&');
    expect(off).toMatch(/\/1\/JS-2\.27\.0-LF8J\/s\d+\?AQB=1&ndh=1&pf=1&t=/);
  });
  it('a POST above 2047 characters leaves the callback out of its body, as AppMeasurement does; et=1 and the d. block stay', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', postbacks: AAM, vars: { ...PAGE_VIEW.vars, eVar30: 'x'.repeat(250), eVar31: 'y'.repeat(250), eVar32: 'z'.repeat(250), eVar33: 'w'.repeat(250), eVar34: 'q'.repeat(250), eVar35: 'r'.repeat(250), eVar36: 's'.repeat(250) } });
    const r = ctx.requests[0]!;
    expect(r.method).toBe('POST');
    expect(r.url).toMatch(/\/b\/ss\/acmeprod\/10\/JS-2\.27\.0-LF8J\/s\d+$/);
    expect(r.body!.startsWith('AQB=1&ndh=1&pf=1&et=1&t=')).toBe(true);
    expect(r.body).toContain('&d.&nsid=0&jsonv=1&.d&');
  });
  it("automatic link tracking's hits come from the same tracker: they carry its last postbacks", async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ ...PAGE_VIEW, postbacks: AAM });
    await analytics.onClick({ href: 'https://other.example.org/file.pdf', text: 'x', region: 'BODY', hasTlCall: false });
    expect(ctx.requests).toHaveLength(2);
    expect(ctx.requests[1]!.url).toMatch(/\/10\/JS-2\.27\.0-LF8J\/s\d+\?AQB=1&ndh=1&pf=1&callback=s_c_il\[1\]\.doPostbacks&et=1&t=[^&]+&d\.&nsid=0&jsonv=1&\.d&/);
  });
});

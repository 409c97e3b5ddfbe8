/**
 * The tracker's edges, as a site sees them: variables a rule sets in odd ways, a visitor service that
 * fails, the length at which a beacon becomes a POST, the console lines and the devtools feed, an
 * imported container's trackingServerSecure and tagContainerMarker.
 *
 * Equivalent: `tracker.ts` the marker's `typeof marker === 'string'` → `true`: the pattern test
 * turns any other value into text, and a value whose text passes is written into the path as that
 * same text, so the beacon is the same either way. The client hints asked for without `?.` (a
 * browser without them throws, which the catch turns into no hints, as `?? {}` does) or with the
 * catch emptied (its undefined reads as no hints when the query is built). A hit naming the
 * tracker's own report suite taken for another (`account === undefined ||` → false): it resolves
 * the same suite and origin again, and s_cc is written only for the first tracker. `hitsSent++` →
 * `--`: only `hitsSent === 0` is asked, and -1 is no more 0 than 1.
 */
import { describe, expect, it } from 'vitest';
import { decodeBeacon } from '../../../src/worker-engine/analytics/beacon-decode.ts';
import { beaconRequest } from '../../../src/worker-engine/analytics/beacon-request.ts';
import { consentHint } from '../../../src/worker-engine/analytics/consent.ts';
import { createAnalyticsService } from '../../../src/worker-engine/analytics/tracker.ts';
import { keysOf, makeContext, stubVisitor } from '../harness.ts';

function setup(opts: Parameters<typeof makeContext>[0] = {}, visitorOpts: Parameters<typeof stubVisitor>[0] = {}) {
  const ctx = makeContext(opts);
  const visitor = stubVisitor(visitorOpts);
  return { ctx, visitor, analytics: createAnalyticsService(ctx, visitor) };
}
const PAGE = 'https://www.example.com/shop/product?id=1';

describe('variables a rule sets', () => {
  it('empty and undefined values are left out; contextData.<key> goes into the c. block', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', vars: { pageName: 'p', eVar1: '', eVar2: undefined as unknown as string, 'contextData.cart.size': '3', 'contextData.empty': '' } });
    const b = decodeBeacon(ctx.requests[0]!.url);
    expect(b.params.v1).toBeUndefined();
    expect(b.params.v2).toBeUndefined();
    expect(b.contextData).toEqual({ cart: { size: '3' } });
    expect(ctx.logs.filter((l) => l.level === 'warn')).toEqual([]);
  });
  it('the hit\'s own context data goes into the c. block; its ActivityMap keys go after pev3', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', vars: { pageName: 'p' }, contextData: { 'a.activitymap.page': 'home', 'cm.x': 'y' } });
    const url = ctx.requests[0]!.url;
    expect(url).toContain('&c.&cm.&x=y&.cm&.c&cc=USD');
    expect(url).toMatch(/&c\.&a\.&activitymap\.&page=home&\.activitymap&\.a&\.c&s=/);
  });
  it('a rule may set pageURL, referrer and currencyCode itself; referrer then goes on a later hit too', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    await analytics.track({ type: 't', vars: { pageName: 'p', pageURL: 'https://x.test/virtual', referrer: 'https://ref.test/', currencyCode: 'EUR' } });
    const [a, b] = ctx.requests.map((r) => decodeBeacon(r.url));
    expect(a).toMatchObject({ pageURL: PAGE, currencyCode: 'USD', referrer: 'https://search.example.net/?q=gloves' });
    expect(b).toMatchObject({ pageURL: 'https://x.test/virtual', currencyCode: 'EUR', referrer: 'https://ref.test/' });
    expect(b!.params.ce).toBe('UTF-8');
  });
  it('a page without a referrer sends no r; a later hit without its own referrer sends none either', async () => {
    const { ctx, analytics } = setup({ snapshot: { referrer: '' } });
    await analytics.track({ type: 't', vars: { pageName: 'p', referrer: 'https://ref.test/' } });
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(decodeBeacon(ctx.requests[0]!.url).referrer).toBe('https://ref.test/');
    expect(decodeBeacon(ctx.requests[1]!.url).referrer).toBeUndefined();
  });
  it('warns about an unknown name once per tracker, naming it, at warn level', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', vars: { pageName: 'p', colour: 'red', eVar0: 'x' } });
    await analytics.track({ type: 't', vars: { pageName: 'p', colour: 'red' } });
    expect(ctx.logs).toEqual([
      { level: 'warn', message: 'Analytics variable "colour" is not an AppMeasurement variable; it is not sent.' },
      { level: 'warn', message: 'Analytics variable "eVar0" is not an AppMeasurement variable; it is not sent.' },
      expect.objectContaining({ level: 'debug' }),
      expect.objectContaining({ level: 'debug' }),
    ]);
  });
  it('the server a page view set goes with a later automatic exit beacon; a hit without server leaves it in force', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', vars: { pageName: 'p', server: 'srv-1' } });
    await analytics.track({ type: 't', vars: { pageName: 'q' } });
    await analytics.onClick({ href: 'https://partner.test/', text: 'x', region: 'r', hasTlCall: false });
    const exit = decodeBeacon(ctx.requests[2]!.url);
    expect(exit).toMatchObject({ server: 'srv-1', pageName: 'q', linkType: 'e' });
  });
  it('an exit click before any server was set carries no server', async () => {
    const { ctx, analytics } = setup();
    await analytics.onClick({ href: 'https://partner.test/', text: 'x', region: 'r', hasTlCall: false });
    expect(decodeBeacon(ctx.requests[0]!.url).server).toBeUndefined();
  });
});

describe('link hits a rule makes', () => {
  it('a tl() with a link URL only is a link hit, pev1 without pev2, d for downloads', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 'tl', linkType: 'd', linkUrl: 'https://x.test/a.pdf', vars: { pageName: 'p' } });
    const b = decodeBeacon(ctx.requests[0]!.url);
    expect(b).toMatchObject({ hitType: 'tl', linkType: 'd', linkUrl: 'https://x.test/a.pdf' });
    expect(b.linkName).toBeUndefined();
    expect(ctx.logs.at(-1)!.message).toMatch(/^Analytics link beacon: https:\/\/metrics\.example\.com\/b\/ss\/acmeprod\//);
  });
  it('a page view says so in the console line', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(ctx.logs.at(-1)).toEqual({ level: 'debug', message: `Analytics page view beacon: ${ctx.requests[0]!.url}` });
  });
  it('a page-view hit with a link name is still a page view (only tl makes link hits)', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', linkName: 'n', vars: { pageName: 'p', eVar9: 'kept' } });
    const b = decodeBeacon(ctx.requests[0]!.url);
    expect(b.hitType).toBe('t');
    expect(b.eVar9).toBe('kept');
  });
});

describe('ids on the beacon', () => {
  it('an analytics id (aid) without a MID is enough: no s_fid is made', async () => {
    const { ctx, analytics } = setup({}, { values: { MCMID: undefined, MCAID: 'AID-1' } });
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    const b = decodeBeacon(ctx.requests[0]!.url);
    expect(b).toMatchObject({ aid: 'AID-1' });
    expect(b.mid).toBeUndefined();
    expect(b.fid).toBeUndefined();
    expect(ctx.jar.has('s_fid')).toBe(false);
  });
  it('a MID without an aid is enough too; with neither a fallback id is written for two years on the cookie domain', async () => {
    const withMid = setup();
    await withMid.analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(decodeBeacon(withMid.ctx.requests[0]!.url).fid).toBeUndefined();
    const none = setup({}, { values: { MCMID: undefined } });
    await none.analytics.track({ type: 't', vars: { pageName: 'p' } });
    const fid = decodeBeacon(none.ctx.requests[0]!.url).fid!;
    expect(none.ctx.effects.find((e) => e.type === 'cookie' && e.name === 's_fid')).toMatchObject({ value: fid, path: '/', domain: 'example.com' });
  });
  it('an s_fid without a "-" is replaced; one with a "-" is kept and written again, as AppMeasurement does', async () => {
    const good = '0123456789ABCDEF-0123456789ABCDEF';
    const kept = setup({ cookies: { s_fid: good } }, { values: { MCMID: undefined } });
    await kept.analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(decodeBeacon(kept.ctx.requests[0]!.url).fid).toBe(good);
    expect(kept.ctx.effects.filter((e) => e.type === 'cookie' && e.name === 's_fid')).toMatchObject([{ value: good }]);
    const odd = setup({ cookies: { s_fid: 'abc-1' } }, { values: { MCMID: undefined } });
    await odd.analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(decodeBeacon(odd.ctx.requests[0]!.url).fid).toBe('abc-1');
    const bad = setup({ cookies: { s_fid: 'junk' } }, { values: { MCMID: undefined } });
    await bad.analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(decodeBeacon(bad.ctx.requests[0]!.url).fid).toMatch(/^[0-9A-F]{16}-[0-9A-F]{16}$/);
  });
  it('a visitor service that fails gives a warning and a hit without ids (with s_fid)', async () => {
    const ctx = makeContext();
    const visitor = stubVisitor();
    visitor.getVisitorValues = async () => {
      throw new Error('ID service down');
    };
    const analytics = createAnalyticsService(ctx, visitor);
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(ctx.logs[0]).toEqual({ level: 'warn', message: 'Analytics: the visitor service gave no values (ID service down); the hit goes without ids.' });
    const b = decodeBeacon(ctx.requests[0]!.url);
    expect(b.mid).toBeUndefined();
    expect(b.fid).toBeDefined();
    // The org id still goes: it is the visitor service's setting, not one of its values.
    expect(b.mcorgid).toBe('0123456789ABCDEF01234567@AdobeOrg');
  });
  it('a visitor service that throws a non-Error says what it threw', async () => {
    const ctx = makeContext();
    const visitor = stubVisitor();
    visitor.getVisitorValues = () => Promise.reject('offline');
    await createAnalyticsService(ctx, visitor).track({ type: 't', vars: { pageName: 'p' } });
    expect(ctx.logs[0]!.message).toBe('Analytics: the visitor service gave no values (offline); the hit goes without ids.');
  });
  it('the supplemental data id goes only with both ecid and target approved', async () => {
    const noEcid = setup({}, { sdid: 'AAAA-BBBB', approved: { ecid: false } });
    await noEcid.analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(decodeBeacon(noEcid.ctx.requests[0]!.url).sdid).toBeUndefined();
    expect(noEcid.visitor.sdidRequests).toEqual([]);
    const both = setup({}, { sdid: 'AAAA-BBBB' });
    await both.analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(decodeBeacon(both.ctx.requests[0]!.url).sdid).toBe('AAAA-BBBB');
  });
  it('customer ids go only with ecid approved', async () => {
    const { ctx, analytics } = setup({}, { customerIds: { crm: { id: 'C1', authState: 1 } }, approved: { ecid: false } });
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(decodeBeacon(ctx.requests[0]!.url).customerIds).toEqual({});
  });
});

describe('GET or POST', () => {
  /** A page view whose URL is exactly `length` characters long as a GET. */
  async function beaconOfLength(length: number, visitorOpts: Parameters<typeof stubVisitor>[0] = {}) {
    const probe = setup({}, visitorOpts);
    await probe.analytics.track({ type: 't', vars: { pageName: 'p', eVar1: '' } });
    const base = probe.ctx.requests[0]!.url.length + '&v1='.length;
    const { ctx, analytics } = setup({}, visitorOpts);
    await analytics.track({ type: 't', vars: { pageName: 'p', eVar1: 'x'.repeat(length - base) } });
    return ctx.requests[0]!;
  }
  it('2047 characters go as a GET, 2048 as a POST with the query as its body', async () => {
    const at = await beaconOfLength(2047);
    expect(at.method).toBe('GET');
    expect(at.url.length).toBe(2047);
    expect(at.body).toBeUndefined();
    expect(at.headers).toBeUndefined();
    const above = await beaconOfLength(2048);
    expect(above.method).toBe('POST');
    expect(above.url.length + 1 + above.body!.length).toBe(2048);
  });
  it('an aid alone makes a long beacon a POST as well', async () => {
    const r = await beaconOfLength(2100, { values: { MCMID: undefined, MCAID: 'AID-1' } });
    expect(r.method).toBe('POST');
  });
  it("a long beacon with postbacks leaves the callback out of its POST body, as AppMeasurement's does, and keeps the rest", () => {
    const path = 'https://metrics.example.com/b/ss/acmeprod/10/JS-2.27.0-LF8J/s1';
    const query = `AQB=1&ndh=1&pf=1&callback=s_c_il[12].doPostbacks&et=1&mid=M1&v1=${'x'.repeat(2100)}&AQE=1`;
    expect(beaconRequest(path, query, true)).toEqual({
      url: path,
      method: 'POST',
      body: `AQB=1&ndh=1&pf=1&et=1&mid=M1&v1=${'x'.repeat(2100)}&AQE=1`,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(beaconRequest(path, query, false)).toEqual({ url: `${path}?${query}`, method: 'GET' });
  });
  it('the devtools feed and the console say POST and the body\'s length', async () => {
    const again = setup();
    await again.analytics.track({ type: 't', vars: { pageName: 'p', eVar1: 'x'.repeat(2100) } });
    const sent = again.ctx.requests[0]!;
    const feed = again.ctx.monitors.find((m) => m.name === 'beacon')!.data as { url: string; method: string; body: string; fields: { eVar1: string; method: string } };
    expect(feed).toMatchObject({ url: sent.url, method: 'POST', body: sent.body });
    expect(feed.fields).toMatchObject({ eVar1: 'x'.repeat(2100), method: 'POST' });
    expect(again.ctx.logs.at(-1)!.message).toBe(`Analytics page view beacon: ${sent.url} (POST ${sent.body!.length} characters)`);
  });
});

describe('what the tracker says when it sends nothing', () => {
  it('the consent drop is an error naming the reason, the message and the hit in the devtools feed', async () => {
    const { ctx, analytics } = setup({ cookies: { sat_track: 'no' } });
    const hit = { type: 't' as const, vars: { pageName: 'p' } };
    await analytics.track(hit);
    expect(ctx.logs).toEqual([{ level: 'error', message: 'EU compliance was not acknowledged by the user.' }, { level: 'info', message: consentHint('sat_track') }]);
    expect(ctx.monitors).toEqual([{ name: 'beacon-dropped', data: { reason: 'consent', message: 'EU compliance was not acknowledged by the user.', hit } }]);
  });
  it('an opt-in drop is a warning with its message; an opt-out drop too', async () => {
    const a = setup({}, { approved: { aa: false } });
    await a.analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(a.ctx.logs).toEqual([{ level: 'warn', message: 'Analytics beacon not sent: the visitor has not approved the "aa" opt-in category.' }]);
    const b = setup({}, { values: { MCOPTOUT: true } });
    await b.analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(b.ctx.logs).toEqual([{ level: 'warn', message: 'Analytics beacon not sent: the visitor opted out (MCOPTOUT).' }]);
  });
  it('a report suite id that is not a list of ids is refused, quoted, with the environment named', async () => {
    for (const rsid of ['acme prod', 'acme,', ',acme', 'acme;dev']) {
      const { ctx, analytics } = setup({ config: { reportSuites: { production: rsid } } });
      await analytics.track({ type: 't', vars: { pageName: 'p' } });
      expect(ctx.requests, rsid).toHaveLength(0);
      expect(ctx.logs[0], rsid).toEqual({ level: 'error', message: `Unable to create AppMeasurement tracker: no valid report suite for the "production" environment (${JSON.stringify(rsid)}).` });
      expect(ctx.monitors[0]!.data, rsid).toMatchObject({ reason: 'no-tracker' });
    }
    const { ctx, analytics } = setup({ config: { reportSuites: { production: 'acme.prod_1-x,acme2' } } });
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(ctx.requests[0]!.url).toContain('/b/ss/acme.prod_1-x,acme2/1/');
  });
  it('a tracking server with a path, or none, makes no tracker; the message quotes it', async () => {
    for (const trackingServer of ['https://metrics.example.com/collect', '']) {
      const { ctx, analytics } = setup({ config: { trackingServer } });
      await analytics.track({ type: 't', vars: { pageName: 'p' } });
      expect(ctx.requests, trackingServer).toHaveLength(0);
      expect(ctx.logs[0], trackingServer).toEqual({
        level: 'error',
        message: `Unable to create AppMeasurement tracker: the tracking server ${JSON.stringify(trackingServer)} is neither a host nor an origin.`,
      });
      expect(ctx.jar.has('s_cc'), trackingServer).toBe(false);
    }
  });
  it("an imported container's trackingServerSecure takes the beacons of a secure page only, as AppMeasurement's does; empty or not text, it is not used", async () => {
    const origins: string[] = [];
    for (const [secure, trackingServerSecure] of [[true, 'secure.example.net'], [false, 'secure.example.net'], [true, ''], [true, 42]] as const) {
      const made = makeContext({ page: { secure } });
      const ctx = { ...made, settings: { ...made.settings, trackingServer: 'plain.example.net', trackingServerSecure } };
      await createAnalyticsService(ctx, stubVisitor()).track({ type: 't', vars: { pageName: 'p' } });
      origins.push(new URL(ctx.requests[0]!.url).origin);
    }
    expect(origins).toEqual(['https://secure.example.net', 'http://plain.example.net', 'https://plain.example.net', 'https://plain.example.net']);
  });
  it("an imported container's tagContainerMarker (L and three digits or capitals) marks its beacons; any other value leaves the container's own", async () => {
    const markers: string[] = [];
    for (const tagContainerMarker of ['LG1A', 'L9Z0', 'xLG1A', 'LG1AB', 'lg1a', 'LG1', 'LG-A', 42]) {
      const made = makeContext();
      const ctx = { ...made, settings: { ...made.settings, tagContainerMarker } };
      await createAnalyticsService(ctx, stubVisitor()).track({ type: 't', vars: { pageName: 'p' } });
      markers.push(/\/JS-2\.27\.0-([^/]*)\//.exec(ctx.requests[0]!.url)![1]!);
    }
    expect(markers).toEqual(['LG1A', 'L9Z0', 'LF8J', 'LF8J', 'LF8J', 'LF8J', 'LF8J', 'LF8J']);
  });
  it('the tracker is made once: s_cc is written on the first event only, on the cookie domain', async () => {
    const { ctx, analytics } = setup();
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(ctx.effects.filter((e) => e.type === 'cookie' && e.name === 's_cc')).toEqual([{ type: 'cookie', name: 's_cc', value: 'true', path: '/', domain: 'example.com' }]);
  });
  it('a hit that fails to build is said as an error and the next hit still goes', async () => {
    const ctx = makeContext();
    const visitor = stubVisitor();
    let fail = true;
    visitor.getCustomerIDs = () => {
      if (fail) throw new Error('broken ids');
      return {};
    };
    const analytics = createAnalyticsService(ctx, visitor);
    const hit = { type: 't' as const, vars: { pageName: 'p' } };
    await analytics.track(hit);
    expect(ctx.requests).toHaveLength(0);
    expect(ctx.logs).toContainEqual({ level: 'error', message: 'Analytics beacon failed to build: broken ids' });
    expect(ctx.monitors.find((m) => m.name === 'beacon-dropped')!.data).toMatchObject({ reason: 'build-failed', hit });
    expect(analytics.pendingHits!()).toBe(0);
    fail = false;
    await analytics.track(hit);
    expect(ctx.requests).toHaveLength(1);
  });
  it('a failure before the hit is queued is logged, not thrown into the rule', async () => {
    const ctx = makeContext();
    ctx.cookies.get = () => {
      throw new Error('jar gone');
    };
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await expect(analytics.track({ type: 't', vars: { pageName: 'p' } })).resolves.toBeUndefined();
    await expect(analytics.onClick({ href: 'https://partner.test/', text: 'x', region: 'r', hasTlCall: false })).resolves.toBeUndefined();
    expect(ctx.logs).toEqual([
      { level: 'error', message: 'Analytics track failed: jar gone' },
      { level: 'error', message: 'Analytics link tracking failed: jar gone' },
    ]);
  });
  it('pendingHits counts the hits not finished yet', async () => {
    const ctx = makeContext();
    const visitor = stubVisitor({ deferred: true });
    const analytics = createAnalyticsService(ctx, visitor);
    expect(analytics.pendingHits!()).toBe(0);
    const a = analytics.track({ type: 't', vars: { pageName: 'p' } });
    const b = analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(analytics.pendingHits!()).toBe(2);
    visitor.release();
    await Promise.all([a, b]);
    expect(analytics.pendingHits!()).toBe(0);
  });
});

describe('clicks that send nothing', () => {
  it('an internal link whose onclick calls .tl( leaves s_sq alone', async () => {
    const { ctx, analytics } = setup();
    await analytics.onClick({ href: 'https://www.example.com/next', text: 'x', region: 'r', hasTlCall: true });
    expect(ctx.jar.has('s_sq')).toBe(false);
    expect(ctx.requests).toHaveLength(0);
  });
  it('an internal link stores its data in s_sq on the cookie domain', async () => {
    const { ctx, analytics } = setup();
    await analytics.onClick({ href: 'https://www.example.com/next', text: 'x', region: 'r', hasTlCall: false });
    expect(ctx.effects.filter((e) => e.type === 'cookie' && e.name === 's_sq')).toEqual([
      expect.objectContaining({ path: '/', domain: 'example.com' }),
    ]);
  });
});

describe('lrt', () => {
  it('rounds the round trip and takes 0; the last delivery before a beacon wins', async () => {
    const { ctx, analytics } = setup();
    analytics.onBeaconDelivered(0);
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    analytics.onBeaconDelivered(10);
    analytics.onBeaconDelivered(12.4);
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    analytics.onBeaconDelivered(Number.POSITIVE_INFINITY);
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    expect(decodeBeacon(ctx.requests[0]!.url).params.lrt).toBe('0');
    expect(decodeBeacon(ctx.requests[1]!.url).params.lrt).toBe('12');
    expect(keysOf(ctx.requests[2]!.url)).not.toContain('lrt');
  });
});

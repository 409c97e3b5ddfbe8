/**
 * Every parameter AppMeasurement 2.27 can send, written out as AppMeasurement 2.27.0: beacon URL and parameters orders them (not
 * derived from the code's own tables), so that a parameter dropped from or moved in the tables shows
 * on the wire; the same for the set a filtered link hit always carries, and the decoder's names.
 */
import { describe, expect, it } from 'vitest';
import { decodeBeacon } from '../../../src/worker-engine/analytics/beacon-decode.ts';
import { buildQuery } from '../../../src/worker-engine/analytics/beacon-query.ts';
import { filterLinkHit } from '../../../src/worker-engine/analytics/link-tracking.ts';
import { keysOf } from '../harness.ts';

// AppMeasurement 2.27.0: beacon URL and parameters, "Parameter order".
const HEAD = ['sdid', 'ts', 'D', 'vid', 'mid', 'aid', 'aamlh', 'as', 'fid', 'vmt', 'vmf', 'ce', 'ns', 'cdp', 'cl', 'pageName', 'g', 'cp', 'r'];
const MIDDLE = ['cc', 'purchaseID', 'vvp', 'ch', 'server', 'pageType', 'xact', 'v0', 'state', 'zip', 'events', 'products', 'aamb', 'tnt'];
const LINK = ['pe', 'pev1', 'pev2', 'pev3'];
const TAIL = ['lat', 'lon', 's', 'c', 'j', 'v', 'k', 'bw', 'bh', 'ct', 'hp', '-g', 'mcorgid', 'ms_a', 'lrt'];
function numbered(): string[] {
  const out: string[] = [];
  for (let i = 1; i <= 250; i++) {
    if (i <= 75) out.push(`c${i}`);
    out.push(`v${i}`);
    if (i <= 5) out.push(`h${i}`);
    if (i <= 3) out.push(`l${i}`);
  }
  return out;
}

describe('the wire order of every parameter (AppMeasurement 2.27.0: beacon URL and parameters)', () => {
  it('a beacon that sets every parameter sends them all, in the documented order', () => {
    const all = [...HEAD, ...MIDDLE, ...numbered(), ...LINK, ...TAIL];
    // Given in reverse, so that the order on the wire comes from the tracker, not from the input.
    const params: Record<string, string> = {};
    for (const k of [...all].reverse()) params[k] = k === 'g' ? 'https://x.test/' : `${k}-value`;
    const q = buildQuery({ t: 'T', params, contextData: { k: 'ctx' }, activityMap: { 'a.activitymap.page': 'p' }, clickData: '&pid=p' });
    const keys = keysOf(q);
    const expected = ['AQB', 'ndh', 'pf', 't', ...HEAD, 'c.', 'k', '.c', ...MIDDLE, ...numbered(), ...LINK, 'c.', 'a.', 'activitymap.', 'page', '.activitymap', '.a', '.c', 'pid', ...TAIL, 'AQE'];
    expect(keys).toEqual(expected);
    expect(decodeBeacon(`/b/ss/r/1/JS-2.27.0/s1?${q}`).params.ts).toBe('ts-value');
  });
  it('a parameter the wire does not know is not sent', () => {
    expect(buildQuery({ t: 'T', params: { zz: 'x', v251: 'y', c76: 'z', h6: 'w', l4: 'u' } })).toBe('AQB=1&ndh=1&pf=1&t=T&AQE=1');
  });
});

describe('what a link hit filtered to "None" still carries (AppMeasurement 2.27.0: beacon URL and parameters, docs/spec-coverage.md D5)', () => {
  it('ids, ce, pageName, g, r, cc, ts, cookie settings, browser values, pe/pev, -g, mcorgid, ms_a, lrt; nothing else', () => {
    const always = ['sdid', 'ts', 'D', 'vid', 'mid', 'aid', 'aamlh', 'as', 'fid', 'vmt', 'vmf', 'ce', 'ns', 'cdp', 'cl', 'pageName', 'g', 'r', 'cc', 'pe', 'pev1', 'pev2', 'pev3', 'lat', 'lon', 's', 'c', 'j', 'v', 'k', 'bw', 'bh', 'ct', 'hp', '-g', 'mcorgid', 'ms_a', 'lrt'];
    const never = ['cp', 'purchaseID', 'vvp', 'ch', 'server', 'pageType', 'xact', 'v0', 'state', 'zip', 'events', 'products', 'aamb', 'tnt', 'c1', 'v1', 'h1', 'l1'];
    const params: Record<string, string> = {};
    for (const k of [...always, ...never]) params[k] = 'x';
    const out = filterLinkHit(params, { 'cm.ssf': '1', 'opt.dmp': '1', 'opt.sell': '1', other: '1' }, 'None', '');
    expect(Object.keys(out.params).sort()).toEqual([...always].sort());
    expect(out.contextData).toEqual({ 'cm.ssf': '1', 'opt.dmp': '1', 'opt.sell': '1' });
  });
});

describe('the decoder names every field it documents', () => {
  it('named parameters and numbered variables', () => {
    const q = 't=T&pageName=pn&g=gu&r=rf&ch=chn&server=srv&pageType=errorPage&cc=EUR&events=e1&products=%3Bp&purchaseID=po&v0=cmp' +
      '&pe=lnk_o&pev1=lu&pev2=ln&mid=M&aid=A&aamlh=9&aamb=B&mcorgid=O&sdid=S&fid=F&c7=p7&v9=e9&l3=li&h2=hi';
    expect(decodeBeacon(`/b/ss/r/1/JS-2.27.0/s1?${q}`)).toMatchObject({
      time: 'T', pageName: 'pn', pageURL: 'gu', referrer: 'rf', channel: 'chn', server: 'srv', pageType: 'errorPage', currencyCode: 'EUR',
      events: 'e1', products: ';p', purchaseID: 'po', campaign: 'cmp', linkType: 'o', linkUrl: 'lu', linkName: 'ln', mid: 'M', aid: 'A',
      aamlh: '9', aamb: 'B', mcorgid: 'O', sdid: 'S', fid: 'F', prop7: 'p7', eVar9: 'e9', list3: 'li', hier2: 'hi',
    });
  });
});

describe('every named variable a rule sets reaches the wire under its own key (AppMeasurement 2.27.0: beacon URL and parameters)', () => {
  it('visitorID, pageName, pageURL, referrer, currencyCode, purchaseID, variableProvider, channel, server, pageType, transactionID, campaign, state, zip, events, products', async () => {
    const { createAnalyticsService } = await import('../../../src/worker-engine/analytics/tracker.ts');
    const { makeContext, stubVisitor } = await import('../harness.ts');
    const ctx = makeContext();
    const vars = {
      visitorID: 'VID1', pageName: 'PN', pageURL: 'https://u.test/', referrer: 'https://r.test/', currencyCode: 'EUR', purchaseID: 'PO1',
      variableProvider: 'VP', channel: 'CH', server: 'SRV', pageType: 'errorPage', transactionID: 'TX', campaign: 'CMP', state: 'ST', zip: 'Z9',
      events: 'purchase', products: ';SKU',
    };
    await createAnalyticsService(ctx, stubVisitor()).track({ type: 't', vars });
    const params = decodeBeacon(ctx.requests[0]!.url).params;
    expect({
      vid: params.vid, pageName: params.pageName, g: params.g, r: params.r, cc: params.cc, purchaseID: params.purchaseID, vvp: params.vvp,
      ch: params.ch, server: params.server, pageType: params.pageType, xact: params.xact, v0: params.v0, state: params.state, zip: params.zip,
      events: params.events, products: params.products,
    }).toEqual({
      vid: 'VID1', pageName: 'PN', g: 'https://u.test/', r: 'https://r.test/', cc: 'EUR', purchaseID: 'PO1', vvp: 'VP', ch: 'CH', server: 'SRV',
      pageType: 'errorPage', xact: 'TX', v0: 'CMP', state: 'ST', zip: 'Z9', events: 'purchase', products: ';SKU',
    });
    expect(ctx.logs.filter((l) => l.level === 'warn')).toEqual([]);
  });
});

describe('the tracker settings an imported library sets on s go out as AppMeasurement sends them', () => {
  it('timestamp, dynamicVariablePrefix, charSet, visitorNamespace, cookieDomainPeriods, cookieLifetime: ts, D, ce, ns, cdp, cl, in the head, and on a filtered link hit too', async () => {
    const { createAnalyticsService } = await import('../../../src/worker-engine/analytics/tracker.ts');
    const { makeContext, stubVisitor } = await import('../harness.ts');
    const ctx = makeContext();
    const vars = { pageName: 'PN', timestamp: '1700000000', dynamicVariablePrefix: 'D=', charSet: 'ISO-8859-1', visitorNamespace: 'acme', cookieDomainPeriods: '3', cookieLifetime: 'SESSION', eVar1: 'x' };
    const service = createAnalyticsService(ctx, stubVisitor());
    await service.track({ type: 't', vars });
    await service.track({ type: 'tl', linkType: 'o', linkName: 'n', vars, linkTrackVars: 'eVar1', linkTrackEvents: '' });
    for (const request of ctx.requests) {
      const keys = keysOf(new URL(request.url).search.slice(1));
      expect(keys.slice(keys.indexOf('ts'), keys.indexOf('ts') + 2)).toEqual(['ts', 'D']);
      expect(keys.filter((k) => ['ce', 'ns', 'cdp', 'cl', 'pageName', 'g'].includes(k))).toEqual(['ce', 'ns', 'cdp', 'cl', 'pageName', 'g']);
      expect(decodeBeacon(request.url).params).toMatchObject({ ts: '1700000000', D: 'D=', ce: 'ISO-8859-1', ns: 'acme', cdp: '3', cl: 'SESSION' });
    }
    expect(ctx.logs.filter((l) => l.level === 'warn')).toEqual([]);
  });
});

/**
 * Edges the mutation run of the analytics module (docs/testing.md) found unchecked: odd context data,
 * customer ids without an id, link lists and URLs a site may write, a page without cookies, an invalid
 * build date, and the plugins at their exact bounds.
 *
 * Equivalent: beacon-query.ts `url.length > PAGE_URL_SPLIT` → `>=`: a URL of exactly 255 characters
 * would get an empty `-g`, and empty values are left out. tracker-config.ts the text of the error
 * thrown for a tracking server that is no origin: the catch answers its own message.
 */
import { describe, expect, it } from 'vitest';
import { clickData, objectIdOf } from '../../../src/worker-engine/analytics/activity-map.ts';
import { buildQuery, nestedBlock } from '../../../src/worker-engine/analytics/beacon-query.ts';
import { decodeBeacon } from '../../../src/worker-engine/analytics/beacon-decode.ts';
import { tagContainerMarker } from '../../../src/worker-engine/analytics/beacon-url.ts';
import { filterEvents, filterLinkHit, reportedLinkUrl } from '../../../src/worker-engine/analytics/link-tracking.ts';
import { createAnalyticsService } from '../../../src/worker-engine/analytics/tracker.ts';
import { daysSinceLastVisitBucket, getDaysSinceLastVisit, LESS_THAN_1_DAY, FIRST_VISIT } from '../../../src/worker-engine/analytics/plugins/days-since-last-visit.ts';
import { getGeoCoordinates } from '../../../src/worker-engine/analytics/plugins/geo-coordinates.ts';
import { getTimeSinceLastVisit, NEW_VISITOR } from '../../../src/worker-engine/analytics/plugins/time-since-last-visit.ts';
import { readPluginCookie } from '../../../src/worker-engine/analytics/plugins/time.ts';
import { getVisitNumber } from '../../../src/worker-engine/analytics/plugins/visit-number.ts';
import { DAY, MIN, memoryJar, T0 } from '../plugins/jar.ts';
import { makeContext, stubVisitor } from '../harness.ts';

describe('context data and customer ids', () => {
  it('an undefined value, and a nested key whose only value is dropped, leave no block', () => {
    expect(nestedBlock('c', { a: undefined })).toBe('');
    expect(nestedBlock('c', { 'x.a': 0, 'y.b': '' })).toBe('');
    expect(nestedBlock('c', { 'x.a': 0, 'x.b': 'v' })).toBe('&c.&x.&b=v&.x&.c');
  });
  it('empty segments of a dotted key are skipped; a key of dots alone is nothing', () => {
    expect(nestedBlock('c', { 'a..b': 'v', '.c.': 'w', '..': 'x' })).toBe('&c.&a.&b=v&.a&c=w&.c');
  });
  it('a customer id without an id sends nothing, not even its state', () => {
    expect(buildQuery({ t: 'T', params: {}, customerIds: { crm: { id: '', authState: 1 } } })).toBe('AQB=1&ndh=1&pf=1&t=T&AQE=1');
  });
  it('a page URL of exactly 255 characters goes whole in g, without -g', () => {
    const url = 'https://x.test/' + 'a'.repeat(255 - 15);
    expect(url).toHaveLength(255);
    const q = buildQuery({ t: 'T', params: { g: url } });
    expect(decodeBeacon(`/b/ss/r/1/v/s?${q}`).params).not.toHaveProperty('-g');
  });
});

describe('the page and the build', () => {
  it('a page whose cookies are off reports k=N', async () => {
    const ctx = makeContext({ page: { cookiesEnabled: false } });
    await createAnalyticsService(ctx, stubVisitor()).track({ type: 't', vars: { pageName: 'p' } });
    expect(decodeBeacon(ctx.requests[0]!.url).params.k).toBe('N');
  });
  it('an invalid container build date is refused with its text', () => {
    expect(() => tagContainerMarker('not a date')).toThrow('Invalid container build date: not a date');
  });
  it('a later hit without its own referrer has no r; an unknown name with an empty value is not warned about; an undefined hierarchy is skipped', async () => {
    const ctx = makeContext();
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.track({ type: 't', vars: { pageName: 'p' } });
    await analytics.track({ type: 't', vars: { pageName: 'p', colour: '', hier1: undefined as unknown as string } });
    expect(ctx.requests).toHaveLength(2);
    expect(decodeBeacon(ctx.requests[1]!.url).referrer).toBeUndefined();
    expect(ctx.logs.filter((l) => l.level !== 'debug')).toEqual([]);
  });
  it('the devtools feed names the click whose beacon consent stopped', async () => {
    const ctx = makeContext({ cookies: { sat_track: 'no' } });
    const click = { href: 'https://partner.test/', text: 'x', region: 'r', hasTlCall: false };
    await createAnalyticsService(ctx, stubVisitor()).onClick!(click);
    expect(ctx.monitors[0]!.data).toMatchObject({ reason: 'consent', hit: { click } });
  });
  it('a tracking server that is not an origin is a no-tracker drop in the devtools feed', async () => {
    const ctx = makeContext({ config: { trackingServer: 'https://m.test/path' } });
    await createAnalyticsService(ctx, stubVisitor()).track({ type: 't', vars: { pageName: 'p' } });
    expect(ctx.monitors[0]!.data).toMatchObject({ reason: 'no-tracker' });
  });
});

describe('links', () => {
  it('events are named by their base name whatever the spaces; an event named None is not a list of None', () => {
    expect(filterEvents('event1, event2=3', 'event2')).toBe(' event2=3');
    expect(filterEvents('None', 'None')).toBe('');
  });
  it('a hit without events is not given any by linkTrackEvents; context data goes whole with an empty linkTrackVars', () => {
    expect(filterLinkHit({ pageName: 'p' }, {}, '', 'event1').params).toEqual({ pageName: 'p' });
    expect(filterLinkHit({ pageName: 'p' }, { a: '1' }, '', '').contextData).toEqual({ a: '1' });
  });
  it('a link of a query alone reports an empty URL', () => {
    expect(reportedLinkUrl('?a=1')).toBe('');
    expect(reportedLinkUrl('https://x.test/p?a=1')).toBe('https://x.test/p');
  });
  it('an object id or tag that is not a string names nothing and breaks nothing', () => {
    expect(objectIdOf(5)).toBeUndefined();
    expect(clickData({ href: 'https://x.test/', text: '', region: '', hasTlCall: false, tag: 5 as never }, 'p', 'https://x.test/')).toBe('');
  });
});

describe('plugins at their exact bounds', () => {
  it('days since last visit: a last visit stored as 0 is a first visit; exactly 30 minutes later is still the same visit', () => {
    expect(getDaysSinceLastVisit(memoryJar({ s_lv: '0' }), T0)).toBe(FIRST_VISIT);
    const jar = memoryJar({ s_lv: String(T0 - 30 * MIN), s_lv_s: encodeURIComponent('More than 7 days') });
    expect(getDaysSinceLastVisit(jar, T0)).toBe('More than 7 days');
    const later = memoryJar({ s_lv: String(T0 - 30 * MIN - 1), s_lv_s: encodeURIComponent('More than 7 days') });
    expect(getDaysSinceLastVisit(later, T0)).toBe(LESS_THAN_1_DAY);
    expect(daysSinceLastVisitBucket(DAY)).toBe(LESS_THAN_1_DAY);
  });
  it('geo coordinates: latitude 90 and longitude 180 are valid, one step beyond is not', () => {
    expect(getGeoCoordinates(memoryJar({ s_ggc: encodeURIComponent('-90|180') }))).toBe('latitude=-90 | longitude=180');
    expect(getGeoCoordinates(memoryJar({ s_ggc: encodeURIComponent('90.0001|0') }))).toBe('error retrieving geo coordinates');
  });
  it('time since last visit: a last visit at 0 is a new visitor; exactly two years ago still counts; a broken in-visit value is a new visitor', () => {
    expect(getTimeSinceLastVisit(memoryJar({ s_tslv: '0' }), T0)).toBe(NEW_VISITOR);
    expect(getTimeSinceLastVisit(memoryJar({ s_tslv: String(T0 - 2 * 365 * DAY) }), T0)).toBe('730 days');
    expect(getTimeSinceLastVisit(memoryJar({ s_tslv: String(T0 - 2 * 365 * DAY - 1) }), T0)).toBe(NEW_VISITOR);
    expect(getTimeSinceLastVisit(memoryJar({ s_inv: 'abc' }), T0)).toBe(NEW_VISITOR);
  });
  it('plugin cookies: an empty value reads as absent', () => {
    expect(readPluginCookie(memoryJar({ s_x: '' }), 's_x')).toBeUndefined();
    expect(readPluginCookie(memoryJar({ s_x: 'a%20b' }), 's_x')).toBe('a b');
  });
  it('visit number: a counter that resets exactly now, or a count of 0, starts over', () => {
    expect(getVisitNumber(memoryJar({ s_vnc365: encodeURIComponent(`${T0}&vn=7`) }), T0)).toBe('1');
    expect(getVisitNumber(memoryJar({ s_vnc365: encodeURIComponent(`${T0 + DAY}&vn=0`) }), T0)).toBe('1');
    expect(getVisitNumber(memoryJar({ s_vnc365: encodeURIComponent(`${T0 + DAY}&vn=1`) }), T0)).toBe('2');
  });
});

describe('the decoder on pasted fragments', () => {
  it('a bare query, a path without /b/, doubled slashes', () => {
    expect(decodeBeacon('?pageName=x').pageName).toBe('x');
    expect(decodeBeacon('/ss/suite/1/JS-2.27.0/s9')).toMatchObject({ rsid: 'suite', version: 'JS-2.27.0', sid: 's9' });
    expect(decodeBeacon('https://m.test/b/ss//suite/1/JS-2.27.0/s9')).toMatchObject({ rsid: 'suite', sid: 's9' });
  });
  it('a part without a key, a block marker with a value, a pe that only contains lnk_', () => {
    const b = decodeBeacon('/b/ss/r/1/v/s?=x&c.=1&.c=2&pe=olnk_&k=v');
    expect(b.raw).toEqual([['', 'x'], ['c.', '1'], ['.c', '2'], ['pe', 'olnk_'], ['k', 'v']]);
    expect(b.params).toMatchObject({ '': 'x', 'c.': '1', '.c': '2', k: 'v' });
    expect(b.contextData).toEqual({});
    expect(b.linkType).toBeUndefined();
    expect(b).not.toHaveProperty('undefined');
  });
});

describe('visit number with a broken count', () => {
  it('a count of 0 or below starts a new counter, with a new reset time', () => {
    const jar = memoryJar({ s_vnc365: encodeURIComponent(`${T0 + DAY}&vn=0`) });
    expect(getVisitNumber(jar, T0)).toBe('1');
    expect(jar.writes.at(-1)).toMatchObject({ value: encodeURIComponent(`${T0 + 365 * DAY}&vn=1`) });
    expect(getVisitNumber(memoryJar({ s_vnc365: encodeURIComponent(`${T0 + DAY}&vn=-3`) }), T0)).toBe('1');
  });
});

describe('names and values with something before or after them', () => {
  it('a variable name is taken whole: nothing before prop/eVar/hier/list, nothing after the number', async () => {
    const { queryKeyOf } = await import('../../../src/worker-engine/analytics/variables.ts');
    expect(queryKeyOf('myeVar1')).toBeUndefined();
    expect(queryKeyOf('eVar1x')).toBeUndefined();
    expect(queryKeyOf('eVar1')).toBe('v1');
  });
  it('a stored coordinate is taken whole', () => {
    expect(getGeoCoordinates(memoryJar({ s_ggc: encodeURIComponent('x12.5|3') }))).toBe('error retrieving geo coordinates');
    expect(getGeoCoordinates(memoryJar({ s_ggc: encodeURIComponent('12.5|3x') }))).toBe('error retrieving geo coordinates');
    expect(getGeoCoordinates(memoryJar({ s_ggc: encodeURIComponent('12.5|3') }))).toBe('latitude=12.5 | longitude=3');
  });
});

/**
 * Link tracking as AppMeasurement 2.27.0 does it: link types, download and exit links, the click's
 * link hit and what linkTrackVars / linkTrackEvents let through.
 *
 * Equivalent: link-tracking.ts `if (key)` → true for a linkTrackVars name: a name that is no
 * variable adds `undefined` to the allowed keys, and no parameter has that key.
 */
import { describe, expect, it } from 'vitest';
import { classifyClick, filterEvents, filterLinkHit, hostnameOf, isDownloadLink, isExitLink, linkEventParam } from '../../../src/worker-engine/analytics/link-tracking.ts';
import { resolveSettings } from '../../../src/worker-engine/core/settings.ts';
import { storefront } from '../../../containers/storefront/container.ts';

const settings = resolveSettings({}, storefront).settings;
const PAGE = 'https://www.example.com/shop';
const click = (href: string, hasTlCall = false) => ({ href, text: 'Link', region: 'nav', hasTlCall });

describe('link types', () => {
  it('pe is lnk_o, lnk_d or lnk_e; other types are o', () => {
    expect(linkEventParam('o')).toBe('lnk_o');
    expect(linkEventParam('d')).toBe('lnk_d');
    expect(linkEventParam('e')).toBe('lnk_e');
    expect(linkEventParam('x')).toBe('lnk_o');
  });
});

describe('linkTrackVars / linkTrackEvents', () => {
  const params = {
    pageName: 'acme:pdp:1', g: 'https://www.example.com/', ch: 'acme', server: 'www.example.com', cc: 'USD', ce: 'UTF-8',
    mid: 'M', aamlh: '7', aamb: 'B', mcorgid: 'O@AdobeOrg', v1: 'Full Logged In', v2: '123', v4: 'k', c1: 'D=v1', l1: 'a,b', l2: 'c',
    events: 'event49,event5=3,event7:abc', pe: 'lnk_o', pev2: 'name', s: '1x1', bw: '1', bh: '1',
  };
  it('sends the listed variables plus the always-sent set (spec-coverage.md D5)', () => {
    const out = filterLinkHit(params, { 'cm.ssf': '1', other: 'x' }, 'pageName,eVar1,eVar4,list1,list2,events', 'event49');
    expect(Object.keys(out.params).sort()).toEqual(['aamlh', 'bh', 'bw', 'cc', 'ce', 'events', 'g', 'l1', 'l2', 'mcorgid', 'mid', 'pageName', 'pe', 'pev2', 's', 'v1', 'v4'].sort());
    expect(out.params.events).toBe('event49');
    expect(out.contextData).toEqual({ 'cm.ssf': '1' });
  });
  it('never sends ch, server, other eVars, props or aamb when filtered', () => {
    const out = filterLinkHit(params, {}, 'eVar1', '');
    for (const k of ['ch', 'server', 'v2', 'c1', 'aamb', 'events']) expect(out.params[k], k).toBeUndefined();
  });
  it('empty linkTrackVars sends everything; None only the always-sent set', () => {
    expect(filterLinkHit(params, {}, '', '').params).toEqual(params);
    const none = filterLinkHit(params, { a: '1' }, 'None', 'event49');
    expect(none.params.v1).toBeUndefined();
    expect(none.params.events).toBeUndefined();
    expect(none.params.pageName).toBe('acme:pdp:1');
    expect(none.contextData).toEqual({});
  });
  it('linkTrackEvents filters by base name and lets events through by itself', () => {
    expect(filterEvents('event49,event5=3,event7:abc,purchase', 'event5,event7')).toBe('event5=3,event7:abc');
    expect(filterLinkHit(params, {}, 'eVar1', 'event5').params.events).toBe('event5=3');
    expect(filterLinkHit(params, {}, 'eVar1', 'event99').params.events).toBeUndefined();
  });
  it('contextData.<key> in linkTrackVars lets that key through', () => {
    expect(filterLinkHit(params, { a: '1', b: '2' }, 'contextData.b', '').contextData).toEqual({ b: '2' });
  });
});

describe('automatic link tracking', () => {
  it('downloads by file type, query and hash ignored, any case', () => {
    expect(isDownloadLink('https://www.example.com/specs/sheet.PDF?v=2#p1', settings.linkDownloadFileTypes)).toBe(true);
    expect(isDownloadLink('https://www.example.com/pdf/sheet.html', settings.linkDownloadFileTypes)).toBe(false);
    expect(classifyClick(click('https://cdn.other.net/a.zip?x=1'), settings, PAGE)).toEqual({ linkType: 'd', linkUrl: 'https://cdn.other.net/a.zip' });
  });
  it('exits are links that match no internal filter (javascript:, keepstock, the page host)', () => {
    expect(classifyClick(click('https://partner.example.org/x?y=1'), settings, PAGE)).toEqual({ linkType: 'e', linkUrl: 'https://partner.example.org/x' });
    expect(classifyClick(click('https://www.example.com/other'), settings, PAGE)).toBeUndefined();
    expect(classifyClick(click('https://keepstock.example.net/'), settings, PAGE)).toBeUndefined();
    expect(isExitLink('javascript:void(0)', 'none')).toBe(false);
    expect(isExitLink('about:blank', 'none')).toBe(false);
  });
  it('honours a configured linkInternalFilters and skips links that already call .tl(', () => {
    const s = resolveSettings({ linkInternalFilters: 'example.org' }, storefront).settings;
    expect(classifyClick(click('https://partner.example.org/x'), s, PAGE)).toBeUndefined();
    expect(classifyClick(click('https://partner.example.net/x'), s, PAGE)?.linkType).toBe('e');
    expect(classifyClick(click('https://x.example.net/a.pdf', true), settings, PAGE)).toBeUndefined();
  });
});

describe('ClickMap object id from the bridge (String(window.s_objectID))', () => {
  it('reads the unset forms as none and keeps a real name', async () => {
    const { objectIdOf } = await import('../../../src/worker-engine/analytics/activity-map.ts');
    for (const unset of [undefined, '', '0', 'undefined', 'null', 'false']) expect(objectIdOf(unset), String(unset)).toBeUndefined();
    expect(objectIdOf('hero pdf')).toBe('hero pdf');
  });
});

describe('link filters on what a site really writes', () => {
  const params = { pageName: 'p', v1: 'one', v2: 'two', c5: 'five', ch: 'acme', events: 'event1,event2=4,purchase', pe: 'lnk_o' };
  it('linkTrackVars and linkTrackEvents are read with spaces and empty entries around the commas', () => {
    const out = filterLinkHit(params, { k: '1' }, ' eVar1 , ,prop5,, contextData.k ', ' event2 ,');
    expect(out.params).toEqual({ pageName: 'p', v1: 'one', c5: 'five', events: 'event2=4', pe: 'lnk_o' });
    expect(out.contextData).toEqual({ k: '1' });
    expect(filterEvents('event1,event2', ' , ')).toBe('event1,event2');
  });
  it('linkTrackEvents "None" sends no events, also when linkTrackVars is empty (everything else goes)', () => {
    expect(filterEvents('event1,event2', 'None')).toBe('');
    const out = filterLinkHit(params, {}, '', 'None');
    expect(out.params.events).toBeUndefined();
    expect(out.params.v2).toBe('two');
    expect(filterLinkHit(params, {}, '', 'event1').params.events).toBe('event1');
    expect(filterLinkHit(params, {}, '', '').params.events).toBe(params.events);
    // "None" among other names is a name like any other (no such event).
    expect(filterEvents('event1,None', 'None,event1')).toBe('event1,None');
  });
  it('"None" in linkTrackVars keeps linkTrackEvents from letting events through; a name that is no variable adds nothing', () => {
    expect(filterLinkHit(params, {}, 'None', 'event1').params.events).toBeUndefined();
    expect(filterLinkHit(params, {}, 'None,eVar2', 'event1').params).toEqual({ pageName: 'p', v2: 'two', events: 'event1', pe: 'lnk_o' });
    expect(filterLinkHit(params, {}, 'eVar999,channel2,contextData.', '').params).toEqual({ pageName: 'p', pe: 'lnk_o' });
    expect(filterLinkHit(params, {}, 'events', '').params.events).toBe(params.events);
    expect(filterLinkHit(params, {}, 'eVar1', '').params.events).toBeUndefined();
  });
  it('events that all fail the filter leave no empty events parameter', () => {
    const out = filterLinkHit({ events: 'event1' }, {}, 'events', 'event9');
    expect('events' in out.params && out.params.events !== undefined).toBe(false);
    expect(filterLinkHit({ events: 'event1' }, {}, '', 'event9').params.events).toBeUndefined();
  });
  it('downloads: the extension must follow a dot at the end of the path, not in the query or hash', () => {
    const types = 'pdf, ZIP';
    expect(isDownloadLink('https://x.test/a.zip', types)).toBe(true);
    expect(isDownloadLink('https://x.test/a.Pdf', types)).toBe(true);
    expect(isDownloadLink('https://x.test/apdf', types)).toBe(false);
    expect(isDownloadLink('https://x.test/page?file=a.pdf', types)).toBe(false);
    expect(isDownloadLink('https://x.test/page#a.pdf', types)).toBe(false);
    expect(isDownloadLink('https://x.test/a.pdf', ' , ')).toBe(false);
    expect(isDownloadLink('https://x.test/a.', ',')).toBe(false);
  });
  it('exits: #, about:, opera: and javascript: links in any case are never exits; filters match in any case, query ignored', () => {
    for (const href of ['#top', 'ABOUT:blank', 'Opera:x', 'JavaScript:go()']) expect(isExitLink(href, 'internal.test'), href).toBe(false);
    expect(isExitLink('https://partner.test/#top', 'internal.test')).toBe(true);
    expect(isExitLink('https://partner.test/x?from=internal.test', 'internal.test')).toBe(true);
    expect(isExitLink('https://WWW.Internal.TEST/x', 'www.internal.test')).toBe(false);
    expect(isExitLink('https://www.internal.test/x', 'Internal.Test')).toBe(false);
    expect(isExitLink('https://partner.test/x', ' , ')).toBe(true);
  });
  it('a click without an href sends nothing; an unreadable page URL leaves only the default filters', () => {
    expect(classifyClick({ href: '', text: 'x', region: 'r', hasTlCall: false }, settings, PAGE)).toBeUndefined();
    expect(classifyClick({ text: 'x', region: 'r', hasTlCall: false } as never, settings, PAGE)).toBeUndefined();
    expect(classifyClick(click('https://www.example.com/a'), settings, 'not a url')?.linkType).toBe('e');
    expect(classifyClick(click('https://keepstock.example.net/a'), settings, 'not a url')).toBeUndefined();
  });
});

describe('linkTrackVars without linkTrackEvents', () => {
  it('a link hit keeps the listed variables; its events only if events is listed (AppMeasurement adds events to the list only for a non-empty linkTrackEvents)', () => {
    expect(filterLinkHit({ v1: 'x', events: 'event1', c2: 'y' }, {}, 'eVar1', '').params).toEqual({ v1: 'x' });
    expect(filterLinkHit({ v1: 'x', events: 'event1' }, {}, 'eVar1,events', '').params).toEqual({ v1: 'x', events: 'event1' });
  });
});

describe('the page hostname for the default internal filters', () => {
  it('is the URL\'s hostname, or empty for text that is no URL', () => {
    expect(hostnameOf('https://www.example.com:8443/shop?x=1')).toBe('www.example.com');
    expect(hostnameOf('not a url')).toBe('');
  });
});

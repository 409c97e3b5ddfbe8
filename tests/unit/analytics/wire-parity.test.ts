/**
 * Rules of AppMeasurement 2.27.0 learned from its public source (adobe/appmeasurement,
 * dist/AppMeasurement.js) that a parameter-by-parameter comparison found Offtag breaking.
 * docs/analytics.md, "Click rules learned from AppMeasurement.js", names each test here.
 */
import { describe, expect, it } from 'vitest';
import type { LinkClick } from '../../../src/protocol.ts';
import { decodeBeacon } from '../../../src/worker-engine/analytics/beacon-decode.ts';
import { callsTracker, linkName, objectIdFromOnclick, startTags } from '../../../src/worker-engine/analytics/link-name.ts';
import { referrerParam, shortenReferrer } from '../../../src/worker-engine/analytics/referrer.ts';
import { createAnalyticsService } from '../../../src/worker-engine/analytics/tracker.ts';
import { makeContext, stubVisitor } from '../harness.ts';

/** A click as the bridge sends it: the link's text and its outerHTML. */
const clickOn = (html: string, text: string, over: Partial<LinkClick> = {}): LinkClick => ({
  href: 'https://partner.test/offer',
  text,
  html,
  region: 'BODY',
  tag: 'A',
  objectId: 'undefined',
  ...over,
});
const amOf = (url: string) => (decodeBeacon(url).contextData.a as { activitymap?: Record<string, string> } | undefined)?.activitymap;

describe('ActivityMap link names', () => {
  it('data-s-object-id names the link before its text', () => {
    expect(linkName(clickOn('<a href="/x" data-s-object-id="promo-a">Spring sale</a>', 'Spring sale'))).toBe('promo-a');
  });
  it('then the s-object-id attribute; an attribute named s_objectID is never read', () => {
    expect(linkName(clickOn('<a href="/x" s-object-id="promo-b">Spring sale</a>', 'Spring sale'))).toBe('promo-b');
    expect(linkName(clickOn('<a href="/x" s_objectid="promo-c">Spring sale</a>', 'Spring sale'))).toBe('Spring sale');
  });
  it("then s_objectID as the link's onclick sets it (escaped quotes kept, backslashes dropped)", () => {
    expect(linkName(clickOn(`<a href="/x" onclick="s_objectID='promo-d';return true">Spring sale</a>`, 'Spring sale'))).toBe('promo-d');
    expect(objectIdFromOnclick(`window.s_objectID = "a \\"b\\" c"`)).toBe('a "b" c');
    expect(objectIdFromOnclick('go()')).toBe('');
  });
  it('then window.s_objectID as it was when the click happened', () => {
    expect(linkName(clickOn('<a href="/x">Spring sale</a>', 'Spring sale', { objectId: 'hero' }))).toBe('hero');
    expect(linkName(clickOn('<a href="/x">Spring sale</a>', 'Spring sale', { objectId: '0' }))).toBe('Spring sale');
  });
  it('without text: the alt, else title, of the first element in document order, the link included', () => {
    expect(linkName(clickOn('<a href="/x" title="Home"><img src="/logo.png" alt="Acme"></a>', ''))).toBe('Home');
    expect(linkName(clickOn('<a href="/x"><span title="Cart"><img alt="Bag" src="/b.png"></span></a>', ''))).toBe('Cart');
    expect(linkName(clickOn('<a href="/x"><img alt="" src="/logo.png"></a>', ''))).toBe('/logo.png');
    expect(linkName(clickOn('<a href="/x"><script>var t = "<i title=no>"</script><canvas title="no"><b title="no"></b></canvas><!-- <i title=no> --><i title="Search &amp; find"></i></a>', ''))).toBe(
      'Search & find',
    );
  });
  it('reads attributes as Chromium serializes them: quoted values may hold > and escaped quotes', () => {
    expect(startTags('<a href="/x?a>b" data-s-object-id="say &quot;hi&quot;">x</a>')[0]!.attrs).toEqual({ href: '/x?a>b', 'data-s-object-id': 'say "hi"' });
  });
  it('a link whose onclick calls .tl( or .trackLink( is left to that call', () => {
    expect(callsTracker(clickOn(`<a href="/x" onclick="s.tl(this,'d','x')">x</a>`, 'x'))).toBe(true);
    expect(callsTracker(clickOn(`<a href="/x" onclick="s.trackLink(this,'d','x')">x</a>`, 'x'))).toBe(true);
    expect(callsTracker(clickOn(`<a href="/x" onclick="go()">x</a>`, 'x'))).toBe(false);
  });
  it('the exit beacon carries the named link', async () => {
    const ctx = makeContext();
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.onClick(clickOn('<a href="https://partner.test/offer" data-s-object-id="promo-a">Spring sale</a>', 'Spring sale', { region: 'promo-box' }));
    expect(amOf(ctx.requests[0]!.url)).toMatchObject({ link: 'promo-a', region: 'promo-box' });
  });
});

describe('ClickMap before any hit', () => {
  it('a link beacon before any page view has no pid, oid or ot; after one it has them', async () => {
    const ctx = makeContext();
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.onClick(clickOn('<a href="https://partner.test/offer">Offer</a>', 'Offer'));
    const first = decodeBeacon(ctx.requests[0]!.url).params;
    expect(first.pid).toBeUndefined();
    expect(first.oid).toBeUndefined();
    expect(first.ot).toBeUndefined();
    expect(amOf(ctx.requests[0]!.url)).toMatchObject({ link: 'Offer' });
    // The tracker has run once now (that click): its URL is the page id of the next click.
    await analytics.onClick(clickOn('<a href="https://partner.test/offer">Offer</a>', 'Offer'));
    expect(decodeBeacon(ctx.requests[1]!.url).params).toMatchObject({ pid: 'https://www.example.com/shop/product?id=1', oid: 'https://partner.test/offer', ot: 'A' });
  });
});

describe('s_objectID lives until the next hit', () => {
  it('every track call (page view or rule link hit) tells the page to reset window.s_objectID', async () => {
    const ctx = makeContext();
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.track({ type: 't', vars: { pageName: 'home' } });
    await analytics.track({ type: 'tl', linkType: 'o', linkName: 'x', vars: {} });
    expect(ctx.effects.filter((e) => e.type === 'hit')).toHaveLength(2);
  });
});

describe('the first hit\'s referrer', () => {
  const firstR = async (url: string, referrer = 'https://search.example.net/?q=gloves') => {
    const ctx = makeContext({ snapshot: { url, referrer } });
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.track({ type: 't', vars: { pageName: 'home' } });
    await analytics.track({ type: 't', vars: { pageName: 'next' } });
    return ctx.requests.map((r) => decodeBeacon(r.url).params.r);
  };
  it('comes from adobe_mc_ref when the page URL has it, for the first hit only', async () => {
    expect(await firstR('https://www.example.com/landing?adobe_mc_ref=https%3A%2F%2Fwww.google.com%2F&x=1')).toEqual(['https://www.google.com/', undefined]);
  });
  it('a bare adobe_mc_ref means no referrer; no adobe_mc_ref means the document referrer', async () => {
    expect(await firstR('https://www.example.com/landing?adobe_mc_ref=&x=1')).toEqual([undefined, undefined]);
    expect(await firstR('https://www.example.com/landing?x=1')).toEqual(['https://search.example.net/?q=gloves', undefined]);
  });
  it('a search-engine referrer over 255 characters keeps its search terms first and its path cut to fit', () => {
    const long = `https://www.google.com/${'p'.repeat(300)}?a=${'x'.repeat(40)}&q=gloves&b=2`;
    const short = shortenReferrer(long);
    expect(short).toBe(`https://www.google.com${`/${'p'.repeat(300)}`.slice(0, 253 - 'q=gloves&'.length - 'https://www.google.com'.length)}?q=gloves&a=${'x'.repeat(40)}&b=2`);
    const other = `https://www.example.org/${'p'.repeat(300)}?q=1&a=2`;
    expect(shortenReferrer(other)).toBe(other);
  });
  it('the first hit sends the long search referrer shortened', async () => {
    const long = `https://www.google.com/${'p'.repeat(300)}?a=1&q=gloves`;
    expect((await firstR('https://www.example.com/landing', long))[0]).toBe(shortenReferrer(long));
    expect(shortenReferrer(long)).not.toBe(long);
  });
  it('reads adobe_mc_ref as the library reads it', () => {
    expect(referrerParam('https://a.example/?adobe_mc_ref=a+b%20c#x')).toBe('a b c');
    expect(referrerParam('https://a.example/?x=1&adobe_mc_ref')).toBeUndefined();
    expect(referrerParam('https://a.example/?x=1')).toBe('');
    expect(referrerParam('https://a.example/#adobe_mc_ref=x')).toBe('');
  });
});

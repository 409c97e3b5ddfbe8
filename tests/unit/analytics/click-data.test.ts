/**
 * A click's ActivityMap and ClickMap data as the beacon carries it, and the `s_sq` cookie that keeps
 * it for the next hit: the lengths the library cuts to, the defaults, and cookies other pages wrote.
 */
import { describe, expect, it } from 'vitest';
import { clickCookieValue, clickData, readClickCookie } from '../../../src/worker-engine/analytics/activity-map.ts';
import { decodeBeacon } from '../../../src/worker-engine/analytics/beacon-decode.ts';
import { escapeValue } from '../../../src/worker-engine/analytics/encoding.ts';
import { createAnalyticsService } from '../../../src/worker-engine/analytics/tracker.ts';
import type { LinkClick } from '../../../src/protocol.ts';
import { makeContext, stubVisitor } from '../harness.ts';

const PAGE_URL = 'https://www.example.com/shop/product?id=1';
const exit = (over: Partial<LinkClick> = {}): LinkClick => ({ href: 'https://partner.test/x', text: 'Partner', region: 'footer', hasTlCall: false, tag: 'A', ...over });

async function exitBeacon(over: Partial<LinkClick>, pageName?: string) {
  const ctx = makeContext();
  const analytics = createAnalyticsService(ctx, stubVisitor());
  // '' : a page view without a pageName first (ClickMap needs an earlier run of the tracker for its page id).
  if (pageName !== undefined) await analytics.track({ type: 't', vars: pageName ? { pageName } : {} });
  await analytics.onClick(exit(over));
  return decodeBeacon(ctx.requests.at(-1)!.url);
}

describe('ActivityMap on a click beacon', () => {
  it('cuts the link text to 128 and the region to 127 characters, the page to 255', async () => {
    const b = await exitBeacon({ text: 't'.repeat(200), region: 'r'.repeat(200) }, 'p'.repeat(300));
    expect(b.contextData).toEqual({ a: { activitymap: { page: 'p'.repeat(255), link: 't'.repeat(128), region: 'r'.repeat(127), pageIDType: '1' } } });
  });
  it('a click outside any region is in BODY', async () => {
    const b = await exitBeacon({ region: '' });
    expect((b.contextData.a as { activitymap: { region: string } }).activitymap.region).toBe('BODY');
  });
  it('ClickMap: no tag means no ClickMap fields (the ActivityMap block still goes)', async () => {
    for (const tag of [undefined, '']) {
      const b = await exitBeacon({ tag });
      expect(b.params.pid, String(tag)).toBeUndefined();
      expect(b.params.oid, String(tag)).toBeUndefined();
      expect(b.contextData.a, String(tag)).toBeDefined();
    }
  });
  it('ClickMap: an s_objectID of "0" names no object, so the link URL is the object id', async () => {
    const b = await exitBeacon({ objectId: '0' }, '');
    expect(b.params).toMatchObject({ pid: PAGE_URL, oid: 'https://partner.test/x', ot: 'A' });
    expect(b.params.oidt).toBeUndefined();
    expect(b.params.oi).toBeUndefined();
    expect(b.params.pidt).toBeUndefined();
  });
  it('ClickMap fields need a page and an object id', () => {
    const link = exit({ href: undefined as unknown as string });
    expect(clickData({ ...link, text: '' }, undefined, PAGE_URL)).toBe('');
    expect(clickData({ ...exit(), text: '' }, undefined, '')).toBe('');
    expect(clickData({ ...exit(), text: '', objectId: 'hero' }, 'home', '')).toBe('&pid=home&pidt=1&oid=hero&oidt=1&ot=A&oi=1');
  });
  it('a click not said to come before the tracker first ran gets the page URL as its page', () => {
    expect(clickData({ ...exit(), text: '' }, undefined, PAGE_URL)).toBe('&pid=https%3A%2F%2Fwww.example.com%2Fshop%2Fproduct%3Fid%3D1&oid=https%3A%2F%2Fpartner.test%2Fx&ot=A');
  });
});

describe('s_sq', () => {
  const data = '&pid=home&oid=x&ot=A';
  it('is written rsid=<escaped data>, escaped again; empty data writes the library\'s [[B]]', () => {
    expect(clickCookieValue('acmeprod', data)).toBe(escapeValue(`acmeprod=${escapeValue(data)}`));
    expect(clickCookieValue('acmeprod', '')).toBe('%5B%5BB%5D%5D');
  });
  it('reads the data of exactly this report suite, whichever entry it is in', () => {
    const cookie = escapeValue(`other=${escapeValue('&pid=o')}&acmeprod=${escapeValue(data)}`);
    expect(readClickCookie(cookie, 'acmeprod')).toBe(data);
    expect(readClickCookie(cookie, 'other')).toBe('&pid=o');
    expect(readClickCookie(cookie, 'acme')).toBeUndefined();
    // A multi-suite tracker stores its data under the joined ids.
    expect(readClickCookie(escapeValue(`a,b=${escapeValue(data)}`), 'a,b')).toBe(data);
    expect(readClickCookie(escapeValue(`a,b=${escapeValue(data)}`), 'a')).toBeUndefined();
  });
  it('reads nothing from an absent, empty or [[B]] cookie, or from entries without a suite or click data', () => {
    expect(readClickCookie(undefined, 'acmeprod')).toBeUndefined();
    expect(readClickCookie('', 'acmeprod')).toBeUndefined();
    expect(readClickCookie('%5B%5BB%5D%5D', 'acmeprod')).toBeUndefined();
    expect(readClickCookie(escapeValue(`=${escapeValue(data)}`), '')).toBeUndefined();
    expect(readClickCookie(escapeValue('acmeprod'), 'acmeprod')).toBeUndefined();
    expect(readClickCookie(escapeValue('acmeprod=pid=home'), 'acmeprod')).toBeUndefined();
  });
  it('a hit carries the stored data of its suite once, and a cookie of another suite is left as it is', async () => {
    const stored = escapeValue(`acmeprod=${escapeValue(data)}`);
    const ctx = makeContext({ cookies: { s_sq: stored } });
    const analytics = createAnalyticsService(ctx, stubVisitor());
    await analytics.track({ type: 't', vars: { pageName: 'next' } });
    expect(ctx.requests[0]!.url).toContain(`${data}&s=`);
    const foreign = escapeValue(`other=${escapeValue(data)}`);
    const ctx2 = makeContext({ cookies: { s_sq: foreign } });
    await createAnalyticsService(ctx2, stubVisitor()).track({ type: 't', vars: { pageName: 'next' } });
    expect(ctx2.jar.get('s_sq')).toBe(foreign);
    expect(ctx2.effects.some((e) => e.type === 'cookie' && e.name === 's_sq')).toBe(false);
  });
  it('a hit whose own context data has ActivityMap keys drops the stored click data', async () => {
    const stored = escapeValue(`acmeprod=${escapeValue(data)}`);
    const ctx = makeContext({ cookies: { s_sq: stored } });
    await createAnalyticsService(ctx, stubVisitor()).track({ type: 't', vars: { pageName: 'n' }, contextData: { 'a.activitymap.link': 'own' } });
    expect(ctx.requests[0]!.url).not.toContain('pid=home');
    expect(ctx.requests[0]!.url).toContain('&link=own');
    expect(ctx.jar.get('s_sq')).toBe('%5B%5BB%5D%5D');
  });
});

/**
 * The page listeners of the triggers the engine gained (docs/triggers.md), in Chromium, installed
 * by offtag-triggers.js's `installTriggers` with a `send` that records what offtag.js would send:
 * history change, element exists, hover (with its delay), media time played,
 * and data layer pushes (Adobe Client Data Layer, Google Tag Manager, Data Layer Manager).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineEvent, TriggerEvent, TriggerListener } from '../../src/protocol.ts';
import { installTriggers } from '../../src/main-bridge/triggers.ts';

type Sent = TriggerEvent;
let off: (() => void) | undefined;
const w = window as unknown as Record<string, unknown>;

/** Installs `listeners`; returns what they sent so far, newest last. */
function install(...listeners: TriggerListener[]): Sent[] {
  const sent: Sent[] = [];
  off = installTriggers(listeners, (e: EngineEvent) => (sent.push(e as Sent), 0));
  return sent;
}
const keys = (sent: Sent[]) => sent.map((e) => e.key);

afterEach(() => {
  off?.();
  off = undefined;
  document.body.innerHTML = '';
  for (const g of ['adobeDataLayer', 'dataLayer', 'appEventData', '__offtagLaunch']) delete w[g];
});

describe('history change', () => {
  it('pushState, replaceState, hashchange and popstate: one event per URL change, several in one task as one, none without a change', async () => {
    const start = location.href;
    const sent = install({ key: 'h', type: 'history-change' });
    history.pushState({}, '', '/page-events/a');
    history.pushState({}, '', '/page-events/b');
    await expect.poll(() => sent.length).toBe(1);
    expect(sent[0]).toMatchObject({ type: 'trigger', key: 'h', on: 'history-change', url: new URL('/page-events/b', location.href).href });
    history.replaceState({}, '', '/page-events/b');
    location.hash = 'x';
    await expect.poll(() => sent.length).toBe(2);
    expect(sent[1].url).toMatch(/\/page-events\/b#x$/);
    history.back();
    await expect.poll(() => sent.length).toBe(3);
    off!();
    off = undefined;
    // Removed: the history methods are the page's own again.
    history.replaceState({}, '', start);
    expect(sent.length).toBe(3);
  });
});

describe('element exists', () => {
  it('once per listener, for the first element matching its selector and properties, also one added later', async () => {
    document.body.innerHTML = '<div class="banner" id="old">old</div>';
    const sent = install(
      { key: 'any', type: 'element-exists', selector: '.banner' },
      { key: 'sale', type: 'element-exists', selector: '.banner', properties: [{ name: 'data-kind', value: 'sale' }] },
    );
    expect(keys(sent)).toEqual(['any']);
    expect(sent[0].element?.id).toBe('old');
    const add = (html: string) => document.body.insertAdjacentHTML('beforeend', html);
    add('<div class="banner" data-kind="news">news</div>');
    add('<div class="banner" data-kind="sale" id="sale">sale</div>');
    await expect.poll(() => keys(sent)).toEqual(['any', 'sale']);
    add('<div class="banner" data-kind="sale">another</div>');
    // A later element is not a first one: a click on another listener proves the page went on.
    await new Promise((r) => requestAnimationFrame(() => setTimeout(r)));
    expect(keys(sent)).toEqual(['any', 'sale']);
    expect(sent[1].element?.id).toBe('sale');
  });
});

describe('hover', () => {
  it('at once, and after its delay unless the pointer left first; the walk goes up to cards that match, for listeners of that delay only', async () => {
    document.body.innerHTML = '<div class="card" id="outer"><div class="card" id="inner">card</div></div>';
    const inner = document.getElementById('inner')!;
    const sent = install({ key: 'now', type: 'hover', selector: '.card' }, { key: 'later', type: 'hover', selector: '.card', delay: 50 });
    const enter = () => inner.dispatchEvent(new MouseEvent('mouseenter'));
    enter();
    // At once: the inner card, then the outer one it is in (the walk up).
    expect(sent.map((e) => [e.key, e.element?.id])).toEqual([['now', 'inner'], ['now', 'outer']]);
    // Left before 50 ms: cancelled. The second stay is the only delayed firing.
    inner.dispatchEvent(new MouseEvent('mouseleave'));
    enter();
    await expect.poll(() => sent.filter((e) => e.key === 'later').length).toBe(2);
    expect(sent.filter((e) => e.key === 'later').map((e) => [e.element?.id, e.delay])).toEqual([['inner', 50], ['outer', 50]]);
    expect(sent.filter((e) => e.key === 'now').length).toBe(4);
  });
});

describe('media time played', () => {
  /** An audio element whose clock the test moves: each move is one `timeupdate`. */
  function media(seekable: [number, number] | null) {
    const a = document.createElement('audio');
    document.body.append(a);
    let now = 0;
    Object.defineProperty(a, 'currentTime', { get: () => now });
    Object.defineProperty(a, 'seekable', { get: () => (seekable ? { length: 1, start: () => seekable[0], end: () => seekable[1] } : { length: 0 }) });
    return (t: number) => {
      now = t;
      a.dispatchEvent(new Event('timeupdate'));
    };
  }

  it('each threshold once as the time played crosses it, in seconds or percent of the seekable range; nothing without one', () => {
    const sent = install(
      { key: 'second', type: 'media-time-played', amount: 3, unit: 'second', selector: 'audio' },
      { key: 'half', type: 'media-time-played', amount: 50, unit: 'percent', selector: 'audio' },
    );
    const move = media([2, 22]);
    for (const t of [4, 5.5, 12, 13, 30]) move(t);
    expect(sent.map((e) => [e.key, e.amount, e.unit])).toEqual([['second', 3, 'second'], ['half', 50, 'percent']]);
    // Played 3.5 s (from the range's start, 2 s) at 5.5; half of 20 s at 12.
    const unseekable = media(null);
    unseekable(50);
    expect(sent.length).toBe(2);
  });
});

describe('data layer pushes', () => {
  it("Adobe Client Data Layer: the queue found first, then each push — also through a push a library sets later; data merged deeply into the state, without event and eventInfo", () => {
    w.adobeDataLayer = [{ page: { name: 'home', section: 'shop' } }, { event: 'page loaded', eventInfo: { path: 'x' } }];
    const sent = install({ key: 'all', type: 'data-layer-push', global: 'adobeDataLayer', flavor: 'acdl' }, { key: 'click', type: 'data-layer-push', global: 'adobeDataLayer', event: 'click', flavor: 'acdl' });
    expect(sent.map((e) => [e.key, (e.detail as { event: string }).event])).toEqual([['all', 'page loaded']]);
    expect(sent[0].state).toEqual({ page: { name: 'home', section: 'shop' } });
    // A library (ACDL itself) sets its own push after the chunk: it is called, and the push still seen.
    const layer = w.adobeDataLayer as unknown[] & { push(...a: unknown[]): number };
    const library: unknown[] = [];
    layer.push = function (this: unknown[], ...items: unknown[]) {
      library.push(...items);
      return Array.prototype.push.apply(this, items);
    };
    layer.push({ page: { name: 'cart' } }, { event: 'click', component: { id: 'buy' } });
    expect(library).toHaveLength(2);
    expect(sent.map((e) => e.key)).toEqual(['all', 'all', 'click']);
    expect(sent[2]).toMatchObject({ on: 'data-layer-push', detail: { event: 'click', component: { id: 'buy' } }, state: { page: { name: 'cart', section: 'shop' }, component: { id: 'buy' } } });
    expect(layer).toHaveLength(4);
  });

  it("Google Tag Manager: the array made when the page has none; objects without an event only feed the state; a push's value is the array's new length", () => {
    const sent = install({ key: 'signup', type: 'data-layer-push', global: 'dataLayer', event: 'signup', flavor: 'gtm' });
    const layer = w.dataLayer as unknown[];
    expect(layer).toEqual([]);
    expect(layer.push({ user: { tier: 'gold' } })).toBe(1);
    layer.push({ event: 'other' }, { event: 'signup', plan: 'pro' });
    expect(sent.map((e) => e.detail)).toEqual([{ event: 'signup', plan: 'pro' }]);
    expect(sent[0].state).toEqual({ user: { tier: 'gold' }, plan: 'pro' });
  });

  it("Data Layer Manager: only event objects count, merged shallowly; the event's detail carries the state in __meta.computedState", () => {
    w.appEventData = [{ event: 'Page Load Started', page: { name: 'home', type: 'landing' } }, { loose: 'data' }];
    const sent = install({ key: 'load', type: 'data-layer-push', global: 'appEventData', event: 'Page Load Completed', flavor: 'dlm' });
    (w.appEventData as unknown[]).push({ event: 'Page Load Completed', page: { name: 'cart' } });
    expect(sent).toHaveLength(1);
    expect(sent[0].detail).toEqual({ event: 'Page Load Completed', page: { name: 'cart' }, __meta: { computedState: { page: { name: 'cart' } } } });
    expect(sent[0].state).toEqual({ page: { name: 'cart' } });
  });

  it('a global that is not an array is said, and nothing else breaks', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    w.dataLayer = { not: 'an array' };
    const sent = install({ key: 'x', type: 'data-layer-push', global: 'dataLayer', flavor: 'gtm' }, { key: 'h', type: 'history-change' });
    expect(warn).toHaveBeenCalledWith('Offtag: window.dataLayer is not an array; its data layer push events never fire.');
    expect(sent).toEqual([]);
    warn.mockRestore();
  });
});

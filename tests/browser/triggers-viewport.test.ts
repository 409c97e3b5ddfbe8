/**
 * offtag-triggers.js's element-visible listener in Chromium, on this page's real DOM, with Adobe's
 * element property filter and "in view for N ms" (`delay`): installTriggers with a recording
 * `send`. Each wait is for a listener's firing; times are only compared.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent, TriggerListener } from '../../src/protocol.ts';
import { installTriggers } from '../../src/main-bridge/triggers.ts';

type Fired = { key: string; at: number };

function setUp(listeners: TriggerListener[]) {
  const fired: Fired[] = [];
  const waiters: Array<() => void> = [];
  const off = installTriggers(listeners, (e: EngineEvent) => {
    if (e.type === 'trigger') fired.push({ key: e.key, at: performance.now() });
    waiters.splice(0).forEach((w) => w());
  });
  /** Resolves once `key` has fired `n` times. */
  const firings = async (key: string, n: number) => {
    while (fired.filter((f) => f.key === key).length < n) await new Promise<void>((r) => waiters.push(r));
    return fired.filter((f) => f.key === key);
  };
  return { fired, firings, off };
}

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  document.body.innerHTML = '';
});

describe('element visible: property filter and delay', () => {
  it('the property filter picks the elements it names (attribute, property, text, regular expression)', async () => {
    document.body.innerHTML = '<p class="promo" id="p1" data-kind="sale">Big sale</p><p class="promo" id="p2" data-kind="news">News</p><p class="promo" id="p3">Other</p>';
    const { fired, firings, off } = setUp([
      { key: 'sale', type: 'element-visible', selector: '.promo', properties: [{ name: 'data-kind', value: 'sale' }] },
      { key: 'text', type: 'element-visible', selector: '.promo', properties: [{ name: '@text', value: '^NEWS$', valueIsRegex: true }] },
      { key: 'id', type: 'element-visible', selector: '.promo', properties: [{ name: 'id', value: 'p3' }] },
      { key: 'none', type: 'element-visible', selector: '.promo', properties: [{ name: 'data-kind', value: 'gone' }] },
      { key: 'all', type: 'element-visible', selector: '.promo' },
    ]);
    cleanup = off;
    await firings('all', 3);
    await firings('sale', 1);
    await firings('text', 1);
    await firings('id', 1);
    expect(fired.filter((f) => f.key === 'none')).toEqual([]);
    expect(fired.filter((f) => f.key !== 'all').map((f) => f.key).sort()).toEqual(['id', 'sale', 'text']);
  });

  it('with a delay it fires once the element stayed in view that long; leaving the viewport before then cancels it', async () => {
    document.body.innerHTML = '<p class="promo" id="flash">flash</p>';
    const el = document.getElementById('flash')!;
    const DELAY = 1500;
    const { fired, firings, off } = setUp([
      { key: 'entered', type: 'element-visible', selector: '#flash', everyEntry: true },
      { key: 'stayed', type: 'element-visible', selector: '#flash', everyEntry: true, delay: DELAY },
    ]);
    cleanup = off;
    await firings('entered', 1);
    // Out of view (its first delay is running), then back in: a second entry.
    el.style.display = 'none';
    await new Promise<void>((r) => {
      const io = new IntersectionObserver((entries) => {
        if (!entries[0]!.isIntersecting) {
          io.disconnect();
          r();
        }
      });
      io.observe(el);
    });
    // A few frames out of view, so that a first-entry timer left running would show as early.
    for (let i = 0; i < 10; i++) await new Promise((r) => requestAnimationFrame(r));
    el.style.display = '';
    const [, second] = await firings('entered', 2);
    expect(fired.filter((f) => f.key === 'stayed')).toEqual([]);
    const [stayed] = await firings('stayed', 1);
    // The first entry's timer was cancelled: the one firing counts from the second entry.
    expect(stayed!.at - second!.at).toBeGreaterThanOrEqual(DELAY - 5);
  });
});

/**
 * The triggers the engine gained (docs/triggers.md): the listeners their rule events ask the
 * bridge for (defaults filled in, a wrong one said and dropped), the rules a `trigger` event of each
 * runs, and what the rule reads of it; the Launch runtime's Browser, Operating System and Device
 * Type conditions.
 */
import { describe, expect, it } from 'vitest';
import type { TriggerEvent } from '../../../src/protocol.ts';
import { keyOf, listenersOf } from '../../../src/worker-engine/core/triggers.ts';
import type { Container, PageTriggerSpec, Rule, RuleEventSpec } from '../../../src/worker-engine/core/types.ts';
import { clientInfo } from '../../../src/launch/conditions.ts';
import { makeEngine } from '../harness.ts';

const rule = (name: string, ...events: RuleEventSpec[]): Rule<string> => ({ name, events, actions: [] });

describe('listeners of the new triggers', () => {
  it('defaults filled in, options kept in a fixed order, equal events sharing one listener', () => {
    const { listeners, problems } = listenersOf([
      rule('a', { type: 'history-change' }, { type: 'element-exists', selector: '.banner', properties: [{ name: 'id', value: 'b' }] }),
      rule('b', { type: 'history-change' }, { type: 'hover', selector: '.card', delay: 0 }, { type: 'hover', selector: '.card', delay: 300, bubbleStop: true }),
      rule('c', { type: 'media-time-played', amount: 10 }, { type: 'media-time-played', amount: 50, unit: 'percent', selector: 'video' }),
      rule('e', { type: 'data-layer-push', global: 'adobeDataLayer' }, { type: 'data-layer-push', global: 'dataLayer', event: 'signup' }, { type: 'data-layer-push', global: 'appEventData', event: 'Page Load', flavor: 'dlm' }),
    ]);
    expect(problems).toEqual([]);
    expect(listeners.map(({ key: _k, rules: _r, ...l }) => l)).toEqual([
      { type: 'history-change' },
      { type: 'element-exists', selector: '.banner', properties: [{ name: 'id', value: 'b' }] },
      { type: 'hover', selector: '.card' },
      { type: 'hover', selector: '.card', delay: 300, bubbleStop: true },
      { type: 'media-time-played', amount: 10, unit: 'second' },
      { type: 'media-time-played', amount: 50, unit: 'percent', selector: 'video' },
      { type: 'data-layer-push', global: 'adobeDataLayer', flavor: 'acdl' },
      { type: 'data-layer-push', global: 'dataLayer', event: 'signup', flavor: 'gtm' },
      { type: 'data-layer-push', global: 'appEventData', event: 'Page Load', flavor: 'dlm' },
    ]);
    expect(listeners[0]!.rules, 'both rules of the shared history change').toEqual(['a', 'b']);
  });

  it('a wrong one is said once, naming the rule, and only that event is dropped', () => {
    const { listeners, problems } = listenersOf([
      rule('x', { type: 'element-exists', selector: ' ' }, { type: 'hover', selector: '.c', delay: -1 }, { type: 'media-time-played', amount: 150, unit: 'percent' }),
      rule('y', { type: 'media-time-played', amount: 5, unit: 'minute' as 'second' }, { type: 'data-layer-push', global: 'window.dataLayer' }),
      rule('z', { type: 'data-layer-push', global: 'dataLayer', flavor: 'tealium' as 'gtm' }, { type: 'history-change' }),
    ]);
    expect(problems).toEqual([
      'Rule "x": its "element-exists" event is ignored: selector must be a CSS selector.',
      'Rule "x": its "hover" event is ignored: delay must be a number of milliseconds (0: at once).',
      'Rule "x": its "media-time-played" event is ignored: amount must be a number above 0, at most 100.',
      'Rule "y": its "media-time-played" event is ignored: unit must be "second" or "percent".',
      'Rule "y": its "data-layer-push" event is ignored: global must be the name of a page global (adobeDataLayer, dataLayer).',
      'Rule "z": its "data-layer-push" event is ignored: flavor must be one of acdl, gtm, dlm.',
    ]);
    expect(listeners.map((l) => l.type)).toEqual(['history-change']);
  });
});

describe('their trigger events run their rules', () => {
  it('a data layer push runs the rules of its listener, and the rule reads the pushed object and the state through %event.…%', async () => {
    const said: string[] = [];
    const push: PageTriggerSpec = { type: 'data-layer-push', global: 'adobeDataLayer', event: 'cart:add' };
    const container: Container<'n', object> = {
      name: 't',
      sessionKeys: [],
      dataElements: { n: { type: 'constant', value: 1 } },
      rules: [
        { name: 'cart add', events: [push], actions: [{ name: 'a', fn: (c) => void said.push(`${String(c.replaceTokens('%event.detail.product.sku%'))} ${String(c.replaceTokens('%event.state.page.name%'))}`) }] },
        { name: 'hover', events: [{ type: 'hover', selector: '.card', delay: 300 }], actions: [{ name: 'a', fn: (c) => void said.push(`hover ${String(c.replaceTokens('%this.id%'))} ${String(c.replaceTokens('%event.delay%'))}`) }] },
      ],
    };
    const { fire } = makeEngine(container);
    const event = (spec: PageTriggerSpec, extra: Partial<TriggerEvent>): TriggerEvent => ({ type: 'trigger', key: keyOf(spec)!, on: spec.type as TriggerEvent['on'], ...extra });
    await fire(event(push, { detail: { event: 'cart:add', product: { sku: 'A1' } }, state: { page: { name: 'pdp' } } }));
    await fire(event({ type: 'hover', selector: '.card', delay: 300 }, { element: { tagName: 'DIV', id: 'card', className: 'card', text: '', attributes: {} }, delay: 300 }));
    // Another event of the same global is another listener: it runs nothing here.
    await fire(event({ type: 'data-layer-push', global: 'adobeDataLayer', event: 'other' }, {}));
    expect(said).toEqual(['A1 pdp', 'hover card 300']);
  });
});

describe("Core's client conditions (Browser, Operating System, Device Type)", () => {
  const UA = {
    chrome: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
    edgeLegacy: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0 Safari/537.36 Edge/18.17763',
    iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
    firefoxMac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.0; rv:120.0) Gecko/20100101 Firefox/120.0',
    android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
  };
  it('the first mark the user agent carries, in Core\'s order', () => {
    expect([UA.chrome, UA.edgeLegacy, UA.iphone, UA.firefoxMac, UA.android, 'curl/8'].map((u) => clientInfo(u, 'browser'))).toEqual(['Chrome', 'Edge', 'Mobile Safari', 'Firefox', 'Mobile Safari', 'Unknown']);
    expect([UA.chrome, UA.edgeLegacy, UA.iphone, UA.firefoxMac, UA.android].map((u) => clientInfo(u, 'operatingSystem'))).toEqual(['Linux', 'Windows', 'iOS', 'MacOS', 'Android']);
    expect([UA.chrome, UA.iphone, UA.android].map((u) => clientInfo(u, 'deviceType'))).toEqual(['Desktop', 'iPhone', 'Android']);
  });
});

/**
 * Page triggers in the engine (docs/triggers.md): the listeners a container's rules ask the bridge
 * for, which rules a `trigger` event runs, the data element change trigger, and the
 * `%this.…%` / `%target.…%` / `%event.…%` tokens.
 */
import { describe, expect, it } from 'vitest';
import type { ElementInfo, TriggerEvent } from '../../../src/protocol.ts';
import { eventToken } from '../../../src/worker-engine/core/event-tokens.ts';
import { eventMatches } from '../../../src/worker-engine/core/rules.ts';
import { isPageTrigger, keyOf, listenersOf, watchedElements } from '../../../src/worker-engine/core/triggers.ts';
import type { Container, PageTriggerSpec, Rule, RuleEventSpec } from '../../../src/worker-engine/core/types.ts';
import { createValueWatch } from '../../../src/worker-engine/core/value-watch.ts';
import { logs, makeEngine } from '../harness.ts';
import { adobeServices, dataLayer, defineContainer, tokensIn } from '../../../src/container/index.ts';
import { validateContainer } from '../../../src/container/validate.ts';

const rule = (name: string, ...events: RuleEventSpec[]): Rule<string> => ({ name, events, actions: [] });
const fired = (spec: PageTriggerSpec, extra: Partial<TriggerEvent> = {}): TriggerEvent => ({
  type: 'trigger',
  key: keyOf(spec)!,
  on: spec.type as TriggerEvent['on'],
  ...extra,
});

const BUY: ElementInfo = {
  tagName: 'BUTTON',
  id: 'buy',
  className: 'cta big',
  text: '  Add to\n  cart ',
  attributes: { id: 'buy', class: 'cta big', 'data-sku': '4KM91' },
};

describe('listeners a container asks for (listenersOf)', () => {
  it("Adobe's element property filter and Enters Viewport's delay travel with the listener; a wrong one is said, and the rule event ignored", () => {
    const props = [{ name: 'id', value: 'buy' }, { name: '@text', value: '^add', valueIsRegex: true }];
    const { listeners, problems } = listenersOf([
      rule('a', { type: 'click', selector: '.buy', properties: props }, { type: 'element-visible', selector: '.promo', properties: [{ name: 'id', value: 'p1' }], delay: 1000 }),
      rule('b', { type: 'custom-event', name: 'cart:add', properties: [{ name: 'x', value: '(', valueIsRegex: true }] }),
      rule('c', { type: 'element-visible', selector: '.promo', delay: -5 }, { type: 'form-submit', properties: [{ name: '', value: 'v' }] }),
    ]);
    expect(listeners.map(({ key: _k, rules: _r, ...l }) => l)).toEqual([
      { type: 'click', selector: '.buy', properties: props },
      { type: 'element-visible', selector: '.promo', properties: [{ name: 'id', value: 'p1' }], delay: 1000 },
    ]);
    expect(problems).toEqual([
      'Rule "b": its "custom-event" event is ignored: element property "x": "(" is not a regular expression.',
      'Rule "c": its "element-visible" event is ignored: delay must be a number of milliseconds above 0.',
      'Rule "c": its "form-submit" event is ignored: each element property needs a name.',
    ]);
    // Another filter is another listener.
    expect(keyOf({ type: 'click', selector: '.buy', properties: props })).not.toBe(keyOf({ type: 'click', selector: '.buy' }));
  });

  it('one listener per distinct page trigger, with defaults filled in and bubbling defaults left out', () => {
    const { listeners, problems } = listenersOf([
      rule('a', { type: 'library-loaded' }, { type: 'click' }, { type: 'click', selector: '.buy' }),
      rule('b', { type: 'click', selector: '.buy', bubbleFireIfParent: true, bubbleStop: false }),
      rule('c', { type: 'custom-event', name: 'cart:add' }, { type: 'form-submit' }),
      rule('d', { type: 'element-visible', selector: '#promo' }, { type: 'scroll-depth', percent: 50 }, { type: 'timer', ms: 30000 }),
      rule('e', { type: 'data-element-change', name: 'cart size' }),
    ]);
    expect(problems).toEqual([]);
    // Each with the rules it serves (the bridge names them when the browser cannot install it).
    expect(listeners.map(({ key, ...l }) => l)).toEqual([
      { type: 'click', selector: '.buy', rules: ['a', 'b'] },
      { type: 'custom-event', name: 'cart:add', target: 'window', rules: ['c'] },
      { type: 'form-submit', rules: ['c'] },
      { type: 'element-visible', selector: '#promo', rules: ['d'] },
      { type: 'scroll-depth', percent: 50, rules: ['d'] },
      { type: 'timer', ms: 30000, limit: 1, rules: ['d'] },
    ]);
    // The key is the listener itself, as JSON (the rules' names are not part of it).
    for (const { key, rules: _r, ...rest } of listeners) expect(JSON.parse(key)).toEqual(rest);
  });

  it('a container without page triggers asks for none (the bridge then never loads offtag-triggers.js)', () => {
    expect(listenersOf([rule('a', { type: 'library-loaded' }, { type: 'click' }, { type: 'direct-call', id: 'x' })])).toEqual({ listeners: [], problems: [] });
  });

  it('options that differ give different listeners', () => {
    const keys = [
      { type: 'click', selector: 'a' },
      { type: 'click', selector: 'a', bubbleStop: true },
      { type: 'click', selector: 'a', bubbleFireIfParent: false },
      { type: 'custom-event', name: 'x', target: 'document' },
      { type: 'custom-event', name: 'x', selector: 'a' },
      { type: 'element-visible', selector: 'a', everyEntry: true },
      { type: 'timer', ms: 1000, limit: 0 },
    ].map((s) => keyOf(s as RuleEventSpec));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('a wrong trigger is said once, naming the rule, and only that event is dropped', () => {
    const { listeners, problems } = listenersOf([
      rule('No selector', { type: 'click', selector: ' ' }, { type: 'scroll-depth', percent: 25 }),
      rule('Too deep', { type: 'scroll-depth', percent: 150 }),
      rule('Never', { type: 'timer', ms: 0 }),
      rule('Half', { type: 'timer', ms: 10, limit: 1.5 }),
      rule('Where', { type: 'custom-event', name: 'x', target: 'body' as 'window' }),
      rule('Flag', { type: 'form-submit', bubbleStop: 'yes' as unknown as boolean }),
    ]);
    expect(listeners.map((l) => l.type)).toEqual(['scroll-depth']);
    expect(problems).toEqual([
      'Rule "No selector": its "click" event is ignored: selector must be a CSS selector.',
      'Rule "Too deep": its "scroll-depth" event is ignored: percent must be a number above 0, at most 100.',
      'Rule "Never": its "timer" event is ignored: ms must be a number of milliseconds above 0.',
      'Rule "Half": its "timer" event is ignored: limit must be a whole number (0: no limit).',
      'Rule "Where": its "custom-event" event is ignored: target must be "document" or "window".',
      'Rule "Flag": its "form-submit" event is ignored: bubbleStop must be true or false.',
    ]);
  });
});

describe('which rule events a trigger event matches (eventMatches)', () => {
  const buy: PageTriggerSpec = { type: 'click', selector: '.buy' };
  it('a trigger event matches the rule events whose listener it names, and nothing else', () => {
    const e = fired(buy);
    expect(eventMatches({ type: 'click', selector: '.buy' }, e)).toBe(true);
    expect(eventMatches({ type: 'click', selector: '.buy', bubbleStop: false }, e)).toBe(true);
    expect(eventMatches({ type: 'click', selector: '.sell' }, e)).toBe(false);
    expect(eventMatches({ type: 'click' }, e)).toBe(false);
    expect(eventMatches({ type: 'form-submit', selector: '.buy' }, e)).toBe(false);
  });

  it('a link click runs the selector-less click rules only', () => {
    const link = { type: 'click', link: { href: 'https://x.example/', text: 'x', region: 'BODY', hasTlCall: false } } as const;
    expect(eventMatches({ type: 'click' }, link)).toBe(true);
    expect(eventMatches(buy, link)).toBe(false);
  });

  it('a data element change matches the rules watching that element', () => {
    const change = { type: 'data-element-change', name: 'cart size', value: 2, previous: 1 } as const;
    expect(eventMatches({ type: 'data-element-change', name: 'cart size' }, change)).toBe(true);
    expect(eventMatches({ type: 'data-element-change', name: 'page type' }, change)).toBe(false);
    expect(watchedElements([rule('a', { type: 'data-element-change', name: 'x' }, { type: 'data-element-change', name: 'x' }), rule('b', { type: 'data-element-change', name: 'y' })])).toEqual(['x', 'y']);
  });
});

describe('data element change (createValueWatch)', () => {
  it('the first reading is the baseline; each later change is told once, with the value before', () => {
    const values: Record<string, unknown> = { a: 1, b: { x: [1] } };
    const watch = createValueWatch(['a', 'b']);
    expect(watch.check((n) => values[n])).toEqual([]);
    expect(watch.check((n) => values[n])).toEqual([]);
    values.b = { x: [1, 2] };
    expect(watch.check((n) => values[n])).toEqual([{ type: 'data-element-change', name: 'b', value: { x: [1, 2] }, previous: { x: [1] } }]);
    expect(watch.check((n) => values[n])).toEqual([]);
    values.a = undefined;
    expect(watch.check((n) => values[n])).toEqual([{ type: 'data-element-change', name: 'a', value: undefined, previous: 1 }]);
  });
});

describe('event tokens (%this.…%, %target.…%, %event.…%)', () => {
  const e: TriggerEvent = { type: 'trigger', key: 'k', on: 'click', element: BUY, target: { ...BUY, tagName: 'SPAN', id: '' }, detail: { sku: 'A1', n: [5] } };
  it('read the element a trigger matched, its target and the event', () => {
    expect(eventToken('this.id', e)).toBe('buy');
    expect(eventToken('this.tagName', e)).toBe('BUTTON');
    expect(eventToken('this.className', e)).toBe('cta big');
    expect(eventToken('this.@text', e)).toBe('  Add to\n  cart ');
    expect(eventToken('this.@cleanText', e)).toBe('Add to cart');
    expect(eventToken('this.getAttribute(data-sku)', e)).toBe('4KM91');
    expect(eventToken('this.getAttribute(nope)', e)).toBe(null);
    expect(eventToken('this.innerHTML', e)).toBe(undefined);
    expect(eventToken('target.tagName', e)).toBe('SPAN');
    // Only `this` has the @ accessors (as in Adobe's).
    expect(eventToken('target.@text', e)).toBe(undefined);
    expect(eventToken('event.detail.sku', e)).toBe('A1');
    expect(eventToken('event.detail.n.0', e)).toBe(5);
    expect(eventToken('event.detail.missing.deeper', e)).toBe(undefined);
    expect(eventToken('event.on', e)).toBe('click');
  });

  it('replaceTokens in a rule of a trigger event resolves them; a data element of the same name wins', async () => {
    const seen: unknown[] = [];
    const spec: PageTriggerSpec = { type: 'click', selector: '.buy' };
    const container: Container<'this.id', object> = {
      name: 't',
      sessionKeys: [],
      dataElements: { 'this.id': { type: 'constant', value: 'a data element' } },
      rules: [
        {
          name: 'Buy',
          events: [spec],
          actions: [{ name: 'a', fn: (c) => void seen.push(c.replaceTokens('%this.getAttribute(data-sku)%'), c.replaceTokens('sku %this.getAttribute(data-sku)% by %this.@cleanText%'), c.replaceTokens('%this.id%')) }],
        },
      ],
    };
    const { fire } = makeEngine(container);
    await fire({ type: 'library-loaded' });
    await fire(fired(spec, { element: BUY }));
    expect(seen).toEqual(['4KM91', 'sku 4KM91 by Add to cart', 'a data element']);
  });
});

describe('the engine runs trigger rules', () => {
  it('a trigger event runs each rule listening to it once, in rule order; other triggers run nothing', async () => {
    const ran: string[] = [];
    const act = (name: string) => [{ name: 'a', fn: () => void ran.push(name) }];
    const spec: PageTriggerSpec = { type: 'scroll-depth', percent: 50 };
    const container: Container<string, object> = {
      name: 't',
      sessionKeys: [],
      dataElements: {},
      rules: [
        { name: 'late', order: 60, events: [{ type: 'scroll-depth', percent: 50 }], actions: act('late') },
        { name: 'early', order: 10, events: [spec], actions: act('early') },
        { name: 'other', events: [{ type: 'scroll-depth', percent: 75 }], actions: act('other') },
      ],
    };
    const { fire } = makeEngine(container);
    await fire(fired(spec, { percent: 50 }));
    expect(ran).toEqual(['early', 'late']);
  });

  it('a data element change runs its rules after the event that showed it, once per change', async () => {
    const ran: Array<[string, unknown]> = [];
    const container: Container<'cart size', object> = {
      name: 't',
      sessionKeys: [],
      dataElements: { 'cart size': { type: 'data-layer', path: 'cart.size' } },
      rules: [
        { name: 'page', events: [{ type: 'direct-call', id: 'page' }], actions: [{ name: 'a', fn: () => void ran.push(['page', undefined]) }] },
        {
          name: 'cart changed',
          events: [{ type: 'data-element-change', name: 'cart size' }],
          actions: [{ name: 'a', fn: (c) => void ran.push(['changed', [c.event.type === 'data-element-change' && c.event.previous, c.get('cart size')]]) }],
        },
      ],
    };
    const { fire } = makeEngine(container);
    await fire({ type: 'library-loaded' }, { dataLayer: { cart: { size: 1 } } });
    await fire({ type: 'direct-call', id: 'page' }, { dataLayer: { cart: { size: 1 } } });
    const b = await fire({ type: 'direct-call', id: 'page' }, { dataLayer: { cart: { size: 2 } } });
    await fire({ type: 'set-var', values: { x: 1 } }, { dataLayer: { cart: { size: 2 } } });
    await fire({ type: 'get-var', name: 'cart size' }, { dataLayer: { cart: { size: 3 } } });
    expect(ran).toEqual([
      ['page', undefined],
      ['page', undefined],
      ['changed', [1, 2]],
      ['changed', [2, 3]],
    ]);
    expect(b.effects).toContainEqual({ type: 'vars', values: { 'cart size': 2 } });
    expect(logs(b.effects)).toEqual([]);
  });

  it('a container that watches nothing reads nothing extra', async () => {
    let reads = 0;
    const container: Container<'x', object> = {
      name: 't',
      sessionKeys: [],
      dataElements: { x: { type: 'custom', fn: () => ++reads, sideEffects: true } },
      rules: [],
    };
    const { fire } = makeEngine(container);
    await fire({ type: 'library-loaded' });
    await fire({ type: 'direct-call', id: 'x' });
    expect(reads).toBe(0);
  });
});

describe('the container kit (src/container) and event tokens', () => {
  it('the build does not take %this.…%, %target.…%, %event.…% for data elements; a misspelt data element still is one', () => {
    expect(tokensIn('%this.@cleanText% in %section% %target.tagName% %event.detail.sku% %sectoin%')).toEqual(['section', 'sectoin']);
    const c = defineContainer({
      name: 'triggers',
      dataElements: { section: dataLayer('page.section') },
      services: adobeServices(),
      rules: (k) => [
        {
          name: 'Buy',
          events: [{ type: 'click', selector: '.buy' }],
          actions: [k.link('%this.@cleanText% in %section%', { eVar3: '%this.getAttribute(data-sku)%' }), k.link('x', { eVar4: '%sectoin%' })],
        },
      ],
    });
    expect(validateContainer(c as unknown as Parameters<typeof validateContainer>[0], 'c.ts')).toEqual(['c.ts: rule "Buy", action "Send link beacon": %sectoin% names no data element']);
  });
});

describe('isPageTrigger', () => {
  it("takes only the trigger table's own types: a name Object.prototype has is none", () => {
    expect(isPageTrigger({ type: 'timer', ms: 100 })).toBe(true);
    expect(isPageTrigger({ type: 'click', selector: 'a' } as RuleEventSpec)).toBe(true);
    expect(isPageTrigger({ type: 'click' } as RuleEventSpec)).toBe(false);
    for (const type of ['toString', 'constructor', 'hasOwnProperty', '__proto__']) expect(isPageTrigger({ type } as unknown as RuleEventSpec)).toBe(false);
  });
});

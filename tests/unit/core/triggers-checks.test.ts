/**
 * Each page trigger type's check (docs/triggers.md): the listener a valid rule event asks the
 * bridge for — exactly, field for field, since its JSON is the key a `trigger` event comes back
 * with — and the message for each wrong field. Also the memo per rule event object and
 * `watchedElements`.
 *
 * Equivalent mutants in src/worker-engine/core/triggers.ts (no caller can tell them apart):
 * - `positive` and `hover`'s delay check: `typeof v === 'number'` made `true`. `Number.isFinite`
 *   right after it is false for anything but a number, so the test it guards is made twice.
 * - `properties`: `new RegExp(value, 'i')` with the flag made `''`. The regular expression is only
 *   compiled to see whether it compiles, and the `i` flag changes no pattern's syntax (only `u`
 *   and `v` do); the bridge does the matching.
 * - `keyOf`: `l === undefined` made `false`. For a rule event that is no page trigger `l` is
 *   undefined, and `listenerKey(undefined)` is `JSON.stringify(undefined)`, undefined too.
 * - `listenersOf` and `watchedElements`: `rule.events ?? []` with `[]` made `["Stryker was here"]`.
 *   A string's `type` is undefined, which is neither a page trigger nor `data-element-change`, so
 *   the rule without events still adds nothing (tested below: such a rule is skipped).
 */
import { describe, expect, it } from 'vitest';
import { keyOf, listenerOf, listenersOf, triggerMatches, watchedElements } from '../../../src/worker-engine/core/triggers.ts';
import type { Rule, RuleEventSpec } from '../../../src/worker-engine/core/types.ts';

const rule = (name: string, ...events: RuleEventSpec[]): Rule<string> => ({ name, events, actions: [] });

/** The listener one rule event asks for (without its key and rules), or the reason it is ignored. */
function check(spec: object): object | string {
  const { listeners, problems } = listenersOf([rule('r', spec as RuleEventSpec)]);
  if (problems.length) {
    expect(listeners).toEqual([]);
    expect(problems).toHaveLength(1);
    const prefix = `Rule "r": its "${(spec as { type: string }).type}" event is ignored: `;
    expect(problems[0].startsWith(prefix)).toBe(true);
    return problems[0].slice(prefix.length);
  }
  expect(listeners).toHaveLength(1);
  const { key, rules, ...listener } = listeners[0];
  expect(rules).toEqual(['r']);
  expect(key).toBe(JSON.stringify(listener));
  return listener;
}

describe('element property filter', () => {
  it('a filter that is not a list, an entry without a text value, a valueIsRegex that is not true or false: each is said', () => {
    expect(check({ type: 'click', selector: 'a', properties: 'id=buy' })).toBe('properties must be a list of {name, value, valueIsRegex}.');
    expect(check({ type: 'click', selector: 'a', properties: { name: 'id', value: 'buy' } })).toBe('properties must be a list of {name, value, valueIsRegex}.');
    expect(check({ type: 'click', selector: 'a', properties: [{ name: 'id' }] })).toBe('element property "id" needs a text value.');
    expect(check({ type: 'click', selector: 'a', properties: [{ name: 'n', value: 3 }] })).toBe('element property "n" needs a text value.');
    expect(check({ type: 'click', selector: 'a', properties: [null] })).toBe('each element property needs a name.');
    expect(check({ type: 'click', selector: 'a', properties: [{ name: 'id', value: 'buy', valueIsRegex: 'yes' }] })).toBe('valueIsRegex must be true or false.');
  });

  it('a value that is no regular expression is fine when valueIsRegex is not set; an empty value is kept; an empty list is no filter', () => {
    expect(check({ type: 'click', selector: 'a', properties: [{ name: 'id', value: '(', valueIsRegex: false }] })).toStrictEqual({
      type: 'click',
      selector: 'a',
      properties: [{ name: 'id', value: '(' }],
    });
    expect(check({ type: 'click', selector: 'a', properties: [{ name: 'id', value: '' }, { name: 'x', value: 'a|b', valueIsRegex: true }] })).toStrictEqual({
      type: 'click',
      selector: 'a',
      properties: [{ name: 'id', value: '' }, { name: 'x', value: 'a|b', valueIsRegex: true }],
    });
    // No filter at all: the same listener as without the field.
    expect(check({ type: 'click', selector: 'a', properties: [] })).toStrictEqual({ type: 'click', selector: 'a' });
  });
});

describe('bubbling options', () => {
  it('only the options that differ from the defaults are in the listener, with the value given', () => {
    expect(check({ type: 'click', selector: 'a', bubbleFireIfParent: false })).toStrictEqual({ type: 'click', selector: 'a', bubbleFireIfParent: false });
    expect(check({ type: 'click', selector: 'a', bubbleFireIfChildFired: false })).toStrictEqual({ type: 'click', selector: 'a', bubbleFireIfChildFired: false });
    expect(check({ type: 'click', selector: 'a', bubbleStop: true })).toStrictEqual({ type: 'click', selector: 'a', bubbleStop: true });
    expect(check({ type: 'click', selector: 'a', bubbleFireIfParent: true, bubbleFireIfChildFired: true, bubbleStop: false })).toStrictEqual({ type: 'click', selector: 'a' });
    expect(check({ type: 'click', selector: 'a', bubbleFireIfChildFired: 0 })).toBe('bubbleFireIfChildFired must be true or false.');
  });
});

describe('each trigger type', () => {
  it('custom-event: a name, a target of document or window, an optional selector', () => {
    expect(check({ type: 'custom-event', name: 'cart:add', target: 'document' })).toStrictEqual({ type: 'custom-event', name: 'cart:add', target: 'document' });
    expect(check({ type: 'custom-event', name: 'cart:add', target: 'window', selector: '#cart' })).toStrictEqual({
      type: 'custom-event',
      name: 'cart:add',
      target: 'window',
      selector: '#cart',
    });
    expect(check({ type: 'custom-event', name: ' ' })).toBe('name must be the event name.');
    expect(check({ type: 'custom-event' })).toBe('name must be the event name.');
    expect(check({ type: 'custom-event', name: 'x', selector: '' })).toBe('selector must be a CSS selector.');
    expect(check({ type: 'custom-event', name: 'x', bubbleStop: 1 })).toBe('bubbleStop must be true or false.');
  });

  it('form-submit: an optional selector', () => {
    expect(check({ type: 'form-submit', selector: 'form.checkout', bubbleStop: true })).toStrictEqual({ type: 'form-submit', selector: 'form.checkout', bubbleStop: true });
    expect(check({ type: 'form-submit', selector: ' ' })).toBe('selector must be a CSS selector.');
  });

  it('element-visible: a selector, everyEntry, the property filter, a delay above 0', () => {
    expect(check({ type: 'element-visible', selector: '.promo', everyEntry: true, properties: [{ name: 'id', value: 'p' }], delay: 500 })).toStrictEqual({
      type: 'element-visible',
      selector: '.promo',
      everyEntry: true,
      properties: [{ name: 'id', value: 'p' }],
      delay: 500,
    });
    expect(check({ type: 'element-visible', selector: '.promo', everyEntry: false })).toStrictEqual({ type: 'element-visible', selector: '.promo' });
    expect(check({ type: 'element-visible' })).toBe('selector must be a CSS selector.');
    expect(check({ type: 'element-visible', selector: '.promo', everyEntry: 'yes' })).toBe('everyEntry must be true or false.');
    expect(check({ type: 'element-visible', selector: '.promo', properties: [{ name: 'id' }] })).toBe('element property "id" needs a text value.');
    expect(check({ type: 'element-visible', selector: '.promo', delay: Infinity })).toBe('delay must be a number of milliseconds above 0.');
    expect(check({ type: 'element-visible', selector: '.promo', delay: '500' })).toBe('delay must be a number of milliseconds above 0.');
  });

  it('scroll-depth: a percent above 0, at most 100', () => {
    expect(check({ type: 'scroll-depth', percent: 100 })).toStrictEqual({ type: 'scroll-depth', percent: 100 });
    expect(check({ type: 'scroll-depth', percent: '50' })).toBe('percent must be a number above 0, at most 100.');
    expect(check({ type: 'scroll-depth', percent: Number.NaN })).toBe('percent must be a number above 0, at most 100.');
  });

  it('timer: ms above 0 and finite; limit a whole number, 0 for no limit, 1 when absent', () => {
    expect(check({ type: 'timer', ms: 1000, limit: 0 })).toStrictEqual({ type: 'timer', ms: 1000, limit: 0 });
    expect(check({ type: 'timer', ms: 1000, limit: 3 })).toStrictEqual({ type: 'timer', ms: 1000, limit: 3 });
    expect(check({ type: 'timer', ms: 1000, limit: -1 })).toBe('limit must be a whole number (0: no limit).');
    expect(check({ type: 'timer', ms: Infinity })).toBe('ms must be a number of milliseconds above 0.');
    expect(check({ type: 'timer', ms: '1000' })).toBe('ms must be a number of milliseconds above 0.');
  });

  it('history-change has no options', () => {
    expect(check({ type: 'history-change' })).toStrictEqual({ type: 'history-change' });
  });

  it('element-exists: a selector and the property filter', () => {
    expect(check({ type: 'element-exists', selector: '#cart', properties: [{ name: 'class', value: 'full' }] })).toStrictEqual({
      type: 'element-exists',
      selector: '#cart',
      properties: [{ name: 'class', value: 'full' }],
    });
    expect(check({ type: 'element-exists', selector: '' })).toBe('selector must be a CSS selector.');
    expect(check({ type: 'element-exists', selector: '#cart', properties: 'class=full' })).toBe('properties must be a list of {name, value, valueIsRegex}.');
  });

  it('hover: a selector, a delay of 0 or more (0 and absent: at once), the bubbling options', () => {
    expect(check({ type: 'hover', selector: '.menu' })).toStrictEqual({ type: 'hover', selector: '.menu' });
    expect(check({ type: 'hover', selector: '.menu', delay: 0 })).toStrictEqual({ type: 'hover', selector: '.menu' });
    expect(check({ type: 'hover', selector: '.menu', delay: 250, bubbleFireIfParent: false })).toStrictEqual({
      type: 'hover',
      selector: '.menu',
      delay: 250,
      bubbleFireIfParent: false,
    });
    expect(check({ type: 'hover' })).toBe('selector must be a CSS selector.');
    expect(check({ type: 'hover', selector: '.menu', delay: -1 })).toBe('delay must be a number of milliseconds (0: at once).');
    expect(check({ type: 'hover', selector: '.menu', delay: Infinity })).toBe('delay must be a number of milliseconds (0: at once).');
    expect(check({ type: 'hover', selector: '.menu', delay: '250' })).toBe('delay must be a number of milliseconds (0: at once).');
    expect(check({ type: 'hover', selector: '.menu', bubbleStop: 'no' })).toBe('bubbleStop must be true or false.');
  });

  it('media-time-played: an amount of seconds above 0, or of percent at most 100; an optional selector; the bubbling options', () => {
    expect(check({ type: 'media-time-played', amount: 150 })).toStrictEqual({ type: 'media-time-played', amount: 150, unit: 'second' });
    expect(check({ type: 'media-time-played', amount: 100, unit: 'percent', selector: 'video.hero', bubbleStop: true })).toStrictEqual({
      type: 'media-time-played',
      amount: 100,
      unit: 'percent',
      selector: 'video.hero',
      bubbleStop: true,
    });
    expect(check({ type: 'media-time-played', amount: 101, unit: 'percent' })).toBe('amount must be a number above 0, at most 100.');
    expect(check({ type: 'media-time-played', amount: 0, unit: 'percent' })).toBe('amount must be a number above 0, at most 100.');
    expect(check({ type: 'media-time-played', amount: -1 })).toBe('amount must be a number above 0.');
    expect(check({ type: 'media-time-played', amount: 10, unit: 'minute' })).toBe('unit must be "second" or "percent".');
    expect(check({ type: 'media-time-played', amount: 10, selector: ' ' })).toBe('selector must be a CSS selector.');
    expect(check({ type: 'media-time-played', amount: 10, bubbleFireIfParent: 'no' })).toBe('bubbleFireIfParent must be true or false.');
  });

  it('data-layer-push: no event means every event, and the listener then has no event field at all', () => {
    const all = check({ type: 'data-layer-push', global: 'dataLayer' });
    expect(all).toStrictEqual({ type: 'data-layer-push', global: 'dataLayer', flavor: 'gtm' });
    expect('event' in (all as object)).toBe(false);
    expect(check({ type: 'data-layer-push', global: 'adobeDataLayer', event: 'cart:add' })).toStrictEqual({
      type: 'data-layer-push',
      global: 'adobeDataLayer',
      event: 'cart:add',
      flavor: 'acdl',
    });
  });
});

describe('listeners and keys', () => {
  it('a rule listening twice to the same trigger is named once in its listener', () => {
    const { listeners } = listenersOf([rule('a', { type: 'click', selector: '.buy' }, { type: 'click', selector: '.buy', bubbleStop: false }), rule('b', { type: 'click', selector: '.buy' })]);
    expect(listeners.map((l) => l.rules)).toEqual([['a', 'b']]);
  });

  it('a wrong rule event has no key, so no trigger event matches it', () => {
    const wrong = { type: 'click', selector: '' } as Parameters<typeof listenerOf>[0];
    expect(keyOf(wrong)).toBe(undefined);
    expect(keyOf({ type: 'timer', ms: -1 })).toBe(undefined);
    // Not even an event whose key is the message the check gave.
    const message = listenerOf(wrong);
    expect(triggerMatches(wrong, { type: 'trigger', key: JSON.stringify(message), on: 'click' })).toBe(false);
    expect(keyOf({ type: 'library-loaded' })).toBe(undefined);
  });

  it('a rule event is checked once, however often a dispatch asks for its listener or key', () => {
    const reads = { type: 0, selector: 0 };
    const spec = {
      get type() {
        reads.type++;
        return 'hover' as const;
      },
      get selector() {
        reads.selector++;
        return '.menu';
      },
    };
    const first = listenerOf(spec);
    const key = keyOf(spec);
    const seen = { ...reads };
    expect(seen.selector).toBeGreaterThan(0);
    // A trigger event asks each rule event for its key: answered without reading the rule event again.
    for (let i = 0; i < 3; i++) expect(triggerMatches(spec, { type: 'trigger', key: key!, on: 'hover' })).toBe(true);
    expect(reads).toEqual(seen);
    // Nor is its check done again when the listeners are listed.
    for (let i = 0; i < 3; i++) {
      expect(listenerOf(spec)).toBe(first);
      expect(listenersOf([rule('r', spec)]).listeners.map((l) => l.key)).toEqual([key]);
    }
    expect(reads.selector).toBe(seen.selector);
  });

  it('rules without events add nothing and stop nothing', () => {
    const rules = [{ name: 'empty' }, rule('a', { type: 'timer', ms: 5 }, { type: 'data-element-change', name: 'x' })] as Rule<string>[];
    expect(listenersOf(rules).listeners.map((l) => l.type)).toEqual(['timer']);
    expect(watchedElements(rules)).toEqual(['x']);
  });
});

describe('watchedElements', () => {
  it('only data element change events with a name count; other events with a name do not', () => {
    expect(
      watchedElements([
        rule('a', { type: 'custom-event', name: 'cart:add' }, { type: 'data-element-change', name: ' ' }, { type: 'data-element-change', name: 'cart size' }),
        rule('b', { type: 'data-element-change', name: '' }),
      ]),
    ).toEqual(['cart size']);
  });
});

/**
 * `%this.…%`, `%target.…%` and `%event.…%` (core/event-tokens.ts) where a chain leaves the common
 * path: plain objects and the bridge's element copies told apart, only own properties of a plain
 * object read, strings read as turbine reads them (`value[prop]`), a chain through null, a number
 * or a function broken, and which names are tokens at all.
 *
 * Equivalent mutants of event-tokens.ts (no caller can tell them apart):
 * - `isElementInfo`'s `typeof v === 'object' || v !== null`, and `typeof v === 'object'`,
 *   `v !== null` or both made `true`: its one caller, `step`, is reached only with an
 *   object that is not null (eventToken returns before a step on null, undefined or a primitive
 *   other than a string, and reads strings itself).
 * - `value === undefined` made `false` in eventToken's guard: undefined is no object and no string,
 *   so the guard's last clause returns for it all the same.
 * - `prop in value` made `true` in `step`: a property an element copy does not have reads as
 *   undefined anyway (the copies are plain data, without getters).
 */
import { describe, expect, it } from 'vitest';
import type { ElementInfo, TriggerEvent } from '../../../src/protocol.ts';
import { eventToken, isEventToken, withEventTokens } from '../../../src/worker-engine/core/event-tokens.ts';

const LINK: ElementInfo = { tagName: 'A', id: 'more', className: 'cta', href: 'https://shop.example.com/more', text: ' More\n info ', attributes: { 'data-id': '7', text: 'attr text' } };
const trigger = (over: Partial<TriggerEvent>): TriggerEvent => ({ type: 'trigger', key: 'k', on: 'custom-event', ...over });

describe('a chain through plain objects', () => {
  it('a plain object is no element: its text and attributes are its own properties', () => {
    const e = trigger({ detail: { text: 'hello', attributes: { a: 1 }, label: 'l' } });
    expect(eventToken('event.detail.text', e)).toBe('hello');
    expect(eventToken('event.detail.attributes', e)).toEqual({ a: 1 });
    expect(eventToken('event.detail.attributes.a', e)).toBe(1);
    expect(eventToken('event.detail.label', e)).toBe('l');
  });

  it('an object with a tagName but no attributes, or attributes but no tagName, is no element either', () => {
    const e = trigger({ detail: { withTag: { tagName: 'DIV', text: 'a' }, withAttributes: { attributes: { id: 'x' }, text: 'b' } } });
    expect(eventToken('event.detail.withTag.text', e)).toBe('a');
    expect(eventToken('event.detail.withAttributes.text', e)).toBe('b');
    expect(eventToken('event.detail.withAttributes.attributes', e)).toEqual({ id: 'x' });
  });

  it('only own properties: what every object inherits reads as undefined', () => {
    const e = trigger({ detail: { a: 1 } });
    expect(eventToken('event.detail.toString', e)).toBeUndefined();
    expect(eventToken('event.detail.constructor', e)).toBeUndefined();
    expect(eventToken('event.detail.hasOwnProperty', e)).toBeUndefined();
  });

  it('getAttribute(…) is a plain name on a plain object', () => {
    expect(eventToken('event.detail.getAttribute(id)', trigger({ detail: { attributes: { id: 'x' } } }))).toBeUndefined();
  });
});

describe('a chain through an element copy', () => {
  const e = trigger({ element: LINK, target: LINK });
  it('its own text and attributes are not properties (only @text and getAttribute read them)', () => {
    expect(eventToken('this.text', e)).toBeUndefined();
    expect(eventToken('this.attributes', e)).toBeUndefined();
    expect(eventToken('target.text', e)).toBeUndefined();
    expect(eventToken('this.href', e)).toBe('https://shop.example.com/more');
    expect(eventToken('this.getAttribute(text)', e)).toBe('attr text');
  });

  it('getAttribute(name) only as the whole step', () => {
    expect(eventToken('this.getAttribute(data-id)', e)).toBe('7');
    expect(eventToken('this.xgetAttribute(data-id)', e)).toBeUndefined();
    expect(eventToken('this.getAttribute(data-id)x', e)).toBeUndefined();
  });
});

describe('where a chain breaks', () => {
  const e = trigger({ detail: { sku: '4KM91', none: null, n: 5, yes: true, fn: function named() {} }, delay: 300 });
  it('a string reads as in turbine: its length, its characters, its methods', () => {
    expect(eventToken('event.detail.sku.length', e)).toBe(5);
    expect(eventToken('event.detail.sku.0', e)).toBe('4');
    expect(typeof eventToken('event.detail.sku.trim', e)).toBe('function');
  });

  it('null, a number, a boolean or a function ends it with undefined, without throwing', () => {
    expect(eventToken('event.detail.none.x', e)).toBeUndefined();
    expect(eventToken('event.detail.n.x', e)).toBeUndefined();
    expect(eventToken('event.delay.toFixed', e)).toBeUndefined();
    expect(eventToken('event.detail.yes.x', e)).toBeUndefined();
    expect(eventToken('event.detail.fn.name', e)).toBeUndefined();
    expect(eventToken('this.id', e)).toBeUndefined();
  });
});

describe('which names are event tokens', () => {
  it('a host, a dot and at least one more character', () => {
    expect(isEventToken('this.id')).toBe(true);
    expect(isEventToken('target.x')).toBe(true);
    expect(isEventToken('event.detail')).toBe(true);
    expect(isEventToken('this.')).toBe(false);
    expect(isEventToken('event.')).toBe(false);
    expect(isEventToken('thisid')).toBe(false);
    expect(isEventToken('events.x')).toBe(false);
    expect(isEventToken('targeted.x')).toBe(false);
  });

  it('the lookup knows the tokens besides its names; a name it has wins; any other name is unknown', () => {
    const names: Record<string, unknown> = { 'this.id': 'a data element', page: 'home' };
    const lookup = withEventTokens({ has: (n) => n in names, get: (n) => names[n] }, trigger({ element: LINK }));
    expect(lookup.has('page')).toBe(true);
    expect(lookup.get('page')).toBe('home');
    expect(lookup.get('this.id')).toBe('a data element');
    expect(lookup.has('this.className')).toBe(true);
    expect(lookup.get('this.className')).toBe('cta');
    expect(lookup.has('nope')).toBe(false);
    expect(lookup.has('events.x')).toBe(false);
  });
});

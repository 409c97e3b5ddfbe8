/**
 * The build's checks of a container (src/container/validate.ts), called directly on container
 * objects: each message's exact text and where it points (`at`, which `offtag build` turns into
 * `file:line:column`). tests/unit/container/mistakes.test.ts checks the same mistakes through the
 * build (esbuild, the file and its columns); these run in milliseconds, so the mutation run of the
 * authoring API (docs/testing.md) measures the validator with them. Each container is built inside
 * its test, so that what the kit's helpers do there is that test's.
 *
 * Equivalent mutants of validate.ts (no container can tell them apart):
 * - `settingOf`'s `?? '?'`, its `?.[1]` and the `^` of its pattern, the `^` of `whatOf`'s first
 *   pattern: every problem `resolveSettings` gives for an object begins with `offtagConfig.<path> `
 *   (the only other one, "offtagConfig must be an object", needs a non-object, and the validator
 *   always passes an object).
 * - `whatOf`'s `\. Using .*$` → without `$`: `.*` reaches the end of the one-line message anyway.
 *   (Its `; it is ignored\.$` → without `$` is not equivalent, and survives: it differs only for a
 *   nested setting whose own name holds a space and "; it is ignored.".)
 * - `rule.conditions ?? []` and `rule.actions ?? []` → `["Stryker was here"]` (references,
 *   services): a text has no `problem`, `uses` or `needs`, so it adds no problem.
 * - `/^(\w+) must/` → without `^`: every message of the engine's trigger checks that says "must"
 *   begins with the field it names.
 * - The event-field table's `true`s → `false`: only its keys are read.
 * - The log filter `level === 'warn'` → `true`, and the `^`/`$` of the two patterns read from the
 *   resolver's warnings: the resolver says "not defined" and "circular reference" at `warn` and in
 *   those exact one-line texts; its other levels (a missing value's `missingMessage`, a function
 *   that throws) never take that form.
 * - `distance`'s `Array<number>(b.length).fill(0)` → `Array()`: every cell past the first column is
 *   written before it is read. The swap's guards `i > 1` and `j > 1` (either or both → `true`,
 *   `>= 1`, `||`): at `i = 1` or `j = 1` the swap's comparisons read `a[-1]` or `b[-1]`,
 *   undefined, which equals no letter.
 * - `elementReferences`' `messages` starting as `["Stryker was here"]`: a text neither pattern
 *   takes.
 * - In `eventProblem`, `field && field in e` → `true` or `||` for the value `v`: `v` is read only
 *   where `field in e` (the message's "got"), and the hint is only for a text.
 *   `type === 'data-layer-push'` → `true` in the hint's test: no other event type has a `global`
 *   (a field of no type is refused before).
 * - `shortestCycle`'s loop bound `i < trace.length` → `<=`, `j > 0` → `>= 0` (`indexOf` from
 *   `i + 1` answers -1 or more than 0) and its last line's `' -> '`: the depth limit's trace always
 *   repeats a name, so the loop returns.
 */
import { describe, expect, it } from 'vitest';
import { adobeServices, constant, dataLayer, defineContainer, domAttribute, fn, fromEvent, queryString, type Kit, type RuleEventSpec, type Services } from '../../../src/container/index.ts';
import { containerProblems, eventProblem, EVENT_TYPES, nearest, validateContainer } from '../../../src/container/validate.ts';

const TYPES = 'library-loaded, page-bottom, dom-ready, window-loaded, direct-call, click, custom-event, form-submit, element-visible, scroll-depth, timer, data-element-change, history-change, element-exists, hover, media-time-played, data-layer-push';
const CLICK_FIELDS = 'selector, properties, bubbleFireIfParent, bubbleFireIfChildFired, bubbleStop';
const known = (name: string) => name === 'section';

/** The problems of one rule listening to `events`, in a container with a `section` element. */
const eventsOf = (...events: unknown[]) =>
  containerProblems(defineContainer({ name: 'events', dataElements: { section: dataLayer('page.section') }, rules: [{ name: 'R', events: events as RuleEventSpec[], actions: [] }] }));

describe('rule events', () => {
  it('the event types, in the order the docs give them', () => {
    expect(EVENT_TYPES.join(', ')).toBe(TYPES);
  });

  it('a well-formed event of each kind is no problem', () => {
    const good: unknown[] = [
      { type: 'dom-ready' },
      { type: 'direct-call', id: 'checkout' },
      { type: 'click' },
      { type: 'click', selector: 'a.deal' },
      { type: 'data-element-change', name: 'section' },
      { type: 'scroll-depth', percent: 100 },
      { type: 'timer', ms: 30000 },
      { type: 'data-layer-push', global: 'dataLayer', event: 'sign_up', flavor: 'gtm' },
      { type: 'custom-event', name: 'cart:add', target: 'window' },
      { type: 'form-submit', selector: 'form.search', bubbleStop: true },
      { type: 'element-visible', selector: '.banner', everyEntry: true, delay: 500 },
      { type: 'hover', selector: 'a.deal', delay: 200 },
      { type: 'media-time-played', selector: 'video', amount: 10, unit: 'second' },
      { type: 'element-exists', selector: '.cart' },
    ];
    for (const spec of good) expect(eventProblem(spec, known), JSON.stringify(spec)).toBeUndefined();
    expect(eventsOf(...good)).toEqual([]);
  });

  it('an event that is no object: its text, no field to point at', () => {
    expect(eventProblem(null, known)).toEqual({ what: 'must be an object with a type; got null' });
    expect(eventProblem('click', known)).toEqual({ what: 'must be an object with a type; got "click"' });
    expect(eventProblem(['click'], known)).toEqual({ what: 'must be an object with a type; got ["click"]' });
    expect(eventsOf(null, 5)).toEqual([
      { at: { kind: 'rule', rule: 'R', part: 'events', index: 0 }, item: 'rule "R", event 1', what: 'must be an object with a type; got null' },
      { at: { kind: 'rule', rule: 'R', part: 'events', index: 1 }, item: 'rule "R", event 2', what: 'must be an object with a type; got 5' },
    ]);
  });

  it('a type that is no event type: the nearest, else the list; at the type', () => {
    expect(eventProblem({ type: 'clik', selector: 'a' }, known)).toEqual({ what: `"clik" is no event type; did you mean "click"? (the types: ${TYPES})`, field: 'type' });
    expect(eventProblem({ type: 'scroll' }, known)).toEqual({ what: `"scroll" is no event type (the types: ${TYPES})`, field: 'type' });
    expect(eventProblem({ type: ['click'] }, known)).toEqual({ what: `["click"] is no event type (the types: ${TYPES})`, field: 'type' });
    expect(eventProblem({ type: 5 }, known)).toEqual({ what: `5 is no event type (the types: ${TYPES})`, field: 'type' });
    expect(eventProblem({}, known)).toEqual({ what: `undefined is no event type (the types: ${TYPES})`, field: 'type' });
    // A name of Object.prototype is no event type either.
    expect(eventProblem({ type: 'toString' }, known)?.what).toBe(`"toString" is no event type (the types: ${TYPES})`);
    // The item names no type it does not know.
    expect(eventsOf({ type: 'dom-ready' }, { type: 'Clik' })).toEqual([
      { at: { kind: 'rule', rule: 'R', part: 'events', index: 1, field: 'type' }, item: 'rule "R", event 2', what: `"Clik" is no event type; did you mean "click"? (the types: ${TYPES})` },
    ]);
  });

  it('a field the type does not have: the nearest field, its fields or that it has none; at the field', () => {
    expect(eventProblem({ type: 'click', selecter: 'a.deal' }, known)).toEqual({ what: `"selecter" is no field of a click event; did you mean "selector"? (its fields: ${CLICK_FIELDS})`, field: 'selecter' });
    expect(eventProblem({ type: 'click', target: 'window' }, known)).toEqual({ what: `"target" is no field of a click event (its fields: ${CLICK_FIELDS})`, field: 'target' });
    expect(eventProblem({ type: 'history-change', url: '/cart' }, known)).toEqual({ what: '"url" is no field of a history-change event (it has no other field)', field: 'url' });
    // A swap of two letters in a short name is one edit.
    expect(eventProblem({ type: 'timer', sm: 100 }, known)).toEqual({ what: '"sm" is no field of a timer event; did you mean "ms"? (its fields: ms, limit)', field: 'sm' });
    // The first wrong field is the one named.
    expect(eventProblem({ type: 'timer', ms: 5, a: 1, b: 2 }, known)?.field).toBe('a');
    expect(eventsOf({ type: 'click', selecter: 'a.deal' })).toEqual([
      { at: { kind: 'rule', rule: 'R', part: 'events', index: 0, field: 'selecter' }, item: 'rule "R", event 1 (click)', what: `"selecter" is no field of a click event; did you mean "selector"? (its fields: ${CLICK_FIELDS})` },
    ]);
  });

  it("a direct call needs its identifier, a text that is not blank", () => {
    expect(eventProblem({ type: 'direct-call' }, known)).toEqual({ what: "id must be the direct call's identifier (a text); got undefined", field: 'id' });
    expect(eventProblem({ type: 'direct-call', id: '  ' }, known)).toEqual({ what: `id must be the direct call's identifier (a text); got "  "`, field: 'id' });
    expect(eventProblem({ type: 'direct-call', id: 7 }, known)).toEqual({ what: "id must be the direct call's identifier (a text); got 7", field: 'id' });
    expect(eventsOf({ type: 'direct-call', id: '' })).toEqual([
      { at: { kind: 'rule', rule: 'R', part: 'events', index: 0, field: 'id' }, item: 'rule "R", event 1 (direct-call)', what: `id must be the direct call's identifier (a text); got ""` },
    ]);
  });

  it('a data element change names a data element of the container', () => {
    expect(eventProblem({ type: 'data-element-change', name: 'sektion' }, known)).toEqual({ what: 'name must name a data element; got "sektion"', field: 'name' });
    expect(eventProblem({ type: 'data-element-change' }, known)).toEqual({ what: 'name must name a data element; got undefined', field: 'name' });
    expect(eventProblem({ type: 'data-element-change', name: 3 }, () => true)).toEqual({ what: 'name must name a data element; got 3', field: 'name' });
    // `known` is the container's own elements, not a name of Object.prototype.
    expect(eventsOf({ type: 'data-element-change', name: 'toString' }, { type: 'data-element-change', name: 'section' })).toEqual([
      { at: { kind: 'rule', rule: 'R', part: 'events', index: 0, field: 'name' }, item: 'rule "R", event 1 (data-element-change)', what: 'name must name a data element; got "toString"' },
    ]);
  });

  it('a selector that is not CSS, whatever the type that has one', () => {
    const what = 'selector "a..deal" is not a CSS selector: Expected class name (at character 2)';
    expect(eventProblem({ type: 'click', selector: 'a..deal' }, known)).toEqual({ what, field: 'selector' });
    expect(eventProblem({ type: 'element-exists', selector: 'a..deal' }, known)).toEqual({ what, field: 'selector' });
    // Not a text: the engine's own check says what it must be.
    expect(eventProblem({ type: 'click', selector: 5 }, known)).toEqual({ what: 'selector must be a CSS selector; got 5', field: 'selector' });
  });

  it("the engine's checks of a page trigger: the field, what it got, a number written as text, a global written with window.", () => {
    expect(eventProblem({ type: 'scroll-depth', percent: 150 }, known)).toEqual({ what: 'percent must be a number above 0, at most 100; got 150', field: 'percent' });
    expect(eventProblem({ type: 'timer', ms: '30000' }, known)).toEqual({ what: 'ms must be a number of milliseconds above 0; got "30000" (a text: write the number without quotes)', field: 'ms' });
    // A text that is no number, or blank, gets no such hint.
    expect(eventProblem({ type: 'timer', ms: 'soon' }, known)).toEqual({ what: 'ms must be a number of milliseconds above 0; got "soon"', field: 'ms' });
    expect(eventProblem({ type: 'timer', ms: ' ' }, known)).toEqual({ what: 'ms must be a number of milliseconds above 0; got " "', field: 'ms' });
    // A field the event does not have: said so, and the problem points at the event.
    expect(eventProblem({ type: 'timer' }, known)).toEqual({ what: 'ms must be a number of milliseconds above 0; the event has no ms' });
    expect(eventProblem({ type: 'data-layer-push', event: 'cart:add' }, known)).toEqual({ what: 'global must be the name of a page global (adobeDataLayer, dataLayer); the event has no global' });
    expect(eventProblem({ type: 'data-layer-push', global: 'window.adobeDataLayer' }, known)).toEqual({
      what: 'global must be the name of a page global (adobeDataLayer, dataLayer); got "window.adobeDataLayer" (the global\'s name alone: "adobeDataLayer")',
      field: 'global',
    });
    // Only `window.` and one name: a path gets no hint.
    expect(eventProblem({ type: 'data-layer-push', global: 'app.window.layer' }, known)).toEqual({ what: 'global must be the name of a page global (adobeDataLayer, dataLayer); got "app.window.layer"', field: 'global' });
    expect(eventProblem({ type: 'data-layer-push', global: 'window.app.layer' }, known)).toEqual({ what: 'global must be the name of a page global (adobeDataLayer, dataLayer); got "window.app.layer"', field: 'global' });
    // The hint is the global's: another field written so, or a global that is no text, gets none.
    expect(eventProblem({ type: 'data-layer-push', global: 'dataLayer', flavor: 'window.gtm' }, known)).toEqual({ what: 'flavor must be one of acdl, gtm, dlm; got "window.gtm"', field: 'flavor' });
    expect(eventProblem({ type: 'data-layer-push', global: ['window.dataLayer'] }, known)).toEqual({ what: 'global must be the name of a page global (adobeDataLayer, dataLayer); got ["window.dataLayer"]', field: 'global' });
    expect(eventProblem({ type: 'data-layer-push', global: 'dataLayer', flavor: 'tealium' }, known)).toEqual({ what: 'flavor must be one of acdl, gtm, dlm; got "tealium"', field: 'flavor' });
    // A check whose message names no field of the event (an element property's): the event itself.
    expect(eventProblem({ type: 'click', selector: 'a', properties: [{ value: 'x' }] }, known)).toEqual({ what: 'each element property needs a name' });
    expect(eventsOf({ type: 'timer' }, { type: 'timer', ms: 0 })).toEqual([
      { at: { kind: 'rule', rule: 'R', part: 'events', index: 0 }, item: 'rule "R", event 1 (timer)', what: 'ms must be a number of milliseconds above 0; the event has no ms' },
      { at: { kind: 'rule', rule: 'R', part: 'events', index: 1, field: 'ms' }, item: 'rule "R", event 2 (timer)', what: 'ms must be a number of milliseconds above 0; got 0' },
    ]);
  });

  it('a rule without events, or whose events are no list', () => {
    const c = defineContainer({
      name: 'no events',
      dataElements: {},
      rules: [
        { name: 'Empty', events: [], actions: [] },
        { name: 'Not a list', events: { type: 'dom-ready' } as never, actions: [] },
        { name: 'Fine', events: [{ type: 'dom-ready' }], actions: [] },
      ],
    });
    expect(containerProblems(c)).toEqual([
      { at: { kind: 'rule', rule: 'Empty', part: 'events' }, item: 'rule "Empty"', what: 'needs at least one event (events: [{ type: … }])' },
      { at: { kind: 'rule', rule: 'Not a list', part: 'events' }, item: 'rule "Not a list"', what: 'needs at least one event (events: [{ type: … }])' },
    ]);
  });
});

describe('"did you mean": the nearest name', () => {
  it('one edit for a word of four letters or fewer, two for a longer one; case is ignored', () => {
    expect(nearest('tyep', ['type'])).toBe('type');
    expect(nearest('tp', ['type'])).toBeUndefined();
    expect(nearest('selctr', ['selector'])).toBe('selector');
    expect(nearest('slctr', ['selector'])).toBeUndefined();
    expect(nearest('abcd', ['abef'])).toBeUndefined();
    expect(nearest('abcde', ['abcfg'])).toBe('abcfg');
    expect(nearest('SELECTOR', ['selector'])).toBe('selector');
    expect(nearest('x', ['abcx'])).toBeUndefined();
    expect(nearest('ab', [])).toBeUndefined();
  });

  it('insertions, deletions, substitutions and swaps of neighbours each count one', () => {
    expect(nearest('selecctor', ['selector'])).toBe('selector');
    expect(nearest('selecor', ['selector'])).toBe('selector');
    expect(nearest('selectar', ['selector'])).toBe('selector');
    expect(nearest('seletcor', ['selector'])).toBe('selector');
    expect(nearest('sm', ['ms'])).toBe('ms');
    expect(nearest('mss', ['ms'])).toBe('ms');
    // Two swaps are two edits: too many for a word of four letters.
    expect(nearest('baab', ['abba'])).toBeUndefined();
    // A swap is of neighbours only.
    expect(nearest('cba', ['abc'])).toBeUndefined();
    // A letter moved by one place, the other not: two edits.
    expect(nearest('ab', ['xa'])).toBeUndefined();
    expect(nearest('ab', ['bx'])).toBeUndefined();
    expect(nearest('abc', ['cab'])).toBeUndefined();
    expect(nearest('abcdefg', ['gbcdefa'])).toBe('gbcdefa');
    expect(nearest('abcdefgh', ['bacdefhg'])).toBe('bacdefhg');
    expect(nearest('abcdefgh', ['bacdfegh', 'x'])).toBe('bacdfegh');
    expect(nearest('abcdefgh', ['badcfehg'])).toBeUndefined();
  });

  it('the closest of several; of two as close, the first', () => {
    expect(nearest('clack', ['clock', 'click', 'clack'])).toBe('clack');
    expect(nearest('selecter', ['selected', 'selector'])).toBe('selected');
    expect(nearest('hovr', ['hover', 'hove'])).toBe('hover');
    expect(nearest('timre', ['timer', 'time'])).toBe('timer');
    expect(nearest('tim', ['time', 'timer'])).toBe('time');
    expect(nearest('cat', ['bat', 'hat'])).toBe('bat');
  });
});

describe('settings', () => {
  it("a setting the build owns, a misspelt engine setting, and a setting of the container's own: each at its key", () => {
    const c = defineContainer({ name: 's', settings: { environment: 'production' as never, trackingConsentCookei: 'ok', siteSection: 'news' }, dataElements: {}, rules: [] });
    expect(containerProblems(c)).toEqual([
      { at: { kind: 'setting', path: 'environment' }, item: 'setting "environment"', what: 'is chosen by the build (--env), not the container' },
      {
        at: { kind: 'setting', path: 'trackingConsentCookei' },
        item: 'setting "trackingConsentCookei"',
        what: 'is no engine setting; did you mean "trackingConsentCookie"? (a setting of the container\'s own needs a name further from the engine\'s)',
      },
    ]);
  });

  it("the container's defaults of engine settings are checked as a page's offtagConfig is, at the setting's path", () => {
    const c = defineContainer({
      name: 's',
      settings: { currency: 7 as never, reportSuites: { production: 'news', prod: 'x' } as never, trackingConsentValues: 'yes' as never, environment: 'nowhere' as never },
      dataElements: {},
      rules: [],
    });
    expect(containerProblems(c)).toEqual([
      { at: { kind: 'setting', path: 'environment' }, item: 'setting "environment"', what: 'is chosen by the build (--env), not the container' },
      { at: { kind: 'setting', path: 'currency' }, item: 'setting "currency"', what: 'must be a string; got number' },
      { at: { kind: 'setting', path: 'reportSuites.prod' }, item: 'setting "reportSuites.prod"', what: 'is not a setting' },
      { at: { kind: 'setting', path: 'trackingConsentValues' }, item: 'setting "trackingConsentValues"', what: 'must be an array of strings; got string' },
    ]);
    expect(validateContainer(c, 'c.ts')[1]).toBe('c.ts: setting "currency": must be a string; got number');
  });

  it("the container's own checks, on its defaults by dotted path (a path through nothing gives undefined)", () => {
    const https = (v: unknown) => (typeof v === 'string' && v.startsWith('https://') ? undefined : 'an https URL');
    const c = defineContainer({
      name: 's',
      settings: { site: { home: 'http://news.example', shop: 'https://shop.example' } },
      settingChecks: { 'site.home': https, 'site.shop': https, 'missing.deep': https },
      dataElements: {},
      rules: [],
    });
    expect(containerProblems(c)).toEqual([
      { at: { kind: 'setting', path: 'site.home' }, item: 'setting "site.home"', what: 'must be an https URL; got "http://news.example"' },
      { at: { kind: 'setting', path: 'missing.deep' }, item: 'setting "missing.deep"', what: 'must be an https URL; got undefined' },
    ]);
  });
});

describe('rules: names, references, services', () => {
  it('two rules with one name: at the second', () => {
    const c = defineContainer({ name: 'd', dataElements: {}, rules: [{ name: 'A', events: [{ type: 'dom-ready' }], actions: [] }, { name: 'A', events: [{ type: 'dom-ready' }], actions: [] }, { name: 'B', events: [{ type: 'dom-ready' }], actions: [] }] });
    expect(containerProblems(c)).toEqual([{ at: { kind: 'rule', rule: 'A' }, item: 'rule "A"', what: 'another rule has this name (rule names must be unique)' }]);
  });

  it('a %token% or a condition that names no data element: at the action or condition; D= copies and event tokens name none', () => {
    const c = defineContainer({
      name: 'refs',
      dataElements: { section: dataLayer('page.section') },
      services: adobeServices(),
      rules: (k) => [
        {
          name: 'View',
          events: [{ type: 'dom-ready' }],
          conditions: [k.valueIs('section', 'news'), k.valueIs('size D=2' as 'section', 1)],
          actions: [k.pageView({ pageName: '%section%', eVar1: 'D=v1', prop1: '%secton% in %section%', prop2: '%this.id%' } as Record<string, string>), k.run('plain', () => {})],
        },
      ],
    });
    expect(containerProblems(c)).toEqual([
      { at: { kind: 'rule', rule: 'View', part: 'conditions', index: 1 }, item: 'rule "View", condition "size D=2 is 1"', what: '%size D=2% names no data element' },
      { at: { kind: 'rule', rule: 'View', part: 'actions', index: 0 }, item: 'rule "View", action "Send page view beacon"', what: '%secton% names no data element' },
    ]);
  });

  it("a helper's own finding (an operator Launch does not have, a pattern that is no regular expression, a page condition in a group): at the condition", () => {
    const c = defineContainer({
      name: 'kit',
      dataElements: { section: dataLayer('page.section') },
      rules: (k) => [
        {
          name: 'Deals',
          events: [{ type: 'dom-ready' }],
          conditions: [
            k.compare('section', 'equals', 'deals'),
            k.compare('section', 'isEqual' as 'equals', 'deals'),
            k.compare('section', 'matchesRegex', 'deal('),
            k.anyOf(k.valueIs('section', 'deals'), k.pageCondition('wide', () => true)),
          ],
          actions: [],
        },
      ],
    });
    expect(containerProblems(c)).toEqual([
      {
        at: { kind: 'rule', rule: 'Deals', part: 'conditions', index: 1 },
        item: 'rule "Deals", condition "section isEqual "deals""',
        what: '"isEqual" is no comparison operator (the operators: equals, contains, startsWith, endsWith, matchesRegex, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual, isTrue, isTruthy, isFalse, isFalsy, doesNotEqual, doesNotContain, doesNotStartWith, doesNotEndWith, doesNotMatchRegex)',
      },
      { at: { kind: 'rule', rule: 'Deals', part: 'conditions', index: 2 }, item: 'rule "Deals", condition "section matchesRegex "deal(""', what: '"deal(" is not a regular expression (Invalid regular expression: /deal(/: Unterminated group)' },
      {
        at: { kind: 'rule', rule: 'Deals', part: 'conditions', index: 3 },
        item: 'rule "Deals", condition "any of (section is "deals", wide)"',
        what: '"wide" is a page condition, which cannot be in a group (give it its own place in the rule\'s conditions)',
      },
    ]);
  });

  it('an action that needs a service, in a container without services: at each such action; a rule without actions is fine', () => {
    const rules = [
      { name: 'Start', events: [{ type: 'library-loaded' as const }] } as never,
      { name: 'View', events: [{ type: 'dom-ready' as const }], actions: [] },
    ];
    const without = defineContainer({
      name: 'bare',
      dataElements: {},
      // The types refuse these actions without services too; the build says it for plain JavaScript.
      rules: ((k: Kit<string, Services, object>) => [...rules, { name: 'Go', events: [{ type: 'dom-ready' }], actions: [k.run('log', () => {}), k.startVisitor(), k.link('deal', {})] }]) as never,
    });
    const needs = (what: string) => `needs ${what}, and the container has no services: add \`services: adobeServices()\` to defineContainer`;
    expect(containerProblems(without)).toEqual([
      { at: { kind: 'rule', rule: 'Go', part: 'actions', index: 1 }, item: 'rule "Go", action "Start the visitor service"', what: needs('the visitor-ID service of adobeServices()') },
      { at: { kind: 'rule', rule: 'Go', part: 'actions', index: 2 }, item: 'rule "Go", action "Send link beacon"', what: needs('the analytics service of adobeServices()') },
    ]);
    const withServices = defineContainer({ name: 'full', dataElements: {}, services: adobeServices(), rules: (k) => [{ name: 'Go', events: [{ type: 'dom-ready' }], actions: [k.startVisitor()] }] });
    expect(containerProblems(withServices)).toEqual([]);
  });
});

describe('data elements', () => {
  it('what a function element reads that does not exist: once per name, at the element', () => {
    const c = defineContainer({
      name: 'reads',
      dataElements: {
        section: dataLayer('page.section'),
        both: fn((ctx) => `${String(ctx.get('section'))} ${String(ctx.get('sektion' as 'section'))} ${String(ctx.get('sektion' as 'section'))}`, { reads: [] }),
        // Run on a page with a URL, as on Library Loaded: what it reads after those is checked too.
        path: fn((ctx) => `${new URL(ctx.snapshot.url).pathname}${String(ctx.get('nope' as 'section'))}`, { reads: [] }),
        first: fn((ctx) => (ctx.event.type === 'library-loaded' ? ctx.get('gone' as 'section') : undefined), { reads: [] }),
        // One that throws on an empty page is not a problem; what it did not read is not checked.
        needsPage: fn(() => {
          throw new Error('no page');
        }, { reads: [] }),
        fine: queryString('cid', { storage: 'session' }),
      },
      rules: [],
    });
    expect(containerProblems(c)).toEqual([
      { at: { kind: 'element', name: 'both' }, item: 'data element "both"', what: 'reads "sektion", which is no data element' },
      { at: { kind: 'element', name: 'path' }, item: 'data element "path"', what: 'reads "nope", which is no data element' },
      { at: { kind: 'element', name: 'first' }, item: 'data element "first"', what: 'reads "gone", which is no data element' },
    ]);
  });

  it('function elements run on an empty page of example.invalid, on Library Loaded, without cookies or stored values', () => {
    let seen: unknown;
    const c = defineContainer({
      name: 'empty page',
      dataElements: {
        probe: fn((ctx) => {
          seen = { page: ctx.page, url: ctx.snapshot.url, event: ctx.event, cookies: [ctx.cookies.get('a'), ctx.cookies.all()], stored: ctx.session.get('k') };
          return 1;
        }, { reads: [] }),
      },
      rules: [],
    });
    expect(containerProblems(c)).toEqual([]);
    expect(seen).toEqual({
      page: { userAgent: '', language: '', screen: { width: 0, height: 0, colorDepth: 0 }, cookieDomain: '', origin: 'https://example.invalid', secure: true, cookiesEnabled: true },
      url: 'https://example.invalid/',
      event: { type: 'library-loaded' },
      cookies: [undefined, {}],
      stored: null,
    });
  });

  it('a circular reference: its one loop, at each element of it', () => {
    const c = defineContainer({
      name: 'cycle',
      dataElements: {
        a: fn((ctx) => ctx.get('b' as never), { reads: [] }),
        b: fn((ctx) => ctx.get('c' as never), { reads: [] }),
        c: fn((ctx) => ctx.get('b' as never), { reads: [] }),
      },
      rules: [],
    });
    expect(containerProblems(c)).toEqual([
      { at: { kind: 'element', name: 'a' }, item: 'data element "a"', what: 'circular reference: b -> c -> b' },
      { at: { kind: 'element', name: 'b' }, item: 'data element "b"', what: 'circular reference: b -> c -> b' },
      { at: { kind: 'element', name: 'c' }, item: 'data element "c"', what: 'circular reference: c -> b -> c' },
    ]);
  });

  it("a helper's finding, a constant text's %token% of no data element, and a page read's selector that is not CSS", () => {
    const c = defineContainer({
      name: 'elements',
      dataElements: {
        section: dataLayer('page.section'),
        sku: fromEvent('detail.product.sku' as 'event.x'),
        label: constant('%section% / %sektion% / %event.type%'),
        number: constant(5),
        notText: { type: 'custom', fn: () => 1, reads: [], problem: 7 } as never,
        price: domAttribute('span..price', 'text'),
        name: domAttribute('h1.title', 'text'),
      },
      rules: [],
    });
    expect(containerProblems(c)).toEqual([
      { at: { kind: 'element', name: 'sku' }, item: 'data element "sku"', what: 'fromEvent("detail.product.sku"): the token must begin with "event.", "this." or "target." (as `%event.detail.sku%` reads the event)' },
      { at: { kind: 'element', name: 'label' }, item: 'data element "label"', what: '%sektion% names no data element' },
      { at: { kind: 'element', name: 'price' }, item: 'data element "price"', what: 'selector "span..price" is not a CSS selector: Expected class name (at character 5)' },
    ]);
  });

  it("a %token% in a text that is not a constant's is the element's own business", () => {
    const c = defineContainer({ name: 't', dataElements: { d: dataLayer('%nope%'), v: { type: 'custom', value: '%nope%', fn: () => 1, reads: [] } as never }, rules: [] });
    expect(containerProblems(c)).toEqual([]);
  });

  it('the problems come in order: settings, rule names, events, references, services, elements', () => {
    const c = defineContainer({
      name: 'all',
      settings: { environment: 'production' as never },
      dataElements: { loop: fn((ctx) => ctx.get('loop' as never), { reads: [] }) },
      rules: ((k: Kit<string, Services, object>) => [
        { name: 'A', events: [{ type: 'dom-ready' }], actions: [k.pageView({ pageName: '%x%' } as Record<string, string>)] },
        { name: 'A', events: [], actions: [] },
      ]) as never,
    });
    expect(validateContainer(c, 'c.ts')).toEqual([
      'c.ts: setting "environment": is chosen by the build (--env), not the container',
      'c.ts: rule "A": another rule has this name (rule names must be unique)',
      'c.ts: rule "A": needs at least one event (events: [{ type: … }])',
      'c.ts: rule "A", action "Send page view beacon": %x% names no data element',
      'c.ts: rule "A", action "Send page view beacon": needs the analytics service of adobeServices(), and the container has no services: add `services: adobeServices()` to defineContainer',
      'c.ts: data element "loop": circular reference: loop -> loop',
    ]);
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkContainerFile } from '../../../tools/build/build.ts';

/**
 * A container's mistakes are refused at build time, one line each with `file:line:column`, the
 * rule's name and what is expected (docs/containers.md, "Build it"). Each container below is a file
 * as a user writes it, importing `offtag/container`; the line and column are where the mistake is.
 */
const dir = mkdtempSync(join(tmpdir(), 'offtag-mistakes-'));
let n = 0;

/** Writes a container whose rules are `rules` (one per line, from line 9) and returns the build's lines. */
async function problems(rules: string[], o: { services?: boolean; settings?: string; elements?: string; derived?: string } = {}): Promise<string[]> {
  const file = join(dir, `c${++n}.ts`);
  const source = [
    `import { adobeServices, dataLayer, defineContainer, fromEvent } from 'offtag/container';`,
    `export default defineContainer({`,
    `  name: 'travel',`,
    `  settings: { ${o.settings ?? ''} },`,
    `  dataElements: { section: dataLayer('page.section')${o.elements ?? ''} },${o.derived ? `\n  derived: ${o.derived},` : ''}`,
    o.services === false ? '  // no services' : `  services: adobeServices(),`,
    `  rules: (k) => [`,
    `    { name: 'Page View', events: [{ type: 'dom-ready' }], actions: [k.pageView(k.variables({ pageName: '%section%' }))] },`,
    ...rules.map((r) => `    ${r},`),
    `  ],`,
    `});`,
  ].join('\n');
  writeFileSync(file, source);
  const shown = relative(process.cwd(), file);
  return (await checkContainerFile(file)).map((l) => l.replace(shown, 'c.ts'));
}

// Each case bundles a container with esbuild: seconds on a loaded machine.
describe('offtag build refuses each mistake with file:line:column and the rule', { timeout: 60_000 }, () => {
  it('a well-formed container has no problem', async () => {
    expect(await problems([`{ name: 'Deal click', events: [{ type: 'click', selector: 'a.deal' }], actions: [k.link('deal', {})] }`])).toEqual([]);
  });

  it('an unknown trigger type, with the types and the nearest', async () => {
    expect(await problems([
      `{ name: 'Deal click', events: [{ type: 'clik', selector: 'a.deal' }], actions: [k.link('deal', {})] }`,
      `{ name: 'Half read', events: [{ type: 'scroll', percent: 50 }], actions: [] }`,
    ])).toEqual([
      'c.ts:9:38: rule "Deal click", event 1: "clik" is no event type; did you mean "click"? (the types: library-loaded, page-bottom, dom-ready, window-loaded, direct-call, click, custom-event, form-submit, element-visible, scroll-depth, timer, data-element-change, history-change, element-exists, hover, media-time-played, data-layer-push)',
      'c.ts:10:37: rule "Half read", event 1: "scroll" is no event type (the types: library-loaded, page-bottom, dom-ready, window-loaded, direct-call, click, custom-event, form-submit, element-visible, scroll-depth, timer, data-element-change, history-change, element-exists, hover, media-time-played, data-layer-push)',
    ]);
  });

  it('a misspelt field (selecter), which would make a selector rule a rule on every link click', async () => {
    expect(await problems([`{ name: 'Deal click', events: [{ type: 'click', selecter: 'a.deal' }], actions: [] }`])).toEqual([
      'c.ts:9:53: rule "Deal click", event 1 (click): "selecter" is no field of a click event; did you mean "selector"? (its fields: selector, properties, bubbleFireIfParent, bubbleFireIfChildFired, bubbleStop)',
    ]);
  });

  it('a selector that is not CSS', async () => {
    expect(await problems([`{ name: 'Deal click', events: [{ type: 'click', selector: 'a..deal' }], actions: [] }`])).toEqual([
      'c.ts:9:53: rule "Deal click", event 1 (click): selector "a..deal" is not a CSS selector: Expected class name (at character 2)',
    ]);
  });

  it('a number out of range, and a number written as text', async () => {
    expect(await problems([
      `{ name: 'Deep read', events: [{ type: 'scroll-depth', percent: 150 }], actions: [] }`,
      `{ name: 'Long stay', events: [{ type: 'timer', ms: '30000' }], actions: [] }`,
    ])).toEqual([
      'c.ts:9:59: rule "Deep read", event 1 (scroll-depth): percent must be a number above 0, at most 100; got 150',
      'c.ts:10:52: rule "Long stay", event 1 (timer): ms must be a number of milliseconds above 0; got "30000" (a text: write the number without quotes)',
    ]);
  });

  it('a misspelt engine setting is not taken for a setting of the container', async () => {
    expect(await problems([], { settings: `trackingConsentCookei: 'travel_ok', site: 'travel'` })).toEqual([
      'c.ts:4:15: setting "trackingConsentCookei": is no engine setting; did you mean "trackingConsentCookie"? (a setting of the container\'s own needs a name further from the engine\'s)',
    ]);
  });

  it('an analytics action in a container without services', async () => {
    expect(await problems([`{ name: 'Deal click', events: [{ type: 'click', selector: 'a.deal' }], actions: [k.link('deal', {})] }`], { services: false })).toEqual([
      'c.ts:8:69: rule "Page View", action "Send page view beacon": needs the analytics service of adobeServices(), and the container has no services: add `services: adobeServices()` to defineContainer',
      'c.ts:9:86: rule "Deal click", action "Send link beacon": needs the analytics service of adobeServices(), and the container has no services: add `services: adobeServices()` to defineContainer',
    ]);
  });

  it('a comparison operator Launch does not have, and a pattern that is not a regular expression', async () => {
    expect(await problems([
      `{ name: 'Deals', events: [{ type: 'dom-ready' }], conditions: [k.compare('section', 'isEqual' as 'equals', 'deals'), k.compare('section', 'matchesRegex', 'deal(')], actions: [] }`,
    ])).toEqual([
      'c.ts:9:68: rule "Deals", condition "section isEqual "deals"": "isEqual" is no comparison operator (the operators: equals, contains, startsWith, endsWith, matchesRegex, lessThan, lessThanOrEqual, greaterThan, greaterThanOrEqual, isTrue, isTruthy, isFalse, isFalsy, doesNotEqual, doesNotContain, doesNotStartWith, doesNotEndWith, doesNotMatchRegex)',
      'c.ts:9:122: rule "Deals", condition "section matchesRegex "deal("": "deal(" is not a regular expression (Invalid regular expression: /deal(/: Unterminated group)',
    ]);
  });

  it('history change and data layer push: a field neither has, a global written with window., the event, the flavor', async () => {
    expect(await problems([
      `{ name: 'Route', events: [{ type: 'history-change', url: '/cart' }], actions: [] }`,
      `{ name: 'Cart add', events: [{ type: 'data-layer-push', event: 'cart:add' }], actions: [] }`,
      `{ name: 'Cart add (window)', events: [{ type: 'data-layer-push', global: 'window.adobeDataLayer', event: 'cart:add' }], actions: [] }`,
      `{ name: 'Sign-up', events: [{ type: 'data-layer-push', global: 'dataLayer', event: 5 }], actions: [] }`,
      `{ name: 'Sign-up (empty)', events: [{ type: 'data-layer-push', global: 'dataLayer', event: '' }], actions: [] }`,
      `{ name: 'Sign-up (misspelt)', events: [{ type: 'data-layer-push', global: 'dataLayer', evnet: 'sign_up' }], actions: [] }`,
      `{ name: 'Sign-up (flavor)', events: [{ type: 'data-layer-push', global: 'dataLayer', event: 'sign_up', flavor: 'tealium' }], actions: [] }`,
    ])).toEqual([
      'c.ts:9:57: rule "Route", event 1 (history-change): "url" is no field of a history-change event (it has no other field)',
      'c.ts:10:34: rule "Cart add", event 1 (data-layer-push): global must be the name of a page global (adobeDataLayer, dataLayer); the event has no global',
      'c.ts:11:70: rule "Cart add (window)", event 1 (data-layer-push): global must be the name of a page global (adobeDataLayer, dataLayer); got "window.adobeDataLayer" (the global\'s name alone: "adobeDataLayer")',
      'c.ts:12:81: rule "Sign-up", event 1 (data-layer-push): event must be the name of the pushed event (absent: every event); got 5',
      'c.ts:13:89: rule "Sign-up (empty)", event 1 (data-layer-push): event must be the name of the pushed event (absent: every event); got ""',
      'c.ts:14:92: rule "Sign-up (misspelt)", event 1 (data-layer-push): "evnet" is no field of a data-layer-push event; did you mean "event"? (its fields: global, event, flavor)',
      'c.ts:15:108: rule "Sign-up (flavor)", event 1 (data-layer-push): flavor must be one of acdl, gtm, dlm; got "tealium"',
    ]);
  });

  it('a regular-expression table with a pattern that is not one, among derived elements: at the element', async () => {
    expect(await problems([], { derived: `(e) => ({\n    kind: e.regexTable('section', [['deals?/.*', 'deal'], ['deal(', 'x']]),\n  })` })).toEqual([
      'c.ts:7:5: data element "kind": regexTable("section"): "deal(" is not a regular expression (Invalid regular expression: /^(?:deal()$/i: Unterminated group)',
    ]);
  });

  it('a page condition inside an OR group: at the group', async () => {
    expect(await problems([
      `{ name: 'Wide deals', events: [{ type: 'dom-ready' }], conditions: [k.anyOf(k.valueIs('section', 'deals'), k.pageCondition('wide', () => innerWidth > 800))], actions: [] }`,
    ])).toEqual([
      'c.ts:9:73: rule "Wide deals", condition "any of (section is "deals", wide)": "wide" is a page condition, which cannot be in a group (give it its own place in the rule\'s conditions)',
    ]);
  });

  it('a data element of the event whose token is no event token', async () => {
    expect(await problems([], { elements: `,\n    sku: fromEvent('detail.product.sku')` })).toEqual([
      'c.ts:6:5: data element "sku": fromEvent("detail.product.sku"): the token must begin with "event.", "this." or "target." (as `%event.detail.sku%` reads the event)',
    ]);
  });

  it('a mistake in a module of the container (its settings, its rules) is shown at that module\'s line', async () => {
    const sub = join(dir, 'split');
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, 'settings.ts'), `export const SETTINGS = {\n  dataLayer: 'travelData',\n  trackingConsentCookei: 'ok',\n};\n`);
    writeFileSync(join(sub, 'rules.ts'), `export const rules = [\n  { name: 'Deal click', events: [{ type: 'click', selecter: 'a.deal' }], actions: [] },\n];\n`);
    writeFileSync(join(sub, 'container.ts'), `import { dataLayer, defineContainer } from 'offtag/container';\nimport { SETTINGS } from './settings.ts';\nimport { rules } from './rules.ts';\nexport default defineContainer({ name: 'split', settings: SETTINGS, dataElements: { section: dataLayer('page.section') }, rules: () => rules as never });\n`);
    const shown = (f: string) => relative(process.cwd(), join(sub, f));
    expect(await checkContainerFile(join(sub, 'container.ts'))).toEqual([
      `${shown('settings.ts')}:3:3: setting "trackingConsentCookei": is no engine setting; did you mean "trackingConsentCookie"? (a setting of the container's own needs a name further from the engine's)`,
      `${shown('rules.ts')}:2:51: rule "Deal click", event 1 (click): "selecter" is no field of a click event; did you mean "selector"? (its fields: selector, properties, bubbleFireIfParent, bubbleFireIfChildFired, bubbleStop)`,
    ]);
  });

  it('a syntax error is esbuild\'s line, with its position', async () => {
    const lines = await problems([`{ name: 'Broken', events: [{ type: 'dom-ready' }], actions: [] ]`]);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toBe(`c.ts:9:68: Expected "}" but found "]"`);
  });
});

/**
 * Type-checked by tests/unit/container/types.test.ts with `tsc -p tests/types/container`: what a
 * container author gets wrong shows in the editor. Each `@ts-expect-error` line must be an error
 * (tsc fails on an unused one), and every other line must compile.
 */
import { adobeServices, cookie, dataLayer, defineContainer, domAttribute, elements, fn, fromEvent, localStorage, pageCode, pageTitle, pageVariable } from '../../../src/container/index.ts';

const e = elements<'section' | 'title', { siteCookie: string }>();

export const news = defineContainer({
  name: 'news',
  settings: { siteCookie: 'site', reportSuites: { production: 'p', staging: 's', development: 'd' } },
  dataElements: {
    section: dataLayer('page.section', { default: 'home', lowerCase: true }),
    title: e.fn((ctx) => `${String(ctx.get('section'))}:${ctx.settings.siteCookie}`, { reads: [] }),
    site: e.cookie((s) => s.siteCookie),
    // @ts-expect-error a function element reads a data element its table does not have
    broken: e.fn((ctx) => ctx.get('nope')),
    plain: fn(() => 1),
    raw: cookie('raw'),
  },
  services: adobeServices(),
  rules: (k) => [
    {
      name: 'Page View',
      events: [{ type: 'window-loaded' }],
      conditions: [k.valueIs('section', 'news'), k.when('site set', (ctx) => ctx.get('site') !== '')],
      actions: [
        k.pageView(k.variables({ pageName: '%title%', channel: 'news:%section%', eVar1: 'D=pageName' })),
        // @ts-expect-error a %token% naming no data element
        k.pageView(k.variables({ pageName: '%titel%' })),
        // @ts-expect-error one good and one unknown token in one text
        k.link(k.text('%section% %nope%'), {}),
        k.link(k.text('%section% clicked'), k.variables({ eVar2: '%site%' })),
        // @ts-expect-error a variable outside AppMeasurement's ranges (prop76)
        k.pageView(k.variables({ prop76: '%title%' })),
        // @ts-expect-error get() of a name that is no data element
        k.run('x', (ctx) => void ctx.get('missing')),
        k.run('settings', (ctx) => void ctx.settings.siteCookie.toUpperCase()),
      ],
    },
  ],
});

export const badEvent = defineContainer({
  name: 'bad event',
  dataElements: { section: dataLayer('page.section') },
  rules: (k) => [
    // @ts-expect-error an event type the engine does not know: the error is at the type, naming the types
    { name: 'Bad event', events: [{ type: 'no-such-event' }], actions: [] },
    // @ts-expect-error a number written as text
    { name: 'Timer', events: [{ type: 'timer', ms: '30000' }], actions: [k.run('x', () => {})] },
  ],
});

export const badEventInArray = defineContainer({
  name: 'bad event, rules as an array',
  dataElements: { section: dataLayer('page.section') },
  rules: [
    { name: 'Good event', events: [{ type: 'dom-ready' }], actions: [] },
    // @ts-expect-error the array form points at the event itself too, naming the types
    { name: 'Bad event', events: [{ type: 'no-such-event' }], actions: [] },
    // @ts-expect-error a number written as text, in the array form
    { name: 'Timer', events: [{ type: 'timer', ms: '30000' }], actions: [] },
    // @ts-expect-error a misspelt field, in the array form
    { name: 'Deal click', events: [{ type: 'click', selecter: 'a.deal' }], actions: [] },
  ],
});

/** Settings: an engine setting's type by name. */
export const badSetting = defineContainer({
  name: 'setting',
  settings: {
    // @ts-expect-error an engine setting of the wrong type says the type it must be
    trackingConsentCookie: 5,
    site: 'travel',
  },
  dataElements: { section: dataLayer('page.section') },
  rules: () => [],
});

/** Derived data elements: names written once, read typed. */
export const settingsAndDerived = defineContainer({
  name: 'derived',
  settings: { trackingConsentValues: ['true', 'yes'], site: 'travel' },
  dataElements: { section: dataLayer('page.section'), country: dataLayer('page.country') },
  derived: (e) => ({
    heading: e.fn((ctx) => `${String(ctx.get('section'))}:${ctx.settings.site}`),
    region: e.lookupTable('country', { fr: 'europe', us: 'americas' }, { default: 'other' }),
    kind: e.regexTable('section', [['deals?/.*', 'deal'], ['(\\w+)/.*', '$1']]),
    // @ts-expect-error a derived element reads a name that is no data element
    broken: e.fn((ctx) => ctx.get('sektion')),
  }),
  rules: (k) => [
    {
      name: 'Europe',
      events: [{ type: 'dom-ready' }],
      conditions: [k.anyOf(k.compare('region', 'equals', 'europe'), k.compare('heading', 'startsWith', 'deals', { caseInsensitive: true }))],
      exceptions: [k.compare('section', 'matchesRegex', '^test'), k.not(k.valueIs('kind', 'deal'))],
      actions: [k.run('x', () => {})],
    },
  ],
});

export const badOperator = defineContainer({
  name: 'operator',
  dataElements: { section: dataLayer('page.section') },
  rules: (k) => [
    // @ts-expect-error an operator Launch does not have
    { name: 'Deals', events: [{ type: 'dom-ready' }], conditions: [k.compare('section', 'isEqual', 'deals')], actions: [] },
  ],
});

/** Page triggers (docs/triggers.md): every kind is a rule event, and `%this.…%`, `%target.…%`, `%event.…%` are tokens without a data element. */
export const triggers = defineContainer({
  name: 'triggers',
  dataElements: { section: dataLayer('page.section'), cart: dataLayer('cart.size') },
  services: adobeServices(),
  rules: (k) => [
    {
      name: 'Buy',
      events: [{ type: 'click', selector: '.buy', bubbleStop: true }, { type: 'form-submit', selector: 'form' }, { type: 'custom-event', name: 'cart:add', target: 'document' }],
      actions: [k.link(k.text('%this.@cleanText% in %section%'), k.variables({ eVar3: '%this.getAttribute(data-sku)%', prop5: '%event.detail.sku%', prop6: '%target.tagName%' }))],
    },
    {
      name: 'Seen',
      events: [{ type: 'element-visible', selector: '.promo', everyEntry: true }, { type: 'scroll-depth', percent: 50 }, { type: 'timer', ms: 30_000, limit: 2 }, { type: 'data-element-change', name: 'cart' }],
      actions: [k.run('say', (ctx) => void ctx.replaceTokens('%event.percent%'))],
    },
  ],
});

/** Page reads (docs/containers.md, "Page reads"): element helpers with the usual finishing, a page condition of the event. */
export const pageReads = defineContainer({
  name: 'page reads',
  dataElements: {
    basket: localStorage('basket', { default: '0', storage: 'session' }),
    sku: domAttribute('#product', 'data-sku', { lowerCase: true }),
    title: pageTitle({ cleanText: true }),
    width: pageCode((event) => (event.type === 'dom-ready' ? innerWidth : 0)),
    currency: pageVariable('shopConfig.currency', { default: 'EUR' }),
    clicked: pageCode((_event, element) => element?.getAttribute('data-sku')),
    // @ts-expect-error page code gets the event, not the engine's context (it runs on the page)
    wrong: pageCode((event) => event.get('title')),
  },
  rules: (k) => [
    {
      name: 'Wide',
      events: [{ type: 'dom-ready' }],
      conditions: [k.valueIs('title', 'Shop'), k.pageCondition('wide page', (event) => event.type === 'dom-ready' && innerWidth > 800)],
      actions: [k.run('x', (ctx) => void ctx.get('basket'))],
    },
  ],
});

/** History change and data layer pushes (docs/containers.md, "Single-page apps and data layers"): the events, their fields, the event's values as data elements. */
export const spa = defineContainer({
  name: 'spa',
  dataElements: {
    sku: fromEvent('event.detail.product.sku'),
    cartValue: fromEvent('event.state.cart.value', { default: 0 }),
    // @ts-expect-error fromEvent takes a token as %…% writes it, beginning with event., this. or target.
    wrong: fromEvent('detail.product.sku'),
  },
  services: adobeServices(),
  rules: (k) => [
    { name: 'Page view', events: [{ type: 'dom-ready' }, { type: 'history-change' }], actions: [k.pageView(k.variables({ pageName: 'shop:%event.url%' }))] },
    { name: 'Cart add', events: [{ type: 'data-layer-push', global: 'adobeDataLayer', event: 'cart:add' }], actions: [k.link('cart add', k.variables({ eVar3: '%sku%', eVar4: '%cartValue%' }))] },
    { name: 'Sign-up', events: [{ type: 'data-layer-push', global: 'dataLayer', event: 'sign_up', flavor: 'gtm' }], actions: [k.link(k.text('sign up:%event.detail.method%'), {})] },
    // @ts-expect-error a history change has no other field
    { name: 'Route', events: [{ type: 'history-change', url: '/cart' }], actions: [] },
    // @ts-expect-error a data layer push needs its global
    { name: 'No global', events: [{ type: 'data-layer-push', event: 'cart:add' }], actions: [] },
    // @ts-expect-error a flavor there is not
    { name: 'Tealium', events: [{ type: 'data-layer-push', global: 'utag_data', flavor: 'tealium' }], actions: [] },
  ],
});

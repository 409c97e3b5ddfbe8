import { describe, expect, it } from 'vitest';
import { dataLayer, defineContainer, fn, fromEvent, lookupTable, regexTable, type RuleEventSpec } from '../../../src/container/index.ts';
import type { TriggerEvent } from '../../../src/protocol.ts';
import { keyOf } from '../../../src/worker-engine/core/triggers.ts';
import { consentHint, trackingConsented } from '../../../src/worker-engine/analytics/consent.ts';
import { DEFAULT_SETTINGS } from '../../../src/worker-engine/core/settings.ts';
import type { CookieJar } from '../../../src/worker-engine/core/types.ts';
import { logs, makeEngine } from '../harness.ts';

/**
 * What a Launch or GTM user reaches for (docs/containers.md, "Rules" and "Data elements"): the
 * comparison operators (Launch's Value Comparison, one implementation with the Launch runtime's),
 * OR groups, exceptions, lookup and regular-expression tables, names written once, the consent
 * cookie's values; run by the engine.
 */
const container = defineContainer({
  name: 'parity',
  dataElements: {
    path: dataLayer('page.path'),
    country: dataLayer('page.country'),
    price: dataLayer('product.price'),
    test: dataLayer('page.test'),
  },
  derived: (e) => ({
    region: e.lookupTable('country', { fr: 'europe', de: 'europe', us: 'americas' }, { default: 'other', caseInsensitive: true }),
    kind: e.regexTable('path', [['/deals?/.*', 'deal'], ['/(\\w+)/(\\w+)', '$2 in $1']], { default: 'page' }),
    label: e.fn((ctx) => `${String(ctx.get('country')).toLowerCase()}${String(ctx.get('path'))}`),
  }),
  rules: (k) => [
    {
      name: 'Show',
      events: [{ type: 'direct-call', id: 'show' }],
      actions: [k.run('log', (ctx) => ctx.log('log', `region=${String(ctx.get('region'))} kind=${String(ctx.get('kind'))} label=${String(ctx.get('label'))}`))],
    },
    {
      name: 'Europe or cheap',
      events: [{ type: 'direct-call', id: 'check' }],
      conditions: [k.anyOf(k.compare('region', 'equals', 'europe'), k.compare('price', 'lessThan', 10))],
      exceptions: [k.compare('test', 'isTruthy')],
      actions: [k.run('fired', (ctx) => ctx.log('log', 'fired'))],
    },
    {
      name: 'Not a deal',
      events: [{ type: 'direct-call', id: 'check' }],
      conditions: [k.not(k.compare('path', 'startsWith', '/DEAL', { caseInsensitive: true })), k.compare('path', 'doesNotMatchRegex', '^/admin')],
      actions: [k.run('fired', (ctx) => ctx.log('log', 'not a deal'))],
    },
  ],
});

const page = (p: Record<string, unknown>) => ({ dataLayer: { page: p, product: { price: p.price } } });

describe('authoring parity with Launch and GTM', () => {
  it('lookup and regex tables, and derived elements reading the table\'s elements', async () => {
    const { fire } = makeEngine(container);
    const at = async (p: Record<string, unknown>) => logs((await fire({ type: 'direct-call', id: 'show' }, page(p))).effects);
    expect(await at({ path: '/deals/summer', country: 'FR' })).toEqual(['region=europe kind=deal label=fr/deals/summer']);
    expect(await at({ path: '/travel/rome', country: 'us' })).toEqual(['region=americas kind=rome in travel label=us/travel/rome']);
    expect(await at({ path: '/travel/rome/x', country: 'jp' })).toEqual(['region=other kind=page label=jp/travel/rome/x']);
  });

  it('comparison operators, an OR group, negation and exceptions', async () => {
    const { fire } = makeEngine(container);
    const at = async (p: Record<string, unknown>) => logs((await fire({ type: 'direct-call', id: 'check' }, page(p))).effects);
    expect(await at({ path: '/deals/x', country: 'de', price: 99 })).toEqual(['fired']);
    expect(await at({ path: '/travel', country: 'us', price: '9.5' })).toEqual(['fired', 'not a deal']);
    expect(await at({ path: '/travel', country: 'us', price: 99 })).toEqual(['not a deal']);
    expect(await at({ path: '/admin/x', country: 'fr', price: 1, test: true })).toEqual([]);
  });

  it('a regex table says which pattern is not a regular expression (the build refuses it at the element); its other rows still work', () => {
    const table = regexTable('path', [['(', 'x'], ['deals?/.*', 'deal']]) as { problem?: string };
    expect(table.problem).toMatch(/^regexTable\("path"\): "\(" is not a regular expression/);
    expect(regexTable('path', [['deals?/.*', 'deal']])).not.toHaveProperty('problem');
    expect(lookupTable('country', {}).type).toBe('custom');
  });

  it("the consent cookie's values that grant tracking are a setting (default: exactly true)", () => {
    const cookies = (v: string): CookieJar => ({ get: () => v, all: () => ({}), set: () => {}, remove: () => {} });
    const settings = { ...DEFAULT_SETTINGS, trackingConsentCookie: 'ok' };
    expect(trackingConsented({ settings, cookies: cookies('true') })).toBe(true);
    expect(trackingConsented({ settings, cookies: cookies('yes') })).toBe(false);
    expect(trackingConsented({ settings: { ...settings, trackingConsentValues: ['true', 'yes'] }, cookies: cookies('yes') })).toBe(true);
    expect(consentHint('ok', ['true', 'yes'])).toMatch(/^Analytics tracking waits for the consent cookie ok=true or ok=yes /);
  });
});

describe('history change and data layer pushes (ACDL, GTM), one rule on any of its events', () => {
  const cartAdd = { type: 'data-layer-push', global: 'adobeDataLayer', event: 'cart:add' } as const;
  const signUp = { type: 'data-layer-push', global: 'dataLayer', event: 'sign_up' } as const;
  const route = { type: 'history-change' } as const;
  const spa = defineContainer({
    name: 'spa',
    dataElements: {
      path: fn((ctx) => new URL(ctx.snapshot.url).pathname, { reads: [] }),
      sku: fromEvent('event.detail.product.sku'),
      cartValue: fromEvent('event.state.cart.value', { default: 0 }),
      method: fromEvent('event.detail.method', { default: 'none' }),
    },
    rules: (k) => [
      { name: 'Page view', events: [{ type: 'dom-ready' }, route], actions: [k.run('say', (ctx) => ctx.log('log', `page ${String(ctx.get('path'))}`))] },
      {
        name: 'Cart add',
        events: [cartAdd],
        conditions: [k.compare('cartValue', 'greaterThan', 0)],
        actions: [k.run('say', (ctx) => ctx.log('log', `cart ${String(ctx.get('sku'))} ${String(ctx.get('cartValue'))} ${String(ctx.replaceTokens('%event.detail.event%'))}`))],
      },
      { name: 'Sign-up', events: [signUp], actions: [k.run('say', (ctx) => ctx.log('log', `sign up ${String(ctx.get('method'))}`))] },
    ],
  });
  const trigger = (spec: RuleEventSpec, extra: Partial<TriggerEvent>): TriggerEvent => ({ type: 'trigger', key: keyOf(spec)!, on: spec.type as TriggerEvent['on'], ...extra });

  it('the rules run on their events; fromEvent reads the pushed object and the state after it, undefined elsewhere', async () => {
    const { fire } = makeEngine(spa, { alwaysLog: true });
    const said = async (event: Parameters<typeof fire>[0], url = 'https://shop.example/') => logs((await fire(event, { url })).effects);
    expect(await said({ type: 'dom-ready' })).toEqual(['page /']);
    expect(await said(trigger(route, { url: 'https://shop.example/cart' }), 'https://shop.example/cart')).toEqual(['page /cart']);
    expect(await said(trigger(cartAdd, { detail: { event: 'cart:add', product: { sku: 'A-12' } }, state: { cart: { value: 30 } } }))).toEqual(['cart A-12 30 cart:add']);
    // The state's value is the condition's: a push that leaves the cart empty runs nothing.
    expect(await said(trigger(cartAdd, { detail: { event: 'cart:add', product: { sku: 'B-1' } }, state: {} }))).toEqual([]);
    expect(await said(trigger(signUp, { detail: { event: 'sign_up', method: 'email' }, state: { method: 'email' } }))).toEqual(['sign up email']);
    expect(await said(trigger(signUp, { detail: { event: 'sign_up' }, state: {} }))).toEqual(['sign up none']);
  });
});

describe('quiet in production', () => {
  const loud = defineContainer({
    name: 'loud',
    dataElements: {},
    rules: (k) => [{ name: 'Say', events: [{ type: 'direct-call', id: 'say' }], actions: [k.run('say', (ctx) => (ctx.log('warn', 'a warning'), ctx.log('error', 'an error')))] }],
  });
  const say = { type: 'direct-call', id: 'say' } as const;

  it('without debug, a container prints nothing; with alwaysLog (the storefront) or debug, it does', async () => {
    expect(logs((await makeEngine(loud, { alwaysLog: false }).fire(say)).effects)).toEqual([]);
    expect(logs((await makeEngine(loud, { alwaysLog: true }).fire(say)).effects)).toEqual(['a warning', 'an error']);
    expect(logs((await makeEngine(loud, { alwaysLog: false, debug: true }).fire(say)).effects)).toContain('an error');
  });

  it('the page turns debug on and off (setDebug)', async () => {
    const { engine, fire } = makeEngine(loud, { alwaysLog: false });
    await engine.dispatch({ type: 'debug', on: true });
    expect(logs((await fire(say)).effects)).toContain('a warning');
    await engine.dispatch({ type: 'debug', on: false });
    expect(logs((await fire(say)).effects)).toEqual([]);
  });

  it("an offtagConfig problem prints without debug: the site's own configuration", async () => {
    const { fire } = makeEngine(loud, { alwaysLog: false, currency: 7 });
    expect(logs((await fire(say)).effects)).toEqual(['offtagConfig.currency must be a string; got number. Using "USD".']);
  });
});

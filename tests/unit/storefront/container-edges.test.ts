/**
 * What the storefront container shows at its edges, written against the mutants Stryker found
 * surviving in `containers/storefront` (docs/testing.md, "Mutation testing"): the data layer paths the
 * bridge copies, the rule, condition and action names the console shows, and odd values.
 */
import { describe, expect, it } from 'vitest';
import { storefront } from '../../../containers/storefront/container.ts';
import { createEngine } from '../../../src/worker-engine/core/engine.ts';
import { readSetOf } from '../../../src/worker-engine/core/data-layer.ts';
import { DATA_LAYER } from './fixtures.ts';
import { cookieString, effectsOf, FIXED, harness, logsOf, SITES, recordingServices } from '../harness.ts';

const INSIGHTS = 'https://www.keepstock.example/insights/overview';
const consent = cookieString({ sat_track: 'true' });

describe('the data layer the bridge copies (the read set)', () => {
  it('is exactly the paths the storefront\'s data elements read, nothing more', () => {
    expect(readSetOf(storefront.dataElements)).toStrictEqual({
      modal: { page: { pageInfo: 0 } },
      page: {
        pageInfo: { pageType: 0, pageUID: 0, contentTitle: 0, language: 0, template: 0 },
        category: { lineOfBusiness: 0, level: 0, leafCategoryId: 0, leafCategoryName: 0 },
        element: 0,
      },
      internalCampaign: 0,
      user: {
        profile: {
          attributes: { loginState: 0, accountNumber: 0, communityType: 0, RMLState: 0 },
          profileInfo: { profileID: 0, csgID: 0, organizationId: 0, userIdentifier: 0, cimProfileID: 0 },
        },
        niteFlag: 0,
      },
      product: { 0: { productInfo: { sku: 0 } } },
      cart: { freightForwarder: 0 },
    });
  });
});

describe('names the console shows', () => {
  it('in debug mode, each rule that fires is named', async () => {
    const h = harness({ config: { debug: true, environment: 'production' } });
    const lib = await h.fire({ type: 'library-loaded' });
    expect(logsOf(lib)).toContain('Rule "Visitor service" fired.');
    const names: string[] = [];
    for (const id of ['Page View', 'Content: Modal View', 'Element Impressions', 'Element Interactions']) {
      names.push(...logsOf(await h.fire(id, { dataLayer: DATA_LAYER })).filter((m) => m.startsWith('Rule ')));
    }
    expect(names).toEqual([
      'Rule "Page View" fired.',
      'Rule "Content: Modal View" fired.',
      'Rule "Element Impressions" fired.',
      'Rule "Element Interactions" fired.',
    ]);
  });

  it('in debug mode, the condition that stops a Window Loaded rule is named with its rule', async () => {
    const unmet = async (config: object, page: object) =>
      logsOf(await harness({ config: { debug: true, ...config } }).fire({ type: 'window-loaded' }, page)).filter((m) => m.startsWith('Condition '));
    const amplitude = { apiKey: 'key-1' };
    expect(await unmet({ environment: 'staging' }, { url: INSIGHTS, cookie: consent })).toEqual([
      'Condition "Production" for rule "Real user monitoring" not met.',
      'Condition "Amplitude configured" for rule "Product analytics" not met.',
    ]);
    expect(await unmet({ environment: 'production', amplitude }, { url: INSIGHTS, cookie: consent, gpc: true })).toEqual([
      'Condition "Datadog enabled" for rule "Real user monitoring" not met.',
      'Condition "No GPC" for rule "Product analytics" not met.',
    ]);
    expect(await unmet({ environment: 'production', amplitude }, { url: 'https://www.keepstock.example/catalog', cookie: '' })).toEqual([
      'Condition "Insights page" for rule "Real user monitoring" not met.',
      'Condition "Tracking consent" for rule "Product analytics" not met.',
    ]);
  });

  it('an action whose service throws at once is said with the action\'s and the rule\'s name', async () => {
    const boom = () => {
      throw new Error('boom');
    };
    const h = harness({ track: boom, visitorStart: boom });
    const errors: string[] = [];
    errors.push(...logsOf(await h.fire({ type: 'library-loaded' })));
    for (const id of ['Page View', 'Content: Modal View', 'Element Impressions', 'Element Interactions']) {
      errors.push(...logsOf(await h.fire(id, { dataLayer: DATA_LAYER })));
    }
    expect(errors.filter((m) => m.startsWith('Failed to execute'))).toEqual([
      'Failed to execute "Start the visitor service" for "Visitor service" rule. boom',
      'Failed to execute "Send page view beacon" for "Page View" rule. boom',
      'Failed to execute "Send modal page view beacon" for "Content: Modal View" rule. boom',
      'Failed to execute "Send impressions link beacon" for "Element Impressions" rule. boom',
      'Failed to execute "Send interactions link beacon" for "Element Interactions" rule. boom',
    ]);
  });
});

describe('odd values', () => {
  it('an infinite viewport size is no size: Not Set in PDL, said', async () => {
    const h = harness();
    const b = await h.fire({ type: 'get-var', name: 'browser width' }, { viewport: { width: Infinity, height: 5 } });
    expect(b.effects).toContainEqual({ type: 'reply', seq: 1, value: 'Not Set in PDL' });
  });

  it('the modal page name keeps an emoji met before the cut, and a 20-unit segment as it is', async () => {
    const h = harness();
    const name = async (pageUID: string) =>
      (await h.fire({ type: 'get-var', name: 'modal page name' }, { dataLayer: { modal: { page: { pageInfo: { pageType: 't', pageUID } } } } })).effects.find(
        (e) => e.type === 'reply',
      );
    expect(await name(`😀${'x'.repeat(30)}`)).toMatchObject({ value: `acme:t:😀${'x'.repeat(18)}` });
    const lone = `${'x'.repeat(19)}\uD83D`;
    expect(await name(lone)).toMatchObject({ value: `acme:t:${lone}` });
  });

  it('the flags are the strings "true" and "false"', async () => {
    const h = harness({ config: { environment: 'staging' } });
    const b = await h.fire({ type: 'get-var', name: 'production flag' }, { cookie: consent });
    expect(b.effects).toContainEqual({ type: 'reply', seq: 1, value: 'false' });
    const g = await h.fire({ type: 'get-var', name: 'GPC' });
    expect(g.effects).toContainEqual({ type: 'reply', seq: 2, value: 'false' });
  });

  it('without a geo cookie, geo coordinates say they are not available', async () => {
    const b = await harness().fire({ type: 'get-var', name: 'geo coordinates' }, { cookie: consent });
    expect(b.effects).toContainEqual({ type: 'reply', seq: 1, value: 'geo coordinates not available' });
  });
});

describe('Amplitude and the hooks', () => {
  it('Amplitude\'s page view carries the page name, page type and login state; without serverUrl its own endpoint', async () => {
    const h = harness({ config: { amplitude: { apiKey: 'key-1' } } });
    const dataLayer = { page: { pageInfo: { pageType: 'Catalog', pageUID: 'c1' } }, user: { profile: { attributes: { loginState: 'Full Logged In' } } } };
    const [script] = effectsOf(await h.fire({ type: 'window-loaded' }, { cookie: consent, dataLayer }), 'script');
    expect(script).toMatchObject({
      init: { fn: 'amplitude.init', args: ['key-1', { autocapture: false, fetchRemoteConfig: false }] },
      then: { fn: 'amplitude.track', args: ['Page View', { page_name: 'acme:catalog:c1', page_type: 'Catalog', login_state: 'Full Logged In' }], delay: 0 },
    });
    expect(script?.init?.args[1]).not.toHaveProperty('serverUrl');
  });

  it('pendingHits is 0 when the tracker does not count its hits', () => {
    const engine = createEngine({
      container: storefront,
      services: () => recordingServices({ hits: [], visitorStarts: 0 }),
      env: { now: () => FIXED, random: () => 0.5, sha256: async () => '' },
      config: { alwaysLog: true },
      page: SITES.keepstock,
    });
    expect(engine.pendingHits()).toBe(0);
  });
});

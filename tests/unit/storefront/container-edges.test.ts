/**
 * What the storefront container shows at its edges, written against the mutants Stryker found
 * surviving in `containers/storefront` (docs/testing.md, "Mutation testing"): the data layer paths the
 * bridge copies, the rule, condition and action names the console shows, odd values, null in the
 * data layer, the build's checks and what the build writes, where beacons go.
 *
 * Equivalent mutants left (no caller can see a difference):
 * - `rules.ts` an action's `uses: [...]` → `[]`: only the build's check reads `uses` (each name must
 *   be a data element); the storefront's names all are, so an empty list finds nothing either way.
 * - `rules.ts` the names `Load Datadog RUM` and `Load Amplitude` → `''`: an action's name is shown
 *   only in the message of an action that throws, and these two build a script effect from checked
 *   settings and data element values (a failing element gives its default), so they cannot throw.
 * - `data-elements.ts` `modal page name`'s `reads` → `[]`: `modal page info` reads
 *   `modal.page.pageInfo` whole, so the bridge copies the same data either way.
 */
import { describe, expect, it } from 'vitest';
import { storefront } from '../../../containers/storefront/container.ts';
import { createEngine } from '../../../src/worker-engine/core/engine.ts';
import { readSetOf } from '../../../src/worker-engine/core/data-layer.ts';
import { DATA_LAYER } from './fixtures.ts';
import { cookieString, effectsOf, FIXED, getVar, harness, logsOf, SITES, recordingServices } from '../harness.ts';
import { containerProblems } from '../../../src/container/validate.ts';
import { replay, type Fixture } from '../../../tools/replay/replay.ts';
import type { Effect } from '../../../src/protocol.ts';
import { buildConstants } from '../../../tools/build/build.ts';
import { tagContainerMarker } from '../../../src/worker-engine/analytics/beacon-url.ts';

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

describe('null in the page data layer (as a server\'s JSON writes an empty field)', () => {
  const nulls = {
    page: { element: null },
    internalCampaign: null,
    user: { profile: { attributes: { accountNumber: null, loginState: null } } },
  };
  it('is a missing value: the defaults come back and no data element fails', async () => {
    const h = harness();
    const got: Record<string, unknown> = {};
    const errors: string[] = [];
    for (const name of ['element click ids', 'element impression ids', 'internal campaign impressions', 'customer combination key', 'login state']) {
      const { value, batch } = await getVar(h, name, { dataLayer: nulls });
      got[name] = value;
      errors.push(...logsOf(batch, 'error'));
    }
    expect(got).toEqual({
      'element click ids': 'Not Set in PDL',
      'element impression ids': '',
      'internal campaign impressions': '',
      'customer combination key': 'Unknown User',
      'login state': 'Not Logged In',
    });
    expect(errors).toEqual([]);
  });
  it('a null profile field falls back to the profile cached in sessionStorage', async () => {
    const session = { acmeUserData: JSON.stringify({ profile: { attributes: { accountNumber: '0700001' } } }) };
    const { value } = await getVar(harness(), 'account number', { dataLayer: nulls, session });
    expect(value).toBe('0700001');
  });
});

describe('the build\'s checks', () => {
  it('find nothing wrong with the storefront: every name its actions use is a data element, its settings pass its own checks', () => {
    expect(containerProblems(storefront)).toEqual([]);
  });
});

describe('where its beacons go (replayed with the real tracker)', () => {
  const beaconUrls = async (settings: unknown, events: Fixture['events']) =>
    (await replay({ page: { url: 'https://www.keepstock.example/catalog' }, cookies: { sat_track: 'true' }, dataLayer: {}, settings, events, responses: [{ match: '/id?', error: 'network' }] })).effects
      .filter((e): e is Extract<Effect, { type: 'request' }> => e.type === 'request' && e.kind === 'beacon')
      .map((e) => new URL(e.url));
  it('each environment sends to its own report suite', async () => {
    const suites: string[] = [];
    for (const environment of ['production', 'staging', 'development']) {
      for (const url of await beaconUrls({ environment }, [{ type: 'library-loaded' }, 'Page View'])) suites.push(url.pathname.split('/')[3]!);
    }
    expect(suites).toEqual(['acmeprod', 'acmestage', 'acmedev']);
  });
  it('a link to another keepstock host is internal (no exit beacon); a link off the brand is an exit link', async () => {
    const click = (href: string) => ({ type: 'click' as const, link: { href, text: 'go', region: 'BODY', hasTlCall: false, tag: 'A', objectId: 'undefined' } });
    const sent = await beaconUrls({}, [
      { type: 'library-loaded' },
      'Page View',
      click('https://partners.keepstock.com/catalog'),
      click('https://elsewhere.example/page'),
    ]);
    expect(sent.map((u) => [u.searchParams.get('pe'), u.searchParams.get('pev1')])).toEqual([
      [null, null],
      ['lnk_e', 'https://elsewhere.example/page'],
    ]);
  });
});

describe('what its build writes into offtag.js and the worker', () => {
  it('the session keys the bridge reads for the page\'s brand, the container\'s name and version, and its build date, which marks its beacons', () => {
    const c = buildConstants(storefront, 'production', storefront.buildDate!);
    const keysFor = new Function(`return ${c.__OFFTAG_SESSION_KEYS__}`)() as (brand: string) => string[];
    expect(keysFor('acme')).toEqual(['acmeUserData', 'acmePreviousPageName']);
    expect(JSON.parse(c.__OFFTAG_BUILD_INFO__)).toMatchObject({ buildDate: '2025-08-19T00:00:00Z', containerName: 'storefront', containerVersion: '1.0.0' });
    expect(tagContainerMarker(storefront.buildDate)).toBe('LF8J');
  });
});

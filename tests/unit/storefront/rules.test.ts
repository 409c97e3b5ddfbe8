/**
 * One test per rule (docs/spec-coverage.md D4): the event it fires on, its conditions, what it asks the
 * services for or emits, and what happens when its inputs fail.
 */
import { describe, expect, it } from 'vitest';
import { DATA_LAYER } from './fixtures.ts';
import { cookieString, effectsOf, harness, logsOf, throwingDataLayer } from '../harness.ts';

const LINK_TRACK_VARS = 'pageName,eVar1,eVar4,list1,list2,events';

/** Everything DATA_LAYER and a fresh browser give a page view. */
const PAGE_VIEW_VARS = {
  pageName: 'acme:educational content:order management',
  channel: 'Safety',
  server: 'www.keepstock.example',
  hier1: 'acme|educational content|order management',
  eVar1: 'Full Logged In',
  eVar2: '0812345',
  eVar3: 'SAP-99',
  eVar4: '0812345:SAP-99',
  eVar5: 'b2b',
  eVar6: 'active',
  eVar7: 'org-5',
  eVar8: 'u-123',
  eVar9: 'CIM-7',
  eVar10: 'CSG-4',
  eVar11: 'gcom fullsite',
  eVar12: 'en-us',
  eVar13: 'article',
  eVar14: 'How to reorder',
  eVar16: 'New',
  eVar17: '1',
  eVar18: 'First Visit',
  eVar19: 'New Visitor',
  eVar20: '1ABC2',
  prop1: 'D=v1',
  prop2: 'D=pageName',
  list1: 'imp-hero,imp-carousel,imp-footer',
  list2: 'spring-sale,free-shipping',
  events: 'event49',
};

describe('rule "Visitor service"', () => {
  it('starts the visitor service on Library Loaded', async () => {
    const h = harness();
    await h.fire({ type: 'library-loaded' });
    expect(h.rec.visitorStarts).toBe(1);
  });
  it('does not fire on DOM Ready, Window Loaded or a direct call', async () => {
    const h = harness();
    await h.fire({ type: 'dom-ready' });
    await h.fire({ type: 'window-loaded' });
    await h.fire('Visitor service');
    expect(h.rec.visitorStarts).toBe(0);
  });
  it('does not wait for the ID call (which may take 30 s): no action timeout', async () => {
    const h = harness({ visitorStart: () => new Promise<void>(() => undefined) });
    const batch = await h.fire({ type: 'library-loaded' });
    expect(h.rec.visitorStarts).toBe(1);
    expect(logsOf(batch, 'error')).toEqual([]);
    expect(effectsOf(batch, 'timer')).toEqual([]);
  });
  it('logs a visitor service that fails to start; the event goes on', async () => {
    const h = harness({ visitorStart: () => Promise.reject(new Error('Org ID is not a string.')) });
    const batch = await h.fire({ type: 'library-loaded' });
    expect(logsOf(batch, 'error')).toContain('The visitor service did not start: Org ID is not a string.');
  });
});

describe('rule "Page View"', () => {
  it('sends one page-view hit with the mapping of spec-coverage.md D5', async () => {
    const h = harness();
    await h.fire('Page View', { dataLayer: DATA_LAYER });
    expect(h.rec.hits).toEqual([{ type: 't', vars: PAGE_VIEW_VARS }]);
  });
  it('leaves currency to the tracker (cc=USD) and sends no empty variable', async () => {
    const h = harness();
    await h.fire('Page View', { dataLayer: DATA_LAYER });
    const vars = h.rec.hits[0]!.vars;
    expect(vars).not.toHaveProperty('currencyCode');
    expect(vars).not.toHaveProperty('eVar15'); // no previous page on the first page
    expect(Object.values(vars).every((v) => v !== '')).toBe(true);
  });
  it('carries the previous page name from the second page on', async () => {
    const h = harness();
    await h.fire('Page View', { dataLayer: DATA_LAYER });
    await h.fire('Page View', { dataLayer: { page: { pageInfo: { pageType: 'Cart', pageUID: 'cart' } } } });
    expect(h.rec.hits[1]!.vars.eVar15).toBe('acme:educational content:order management');
    expect(h.world.session.acmePreviousPageName).toBe('acme:cart:cart');
  });
  it.each(['Full Logged In', 'Soft Logged In'])('adds event49 for %s', async (loginState) => {
    const h = harness();
    await h.fire('Page View', { dataLayer: { user: { profile: { attributes: { loginState } } } } });
    expect(h.rec.hits[0]!.vars.events).toBe('event49');
  });
  it('sends no event for a visitor who is not logged in, with the defaults of spec-coverage.md §8', async () => {
    const h = harness();
    await h.fire('Page View', { dataLayer: {} });
    const vars = h.rec.hits[0]!.vars;
    expect(vars.events).toBeUndefined();
    expect(vars).toMatchObject({
      pageName: 'acme::not set in pdl',
      channel: 'acme',
      eVar1: 'Not Logged In',
      eVar4: 'Unknown User',
      eVar5: 'anon',
      eVar6: 'Not Set in PDL',
    });
  });
  it('uses the user profile cached in sessionStorage', async () => {
    const h = harness();
    const cached = { profile: { attributes: { loginState: 'Soft Logged In', accountNumber: '42' }, profileInfo: { profileID: 'S1' } } };
    await h.fire('Page View', { dataLayer: {}, session: { acmeUserData: JSON.stringify(cached) } });
    expect(h.rec.hits[0]!.vars).toMatchObject({ eVar1: 'Soft Logged In', eVar2: '42', eVar3: 'S1', eVar4: '42:S1', events: 'event49' });
  });
  it('still sends the beacon when the data layer cannot be read, with the failures logged', async () => {
    const h = harness();
    const batch = await h.fire('Page View', { dataLayer: throwingDataLayer() });
    expect(h.rec.hits).toHaveLength(1);
    expect(h.rec.hits[0]!.vars).toMatchObject({ pageName: 'acme::not set in pdl', eVar1: 'Not Logged In', eVar4: 'Unknown User' });
    expect(logsOf(batch, 'error')).toContain('Failed to execute data element module for data element "page type". data layer unreadable');
  });
  it('does not wait for the tracker (the beacon may wait for the ID call): no action timeout', async () => {
    const h = harness({ track: () => new Promise<void>(() => undefined) });
    const batch = await h.fire('Page View', { dataLayer: DATA_LAYER });
    expect(h.rec.hits).toHaveLength(1);
    expect(logsOf(batch, 'error')).toEqual([]);
    expect(effectsOf(batch, 'timer')).toEqual([]);
  });
  it('logs a tracker that fails; the event goes on', async () => {
    const h = harness({ track: () => Promise.reject(new Error('boom')) });
    const batch = await h.fire('Page View', { dataLayer: DATA_LAYER });
    expect(logsOf(batch, 'error')).toContain('Analytics beacon of rule "Page View" failed: boom');
  });
  it('publishes the values it read for _satellite.getVar', async () => {
    const h = harness();
    const batch = await h.fire('Page View', { dataLayer: DATA_LAYER });
    const vars = effectsOf(batch, 'vars')[0]!.values;
    expect(vars['page name']).toBe(PAGE_VIEW_VARS.pageName);
    expect(vars['customer combination key']).toBe('0812345:SAP-99');
  });
  it('writes the plugin cookies in the same batch', async () => {
    const h = harness();
    const batch = await h.fire('Page View', { dataLayer: DATA_LAYER });
    expect(effectsOf(batch, 'cookie').map((c) => c.name).sort()).toEqual(['s_inv', 's_ivc', 's_lv', 's_lv_s', 's_nr30', 's_tslv', 's_vnc365']);
  });
  it('counts a second visit after 30 minutes without a hit', async () => {
    const h = harness();
    await h.fire('Page View', { dataLayer: DATA_LAYER });
    h.advance(10 * 60_000);
    await h.fire('Page View', { dataLayer: DATA_LAYER });
    h.advance(31 * 60_000);
    await h.fire('Page View', { dataLayer: DATA_LAYER });
    expect(h.rec.hits.map((hit) => [hit.vars.eVar16, hit.vars.eVar17, hit.vars.eVar18, hit.vars.eVar19])).toEqual([
      ['New', '1', 'First Visit', 'New Visitor'],
      ['New', '1', 'First Visit', 'New Visitor'],
      ['Repeat', '2', 'Less than 1 day', '31 minutes'],
    ]);
  });
});

describe('rule "Content: Modal View"', () => {
  it('sends a page view named after the modal', async () => {
    const h = harness();
    await h.fire('Content: Modal View', { dataLayer: DATA_LAYER });
    expect(h.rec.hits).toEqual([{ type: 't', vars: { ...PAGE_VIEW_VARS, pageName: 'acme:email sign up succes:newsletter-confirmat' } }]);
  });
  it('falls back to the page type plus " - modal"', async () => {
    const h = harness();
    const dataLayer = { page: { pageInfo: { pageType: 'Share Product' } }, modal: { page: { pageInfo: { pageUID: 'share' } } } };
    await h.fire('Content: Modal View', { dataLayer });
    // 'Share Product - modal' has 21 characters: the segment is cut like any other.
    expect(h.rec.hits[0]!.vars.pageName).toBe('acme:share product - moda:share');
  });
  it('adds event49 for a logged-in visitor', async () => {
    const h = harness();
    await h.fire('Content: Modal View', { dataLayer: DATA_LAYER });
    expect(h.rec.hits[0]!.vars.events).toBe('event49');
  });
  it('sends with defaults when the data layer cannot be read', async () => {
    const h = harness();
    await h.fire('Content: Modal View', { dataLayer: throwingDataLayer() });
    expect(h.rec.hits[0]!.vars.pageName).toBeUndefined(); // the modal page name's default is ''
    expect(h.rec.hits[0]!.vars.eVar1).toBe('Not Logged In');
  });
});

describe('rule "Element Impressions"', () => {
  it('sends a custom link beacon named by the impression ids, with the link variables only', async () => {
    const h = harness();
    await h.fire('Element Impressions', { dataLayer: DATA_LAYER });
    expect(h.rec.hits).toEqual([
      {
        type: 'tl',
        linkType: 'o',
        linkName: 'imp-hero,imp-carousel,imp-footer',
        linkTrackVars: LINK_TRACK_VARS,
        linkTrackEvents: 'event49',
        vars: {
          pageName: PAGE_VIEW_VARS.pageName,
          eVar1: 'Full Logged In',
          eVar4: '0812345:SAP-99',
          list1: PAGE_VIEW_VARS.list1,
          list2: PAGE_VIEW_VARS.list2,
          events: 'event49',
        },
      },
    ]);
  });
  it('touches neither the previous page name nor the visit plugins', async () => {
    const h = harness();
    const batch = await h.fire('Element Impressions', { dataLayer: DATA_LAYER });
    expect(effectsOf(batch, 'storage')).toEqual([]);
    expect(effectsOf(batch, 'cookie')).toEqual([]);
  });
  it('without impression ids it is still a link beacon, named as Launch names one', async () => {
    const h = harness();
    await h.fire('Element Impressions', { dataLayer: {} });
    expect(h.rec.hits[0]).toMatchObject({ type: 'tl', linkType: 'o', linkName: 'link clicked' });
    expect(h.rec.hits[0]!.vars.events).toBeUndefined();
  });
  it('logs an unreadable data layer and still sends', async () => {
    const h = harness();
    const batch = await h.fire('Element Impressions', { dataLayer: throwingDataLayer() });
    expect(h.rec.hits[0]).toMatchObject({ type: 'tl', linkName: 'link clicked' });
    expect(logsOf(batch, 'error')).toContain('Failed to execute data element module for data element "element impression ids". data layer unreadable');
  });
});

describe('rule "Element Interactions"', () => {
  it('sends a custom link beacon named by the click ids', async () => {
    const h = harness();
    await h.fire('Element Interactions', { dataLayer: DATA_LAYER });
    expect(h.rec.hits).toEqual([
      {
        type: 'tl',
        linkType: 'o',
        linkName: 'btn-reorder,btn-share',
        linkTrackVars: LINK_TRACK_VARS,
        linkTrackEvents: 'event49',
        vars: {
          pageName: PAGE_VIEW_VARS.pageName,
          eVar1: 'Full Logged In',
          eVar4: '0812345:SAP-99',
          list1: PAGE_VIEW_VARS.list1,
          list2: PAGE_VIEW_VARS.list2,
          events: 'event49',
        },
      },
    ]);
  });
  it('is named Not Set in PDL without click ids', async () => {
    const h = harness();
    await h.fire('Element Interactions', { dataLayer: { page: { element: [{ impression: { id: 'i' } }] } } });
    expect(h.rec.hits[0]!.linkName).toBe('Not Set in PDL');
  });
  it('logs an unreadable data layer and still sends', async () => {
    const h = harness();
    const batch = await h.fire('Element Interactions', { dataLayer: throwingDataLayer() });
    expect(h.rec.hits[0]!.linkName).toBe('Not Set in PDL');
    expect(logsOf(batch, 'error')).toContain('Failed to execute data element module for data element "element click ids". data layer unreadable');
  });
});

describe('rule "Real user monitoring"', () => {
  const INSIGHTS = 'https://www.keepstock.example/insights/dashboard';
  const cookies = { community: 'pros', AB1: 'a', client_ip: '203.0.113.9', insights_eligible: 'true' };
  const rum = { applicationId: 'app-1', clientToken: 'tok-1' };

  it('loads Datadog RUM on Window Loaded in production on /insights, cookies as context after 1 s', async () => {
    const h = harness({ config: { rum } });
    const batch = await h.fire({ type: 'window-loaded' }, { url: INSIGHTS, cookie: cookieString(cookies) });
    expect(effectsOf(batch, 'script')).toEqual([
      {
        type: 'script',
        id: 'offtag-rum',
        src: 'https://www.datadoghq-browser-agent.com/us1/v7/datadog-rum.js',
        crossOrigin: 'anonymous',
        init: {
          fn: 'DD_RUM.init',
          args: [
            {
              applicationId: 'app-1',
              clientToken: 'tok-1',
              site: 'datadoghq.com',
              service: 'acme-insights',
              env: 'production',
              sessionSampleRate: 100,
              sessionReplaySampleRate: 100,
              defaultPrivacyLevel: 'mask-user-input',
              allowedTracingUrls: ['https://api.example.com', 'https://insights-api.example.com'],
              compressIntakeRequests: true,
            },
          ],
        },
        then: {
          fn: 'DD_RUM.setGlobalContextProperty',
          args: [
            'cookies',
            {
              community: 'pros',
              AB1: 'a',
              AB2: '',
              AD1: '',
              DS1: '',
              DS2: '',
              signin: '',
              OHBU: '',
              'X-BT': '',
              clientIp: '203.0.113.9',
              G_: '',
              O: '',
              insightsEligible: 'true',
            },
          ],
          delay: 1000,
        },
      },
    ]);
  });
  it('follows the rum setting (script URL for the local intake)', async () => {
    const h = harness({ config: { rum: { scriptUrl: 'http://127.0.0.1:8090/rum.js', service: 'svc' } } });
    const batch = await h.fire({ type: 'window-loaded' }, { url: INSIGHTS });
    const script = effectsOf(batch, 'script')[0]!;
    expect(script.src).toBe('http://127.0.0.1:8090/rum.js');
    expect(script.init!.args[0]).toMatchObject({ service: 'svc' });
    expect(script.init!.args[0]).not.toHaveProperty('proxy');
  });
  it('passes rum.proxy to the SDK as its proxy (a first-party intake)', async () => {
    const h = harness({ config: { rum: { proxy: 'https://rum.keepstock.example/intake' } } });
    const batch = await h.fire({ type: 'window-loaded' }, { url: INSIGHTS });
    expect(effectsOf(batch, 'script')[0]!.init!.args[0]).toMatchObject({ proxy: 'https://rum.keepstock.example/intake' });
  });
  it('with rum.partytown (measurement only), routes it through Partytown without compression (no Worker there)', async () => {
    const h = harness({ config: { rum: { partytown: true } } });
    const [script] = effectsOf(await h.fire({ type: 'window-loaded' }, { url: INSIGHTS }), 'script');
    expect(script).toMatchObject({ partytown: true, init: { args: [{ compressIntakeRequests: false }] } });
  });
  it('takes an http rum.proxy in any case, and no proxy, without a message; refuses one that only contains http(s)://', async () => {
    const load = async (rum: object) => {
      const batch = await harness({ config: { rum } }).fire({ type: 'window-loaded' }, { url: INSIGHTS });
      return { args: effectsOf(batch, 'script')[0]!.init!.args[0], said: JSON.stringify(batch.effects).includes('offtagConfig.rum') };
    };
    expect(await load({ proxy: 'HTTP://rum.keepstock.example/intake' })).toMatchObject({ args: { proxy: 'HTTP://rum.keepstock.example/intake' }, said: false });
    expect(await load({})).toMatchObject({ said: false });
    const inside = await load({ proxy: 'ftp://x.example/https://y.example' });
    expect(inside.said).toBe(true);
    expect(inside.args).not.toHaveProperty('proxy');
  });
  it('without an applicationId and clientToken in offtagConfig, gives the SDK empty ones (the container sets none)', async () => {
    const batch = await harness().fire({ type: 'window-loaded' }, { url: INSIGHTS });
    expect(effectsOf(batch, 'script')[0]!.init!.args[0]).toMatchObject({ applicationId: '', clientToken: '' });
  });
  it('rejects a rum.proxy that is not an http(s) URL, with a message, and keeps none', async () => {
    const h = harness({ config: { rum: { proxy: 'rum.keepstock.example/intake' } } });
    const batch = await h.fire({ type: 'window-loaded' }, { url: INSIGHTS });
    expect(effectsOf(batch, 'script')[0]!.init!.args[0]).not.toHaveProperty('proxy');
    expect(JSON.stringify(batch.effects)).toContain(
      'offtagConfig.rum.proxy must be an http(s) URL or \'\'; got \\"rum.keepstock.example/intake\\". Using \\"\\".',
    );
  });
  it.each([
    ['outside /insights', {}, { url: 'https://www.keepstock.example/catalog' }],
    ['in staging', { environment: 'staging' }, { url: INSIGHTS }],
    ['in development', { environment: 'development' }, { url: INSIGHTS }],
    ['with targeting cookies enabled (C0007:0)', {}, { url: INSIGHTS, cookie: 'OptanonConsent=groups%3DC0007%3A0' }],
    ['with GPC on', {}, { url: INSIGHTS, gpc: true }],
  ])('does not load %s', async (_why, config, page) => {
    const h = harness({ config });
    const batch = await h.fire({ type: 'window-loaded' }, page);
    expect(effectsOf(batch, 'script')).toEqual([]);
    expect(batch.effects).toContainEqual(expect.objectContaining({ type: 'monitor', name: 'rule-condition-failed' }));
  });
  it('does not fire on Library Loaded or DOM Ready', async () => {
    const h = harness();
    const a = await h.fire({ type: 'library-loaded' }, { url: INSIGHTS });
    const b = await h.fire({ type: 'dom-ready' }, { url: INSIGHTS });
    expect([...effectsOf(a, 'script'), ...effectsOf(b, 'script')]).toEqual([]);
  });
});

describe('rule "Product analytics" (Amplitude through Partytown)', () => {
  const amplitude = { apiKey: 'key-1', serverUrl: 'https://amp.keepstock.example/2/httpapi' };
  const consent = cookieString({ sat_track: 'true' });

  it('loads the tag on Window Loaded through Partytown, init and a page view through forward', async () => {
    const h = harness({ config: { amplitude } });
    const batch = await h.fire({ type: 'window-loaded' }, { cookie: consent, dataLayer: DATA_LAYER });
    const [script] = effectsOf(batch, 'script');
    expect(script).toMatchObject({
      id: 'offtag-amplitude',
      src: 'https://cdn.amplitude.com/libs/analytics-browser-2.46.0-min.js.gz',
      partytown: true,
      init: { fn: 'amplitude.init', args: ['key-1', { serverUrl: amplitude.serverUrl, autocapture: false, fetchRemoteConfig: false }] },
      then: { fn: 'amplitude.track', args: ['Page View', { page_name: PAGE_VIEW_VARS.pageName }], delay: 0 },
    });
  });
  it("keeps Amplitude's offline handling by default; holdWhileOffline false turns it off (offline: null)", async () => {
    const initOptions = async (config: object) => {
      const batch = await harness({ config }).fire({ type: 'window-loaded' }, { cookie: consent });
      return effectsOf(batch, 'script')[0]!.init!.args[1] as Record<string, unknown>;
    };
    expect(await initOptions({ amplitude })).not.toHaveProperty('offline');
    expect(await initOptions({ amplitude: { ...amplitude, holdWhileOffline: false } })).toHaveProperty('offline', null);
  });
  it('runs on the main thread when amplitude.partytown is false', async () => {
    const h = harness({ config: { amplitude: { ...amplitude, partytown: false } } });
    const batch = await h.fire({ type: 'window-loaded' }, { cookie: consent });
    expect(effectsOf(batch, 'script')[0]).not.toHaveProperty('partytown');
  });
  it.each([
    ['without an API key', {}, consent, false],
    ['without tracking consent', { amplitude }, '', false],
    ['with GPC on', { amplitude }, consent, true],
  ])('does not load %s', async (_why, config, cookie, gpc) => {
    const h = harness({ config });
    const batch = await h.fire({ type: 'window-loaded' }, { cookie, gpc });
    expect(effectsOf(batch, 'script')).toEqual([]);
  });
});

describe('direct calls', () => {
  it('a name no rule listens to is logged', async () => {
    const h = harness();
    const batch = await h.fire('Page view');
    expect(logsOf(batch, 'log')).toContain('"Page view" does not match any direct call identifiers.');
    expect(h.rec.hits).toEqual([]);
  });
  it('each rule fires once per call and only for its own name', async () => {
    const h = harness();
    for (const id of ['Page View', 'Content: Modal View', 'Element Impressions', 'Element Interactions']) {
      await h.fire(id, { dataLayer: DATA_LAYER });
    }
    expect(h.rec.hits.map((hit) => [hit.type, hit.vars.pageName])).toEqual([
      ['t', PAGE_VIEW_VARS.pageName],
      ['t', 'acme:email sign up succes:newsletter-confirmat'],
      ['tl', PAGE_VIEW_VARS.pageName],
      ['tl', PAGE_VIEW_VARS.pageName],
    ]);
  });
});

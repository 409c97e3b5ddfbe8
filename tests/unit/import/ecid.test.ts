/**
 * An imported ECID extension in the engine: its variables' `%data element%` tokens are expanded on
 * the first event (Library Loaded), as Launch expands them when it creates the `Visitor` instance
 * at library load, and configure the worker's visitor service before its first use; Set Customer
 * IDs with tokens reaches the ID call. Run through the replay harness (the real engine and
 * services, answers from the fixture).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runImport } from '../../../tools/import/command.ts';
import { replay, type Fixture } from '../../../tools/replay/replay.ts';
import type { Effect } from '../../../src/protocol.ts';
// @ts-expect-error -- the fixtures' writers are plain ES modules without types
import { libraryText } from '../../fixtures/launch/library-text.mjs';
// @ts-expect-error -- idem
import { analyticsExtension, ecidExtension } from '../../fixtures/launch/extensions.mjs';

const TMP = 'test-results/import-unit/ecid';
const C = 'core/src/lib/';
const ORG = '0123456789ABCDEF01234567@AdobeOrg';
const jsVar = (path: string) => ({ modulePath: `${C}dataElements/javascriptVariable.js`, settings: { path } });
const directCall = (identifier: string) => [{ modulePath: `${C}events/directCall.js`, settings: { identifier }, ruleOrder: 50 }];
const rid = (n: number) => 'RL' + n.toString(16).padStart(32, '0');

const library = {
  buildInfo: { turbineVersion: '28.1.0', turbineBuildDate: '2026-01-15T10:00:00Z', buildDate: '2026-01-15T10:00:00Z' },
  environment: { id: 'EN00000000000000000000000000000009', stage: 'production' },
  dataElements: {
    'tracking server': jsVar('digitalData.site.trackingServer'),
    'sync container': jsVar('digitalData.site.syncContainer'),
    'crm id': jsVar('digitalData.user.crmId'),
    'cookie domain': jsVar('digitalData.site.cookieDomain'),
  },
  extensions: {
    core: { displayName: 'Core', hostedLibFilesBaseUrl: 'https://assets.example.com/extensions/core/', modules: {} },
    'adobe-analytics': analyticsExtension({ orgId: ORG, libraryCode: { type: 'managed', accounts: { production: ['acmeprod'] } }, trackerProperties: { trackingServer: 'metrics.example.com' } }),
    'adobe-mcid': ecidExtension({
      orgId: ORG,
      variables: [
        { name: 'trackingServer', value: '%tracking server%' },
        { name: 'idSyncContainerID', value: '%sync container%' },
        { name: 'cookieDomain', value: '%cookie domain%' },
        { name: 'cookieLifetime', value: '86400' },
        { name: 'loadTimeout', value: '5000' },
      ],
    }),
  },
  company: { orgId: ORG, dynamicCdnEnabled: false },
  property: { id: 'PR00000000000000000000000000000009', name: 'ECID tokens', settings: { domains: ['keepstock.example'], undefinedVarsReturnEmpty: false, ruleComponentSequencingEnabled: true } },
  rules: [
    { id: rid(1), name: 'log in', events: directCall('log in'), conditions: [], actions: [{ modulePath: 'adobe-mcid/src/lib/actions/setCustomerIds.js', settings: { customerIds: [{ integrationCode: 'crm', value: '%crm id%', authState: 'AUTHENTICATED' }] } }] },
    { id: rid(2), name: 'page view', events: directCall('page view'), conditions: [], actions: [{ modulePath: 'adobe-analytics/src/lib/actions/sendBeacon.js', settings: { type: 'page' } }] },
  ],
};

const START = Date.UTC(2026, 0, 15, 10, 0, 0);
const fixture = (dataLayer: unknown): Fixture => ({
  name: 'ECID variables from data elements',
  clock: { start: START },
  page: { url: 'https://www.keepstock.example/', cookieDomain: '.keepstock.example' },
  // An analytics visitor id the library takes only with a tracking server.
  cookies: { s_vi: '[CS]v1|2F0A1B2C3D4E5F60-6000012345678901[CE]' },
  dataLayer,
  events: [{ type: 'library-loaded' }, { type: 'direct-call', id: 'log in' }, { type: 'direct-call', id: 'page view' }],
  responses: [{ match: '/id?', body: { d_mid: '12345678901234567890123456789012345678', id_sync_ttl: 604800, d_region: 7, d_blob: 'blob' } }],
} as Fixture);

const requests = (effects: Effect[], part: string) => effects.filter((e): e is Extract<Effect, { type: 'request' }> => e.type === 'request' && e.url.includes(part)).map((e) => e.url);

describe('an imported ECID extension with %data element% variables', () => {
  mkdirSync(TMP, { recursive: true });
  writeFileSync(`${TMP}/ecid.js`, libraryText(library) as string);
  const { lines } = runImport({ library: `${TMP}/ecid.js`, out: `${TMP}/out` });
  const load = async () => ((await import(/* @vite-ignore */ '../../../' + TMP + '/out/container.ts')) as { container: NonNullable<Parameters<typeof replay>[1]>['container'] }).container!;

  it('reports only the variable the engine does not take', () => {
    expect(lines.filter((l) => l.startsWith('ECID variable'))).toEqual(["ECID variable loadTimeout not imported: the engine's visitor service waits 30 seconds for an ID call, VisitorAPI's default"]);
  });

  it('expands the tokens on the first event: the ID call carries the container id, the beacon the analytics id; customer ids from a data element reach the ID call', async () => {
    const container = await load();
    const { effects } = await replay(fixture({ site: { trackingServer: 'metrics.keepstock.example', syncContainer: 7, cookieDomain: 'keepstock.example' }, user: { crmId: 'u-1' } }), { container, services: container.services! });
    // The AMCV cookie on the cookie domain from the data layer, for a day (cookieLifetime 86400).
    const amcv = effects.filter((e): e is Extract<Effect, { type: 'cookie' }> => e.type === 'cookie' && e.name.startsWith('AMCV_'));
    expect(amcv.length).toBeGreaterThan(0);
    for (const c of amcv) expect({ domain: c.domain, expires: c.expires }).toEqual({ domain: 'keepstock.example', expires: START + 86_400_000 });
    const ids = requests(effects, '/id?');
    expect(ids.length).toBe(2);
    expect(ids[0]).toContain('&d_nsid=7&');
    expect(ids[1]).toContain('&d_cid_ic=crm%01u-1%011');
    const beacons = requests(effects, '/b/ss/');
    expect(beacons.length).toBe(1);
    expect(beacons[0]).toContain('&aid=2F0A1B2C3D4E5F60-6000012345678901&');
  });

  it('a token whose data element has no value leaves that setting out, as VisitorAPI drops an empty setting', async () => {
    const container = await load();
    const { effects } = await replay(fixture({ user: { crmId: 'u-1' } }), { container, services: container.services! });
    expect(requests(effects, '/id?')[0]).toContain('&d_nsid=0&');
    const amcv = effects.filter((e): e is Extract<Effect, { type: 'cookie' }> => e.type === 'cookie' && e.name.startsWith('AMCV_'));
    // Without the data element's value: the detected cookie domain.
    expect(amcv.map((c) => c.domain)).toContain('.keepstock.example');
    expect(requests(effects, '/b/ss/')[0]).not.toContain('aid=');
  });
});

describe("an imported ECID extension's opt-in", () => {
  const dir = `${TMP}/opt-in`;
  mkdirSync(dir, { recursive: true });
  const optIn = {
    ...library,
    dataElements: { ...library.dataElements, consent: jsVar('digitalData.consent') },
    extensions: {
      ...library.extensions,
      'adobe-mcid': ecidExtension({ orgId: ORG, variables: [], doesOptInApply: true, preOptInApprovals: { aa: true, aam: true, ecid: true, target: true }, previousPermissions: '%consent%' }),
      'adobe-analytics': analyticsExtension({
        orgId: ORG,
        libraryCode: { type: 'managed', accounts: { production: ['acmeprod'] } },
        trackerProperties: { trackingServer: 'metrics.example.com' },
        moduleProperties: { audienceManager: { config: { partner: 'acme', uuidCookie: { name: 'aam_uuid', days: 180 } } } },
      }),
    },
  };
  writeFileSync(`${dir}/ecid.js`, libraryText(optIn) as string);
  const { lines } = runImport({ library: `${dir}/ecid.js`, out: `${dir}/out` });

  it("imports the Analytics extension's Audience Manager forwarding, and says that Audience Manager's answer does not come back to the page", () => {
    expect(lines.filter((l) => l.includes('Analytics Audience Manager forwarding'))).toEqual([expect.stringMatching(/^note: .*carry it as AppMeasurement's do .*does not come back to the page$/)]);
  });
  const load = async () => ((await import(/* @vite-ignore */ '../../../' + dir + '/out/container.ts')) as { container: NonNullable<Parameters<typeof replay>[1]>['container'] }).container!;

  it('applies as the extension configures its Visitor: the previous permissions from a data element (an object or its JSON) win over the pre-approvals, and a denied "aa" sends no beacon', async () => {
    const container = await load();
    const denied = await replay(fixture({ consent: { aa: false, ecid: true } }), { container, services: container.services! });
    expect(requests(denied.effects, '/b/ss/')).toEqual([]);
    expect(requests(denied.effects, '/id?').length).toBeGreaterThan(0);
    const approved = await replay(fixture({ consent: JSON.stringify({ aa: true, ecid: true }) }), { container, services: container.services! });
    expect(requests(approved.effects, '/b/ss/').length).toBe(1);
    // With the forwarding on, the beacon is AppMeasurement's with its Audience Manager module ready: VisitorAPI is s_c_il[0], the tracker s_c_il[1].
    const [beacon] = requests(approved.effects, '/b/ss/');
    expect(beacon).toMatch(/\/b\/ss\/acmeprod\/10\/JS-2\.27\.0-L[0-9A-Z]{3}\/s\d+\?AQB=1&ndh=1&pf=1&callback=s_c_il\[1\]\.doPostbacks&et=1&t=[^&]+(&cid\.[^]*?&\.cid)?&d\.&nsid=0&jsonv=1&\.d&/);
    // Without previous permissions the decision is pending: AppMeasurement holds its hits until the site completes it.
    const pending = await replay(fixture({}), { container, services: container.services! });
    expect(requests(pending.effects, '/b/ss/')).toEqual([]);
  });
});

import { expect, test } from '@playwright/test';
import { replay } from '../../tools/replay/replay.ts';
import { decodeBeacon } from '../../tools/collector/decode.ts';
import { localConfig } from '../../tools/dev-server.ts';
import { SERVERS, resetServers, waitForBeacons } from './helpers.ts';

/** The analytics variables of a beacon: what must not differ between the browser and the replay. */
const VARIABLES = /^(pageName|ch|server|cc|events|h\d+|v\d+|c\d+|l\d+|pe|pev2)$/;
const variables = (params: Record<string, string>) =>
  Object.fromEntries(Object.entries(params).filter(([k]) => VARIABLES.test(k)).sort(([a], [b]) => a.localeCompare(b)));

test('the same page replayed in Node gives the same beacon as the worker in Chromium', async ({ page, request, context }) => {
  await resetServers(request);
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
  await page.goto('/test/minimal.html');
  const [browserBeacon] = await waitForBeacons(request, 1);

  const dataLayer = await page.evaluate(() => JSON.parse(JSON.stringify((window as any).digitalData)));
  const result = await replay({
    settings: localConfig({ collectorUrl: SERVERS.collector, idServiceUrl: SERVERS.idService, rumUrl: SERVERS.rum }),
    page: { url: `${SERVERS.page}/test/minimal.html`, viewport: { width: 1280, height: 720 } },
    cookies: { sat_track: 'true' },
    dataLayer,
    events: [{ type: 'library-loaded' }, 'Page View', { type: 'dom-ready' }, { type: 'window-loaded' }],
    responses: [{ match: '/id?', body: { d_mid: '12345678901234567890123456789012345678', id_sync_ttl: 604800, d_region: 7, d_blob: 'blob' } }],
  });
  const request_ = result.effects.find((e) => e.type === 'request' && e.kind === 'beacon');
  expect(request_).toBeDefined();
  const replayed = decodeBeacon((request_ as { url: string }).url, (request_ as { body?: string }).body);
  expect(variables(replayed.params)).toEqual(variables(browserBeacon.params));
  expect(Object.keys(variables(replayed.params)).length).toBeGreaterThan(15);
});

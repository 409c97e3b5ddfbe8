/**
 * Robustness against the built dist/: each probe a hostile page (or network, or policy) can make,
 * then the beacons the collector received. On the old main each of these stopped tracking or
 * threw into the page.
 */
import { expect, test, type Page } from '@playwright/test';
import { SERVERS, beacons, consoleOf, idCalls, resetServers, waitForBeacons } from './helpers.ts';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';

// A page answered by page.route counts as public to Chromium's Local Network Access checks, which
// would then block its calls to the loopback servers; this file's browser leaves those checks off.
test.use({
  launchOptions: {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests'],
  },
});

test.beforeEach(async ({ request, context }) => {
  await resetServers(request);
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
});

/** Serves /test/minimal.html with a Content-Security-Policy header and/or a script run right after offtag-config.js. */
async function serve(page: Page, opts: { csp?: string; after?: string }) {
  await page.route('**/test/minimal.html*', async (route) => {
    const res = await route.fetch();
    let body = await res.text();
    if (opts.after) body = body.replace('<script src="/offtag-config.js"></script>', `$&<script>${opts.after}</script>`);
    const headers = { ...res.headers() };
    delete headers['content-length'];
    if (opts.csp) headers['content-security-policy'] = opts.csp;
    await route.fulfill({ response: res, body, headers });
  });
}

const errorsOf = (page: Page) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
};

test.describe('Content-Security-Policy', () => {
  test(`offtag.js from the page's origin under "worker-src blob:" (its URL blocked) falls back to the blob and tracks`, async ({ page, request }) => {
    await serve(page, { csp: `script-src 'self' 'unsafe-inline'; worker-src blob:` });
    await page.goto('/test/minimal.html?host=same');
    const [beacon] = await waitForBeacons(request, 1);
    expect(beacon.pageName).toBe('acme:product detail:product 4km91');
  });

  for (const csp of [`script-src 'self' 'unsafe-inline'; worker-src 'self'`, `script-src 'self' 'unsafe-inline'`]) {
    test(`offtag.js from the page's origin tracks under "${csp}" (the worker starts from its URL, no blob)`, async ({ page, request }) => {
      await serve(page, { csp });
      const workers: string[] = [];
      page.on('worker', (w) => workers.push(w.url()));
      await page.goto('/test/minimal.html?host=same');
      const [beacon] = await waitForBeacons(request, 1);
      expect(beacon.pageName).toBe('acme:product detail:product 4km91');
      expect(workers).toContain(`${SERVERS.page}/dist/offtag-worker.js`);
    });
  }

  test('when the policy blocks both ways, one message names worker-src, and _satellite says events go nowhere', async ({ page, request }) => {
    await serve(page, { csp: `script-src 'self' 'unsafe-inline' ${SERVERS.scripts}; worker-src 'self'` });
    const lines = consoleOf(page);
    const errors = errorsOf(page);
    await page.goto('/test/minimal.html');
    await page.waitForLoadState('load');
    const blocked = `Offtag: the worker did not start (${SERVERS.scripts}/offtag-worker.js): a Content-Security-Policy must allow blob: in worker-src; nothing is tracked.`;
    await expect.poll(() => lines.filter((l) => l === blocked).length).toBe(1);
    await page.evaluate(() => (window as any)._satellite.track('Checkout'));
    expect(lines).toContain(`${blocked} (direct-call)`);
    expect(errors).toEqual([]);
    // No wait: without a worker nothing is pending that could still send; the bridge dropped the
    // call in track()'s own task (the "(direct-call)" line above).
    expect(await beacons(request)).toHaveLength(0);
  });
});

test('setCustomerIDs with sha256 through offtag-visitor.js: the /id call leaves, getCustomerIDs answers, the next Page View is sent (point 1)', async ({ page, request }) => {
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  await page.addScriptTag({ url: '/dist/offtag-visitor.js' });
  const ids = await page.evaluate(async () => {
    const v = (window as any).Visitor.getInstance('0123456789ABCDEF01234567@AdobeOrg');
    v.setCustomerIDs({ crm: { id: 'a@b.example', authState: 1 } }, 'sha256');
    (window as any)._satellite.track('Page View');
    return v.getCustomerIDs();
  });
  expect(ids.crm.id).toMatch(/^[0-9a-f]{64}$/);
  await waitForBeacons(request, 2);
  await expect.poll(async () => (await idCalls(request)).some((c) => c.path === '/id' && (c.query.d_cid_ic ?? '').startsWith('crm'))).toBe(true);
});

test('a BigInt in the data layer, setVar with a BigInt and with a cycle: later Page Views are still sent (point 2)', async ({ page, request }) => {
  const errors = errorsOf(page);
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  await page.evaluate(() => {
    const s = (window as any)._satellite;
    (window as any).digitalData.page.pageInfo.contentTitle = 10n;
    s.track('Page View');
    s.setVar('x', 1n);
    const c: any = { a: 1 };
    c.self = c;
    s.setVar('cyclic', c);
    s.track('Page View');
  });
  await waitForBeacons(request, 3);
  expect(errors).toEqual([]);
});

test.describe('hostile data layers never throw into the caller (point 3)', () => {
  const probes: Record<string, string> = {
    'a Proxy whose ownKeys trap throws': `new Proxy({}, { ownKeys() { throw new Error('no keys'); } })`,
    'a revoked Proxy': `(() => { const r = Proxy.revocable({}, {}); r.revoke(); return r.proxy; })()`,
    'a 100 000-deep object': `(() => { let o = {}; const top = o; for (let i = 0; i < 100000; i++) o = o.a = {}; return top; })()`,
  };
  for (const [what, expr] of Object.entries(probes)) {
    test(what, async ({ page, request }) => {
      const lines = consoleOf(page);
      await page.goto('/test/minimal.html');
      await waitForBeacons(request, 1);
      const threw = await page.evaluate((expr) => {
        const good = (window as any).digitalData;
        // Under page.element, a path the container reads, so the value travels with the read set too.
        (window as any).digitalData = { page: { pageInfo: good.page.pageInfo, element: (0, eval)(expr) } };
        try {
          (window as any)._satellite.track('Page View');
          return '';
        } catch (e) {
          return String(e);
        } finally {
          (window as any).digitalData = good;
        }
      }, expr);
      expect(threw).toBe('');
      await expect.poll(() => lines.some((l) => l.startsWith('The data layer could not be copied as it is'))).toBe(true);
      await waitForBeacons(request, 2);
    });
  }

  test('_satellite.cookie.set with a lone surrogate and setVar with a throwing object are said, not thrown', async ({ page, request }) => {
    const lines = consoleOf(page);
    await page.goto('/test/minimal.html');
    await waitForBeacons(request, 1);
    const threw = await page.evaluate(() => {
      const s = (window as any)._satellite;
      try {
        s.cookie.set('x', '\uD800');
        s.setVar(new Proxy({}, { ownKeys() { throw new Error('no keys'); } }));
        return '';
      } catch (e) {
        return String(e);
      }
    });
    expect(threw).toBe('');
    await expect.poll(() => lines.filter((l) => l.startsWith('Offtag: _satellite.')).length).toBe(2);
    expect(lines.some((l) => l.startsWith('Offtag: _satellite.set() failed; dropped:'))).toBe(true);
    expect(lines.some((l) => l.startsWith('Offtag: _satellite.setVar() failed; dropped:'))).toBe(true);
  });
});

test.describe('offtagConfig (points 4 and 7)', () => {
  test('a throwing getter on an offtagConfig key: _satellite is there and the Page View is sent', async ({ page, request }) => {
    await serve(page, { after: `Object.defineProperty(window.offtagConfig, 'brand', { enumerable: true, get() { throw new Error('boom'); } });` });
    const lines = consoleOf(page);
    await page.goto('/test/minimal.html');
    const [beacon] = await waitForBeacons(request, 1);
    expect(beacon.pageName).toBe('acme:product detail:product 4km91');
    expect(lines).toContain('offtagConfig values that cannot be sent to the worker were ignored: brand.');
  });

  test('window.offtagConfig itself throwing: _satellite is there, nothing throws', async ({ page }) => {
    await serve(page, { after: `Object.defineProperty(window, 'offtagConfig', { get() { throw new Error('boom'); } });` });
    const errors = errorsOf(page);
    await page.goto('/test/minimal.html');
    await page.waitForLoadState('load');
    expect(await page.evaluate(() => typeof (window as any)._satellite?.track)).toBe('function');
    expect(errors).toEqual([]);
  });

  test("brand: '' is refused by the worker with the bridge's rule, and both sides use acme's session keys", async ({ page, request }) => {
    await serve(page, { after: `window.offtagConfig.brand = '';` });
    const lines = consoleOf(page);
    await page.goto('/test/minimal.html');
    await waitForBeacons(request, 1);
    await expect.poll(() => lines).toContain(`offtagConfig.brand must be a non-empty string; got "". Using "acme".`);
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('acmePreviousPageName'))).toBe('acme:product detail:product 4km91');
  });
});

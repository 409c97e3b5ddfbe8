import { expect, test } from '@playwright/test';
import { SERVERS, beacons, beaconsIdle, caughtUp, consoleOf, resetServers, waitForBeacons } from './helpers.ts';

test.beforeEach(async ({ request, context }) => {
  await resetServers(request);
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
});

test('a page with only the script tag, served from another origin, gets its Page View computed in the worker and applied by the bridge', async ({
  page,
  request,
}) => {
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  await page.goto('/test/minimal.html');
  const [beacon] = await waitForBeacons(request, 1);
  expect(beacon.hitType).toBe('t');
  expect(beacon.pageName).toBe('acme:product detail:product 4km91');
  expect(beacon.events).toContain('event49');
  // The worker started from a same-origin blob that loads the worker file from the script host.
  expect(workers.some((u) => u.startsWith(`blob:${SERVERS.page}/`))).toBe(true);
  // Effects applied on the page: the visitor cookie, the previous page name in sessionStorage.
  await expect.poll(async () => (await page.context().cookies()).map((c) => c.name)).toContain(
    'AMCV_0123456789ABCDEF01234567%40AdobeOrg',
  );
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('acmePreviousPageName'))).toBe('acme:product detail:product 4km91');
  const metrics = await page.evaluate(() => (window as any).offtag.metrics());
  expect(metrics.events).toBeGreaterThanOrEqual(4);
  expect(metrics.postMs).toBeGreaterThan(0);
  // Every event posted so far is acknowledged in the end (its beacons stored), and no more than were posted.
  await expect
    .poll(() => page.evaluate(() => (({ events, acked }) => acked === events && events)((window as any).offtag.metrics())))
    .toBeGreaterThanOrEqual(metrics.events);
});

test('offtag.js from the page origin works the same', async ({ page, request }) => {
  await page.goto('/test/minimal.html?host=same');
  const [beacon] = await waitForBeacons(request, 1);
  expect(beacon.pageName).toBe('acme:product detail:product 4km91');
});

test('_satellite: getVar answers the latest evaluation, getVarAsync evaluates, setVar, cookie, buildInfo', async ({ page, request }) => {
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  const r = await page.evaluate(async () => {
    const s = (window as any)._satellite;
    s.setVar('mine', 'x');
    s.cookie.set('pref', 'a b', { expires: 1 });
    return {
      mine: s.getVar('mine'),
      asyncMine: await s.getVarAsync('mine'),
      cookie: s.cookie.get('pref'),
      buildDate: s.buildInfo.buildDate,
      stage: s.environment.stage,
    };
  });
  expect(r).toMatchObject({ mine: 'x', asyncMine: 'x', cookie: 'a b', buildDate: '2025-08-19T00:00:00Z', stage: 'production' });
});

test('lifecycle events fire once each, in order, also when the script arrives after the page has loaded', async ({ page }) => {
  await page.goto('/test/blank.html');
  await page.waitForLoadState('load');
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const s = document.createElement('script');
        s.src = '/dist/offtag.js';
        s.onload = () => resolve();
        document.head.appendChild(s);
      }),
  );
  // The worker keeps the devtools feed; ask it over the Comlink API port.
  await page.addScriptTag({ path: 'node_modules/comlink/dist/umd/comlink.min.js' });
  await expect
    .poll(() =>
      page.evaluate(async () => {
        const w = window as any;
        w.api ??= w.Comlink.wrap(w.offtag.apiPort);
        return (await w.api.monitor()).filter((m: any) => m.name === 'event').map((m: any) => m.data.type);
      }),
    )
    // Page Bottom is the engine's, just before DOM Ready when the page never called `_satellite.pageBottom()`.
    .toEqual(['library-loaded', 'page-bottom', 'dom-ready', 'window-loaded']);
});

test('calls made before the worker is ready are queued in order, never dropped', async ({ page, request }) => {
  await page.goto('/test/minimal.html?silent');
  await page.evaluate(() => {
    const s = (window as any)._satellite;
    s.track('Element Impressions');
    s.track('Page View');
    s.track('Element Interactions');
  });
  const list = await waitForBeacons(request, 3);
  expect(list.map((b) => b.hitType)).toEqual(['tl', 't', 'tl']);
});

test('a track name no rule listens to, and a non-string id, get their messages', async ({ page }) => {
  const lines = consoleOf(page);
  await page.goto('/test/minimal.html?silent');
  await page.evaluate(() => {
    (window as any)._satellite.track('Checkout Step 7');
    (window as any)._satellite.track(42);
  });
  await expect.poll(() => lines).toContain('"Checkout Step 7" does not match any direct call identifiers.');
  await expect.poll(() => lines).toContain('_satellite.track() expects a string identifier; got number. Using "42".');
});

test('a browser without Worker gets the unsupported message and nothing else runs', async ({ page }) => {
  const lines = consoleOf(page);
  await page.goto('/test/blank.html');
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        delete (window as any).Worker;
        const s = document.createElement('script');
        s.src = '/dist/offtag.js';
        s.onload = () => resolve();
        document.head.appendChild(s);
      }),
  );
  // Printed by offtag-effects.js (loaded for it: no page that tracks needs the text), a moment later.
  await expect.poll(() => lines).toContain('Adobe Launch is unsupported in IE 9 and below.');
  expect(await page.evaluate(() => typeof (window as any)._satellite)).toBe('undefined');
  expect(lines.filter((l) => l.includes('Offtag'))).toEqual([]);
});

test.describe('bad input: a clear message, and the event is processed with what could be read', () => {
  test('an uncloneable data layer (function, DOM node, throwing getter, cycle)', async ({ page, request }) => {
    const lines = consoleOf(page);
    await page.goto('/test/minimal.html?silent');
    await page.evaluate(() => {
      // On a path the container reads (page.element), so the bridge copies it with or without the read set.
      const dl = (window as any).digitalData;
      const el: any = { click: { id: 'hero' } };
      dl.page.element = [el];
      el.render = () => 1;
      el.node = document.body;
      Object.defineProperty(el, 'broken', { enumerable: true, get: () => { throw new Error('nope'); } });
      el.self = el;
      (window as any)._satellite.track('Page View');
    });
    const [beacon] = await waitForBeacons(request, 1);
    expect(beacon.pageName).toBe('acme:product detail:product 4km91');
    await expect.poll(() => lines.find((l) => l.startsWith('The data layer could not be copied as it is'))).toBeDefined();
    const warning = lines.find((l) => l.startsWith('The data layer could not be copied as it is'));
    for (const path of ['digitalData.page.element[0].render', 'digitalData.page.element[0].node', 'digitalData.page.element[0].broken', 'digitalData.page.element[0].self']) {
      expect(warning).toContain(path);
    }
  });

  test('a cyclic data layer that structured clone accepts', async ({ page, request }) => {
    const lines = consoleOf(page);
    await page.goto('/test/minimal.html?silent');
    await page.evaluate(() => {
      const dl = (window as any).digitalData;
      const el: any = { click: { id: 'hero' } };
      el.self = el;
      dl.page.element = [el];
      (window as any)._satellite.track('Page View');
    });
    await waitForBeacons(request, 1);
    await expect.poll(() => lines).toContain('The data layer refers back to itself at page.element[0].self; those references were dropped.');
  });

  test('a 10 MB data layer', async ({ page, request }) => {
    await page.goto('/test/minimal.html?silent');
    await page.evaluate(() => {
      const dl = (window as any).digitalData;
      dl.blob = Array.from({ length: 10_000 }, (_, i) => ({ i, text: 'x'.repeat(1000) }));
      (window as any)._satellite.track('Page View');
    });
    const [beacon] = await waitForBeacons(request, 1);
    expect(beacon.pageName).toBe('acme:product detail:product 4km91');
  });

  test('a cookie with broken %-encoding', async ({ page, request, context }) => {
    await context.addCookies([{ name: 'community', value: '%E0%A4%A', url: SERVERS.page }]);
    await page.goto('/test/minimal.html');
    await waitForBeacons(request, 1);
    expect(await page.evaluate(() => (window as any)._satellite.getVarAsync('community cookie'))).toBe('%E0%A4%A');
  });

  test('sessionStorage that throws', async ({ page, request }) => {
    const lines = consoleOf(page);
    await page.addInitScript(() => {
      Storage.prototype.getItem = () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      };
    });
    await page.goto('/test/minimal.html');
    const [beacon] = await waitForBeacons(request, 1);
    expect(beacon.pageName).toBe('acme:product detail:product 4km91');
    await expect.poll(() => lines).toContain('sessionStorage is not readable (SecurityError); the event goes on without it.');
  });

  test('offtagConfig of the wrong type, and unknown or ill-typed settings', async ({ page }) => {
    const lines = consoleOf(page);
    await page.addInitScript(() => {
      (window as any).offtagConfig = { brand: 7, colour: 'red' };
    });
    await page.goto('/test/minimal.html?silent');
    await expect.poll(() => lines).toContain('offtagConfig.brand must be a string; got number. Using "acme".');
    await expect.poll(() => lines).toContain('offtagConfig.colour is not a setting; it is ignored.');
    const page2 = await page.context().newPage();
    const lines2 = consoleOf(page2);
    await page2.goto('/test/blank.html');
    await page2.evaluate(() => {
      (window as any).offtagConfig = 'production';
      const s = document.createElement('script');
      s.src = '/dist/offtag.js';
      document.head.appendChild(s);
    });
    await expect.poll(() => lines2).toContain('offtagConfig must be an object; got string. Using the default settings.');
  });
});

test('beacons do not double up: the collector saw each once', async ({ page, request }) => {
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  // Nothing left to send: a second copy would have arrived by now.
  await beaconsIdle(page);
  expect((await beacons(request)).filter((b) => b.duplicate)).toEqual([]);
});

test('debug mode: rule messages appear only after _satellite.setDebug(true), and it lasts across a reload', async ({ page, request }) => {
  const lines: string[] = [];
  page.on('console', (m) => lines.push(m.text()));
  await page.goto('/test/minimal.html');
  await waitForBeacons(request, 1);
  // Every batch of the events so far applied: any rule message would be on the console.
  await caughtUp(page);
  expect(lines.filter((l) => l.startsWith('Rule "'))).toEqual([]);
  await page.evaluate(() => (window as any)._satellite.setDebug(true));
  await page.evaluate(() => (window as any)._satellite.track('Element Impressions'));
  await expect.poll(() => lines).toContain('Rule "Element Impressions" fired.');
  lines.length = 0;
  await page.reload();
  await expect.poll(() => lines).toContain('Rule "Page View" fired.');
  await page.evaluate(() => (window as any)._satellite.setDebug(false));
});

test.describe('start-up and the hot path', () => {
  /**
   * A page that records, by phase, every read of `localStorage`, `sessionStorage`,
   * `innerWidth`/`innerHeight` and every `document.cookie` read and write: `start` while offtag.js (a
   * classic script in the head) runs, `after` later. Before the hooks, it sets a cookie and a session
   * key the Page View's beacon reflects (eVar11 from the `siteType` cookie, eVar15 the previous page name).
   */
  const PROBED = `<!doctype html><html><head><meta charset="utf-8"><title>start-up probe</title>
<script src="/offtag-config.js"></script>
<script>
  document.cookie = 'siteType=mobile; path=/';
  sessionStorage.setItem('acmePreviousPageName', 'earlier page');
  window.__log = [];
  window.__phase = 'start';
  const hook = (o, name, kind) => {
    const d = Object.getOwnPropertyDescriptor(o, name);
    Object.defineProperty(o, name, { configurable: true, enumerable: true,
      get() { if (kind !== 'writes' || name === 'cookie') window.__log.push([name + ' read', window.__phase]); return d.get.call(this); },
      ...(d.set && { set(v) { if (kind === 'writes') window.__log.push([name + ' write ' + String(v).split('=')[0], window.__phase]); d.set.call(this, v); } }) });
  };
  hook(window, 'localStorage');
  hook(window, 'sessionStorage');
  hook(window, 'innerWidth');
  hook(window, 'innerHeight');
  hook(Document.prototype, 'cookie', 'writes');
  window.digitalData = { page: { pageInfo: { pageType: 'Home', pageUID: 'home' } } };
</script>
<script src="/dist/offtag.js"></script>
<script>_satellite.track('Page View'); window.__phase = 'after';</script>
</head><body><p>probe</p></body></html>`;

  test('start() reads no storage, no cookies and no viewport and writes no cookie; the init (debug flag, orphans, cookie domain, and the cookies, session keys and viewport of the early snapshots) waits for the worker', async ({ page, request }) => {
    await page.route('**/test/startup-probe.html', (r) => r.fulfill({ contentType: 'text/html', body: PROBED }));
    await page.goto('/test/startup-probe.html');
    const [pv] = await waitForBeacons(request, 1);
    // That Page View's snapshot, taken before the worker said hello, had no viewport, cookies or
    // session keys: the worker filled in the ones read at hello.
    expect(pv.params.bw).toBe(String(await page.evaluate(() => innerWidth)));
    expect([pv.params.v11, pv.params.v15]).toEqual(['gcom mweb', 'earlier page']);
    const log: Array<[string, string]> = await page.evaluate(() => (window as any).__log);
    expect(log.filter(([, phase]) => phase === 'start')).toEqual([]);
    // Later, when the worker said hello: localStorage (orphans, debug flag, cookie domain), the viewport, cookies and session keys.
    expect(log.map(([what]) => what)).toEqual(expect.arrayContaining(['localStorage read', 'innerWidth read', 'sessionStorage read', 'cookie read']));
    // The cookie domain is cached for the next page of this origin ('' = host-only on 127.0.0.1).
    expect(await page.evaluate(() => localStorage.getItem('offtag:cd'))).toBe('');
  });

  test('the cookie-domain answer is cached per origin: a page that finds it does not probe, and the worker gets it as is', async ({ page }) => {
    // A cached answer no probe on 127.0.0.1 would give ('' there): it can only have come from the cache.
    await page.addInitScript(() => localStorage.setItem('offtag:cd', '.cached.example'));
    await page.goto('/test/minimal.html?silent');
    await page.addScriptTag({ path: 'node_modules/comlink/dist/umd/comlink.min.js' });
    const cookieDomain = await page.evaluate(async () => {
      const w = window as any;
      return (await w.Comlink.wrap(w.offtag.apiPort).session()).page.cookieDomain;
    });
    expect(cookieDomain).toBe('.cached.example');
  });

  test('no JSON per event once the read set narrows the data layer: events wait as posted, as of their own time, and become JSON on pagehide', async ({ page, request }) => {
    await page.goto('/test/minimal.html?silent');
    await page.evaluate(() => (window as any)._satellite.track('Page View'));
    // The read set comes right after start-up; by the first beacon it is in force.
    await waitForBeacons(request, 1);
    const r = await page.evaluate(() => {
      const w = window as any;
      const stringify = JSON.stringify;
      let calls = 0;
      JSON.stringify = ((...a: Parameters<typeof stringify>) => (calls++, stringify(...a))) as typeof stringify;
      for (const id of ['one', 'two']) {
        w.digitalData.page.pageInfo.pageUID = id;
        for (let i = 0; i < 25; i++) w._satellite.track('Element Interactions');
      }
      const perEvent = calls;
      // No acknowledgement can arrive inside this task: all 50 are still kept.
      dispatchEvent(new PageTransitionEvent('pagehide'));
      JSON.stringify = stringify;
      const key = Object.keys(localStorage).find((k) => k.startsWith('offtag:u:'))!;
      // (The Page View may still be kept too: its acknowledgement can come after its beacon arrived.)
      const kept = JSON.parse(localStorage.getItem(key)!).filter((i: any) => i.event?.id === 'Element Interactions');
      localStorage.removeItem(key);
      return { perEvent, kept: kept.length, uids: [...new Set(kept.map((i: any) => i.snapshot.dataLayer.page.pageInfo.pageUID))] };
    });
    expect(r).toEqual({ perEvent: 0, kept: 50, uids: ['one', 'two'] });
  });

  test('a burst of events gets a few acknowledgements, not one per event, and every event is acknowledged', async ({ page, request }) => {
    // Counts the acknowledgements (`a`) offtag.js's port receives.
    await page.addInitScript(() => {
      const w = window as any;
      w.__acks = 0;
      const d = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage')!;
      Object.defineProperty(MessagePort.prototype, 'onmessage', {
        configurable: true,
        get: d.get,
        set(f) {
          d.set!.call(this, f && ((e: MessageEvent) => (e.data?.a && w.__acks++, f.call(this, e))));
        },
      });
    });
    await page.goto('/test/minimal.html?silent');
    await page.evaluate(() => (window as any)._satellite.track('Page View'));
    await waitForBeacons(request, 1);
    // Nothing kept: a pagehide then writes no orphans (what is kept waits for its acknowledgement).
    const unacknowledged = () =>
      page.evaluate(() => {
        dispatchEvent(new PageTransitionEvent('pagehide'));
        const keys = Object.keys(localStorage).filter((k) => k.startsWith('offtag:u:'));
        for (const k of keys) localStorage.removeItem(k);
        return keys.length;
      });
    await expect.poll(unacknowledged, { timeout: 15_000 }).toBe(0);
    const before = await page.evaluate(() => (window as any).__acks);
    await page.evaluate(() => {
      for (let i = 0; i < 60; i++) (window as any)._satellite.track('Element Interactions');
    });
    await waitForBeacons(request, 61);
    await expect.poll(unacknowledged, { timeout: 15_000 }).toBe(0);
    // Not one per event: one once the worker's queue has caught up (a few, as commits interleave).
    expect((await page.evaluate(() => (window as any).__acks)) - before).toBeLessThanOrEqual(10);
  });
});

test('start-up throws nothing, caught or not, with or without offtagConfig (a page\'s first exception costs ~1 ms: V8 then works out source positions)', async ({ page, context }) => {
  const cdp = await context.newCDPSession(page);
  const thrown: string[] = [];
  const scripts = new Map<string, string>();
  cdp.on('Debugger.scriptParsed', (e) => scripts.set(e.scriptId, e.url));
  cdp.on('Debugger.paused', (e) => {
    const top = e.callFrames[0];
    if (scripts.get(top?.location.scriptId ?? '')?.endsWith('/offtag.js')) thrown.push(`${top.functionName || '(anonymous)'}: ${String(e.data?.description ?? e.reason).split('\n')[0]}`);
    void cdp.send('Debugger.resume');
  });
  await cdp.send('Debugger.enable');
  await cdp.send('Debugger.setPauseOnExceptions', { state: 'all' });
  // The test page sets offtagConfig and has no `_satellite` stub (its track call waits for onload).
  await page.goto('/test/minimal.html?host=same');
  await expect.poll(() => page.evaluate(() => !!(window as any).offtag)).toBe(true);
  // No offtagConfig at all: the defaults, read without an exception.
  await page.addInitScript(() => Object.defineProperty(window, 'offtagConfig', { configurable: true, get: () => undefined, set: () => {} }));
  await page.goto('/test/minimal.html?host=same&silent');
  await expect.poll(() => page.evaluate(() => !!(window as any).offtag)).toBe(true);
  // The load's events handled and their effects applied: the page has done all it does at start.
  await page.waitForLoadState('load');
  await caughtUp(page);
  expect(thrown).toEqual([]);
});

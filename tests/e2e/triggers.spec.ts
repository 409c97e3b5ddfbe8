/**
 * Page triggers through the built offtag.js (docs/triggers.md): a worker whose container uses
 * them (tests/e2e/pages/triggers/worker.ts, built here) lists its listeners, offtag.js loads
 * offtag-triggers.js for them, and each trigger runs its rule once; the storefront, whose rules
 * use none, never loads the chunk.
 */
import { expect, test, type Page } from '@playwright/test';
import { build } from 'vite';
import { fileURLToPath } from 'node:url';
import { SERVERS, consoleOf, resetServers } from './helpers.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
let workerJs = '';

test.beforeAll(async () => {
  const out = (await build({
    root,
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      target: 'es2020',
      minify: false,
      lib: { entry: `${root}tests/e2e/pages/triggers/worker.ts`, formats: ['iife'], name: 'offtagTriggersTest', fileName: () => 'worker.js' },
    },
  })) as Array<{ output: Array<{ code?: string }> }> | { output: Array<{ code?: string }> };
  workerJs = (Array.isArray(out) ? out[0] : out).output[0].code!;
});

/** The page's requests for offtag-triggers.js. */
function chunkRequests(page: Page): string[] {
  const urls: string[] = [];
  page.on('request', (r) => r.url().endsWith('/offtag-triggers.js') && urls.push(r.url()));
  return urls;
}

test('a container with page triggers: offtag-triggers.js loads once and each trigger runs its rule', async ({ page, context }) => {
  await context.route('**/test/triggers/offtag-worker.js', (r) => r.fulfill({ body: workerJs, contentType: 'text/javascript' }));
  const lines = consoleOf(page);
  const chunk = chunkRequests(page);
  const ran = (name: string) => lines.filter((l) => l === `ran ${name}` || l.startsWith(`ran ${name} `));
  await page.goto('/test/triggers/index.html');
  await expect.poll(() => ran('tick')).toEqual(['ran tick 1', 'ran tick 2']);
  await page.click('.buy span');
  await page.evaluate(() => dispatchEvent(new CustomEvent('cart:add', { detail: { sku: 'A1' } })));
  await page.click('#signup1 button');
  await expect.poll(() => [...ran('buy'), ...ran('cart add'), ...ran('signup')]).toEqual(['ran buy 4KM91', 'ran cart add A1', 'ran signup signup1']);
  expect(ran('promo')).toEqual([]);
  expect(ran('bottom')).toEqual([]);
  await page.evaluate(() => document.getElementById('promo')!.scrollIntoView());
  await expect.poll(() => [...ran('promo'), ...ran('bottom')]).toEqual(['ran promo', 'ran bottom']);
  await page.evaluate(() => ((window as any).digitalData.cart.size = 2));
  await page.evaluate(() => (window as any)._satellite.track('anything'));
  await expect.poll(() => ran('cart changed')).toEqual(['ran cart changed 2']);
  expect(chunk).toHaveLength(1);
});

test('the storefront, whose rules use no page trigger, never loads offtag-triggers.js', async ({ page, request, context }) => {
  await resetServers(request);
  await context.addCookies([{ name: 'sat_track', value: 'true', url: SERVERS.page }]);
  const chunk = chunkRequests(page);
  const effects: string[] = [];
  page.on('request', (r) => r.url().endsWith('/offtag-effects.js') && effects.push(r.url()));
  await page.goto('/test/minimal.html');
  // Its rules have run (the page view's getVar values are there) and offtag-effects.js came for its iframe and scripts.
  await expect.poll(() => page.evaluate(() => (window as any)._satellite.getVar('page name'))).toBeTruthy();
  await expect.poll(() => effects.length).toBeGreaterThan(0);
  expect(chunk).toEqual([]);
  expect(await page.evaluate(() => typeof (window as any).offtagTriggers)).toBe('undefined');
});

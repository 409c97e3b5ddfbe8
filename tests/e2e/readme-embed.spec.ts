import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { SERVERS, consoleOf, idCalls, resetServers, waitForBeacons } from './helpers.ts';

/**
 * The README's embed snippet, exactly as written, pasted onto a plain page served by a plain
 * local server (not the dev server): it must send a page view. Only the default ports
 * (4173…4177) are moved to OFFTAG_PORT_BASE's, as `npm start` would under that variable.
 */
function readmeSnippet(): string {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const section = readme.slice(readme.indexOf('## Embedding'));
  const m = /```html\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error('README.md: no html block under "## Embedding"');
  const base = Number(process.env.OFFTAG_PORT_BASE) || 4173;
  return m[1].replace(/127\.0\.0\.1:(417[3-7])\b/g, (_, p) => `127.0.0.1:${base + Number(p) - 4173}`);
}

let server: Server;
let pageUrl: string;

test.beforeAll(async () => {
  const html = `<!doctype html>\n<html><head><meta charset="utf-8"><title>plain page</title>\n${readmeSnippet()}</head>\n<body><h1>A plain page</h1></body></html>\n`;
  server = createServer((req, res) => {
    if (req.url === '/' || req.url === '/index.html') {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
    } else res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  pageUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});

test.afterAll(async () => {
  await new Promise((r) => server.close(r));
});

test.beforeEach(async ({ request, page }) => {
  await resetServers(request);
  await page.context().clearCookies();
});

test("the README's embed snippet, served as written from a plain local server, sends a page view", async ({ page, request }) => {
  expect(readmeSnippet()).toContain("document.cookie = 'sat_track=true; path=/'");
  const lines = consoleOf(page);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pageUrl);

  const [pv] = await waitForBeacons(request, 1);
  expect(pv).toMatchObject({ hitType: 't', rsid: 'acmedev', server: '127.0.0.1' });
  expect(pv.params.g).toBe(pageUrl);
  // The snippet's data layer names the page: a real page name, and no "page id is not set" message.
  expect(readmeSnippet()).toContain('window.digitalData = ');
  expect(pv.params.pageName).toBe('acme:home:home');
  expect(lines.filter((l) => /not set in the page data layer/i.test(l))).toEqual([]);
  // The visitor-ID service was asked, at the origin the snippet names, and the ID-sync iframe loaded from idSyncOrigin.
  await expect.poll(async () => (await idCalls(request)).filter((c) => c.path === '/id').length).toBe(1);
  await expect
    .poll(() => page.evaluate(() => [...document.querySelectorAll('iframe')].map((f) => f.src)))
    .toContainEqual(expect.stringContaining(`${SERVERS.idService}/dest5.html`));
  expect(lines.filter((l) => /EU compliance/.test(l))).toEqual([]);
  expect(errors).toEqual([]);
});

test("the README's embed is async: _satellite.track calls made before offtag.js ran wait in the stub's queue and are delivered, in order", async ({ page, request }) => {
  expect(readmeSnippet()).toMatch(/<script src="[^"]*\/offtag\.js" async><\/script>/);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const lines = consoleOf(page);
  // Hold offtag.js back until the page has made a second call of its own.
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  await page.route('**/offtag.js', async (route) => {
    await held;
    await route.continue();
  });
  // An async script holds the load event back, not DOMContentLoaded.
  await page.goto(pageUrl, { waitUntil: 'domcontentloaded' });
  const before = await page.evaluate(() => {
    const w = window as unknown as { offtag?: unknown; _satellite: { q: unknown[]; track(id: string): void } };
    w._satellite.track('Content: Modal View');
    return { ran: w.offtag !== undefined, queued: w._satellite.q.length };
  });
  expect(before).toEqual({ ran: false, queued: 2 });
  release();
  const got = await waitForBeacons(request, 2);
  expect(got).toHaveLength(2);
  // The README's Page View first, then the modal view: both page-view hits, in the order they were called.
  expect(got.map((b) => b.hitType)).toEqual(['t', 't']);
  expect(got[0].params.g).toBe(pageUrl);
  await expect.poll(() => page.evaluate(() => typeof (window as unknown as { _satellite: { getVar?: unknown } })._satellite.getVar)).toBe('function');
  expect(lines.filter((l) => /does not match|failed/.test(l))).toEqual([]);
  expect(errors).toEqual([]);
});

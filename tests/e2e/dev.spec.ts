/**
 * `offtag dev` (tools/dev/dev.ts, docs/containers.md "See a beacon"): a container as a user writes
 * it (importing `offtag/container`), built for development and served on a blank page and on the
 * site's own page, with the local collector; each beacon prints decoded; a save rebuilds and reloads
 * the page; a build with problems prints them and keeps the last build serving.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { devCommand, startDev, type Dev } from '../../tools/dev/dev.ts';

// The dev servers sit above the five of `offtag serve` (OFFTAG_PORT_BASE … + 4).
const PORT = (Number(process.env.OFFTAG_PORT_BASE) || 4173) + 10;
const dir = mkdtempSync(join(tmpdir(), 'offtag-dev-e2e-'));
const containerFile = join(dir, 'container.ts');

const container = (pageName: string, extra = '') => `import { adobeServices, dataLayer, defineContainer } from 'offtag/container';

export default defineContainer({
  name: 'travel',
  settings: { dataLayer: 'travelData', reportSuites: { production: 'travelprod', staging: 'travelstage', development: 'traveldev' } },
  dataElements: { section: dataLayer('page.section', { default: 'home', lowerCase: true }) },
  services: adobeServices(),
  rules: (k) => [
    { name: 'Page View', events: [{ type: 'dom-ready' }], actions: [k.pageView(k.variables({ pageName: '${pageName}', eVar1: '%section%' }))] },${extra}
  ],
});
`;

let dev: Dev;
const lines: string[] = [];
const printed = () => lines.join('\n');

test.beforeAll(async () => {
  writeFileSync(containerFile, container('travel:%section%'));
  writeFileSync(join(dir, 'index.html'), `<!doctype html><html><head><title>Rome</title>
<script>window.travelData = { page: { section: 'Rome' } }; document.cookie = 'sat_track=true; path=/';</script>
<script src="/assets/offtag/offtag.js" async></script><link rel="stylesheet" href="site.css"></head><body><h1>Rome</h1></body></html>`);
  writeFileSync(join(dir, 'site.css'), 'h1 { color: teal }');
  dev = await startDev({ container: containerFile, port: PORT, host: '127.0.0.1', print: (l) => lines.push(l) });
});

test.afterAll(async () => {
  await dev?.close();
});

test('the blank page sends the container’s page view; the terminal prints it decoded', async ({ page }) => {
  expect(printed()).toMatch(/^offtag dev: built .*container\.ts \(development\) in [\d.]+ s · offtag\.js \d+ bytes gzip$/m);
  expect(printed()).toContain(`offtag dev: open http://127.0.0.1:${PORT}/ · a blank page`);
  const before = lines.length;
  await page.goto(dev.url);
  await expect.poll(() => lines.slice(before).join('\n'), { timeout: 15_000 }).toMatch(/^beacon \d+: page view beacon · traveldev · GET · /m);
  const beacon = lines.slice(before).find((l) => l.startsWith('beacon '))!;
  expect(beacon).toMatch(/\n {2}pageName +pageName +travel:home\n/);
});

test('a container or a page that is not there is one line and exit 2, before any server starts', async () => {
  const said: string[] = [];
  const error = console.error;
  console.error = (...a: unknown[]) => void said.push(a.join(' '));
  try {
    expect(await devCommand(['--container', join(dir, 'contianer.ts')])).toBe(2);
    expect(await devCommand(['--container', containerFile, '--page', join(dir, 'indx.html')])).toBe(2);
  } finally {
    console.error = error;
  }
  expect(said).toEqual([`offtag dev: the container ${join(dir, 'contianer.ts')} does not exist.`, `offtag dev: the page ${join(dir, 'indx.html')} does not exist.`]);
});

test('a page without an icon: the browser’s /favicon.ico gets an empty answer, not a 404 on the console', async ({ request }) => {
  expect((await request.get(`${dev.url}favicon.ico`)).status()).toBe(204);
  expect((await request.get(`${dev.url}nothing-here.png`)).status()).toBe(404);
});

test('a save rebuilds and reloads the page; a mistake is printed with its line and the last build keeps serving', async ({ page }) => {
  await page.goto(dev.url);
  await expect.poll(() => printed(), { timeout: 15_000 }).toMatch(/pageName +travel:home/);
  const reloaded = page.waitForEvent('load');
  const built = dev.nextBuild();
  writeFileSync(containerFile, container('trip:%section%'));
  expect(await built).toEqual({ ok: true });
  await reloaded;
  await expect.poll(() => printed(), { timeout: 15_000 }).toMatch(/pageName +trip:home/);

  const refused = dev.nextBuild();
  writeFileSync(containerFile, container('trip:%section%', `\n    { name: 'Deal click', events: [{ type: 'clik', selector: 'a.deal' }], actions: [] },`));
  expect(await refused).toEqual({ ok: false });
  expect(printed()).toMatch(/offtag dev: .*container\.ts has 1 problem; the page keeps the last build:\n {2}.*container\.ts:10:38: rule "Deal click", event 1: "clik" is no event type; did you mean "click"\?/);
  writeFileSync(containerFile, container('travel:%section%'));
});

test('the site’s own page: its script tag gets the development build, its files are served, its data layer read', async ({ page }) => {
  await dev.close();
  lines.length = 0;
  dev = await startDev({ container: containerFile, page: join(dir, 'index.html'), port: PORT, host: '127.0.0.1', print: (l) => lines.push(l) });
  expect(printed()).toContain('your page');
  const css = page.waitForResponse((r) => r.url().endsWith('/site.css'));
  await page.goto(dev.url);
  expect((await css).status()).toBe(200);
  await expect.poll(() => printed(), { timeout: 15_000 }).toMatch(/pageName +travel:rome/);
  expect(printed()).toMatch(/eVar1 +v1 +rome/);
});

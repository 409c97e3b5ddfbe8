/**
 * History change and data layer pushes in a container written with `offtag/container`, as the docs
 * give them: the example of docs/containers.md ("Single-page apps and data layers": a container, a
 * page, `offtag dev --page`) and the one of docs/triggers.md ("Try one": the blank page and its
 * console), each taken from the docs as written, built by `offtag dev` and run in Chromium on a
 * real `history.pushState`, `adobeDataLayer.push` and `dataLayer.push`.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { startDev, type Dev } from '../../tools/dev/dev.ts';

// Above offtag serve's five ports and dev.spec.ts's (OFFTAG_PORT_BASE + 10 … + 13).
const PORT = (Number(process.env.OFFTAG_PORT_BASE) || 4173) + 20;

/** The fenced blocks of a docs section (from its heading to the next of the same level or above). */
function blocks(doc: string, heading: string): Array<{ lang: string; code: string }> {
  const md = readFileSync(new URL(`../../docs/${doc}`, import.meta.url), 'utf8');
  const start = md.indexOf(`\n${heading}\n`);
  expect(start, `${doc} has "${heading}"`).toBeGreaterThan(0);
  const level = heading.split(' ')[0]!;
  const rest = md.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level.length}} `, 'm'));
  return [...(end < 0 ? rest : rest.slice(0, end)).matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
}

/** Writes a block whose first line names its file (`// tags/x.ts`, `<!-- index.html -->`) into `dir`; returns its path. */
function writeNamed(dir: string, code: string): string {
  const file = /^(?:\/\/|<!--) (\S+)/.exec(code)![1]!;
  mkdirSync(join(dir, file, '..'), { recursive: true });
  writeFileSync(join(dir, file), code);
  return join(dir, file);
}

let dev: Dev | undefined;
test.afterEach(async () => {
  await dev?.close();
  dev = undefined;
});

/** Resolves once offtag-triggers.js has installed its listeners (the page's pushState is then called through). */
const listening = (page: Page) => page.waitForFunction(() => !/\[native code\]/.test(history.pushState.toString()));

test('containers.md: a page view on load and on pushState, a link beacon for an ACDL push and for a GTM push', async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'offtag-spa-'));
  const section = blocks('containers.md', '### Single-page apps and data layers');
  const container = writeNamed(dir, section.find((b) => b.lang === 'ts')!.code);
  const html = writeNamed(dir, section.find((b) => b.lang === 'html')!.code);
  expect(section.find((b) => b.lang === 'sh')!.code.trim()).toBe('npx offtag dev --container tags/shop.ts --page index.html');
  const lines: string[] = [];
  dev = await startDev({ container, page: html, port: PORT, host: '127.0.0.1', print: (l) => lines.push(l) });
  const beacons = () => lines.filter((l) => l.startsWith('beacon '));
  const beacon = async (n: number) => {
    await expect.poll(() => beacons().length, { timeout: 20_000, message: `beacon ${n}` }).toBeGreaterThanOrEqual(n);
    return beacons()[n - 1]!;
  };

  await page.goto(dev.url);
  expect(await beacon(1)).toMatch(/^beacon 1: page view beacon · shopdev · [\s\S]*\n {2}pageName +pageName +shop:\/\n/);
  await listening(page);
  await page.click('#cart');
  expect(page.url()).toBe(`${dev.url}cart`);
  const second = await beacon(2);
  expect(second).toMatch(/^beacon 2: page view beacon · shopdev · [\s\S]*\n {2}pageName +pageName +shop:\/cart\n/);
  expect(second).toMatch(/\n {2}page URL +g +http:\/\/127\.0\.0\.1:\d+\/cart\n/);
  await page.click('#add');
  const third = await beacon(3);
  expect(third).toMatch(/^beacon 3: link beacon · shopdev · /);
  expect(third).toMatch(/\n {2}link name +pev2 +cart add\n/);
  expect(third).toMatch(/\n {2}eVar3 +v3 +A-12\n/);
  expect(third).toMatch(/\n {2}eVar4 +v4 +30\n/);
  await page.click('#sign-up');
  const fourth = await beacon(4);
  expect(fourth).toMatch(/^beacon 4: link beacon · shopdev · [\s\S]*\n {2}link name +pev2 +sign up:email\n/);
  expect(fourth).not.toMatch(/eVar3/);
});

test("triggers.md: the blank page's console, pushState and the two data layers' pushes", async ({ page }) => {
  const dir = mkdtempSync(join(tmpdir(), 'offtag-events-'));
  const section = blocks('triggers.md', '### Try one: history change and data layer pushes');
  const container = writeNamed(dir, section.find((b) => b.lang === 'ts')!.code);
  const typed = section.find((b) => b.lang === 'js')!.code.split('\n').filter(Boolean);
  const expected = section.find((b) => b.lang === '')!.code.trim().split('\n');
  dev = await startDev({ container, port: PORT, host: '127.0.0.1', print: () => {} });
  const said: string[] = [];
  page.on('console', (m) => said.push(m.text()));
  await page.goto(dev.url);
  await listening(page);
  // Each line as typed into the console: one after another, in the page's own scope.
  for (const line of typed) await page.evaluate(line);
  const shown = () => said.filter((l) => /^Rule "(Route change|Add to cart \(ACDL\)|Sign-up \(GTM\))" fired\.$|^(route|cart add|sign up): /.test(l)).map((l) => l.replace(dev!.url.slice(0, -1), 'http://127.0.0.1:4173'));
  await expect.poll(shown, { timeout: 20_000 }).toHaveLength(expected.length);
  expect(shown()).toEqual(expected);
});

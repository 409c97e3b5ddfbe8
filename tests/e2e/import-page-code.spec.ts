/**
 * A custom code action that needs the page: the imported container (in the engine) emits a
 * `script` effect for page-code.js with the block, the event and the values of the data elements
 * the block reads; in Chromium, page-code.js runs the block with those values, as the bridge's
 * script loader (src/third-party/load-script.ts) would load it and call its `init`.
 */
import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { runImport } from '../../tools/import/command.ts';
import { replay } from '../../tools/replay/replay.ts';
import type { Effect } from '../../src/protocol.ts';

const ORIGIN = 'https://www.keepstock.example';
const OUT = 'test-results/import-e2e/report-paths';

test('page custom code runs on the page with the values the worker sent', async ({ page, context }) => {
  const { files } = runImport({ library: 'tests/fixtures/launch/report-paths.js', assets: 'tests/fixtures/launch/assets', out: OUT });
  expect(files.some((f) => f.endsWith('page-code.js'))).toBe(true);
  const { container } = (await import(/* @vite-ignore */ `../../${OUT}/container.ts`)) as { container: NonNullable<NonNullable<Parameters<typeof replay>[1]>['container']> };
  const result = await replay(
    { page: { url: `${ORIGIN}/p` }, dataLayer: { page: { pageInfo: { pageType: 'Cart' } } }, events: [{ type: 'library-loaded' }] },
    { container, services: container.services! },
  );
  const scripts = result.effects.filter((e): e is Extract<Effect, { type: 'script' }> => e.type === 'script');
  const pageCode = scripts.filter((e) => e.id.startsWith('offtag-launch-block'));
  expect(pageCode.map((e) => [e.id, e.src, e.init?.fn])).toEqual([
    ['offtag-launch-block1-1', '/report-paths.page-code.js', '__offtagLaunch.run'],
    ['offtag-launch-block2-2', '/report-paths.page-code.js', '__offtagLaunch.run'],
  ]);
  expect(pageCode[1]!.init!.args).toEqual(['block2', { $type: 'core.library-loaded', $rule: { name: 'page custom code with a value' } }, { 'page type': 'Cart' }, 1]);
  const parts = result.effects.filter((e) => e.type === 'monitor' && e.name === 'rule-page-part').map((e) => (e as { data: unknown }).data);
  expect(parts).toEqual([
    { rule: 'page custom code action', block: 'block1', seq: 1 },
    { rule: 'page custom code with a value', block: 'block2', seq: 1 },
  ]);
  // The HTML block that only loads a script is a third-party script rule.
  expect(scripts.some((e) => e.src === 'https://cdn.vendor.example/tag.js')).toBe(true);

  await context.route(`${ORIGIN}/**`, (route) =>
    new URL(route.request().url()).pathname === '/report-paths.page-code.js'
      ? route.fulfill({ contentType: 'text/javascript', body: readFileSync(`${OUT}/page-code.js`, 'utf8') })
      : route.fulfill({ contentType: 'text/html', body: '<!doctype html><body><script>window._satellite = { getVar: function () { return "from the page"; } };</script></body>' }),
  );
  await page.goto(`${ORIGIN}/p`);
  await page.evaluate(async (effects) => {
    for (const e of effects) {
      await new Promise<void>((resolve, reject) => {
        const s = document.createElement('script');
        s.id = e.id;
        s.src = e.src;
        s.onload = () => resolve();
        s.onerror = () => reject(new Error(e.src));
        document.body.appendChild(s);
      });
      const w = window as unknown as { __offtagLaunch: { run(...a: unknown[]): void } };
      w.__offtagLaunch.run(...e.init!.args);
    }
  }, pageCode);
  await expect(page.locator('body')).toHaveClass('tagged');
  await expect(page.locator('body')).toHaveAttribute('data-page-type', 'Cart');
  // What the devtools overlay reads: each run's rule, event sequence and main-thread time.
  const runs = await page.evaluate(() => (window as unknown as { __offtagLaunch: { runs: Array<{ rule: string; seq: number; ms: number }> } }).__offtagLaunch.runs);
  expect(runs.map((r) => [r.rule, r.seq, typeof r.ms])).toEqual([
    ['page custom code action', 1, 'number'],
    ['page custom code with a value', 1, 'number'],
  ]);
});

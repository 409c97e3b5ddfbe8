/**
 * The storefront as a Launch library (tests/fixtures/launch/storefront.js), imported, sends the
 * same analytics beacons as the native storefront container for every replay fixture.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runImport } from '../../../tools/import/command.ts';
import { replay, type Fixture } from '../../../tools/replay/replay.ts';
import type { Effect } from '../../../src/protocol.ts';

const OUT = 'test-results/import-unit/storefront';
const FIXTURES = 'tests/fixtures/storefront';
/** How many beacons each fixture sends (so an empty comparison cannot pass). */
const EXPECTED_BEACONS: Record<string, number> = { 'anonymous-consent-later.json': 1, 'modal-view.json': 2, 'page-view-logged-in.json': 3, 'rum-declined.json': 0, 'rum-insights.json': 0 };

const beacons = (effects: Effect[]) =>
  effects.filter((e): e is Extract<Effect, { type: 'request' }> => e.type === 'request' && e.url.includes('/b/ss/')).map((e) => e.url);

describe('storefront-as-Launch import', () => {
  const { lines } = runImport({ library: 'tests/fixtures/launch/storefront.js', out: OUT });

  it("marks its beacons' path as the Analytics extension does, from turbine's build date (LF8J for 2025-08-19)", async () => {
    const { container } = (await import(/* @vite-ignore */ '../../../' + OUT + '/container.ts')) as { container: { settings?: Record<string, unknown> } };
    expect(container.settings?.tagContainerMarker).toBe('LF8J');
  });

  it('imports every data element and rule into the worker', () => {
    expect(lines.at(-1)).toBe('data elements: 42 worker, 0 on the page, 0 not imported; rules: 4 in the worker, 0 partly on the page, 0 not imported; 0 actions not imported; 0 other items not imported.');
  });

  const files = readdirSync(FIXTURES).filter((f) => f.endsWith('.json'));
  it.each(files)('%s: the same beacons as the native container', async (file) => {
    const { container } = (await import(/* @vite-ignore */ '../../../' + OUT + '/container.ts')) as { container: Parameters<typeof replay>[1] extends infer O ? O extends { container?: infer C } ? C : never : never };
    const fixture = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Fixture;
    const native = await replay(fixture);
    expect(beacons(native.effects).length).toBe(EXPECTED_BEACONS[file]);
    const imported = await replay(fixture, { container, services: container!.services! });
    expect(beacons(imported.effects)).toEqual(beacons(native.effects));

  });
});

describe('what the bridge sends for the imported storefront', () => {
  it('the read set is the data layer paths its JavaScript variables name, not the whole layer', async () => {
    const { readSetOf } = await import('../../../src/worker-engine/core/data-layer.ts');
    runImport({ library: 'tests/fixtures/launch/storefront.js', out: `${OUT}-reads` });
    const { container } = (await import(/* @vite-ignore */ '../../../' + OUT + '-reads/container.ts')) as { container: { dataElements: Record<string, { type: string; reads?: string[] }>; sessionKeys: string[] } };
    const tree = readSetOf(container.dataElements);
    expect(tree).not.toBeNull();
    expect(Object.keys(tree!).sort()).toEqual(['internalCampaign', 'modal', 'page', 'product', 'user']);
    expect(tree!.page).toEqual({ pageInfo: { pageType: 0, pageUID: 0, contentTitle: 0, language: 0, template: 0 }, category: { lineOfBusiness: 0 }, element: 0 });
    expect(container.sessionKeys).toEqual(['acmeUserData', 'acmePreviousPageName']);
  });
});

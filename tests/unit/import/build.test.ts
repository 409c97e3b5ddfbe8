/**
 * Imported containers build with `offtag build` (tools/build/build.ts): the build's validation
 * accepts them, offtag.js's bridge stays within its budget (a container's page reads are its own code on top), and `_satellite.buildInfo` carries the Launch
 * library's build date.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildLibrary, BRIDGE_BUDGET } from '../../../tools/build/build.ts';
import { runImport } from '../../../tools/import/command.ts';

const OUT = 'test-results/import-unit/build';

describe('offtag build of imported containers', () => {
  it("a container written with defineContainer gets none of turbine's _satellite (the define is 0)", async () => {
    const { buildConstants } = await import('../../../tools/build/build.ts');
    const { storefront } = await import('../../../containers/storefront/container.ts');
    expect(buildConstants(storefront, 'production', '2026-01-01T00:00:00Z').__OFFTAG_LAUNCH__).toBe('0');
  });

  it("an imported container's Launch facts (its page data's `launch`): the library's build info, property and company, every data element's name, and turbine's finishing of those read on the page", async () => {
    runImport({ library: 'tests/fixtures/launch/timing-events.js', out: `${OUT}/timing-events` });
    const { buildConstants, loadContainer } = await import('../../../tools/build/build.ts');
    const { launchFacts } = await import('../../../tools/build/launch.ts');
    const container = await loadContainer(`${OUT}/timing-events/container.ts`);
    const facts = launchFacts(container)!;
    expect(buildConstants(container, 'production', '2026-01-01T00:00:00Z').__OFFTAG_LAUNCH__).toBe('1');
    expect(facts.buildInfo).toEqual({ turbineVersion: '28.1.0', turbineBuildDate: '2026-01-20T10:00:00Z', buildDate: '2026-01-21T09:30:00Z', minified: true });
    expect(facts.property).toEqual({ name: 'Timing and events', id: 'PR00000000000000000000000000000006' });
    // The library's whole company object, as turbine's `_satellite.company`.
    expect(facts.company).toEqual({ orgId: '0123456789ABCDEF01234567@AdobeOrg', dynamicCdnEnabled: false });
    expect(facts.names).toContain('dlm page name');
    expect(facts.reads).toEqual({ title: [null, 0, 1, 0], basket: ['empty', 0, 0, 0], heading: [null, 1, 0, 0], currency: [null, 0, 0, 0], 'card count': [null, 0, 0, 0] });
   }, 60_000);

  it.each(['storefront', 'every-module', 'report-paths'])('%s builds for production', async (name) => {
    runImport({ library: `tests/fixtures/launch/${name}.js`, out: `${OUT}/${name}`, assets: 'tests/fixtures/launch/assets' });
    const result = await buildLibrary({ container: `${OUT}/${name}/container.ts`, env: 'production', out: `${OUT}/dist-${name}`, buildDate: undefined });
    expect(result.problems).toEqual([]);
    expect(result.gzip).toBeGreaterThan(0);
    // The budget is the bridge's; a container's page reads are its own code on top (docs/containers.md, "Page reads").
    expect(result.bridge).toBeLessThanOrEqual(BRIDGE_BUDGET);
    const source = readFileSync(`${OUT}/dist-${name}/offtag.js`, 'utf8');
    // Every imported container's offtag.js carries the page side with turbine's `_satellite` (src/page-side/satellite.ts), on top of the bridge.
    expect(result.gzip).toBeGreaterThan(result.bridge);
    expect(source).toContain('container.buildInfo.environment is deprecated');
    if (name === 'report-paths') {
      expect(source).toContain('localStorage.getItem');
      expect(source).toContain('"hero banner id"');
    } else {
      // Its page data has no reads: only what its `_satellite` tells.
      const data = source.slice(source.lastIndexOf("with the page's globals.\n"));
      expect(data).not.toContain('elements: {');
      expect(data).not.toContain('conditions: [');
      expect(data).toContain('launch: {');
    }
    expect(readFileSync(`${OUT}/dist-${name}/offtag.js`, 'utf8')).toContain('2026-01-15T10:00:00Z');
  }, 120_000);
});

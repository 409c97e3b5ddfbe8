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
  it.each(['storefront', 'every-module', 'report-paths'])('%s builds for production', async (name) => {
    runImport({ library: `tests/fixtures/launch/${name}.js`, out: `${OUT}/${name}`, assets: 'tests/fixtures/launch/assets' });
    const result = await buildLibrary({ container: `${OUT}/${name}/container.ts`, env: 'production', out: `${OUT}/dist-${name}`, buildDate: undefined });
    expect(result.problems).toEqual([]);
    expect(result.gzip).toBeGreaterThan(0);
    // The budget is the bridge's; a container's page reads are its own code on top (docs/containers.md, "Page reads").
    expect(result.bridge).toBeLessThanOrEqual(BRIDGE_BUDGET);
    const source = readFileSync(`${OUT}/dist-${name}/offtag.js`, 'utf8');
    if (name === 'report-paths') {
      expect(result.gzip).toBeGreaterThan(result.bridge);
      expect(source).toContain('localStorage.getItem');
      expect(source).toContain('"hero banner id"');
    } else {
      expect(result.gzip).toBe(result.bridge);
      expect(source).not.toContain('"kind":"page"');
      expect(source).not.toContain('kind:"page"');
    }
    expect(readFileSync(`${OUT}/dist-${name}/offtag.js`, 'utf8')).toContain('2026-01-15T10:00:00Z');
  }, 120_000);
});

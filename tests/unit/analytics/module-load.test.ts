/**
 * Every analytics module loads, and what it works out when it loads is right: the default container
 * marker (from the build's date, or the date the tests run with) and the table of numbered variables.
 * Each module is imported inside its test, so a module that throws while it loads fails that test by
 * name; imported at the top of a file, the same throw fails the file before any test runs, which the
 * mutation run (docs/testing.md) does not count against the mutant.
 *
 * Equivalent here: `beacon-url.ts` `typeof __OFFTAG_BUILD_INFO__ == 'object'` → `== ''` or → false:
 * the tests run without the build's info or with the date the fallback carries, so the fallback
 * gives the same date; only a bundle built with another date could tell, and no unit test of the
 * mutation config builds one.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const DIR = new URL('../../../src/worker-engine/analytics/', import.meta.url);
const modules = ['', 'plugins/'].flatMap((sub) =>
  readdirSync(new URL(sub, DIR)).filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')).map((f) => `${sub}${f}`),
);

describe('the analytics modules', () => {
  it('are all found', () => {
    expect(modules).toEqual(expect.arrayContaining(['tracker.ts', 'beacon-url.ts', 'beacon-query.ts', 'plugins/time.ts']));
  });
  it.each(modules)('%s loads', async (file) => {
    await expect(import(new URL(file, DIR).href)).resolves.toBeDefined();
  });
  it('the default marker is LF8J, the container build date the tests run with (2025-08-19)', async () => {
    const { CONTAINER_BUILD_DATE, tagContainerMarker } = await import('../../../src/worker-engine/analytics/beacon-url.ts');
    expect(CONTAINER_BUILD_DATE).toBe('2025-08-19T00:00:00Z');
    expect(tagContainerMarker()).toBe('LF8J');
    const { MARKER } = await import('../../../src/worker-engine/analytics/tracker-config.ts');
    expect(MARKER).toBe('LF8J');
  });
  it('the numbered variables: 75 props, 250 eVars, 5 hierarchies, 3 list variables', async () => {
    const { NUMBERED_KEYS } = await import('../../../src/worker-engine/analytics/beacon-query.ts');
    expect(NUMBERED_KEYS).toHaveLength(75 + 250 + 5 + 3);
    expect(NUMBERED_KEYS.at(-1)).toBe('v250');
  });
});

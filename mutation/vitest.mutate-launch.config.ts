import { defineConfig } from 'vitest/config';

/**
 * The unit tests that run the Launch runtime (`npx stryker run mutation/stryker.launch.config.mjs`):
 * its own tests, the imported containers' runtime, page steps, ECID and equality tests, and the
 * tests of the page reads it declares. Left out: the import's report, build and events tests (they run the
 * import tool and esbuild, whose bundles and child processes never switch a mutant on, and take
 * seconds each, which every static mutant would pay).
 * A mutant only a left-out test could kill is reported Survived: the score is a lower bound.
 */
export default defineConfig({
  test: {
    environment: 'node', testTimeout: 20_000,
    // The import's tests read the Launch fixture libraries, which this writes (they are not committed).
    globalSetup: ['tests/fixtures/launch/written.ts'],
    include: [
      'tests/unit/launch/**/*.test.ts',
      'tests/unit/import/runtime.test.ts',
      'tests/unit/import/page-steps.test.ts',
      'tests/unit/import/ecid.test.ts',
      'tests/unit/import/storefront-equality.test.ts',
      'tests/unit/core/page-events.test.ts',
      'tests/unit/container/page-reads.test.ts',
    ],
  },
});

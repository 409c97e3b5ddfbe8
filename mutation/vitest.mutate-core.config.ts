import { defineConfig } from 'vitest/config';

/**
 * The unit tests that run the engine core (`npx stryker run mutation/stryker.core.config.mjs`): the
 * core, robustness, shell and container tests, and `publish/preview`, the one test of `core/preview.ts`
 * (which environment a browser previews). The storefront, analytics and visitor tests run core
 * code too, but each static mutant of the core runs every test of the config, and with them a run
 * does not fit the shared machine. A mutant only a left-out test could kill is reported Survived:
 * the score is a lower bound.
 */
export default defineConfig({
  test: {
    environment: 'node', testTimeout: 20_000,
    include: [
      'tests/unit/core/**/*.test.ts',
      'tests/unit/robust/**/*.test.ts',
      'tests/unit/shell/**/*.test.ts',
      'tests/unit/container/**/*.test.ts',
      'tests/unit/publish/preview.test.ts',
    ],
    // tsc on the types: Stryker's sandbox holds instrumented source, which tsc does not accept.
    exclude: ['tests/unit/container/types.test.ts'],
  },
});

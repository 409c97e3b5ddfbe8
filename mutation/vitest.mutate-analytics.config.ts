import { defineConfig } from 'vitest/config';

/**
 * The unit tests that run the analytics module (`npx stryker run stryker.analytics.config.mjs`).
 * A static mutant (the wire order, the always-sent set, the decoder's names, the plugins' constants)
 * runs against every test of the config; against the whole unit suite that took hours on the shared
 * machine. Kept: the analytics, plugin and collector tests. Left out: the storefront and engine
 * tests (they run analytics code too, but import the whole engine, which made every static mutant
 * cost most of a minute on the loaded machine) and the tests that cannot reach analytics code.
 * A mutant only a left-out test could kill is reported Survived: the score is a lower bound.
 */
export default defineConfig({
  test: {
    environment: 'node', testTimeout: 20_000,
    include: [
      'tests/unit/analytics/**/*.test.ts',
      'tests/unit/plugins/**/*.test.ts',
      'tests/unit/collector/**/*.test.ts',
    ],
  },
});

import { defineConfig } from 'vitest/config';

/**
 * The unit tests that run the storefront container (`npx stryker run stryker.storefront.config.mjs`).
 * Only a test that runs storefront code can kill a storefront mutant, and a static mutant (the
 * container's tables) runs against every test of the config: against the whole unit suite that
 * takes hours on the shared machine. Left out, because they cannot run a storefront mutant: tests
 * that import the replay tool only for its seeded random generator, and `replay/cli-output`,
 * which runs the CLI in a child process (the mutant is switched on in this process only).
 */
export default defineConfig({
  test: {
    environment: 'node', testTimeout: 20_000,
    include: [
      'tests/unit/storefront/**/*.test.ts',
      'tests/unit/core/hooks.test.ts',
      'tests/unit/core/early-values.test.ts',
      'tests/unit/robust/encoders.test.ts',
      'tests/unit/analytics/tracker.test.ts',
    ],
  },
});

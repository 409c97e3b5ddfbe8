import { defineConfig } from 'vitest/config';

/**
 * The unit tests that run the visitor module (`npx stryker run stryker.visitor.config.mjs`): the
 * visitor tests and the robustness test of visitor data. The storefront and engine tests also start
 * a visitor service, but each of its mutants would then run them all, which the shared machine
 * cannot afford for 1,900 mutants. A mutant only a left-out test could kill would be reported
 * Survived: the score is a lower bound.
 */
export default defineConfig({
  test: {
    environment: 'node', testTimeout: 20_000,
    include: ['tests/unit/visitor/**/*.test.ts', 'tests/unit/robust/visitor-data.test.ts'],
  },
});

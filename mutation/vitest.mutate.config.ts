import { defineConfig } from 'vitest/config';

/**
 * The Node unit tests alone: what `npm run mutate` (StrykerJS) runs against each mutant. Left out:
 * the docs check, and the tests of the built bundle and the packed package (they read dist/, which
 * the sandbox does not rebuild, and mutate nothing Stryker mutates).
 */
export default defineConfig({
  test: { environment: 'node', testTimeout: 20_000, globalSetup: ['tests/fixtures/launch/written.ts'], include: ['tests/unit/**/*.test.ts'], exclude: ['tests/unit/docs/**', 'tests/unit/build/**', 'tests/unit/package/**'] },
});

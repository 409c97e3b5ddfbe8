import { defineConfig } from 'vitest/config';

/**
 * The unit tests that run the authoring API (`npx stryker run mutation/stryker.container.config.mjs`):
 * its own tests, the validation test, and the triggers and page steps that use its helpers. Left
 * out: the storefront tests (the storefront is written with it, but it is defined when its module
 * loads, which makes most mutants here static: each would run every test of the config). A
 * mutant only a left-out test could kill is reported Survived: the score is a lower bound. Left out by name: validation's `offtag build` test,
 * which builds in a child process (no mutant is switched on there) and, in Stryker's sandbox, sees
 * the instrumented file's columns in its message.
 */
export default defineConfig({
  test: {
    environment: 'node', testTimeout: 20_000,
    include: [
      'tests/unit/container/**/*.test.ts',
      'tests/unit/build/validate.test.ts',
      'tests/unit/core/triggers.test.ts',
      'tests/unit/import/page-steps.test.ts',
    ],
    // tsc on the types: Stryker's sandbox holds instrumented source, which tsc does not accept.
    // The build's checks (mistakes) bundle each container with esbuild in the test's process, 2–4 s
    // a test on a loaded machine, and a surviving mutant runs them all: with them a run took hours.
    // container/problems.test.ts checks the same mistakes on container objects, in milliseconds.
    exclude: ['tests/unit/container/types.test.ts', 'tests/unit/container/mistakes.test.ts'],
    testNamePattern: /^(?!.*offtag build fails with the one line)/,
  },
});

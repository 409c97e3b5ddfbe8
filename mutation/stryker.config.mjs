// `npm run mutate`: StrykerJS over every module (engine core, storefront container, analytics,
// visitor, transport, the authoring API, the Launch runtime), against the Node unit tests. Not part of `npm test` (it takes long);
// `npm run mutate -- --mutate src/worker-engine/core/rules.ts` narrows it. Report: reports/mutation/.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
const config = {
  testRunner: 'vitest',
  vitest: { configFile: 'mutation/vitest.mutate.config.ts', related: false },
  plugins: ['@stryker-mutator/vitest-runner'],
  mutate: [
    'src/worker-engine/core/**/*.ts',
    'containers/storefront/**/*.ts',
    'src/worker-engine/analytics/**/*.ts',
    'src/worker-engine/visitor/**/*.ts',
    'src/worker-engine/transport/**/*.ts',
    '!src/worker-engine/transport/idb-store.ts',
    'src/container/**/*.ts',
    'src/launch/**/*.ts',
    '!src/**/*.d.ts',
  ],
  coverageAnalysis: 'perTest',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  timeoutMS: 10000,
  // Static mutants (module-level constants, tables, regular expressions) run against every test
  // with the mutant active from the module's load. `ignoreStatic: true` does not skip them here:
  // perTest coverage also attributes them to a test, and Stryker then runs only that test with
  // the mutant switched on after the module was loaded, so the mutant never takes effect and is
  // reported Survived (docs/testing.md, "Static mutants").
  ignoreStatic: false,
  tempDirName: '.stryker-tmp',
  // The sandbox is a copy of the project: without reports/ (other runs and coverage write there while it copies).
  ignorePatterns: ['/.stryker-tmp', '/reports'],
  // TypeScript 7's package has no JavaScript API for Stryker's tsconfig rewriting; vitest needs none.
  tsconfigFile: 'stryker-has-no-tsconfig.json',
};
export default config;

/**
 * One module's config: `name` picks its Vitest config (mutation/vitest.mutate-<name>.config.ts),
 * its reports, its incremental file and its sandbox, so runs of two modules never share one.
 */
export function forModule(name, mutate) {
  return {
    ...config,
    mutate,
    vitest: { ...config.vitest, configFile: `mutation/vitest.mutate-${name}.config.ts` },
    concurrency: 1,
    reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
    htmlReporter: { fileName: `reports/mutation/${name}.html` },
    jsonReporter: { fileName: `reports/mutation/${name}.json` },
    incrementalFile: `reports/mut/inc-${name}.json`,
    tempDirName: `.stryker-tmp/${name}`,
  };
}

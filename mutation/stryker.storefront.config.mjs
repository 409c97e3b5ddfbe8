// `npx stryker run mutation/stryker.storefront.config.mjs`: the storefront container against the unit tests
// that run it (mutation/vitest.mutate-storefront.config.ts), so each of its many static mutants (its rule and
// data element tables) runs a few seconds of tests instead of the whole unit suite. `--incremental` reuses
// reports/mut/inc-storefront.json.
import base from './stryker.config.mjs';

export default {
  ...base,
  mutate: ['containers/storefront/**/*.ts'],
  vitest: { ...base.vitest, configFile: 'mutation/vitest.mutate-storefront.config.ts' },
  concurrency: 1,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/storefront.html' },
  jsonReporter: { fileName: 'reports/mutation/storefront.json' },
  incrementalFile: 'reports/mut/inc-storefront.json',
  tempDirName: '.stryker-tmp/storefront',
  ignorePatterns: ['/.stryker-tmp', '/reports'],
};

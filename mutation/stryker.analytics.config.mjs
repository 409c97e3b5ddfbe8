// `npx stryker run mutation/stryker.analytics.config.mjs`: the analytics module against the unit tests that
// run it (mutation/vitest.mutate-analytics.config.ts), so each static mutant runs seconds of tests instead of
// the whole unit suite. `--mutate <file>` narrows it; `--incremental` reuses reports/mut/inc-analytics.json.
import base from './stryker.config.mjs';

export default {
  ...base,
  mutate: ['src/worker-engine/analytics/**/*.ts'],
  vitest: { ...base.vitest, configFile: 'mutation/vitest.mutate-analytics.config.ts' },
  concurrency: 1,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/analytics.html' },
  jsonReporter: { fileName: 'reports/mutation/analytics.json' },
  incrementalFile: 'reports/mut/inc-analytics.json',
  tempDirName: '.stryker-tmp/analytics',
  ignorePatterns: ['/.stryker-tmp', '/reports'],
};

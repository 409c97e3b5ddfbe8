// `npx stryker run mutation/stryker.launch.config.mjs`: the Launch runtime imported containers run with
// against the unit tests that run it (mutation/vitest.mutate-launch.config.ts).
import base from './stryker.config.mjs';

export default {
  ...base,
  mutate: ['src/launch/**/*.ts'],
  vitest: { ...base.vitest, configFile: 'mutation/vitest.mutate-launch.config.ts' },
  concurrency: 1,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/launch.html' },
  jsonReporter: { fileName: 'reports/mutation/launch.json' },
  incrementalFile: 'reports/mut/inc-launch.json',
  tempDirName: '.stryker-tmp/launch',
  ignorePatterns: ['/.stryker-tmp', '/reports'],
};

// `npx stryker run mutation/stryker.container.config.mjs`: the authoring API (defineContainer, its helpers
// and validation) against the unit tests that run it (mutation/vitest.mutate-container.config.ts).
import base from './stryker.config.mjs';

export default {
  ...base,
  mutate: ['src/container/**/*.ts'],
  vitest: { ...base.vitest, configFile: 'mutation/vitest.mutate-container.config.ts' },
  concurrency: 1,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/container.html' },
  jsonReporter: { fileName: 'reports/mutation/container.json' },
  incrementalFile: 'reports/mut/inc-container.json',
  tempDirName: '.stryker-tmp/container',
  ignorePatterns: ['/.stryker-tmp', '/reports'],
};

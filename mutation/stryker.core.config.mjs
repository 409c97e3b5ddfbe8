// `npx stryker run mutation/stryker.core.config.mjs`: the engine core against the unit tests that run it
// (mutation/vitest.mutate-core.config.ts). `--mutate <file>` narrows it; `--incremental` reuses
// reports/mut/inc-core.json.
import base from './stryker.config.mjs';

export default {
  ...base,
  mutate: ['src/worker-engine/core/**/*.ts', '!src/**/*.d.ts'],
  vitest: { ...base.vitest, configFile: 'mutation/vitest.mutate-core.config.ts' },
  concurrency: 1,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/core.html' },
  jsonReporter: { fileName: 'reports/mutation/core.json' },
  incrementalFile: 'reports/mut/inc-core.json',
  tempDirName: '.stryker-tmp/core',
  ignorePatterns: ['/.stryker-tmp', '/reports'],
};

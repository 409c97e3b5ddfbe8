// `npx stryker run mutation/stryker.visitor.config.mjs`: the visitor module against the unit tests that run
// it (mutation/vitest.mutate-visitor.config.ts). `--mutate <file>` narrows it; `--incremental` reuses
// reports/mut/inc-visitor.json.
import base from './stryker.config.mjs';

export default {
  ...base,
  mutate: ['src/worker-engine/visitor/**/*.ts'],
  vitest: { ...base.vitest, configFile: 'mutation/vitest.mutate-visitor.config.ts' },
  concurrency: 1,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/visitor.html' },
  jsonReporter: { fileName: 'reports/mutation/visitor.json' },
  incrementalFile: 'reports/mut/inc-visitor.json',
  tempDirName: '.stryker-tmp/visitor',
  ignorePatterns: ['/.stryker-tmp', '/reports'],
};

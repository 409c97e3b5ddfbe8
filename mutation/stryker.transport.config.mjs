// `npx stryker run mutation/stryker.transport.config.mjs`: the beacon queue and sender against the unit tests
// that run them (mutation/vitest.mutate-transport.config.ts). idb-store.ts is left out: it is IndexedDB,
// tested in Chromium (tests/browser/transport-idb.test.ts), which Stryker's Vitest runner does not drive.
import base from './stryker.config.mjs';

export default {
  ...base,
  mutate: ['src/worker-engine/transport/**/*.ts', '!src/worker-engine/transport/idb-store.ts'],
  vitest: { ...base.vitest, configFile: 'mutation/vitest.mutate-transport.config.ts' },
  concurrency: 1,
  reporters: ['clear-text', 'progress-append-only', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/transport.html' },
  jsonReporter: { fileName: 'reports/mutation/transport.json' },
  incrementalFile: 'reports/mut/inc-transport.json',
  tempDirName: '.stryker-tmp/transport',
  ignorePatterns: ['/.stryker-tmp', '/reports'],
};

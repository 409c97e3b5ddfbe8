import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

export default defineConfig({
  // What tools/build.mjs writes into the bridge from the container; the tests that import the bridge's modules get these.
  define: {
    // The page side (src/page-side): tests run it themselves, with its module host, its steps and the Launch `_satellite`; the bridge's modules see no page code.
    __OFFTAG_PAGE__: '0',
    __OFFTAG_PAGE_HOST__: '1',
    __OFFTAG_PAGE_STEPS__: '1',
    __OFFTAG_LAUNCH__: '1',
    __OFFTAG_BUILD_INFO__: JSON.stringify({ buildDate: '2025-08-19T00:00:00Z', turbineBuildDate: '2025-08-19T00:00:00Z', turbineVersion: 'offtag', minified: true, environment: 'production', containerName: 'test', containerVersion: '' }),
  },
  worker: { format: 'es' },
  optimizeDeps: { include: ['comlink', 'idb-keyval', 'react', 'react-dom/client'] },
  test: {
    // The Launch fixture libraries are generated, not committed: written once before any test file loads.
    globalSetup: ['tests/fixtures/launch/written.ts'],
    // Vitest's default on a 2-core machine is one worker (cores - 1): the unit files then ran one
    // after another (~180 s); two take ~110 s. Each file writes under its own folder and a server takes a free port.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        // A test that imports or builds a container compiles it first: on a loaded 2-core machine that alone passed Vitest's 5 s default.
        test: { name: 'unit', environment: 'node', include: ['tests/unit/**/*.test.ts'], testTimeout: 20_000 },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.{ts,tsx}'],
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS } }),
            instances: [{ browser: 'chromium' }],
            screenshotFailures: false,
          },
        },
      },
    ],
  },
});

import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

const PAGE = `http://127.0.0.1:${Number(process.env.OFFTAG_PORT_BASE) || 4173}`;

/** End-to-end tests: the built dist/ served by the dev server on loopback (page, script host and local services). */
export default defineConfig({
  testDir: './tests/e2e',
  workers: 1,
  retries: 0,
  timeout: 60_000,
  reporter: [['list']],
  // The Launch fixture libraries the specs import and serve are generated, not committed.
  globalSetup: './tests/fixtures/launch/written.ts',
  use: {
    baseURL: PAGE,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
  },
  webServer: {
    command: 'node tools/offtag.mjs serve --no-build --quiet',
    url: `${PAGE}/`,
    reuseExistingServer: !process.env.CI,
    timeout: 60_000,
  },
});

import { defineConfig } from 'vitest/config';
import { playwright } from '@vitest/browser-playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium.ts';

export default defineConfig({
  worker: { format: 'es' },
  optimizeDeps: { include: ['comlink', 'idb-keyval', 'react', 'react-dom/client'] },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', environment: 'node', include: ['tests/unit/**/*.test.ts'] },
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

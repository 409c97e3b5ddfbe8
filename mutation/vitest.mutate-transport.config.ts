import { defineConfig } from 'vitest/config';

/**
 * The unit tests that run the beacon queue, its in-memory store, the beacon sink and the sender
 * (`npx stryker run mutation/stryker.transport.config.mjs`).
 */
export default defineConfig({
  test: { environment: 'node', testTimeout: 20_000, include: ['tests/unit/transport/**/*.test.ts'] },
});

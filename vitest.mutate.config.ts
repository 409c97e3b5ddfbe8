import { defineConfig } from 'vitest/config';

/** The Node unit tests alone: what `npm run mutate` (StrykerJS) runs against each mutant. */
export default defineConfig({
  test: { environment: 'node', include: ['tests/unit/**/*.test.ts'], exclude: ['tests/unit/docs/**'] },
});

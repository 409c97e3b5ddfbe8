// `npx stryker run mutation/stryker.analytics.config.mjs`: the analytics module against the unit tests that
// run it (mutation/vitest.mutate-analytics.config.ts), so each static mutant runs seconds of tests instead of
// the whole unit suite. `--mutate <file>` narrows it; `--incremental` reuses reports/mut/inc-analytics.json.
import { forModule } from './stryker.config.mjs';

export default forModule('analytics', ['src/worker-engine/analytics/**/*.ts']);

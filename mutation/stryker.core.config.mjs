// `npx stryker run mutation/stryker.core.config.mjs`: the engine core against the unit tests that run it
// (mutation/vitest.mutate-core.config.ts). `--mutate <file>` narrows it; `--incremental` reuses
// reports/mut/inc-core.json.
import { forModule } from './stryker.config.mjs';

export default forModule('core', ['src/worker-engine/core/**/*.ts', '!src/**/*.d.ts']);

// `npx stryker run mutation/stryker.visitor.config.mjs`: the visitor module against the unit tests that run
// it (mutation/vitest.mutate-visitor.config.ts). `--mutate <file>` narrows it; `--incremental` reuses
// reports/mut/inc-visitor.json.
import { forModule } from './stryker.config.mjs';

export default forModule('visitor', ['src/worker-engine/visitor/**/*.ts']);

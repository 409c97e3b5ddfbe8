// `npx stryker run mutation/stryker.launch.config.mjs`: the Launch runtime imported containers run with
// against the unit tests that run it (mutation/vitest.mutate-launch.config.ts).
import { forModule } from './stryker.config.mjs';

export default forModule('launch', ['src/launch/**/*.ts']);

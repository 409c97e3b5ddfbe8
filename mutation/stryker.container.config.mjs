// `npx stryker run mutation/stryker.container.config.mjs`: the authoring API (defineContainer, its helpers
// and validation) against the unit tests that run it (mutation/vitest.mutate-container.config.ts).
import { forModule } from './stryker.config.mjs';

export default forModule('container', ['src/container/**/*.ts']);

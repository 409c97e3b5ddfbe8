// `npx stryker run mutation/stryker.storefront.config.mjs`: the storefront container against the unit tests
// that run it (mutation/vitest.mutate-storefront.config.ts), so each of its many static mutants (its rule and
// data element tables) runs a few seconds of tests instead of the whole unit suite. `--incremental` reuses
// reports/mut/inc-storefront.json.
import { forModule } from './stryker.config.mjs';

export default forModule('storefront', ['containers/storefront/**/*.ts']);

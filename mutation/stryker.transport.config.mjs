// `npx stryker run mutation/stryker.transport.config.mjs`: the beacon queue and sender against the unit tests
// that run them (mutation/vitest.mutate-transport.config.ts). idb-store.ts is left out: it is IndexedDB,
// tested in Chromium (tests/browser/transport-idb.test.ts), which Stryker's Vitest runner does not drive.
import { forModule } from './stryker.config.mjs';

export default forModule('transport', ['src/worker-engine/transport/**/*.ts', '!src/worker-engine/transport/idb-store.ts']);

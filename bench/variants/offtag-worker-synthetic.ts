/**
 * offtag-worker.js with a grown container (container scaling): the bench builds it once per size
 * with `__BENCH_DE__` / `__BENCH_RULES__` defined, and points `offtagConfig.workerUrl` at it.
 * offtag.js itself is the built dist file, unchanged.
 */
import { storefront } from '../../containers/storefront/container.ts';
import { createServices } from '../../src/worker-engine/adobe-services.ts';
import { createBeaconSink } from '../../src/worker-engine/transport/beacon-sink.ts';
import { startWorker } from '../../src/worker-engine/worker-shell.ts';
import { growContainer } from './common.ts';

declare const __BENCH_DE__: number;
declare const __BENCH_RULES__: number;

startWorker({
  container: growContainer(storefront, { dataElements: __BENCH_DE__, rules: __BENCH_RULES__ }),
  services: createServices,
  beacons: createBeaconSink,
});

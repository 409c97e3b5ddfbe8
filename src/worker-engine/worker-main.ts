/** offtag-worker.js: the storefront container on the worker shell. */
import { storefront } from '../storefront/container.ts';
import { createServices } from './adobe-services.ts';
import { createBeaconSink } from './transport/beacon-sink.ts';
import { startWorker } from './worker-shell.ts';

startWorker({ container: storefront, services: createServices, beacons: createBeaconSink });

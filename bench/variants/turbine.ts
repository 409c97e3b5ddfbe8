/**
 * Bench variant 3: the storefront container on Adobe's tag runtime (`@adobe/reactor-turbine`,
 * main thread), its beacons built by Offtag's own visitor service and tracker. ES imports evaluate
 * in order: the services, then the container object, then the runtime, which reads
 * `window._satellite.container` once when it evaluates.
 */
import './offtag-services.ts';
import './turbine-container.ts';
import '@adobe/reactor-turbine/dist/engine.js';

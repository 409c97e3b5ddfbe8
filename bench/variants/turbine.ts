/**
 * Bench variant 3: the storefront container on Adobe's tag runtime (`@adobe/reactor-turbine`,
 * main thread). ES imports evaluate in order: the container object first, then the runtime,
 * which reads `window._satellite.container` once when it evaluates.
 */
import './turbine-container.ts';
import '@adobe/reactor-turbine/dist/engine.js';

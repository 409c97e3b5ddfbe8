/**
 * Bench variant "legacy": the storefront container on Adobe's tag runtime (turbine), its visitor
 * service and beacons Adobe's real VisitorAPI.js and AppMeasurement.js (legacy-services.ts; the
 * page loads both before this bundle). Built and run only when OFFTAG_APPMEASUREMENT_REPO names
 * a clone of github.com/adobe/appmeasurement (bench/lib/setup.ts `LEGACY`).
 */
import './legacy-services.ts';
import './turbine-container.ts';
import '@adobe/reactor-turbine/dist/engine.js';

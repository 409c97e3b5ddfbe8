/** The turbine variant's services: Offtag's own visitor-ID service and tracker, on the main thread (turbine.ts). */
import { createServices } from '../../src/worker-engine/adobe-services.ts';

(window as unknown as { benchServices: typeof createServices }).benchServices = createServices;

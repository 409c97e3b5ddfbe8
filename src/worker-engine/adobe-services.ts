/**
 * The Adobe services, built once per engine: the visitor-ID service, and the analytics tracker
 * that waits on it. A container that uses them names this factory (src/container `adobeServices`);
 * the engine core never does.
 */
import type { EngineContext } from './core/types.ts';
import { createAnalyticsService } from './analytics/tracker.ts';
import type { Services } from './services.ts';
import { createLateVisitorService } from './visitor/late-options.ts';
import type { VisitorOptions } from './visitor/service.ts';

export function createServices(ctx: EngineContext, visitorOptions: VisitorOptions = {}): Services {
  // Built on its first use, so a rule of the first event may still configure it (late-options.ts).
  const visitor = createLateVisitorService(ctx, visitorOptions);
  return { visitor, analytics: createAnalyticsService(ctx, visitor) };
}

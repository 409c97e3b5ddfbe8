/**
 * The Adobe services, built once per engine: the visitor-ID service, and the analytics tracker
 * that waits on it. A container that uses them names this factory (src/container `adobeServices`);
 * the engine core never does.
 */
import type { EngineContext } from './core/types.ts';
import { createAnalyticsService } from './analytics/tracker.ts';
import type { Services } from './services.ts';
import { createVisitorService } from './visitor/service.ts';

export function createServices(ctx: EngineContext): Services {
  const visitor = createVisitorService(ctx);
  return { visitor, analytics: createAnalyticsService(ctx, visitor) };
}

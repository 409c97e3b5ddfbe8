/** The services the storefront's rules use, built once per engine. */
import type { EngineContext, Services } from './core/types.ts';
import { createAnalyticsService } from './analytics/tracker.ts';
import { createVisitorService } from './visitor/service.ts';

export function createServices(ctx: EngineContext): Services {
  const visitor = createVisitorService(ctx);
  return { visitor, analytics: createAnalyticsService(ctx, visitor) };
}

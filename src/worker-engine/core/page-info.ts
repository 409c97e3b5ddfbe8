/** The page's facts as the engine sees them: what the bridge read (`PageFacts`), completed by the worker. */
import type { PageFacts, PageInfo } from '../../protocol.ts';

/** The worker completes what the bridge sent, from its own navigator (same browser as the page). */
export function completePageInfo(facts: PageFacts, nav: { userAgent: string; language: string }): PageInfo {
  return { userAgent: nav.userAgent, language: nav.language, secure: facts.origin.startsWith('https:'), ...facts };
}

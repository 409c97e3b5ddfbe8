/** What the worker adds to the page's snapshots before the engine sees them. */
import type { EngineInput, Snapshot } from '../../protocol.ts';

/**
 * Snapshots offtag.js took during its start-up carry no viewport, cookies or session keys (a
 * forced layout on phones, the first storage access): the ones it read at hello (`now`) stand
 * in, with what it could not read then.
 */
export function withStartupFacts(input: EngineInput, now: Snapshot | undefined): EngineInput {
  if (input?.type !== 'event' || !input.snapshot || input.snapshot.viewport) return input;
  const { viewport = { width: 0, height: 0 }, cookie = '', session = {}, problems = [] } = now ?? {};
  return { ...input, snapshot: { ...input.snapshot, viewport, cookie, session, problems: [...(input.snapshot.problems ?? []), ...problems] } };
}

/** The worker adds the snapshot's time zone (same clock, same zone as the page): one Date less per event there. */
export const withTimeZone = (input: EngineInput): EngineInput =>
  input?.type === 'event' && input.snapshot ? { ...input, snapshot: { ...input.snapshot, tz: new Date(input.snapshot.time).getTimezoneOffset() } } : input;

/** The words for an input the engine could not process (engine.ts, and a rule queue failure in events.ts). */
import type { EngineInput } from '../../protocol.ts';

/** What is said when one input could not be processed; the next input is processed as usual. */
export function inputFailed(input: EngineInput, err: unknown): string {
  const name =
    input?.type === 'event'
      ? `"${input.event?.type}"${input.event?.type === 'direct-call' ? ` ("${String(input.event.id)}")` : ''}`
      : `"${String(input?.type)}"`;
  let why: string;
  try {
    why = err instanceof Error ? err.message : String(err);
  } catch {
    why = 'unknown error';
  }
  return `Offtag could not process ${name}: ${why}. Later events are processed as usual.`;
}

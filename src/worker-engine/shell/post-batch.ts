/** Posting a batch to the page, even when a value in it cannot be cloned. */
import type { Effect } from '../../protocol.ts';

/**
 * Posts the batch `n`, with the acknowledgement `a` when one goes with it. A value the page cannot
 * receive (a function from a custom data element…) is left out, by name, and said in the page's
 * console; the rest of the batch goes.
 */
export function postBatch(port: { postMessage(m: unknown): void }, n: number, effects: Effect[], a?: number): void {
  const ack = a ? { a } : {};
  try {
    port.postMessage({ n, effects, ...ack });
  } catch (err) {
    const dropped: string[] = [];
    const safe: Effect[] = [];
    for (const e of effects) {
      try {
        safe.push(structuredClone(e));
        continue;
      } catch {
        if (e.type !== 'vars') {
          dropped.push(`a ${e.type} effect`);
          continue;
        }
      }
      const values: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(e.values)) {
        try {
          values[k] = structuredClone(v);
        } catch {
          dropped.push(`values.${k}`);
        }
      }
      safe.push({ type: 'vars', values });
    }
    const message = `Offtag could not send these values to the page (${(err as Error).name}); left out: ${dropped.join(', ')}.`;
    port.postMessage({ n, effects: [...safe, { type: 'log', level: 'error', message }], ...ack });
  }
}

/**
 * What `_satellite.getVar` answers from: the worker keeps the latest data element values, and
 * what the bridge already holds of them, as JSON, so only changed values travel again.
 */
import { safeJson } from '../core/safe-json.ts';

export interface VarCache {
  /** The latest values (name → value), a copy. */
  values(): Record<string, unknown>;
  /** Takes the engine's latest values; returns those the bridge does not hold yet (undefined: none). */
  update(values: Record<string, unknown>): Record<string, unknown> | undefined;
}

export function createVarCache(): VarCache {
  const values: Record<string, unknown> = {};
  const sent = new Map<string, string>();
  return {
    values: () => ({ ...values }),
    update(latest) {
      Object.assign(values, latest);
      const changed: Record<string, unknown> = {};
      let any = false;
      for (const [k, v] of Object.entries(latest)) {
        const json = safeJson(v);
        if (sent.get(k) !== json) {
          sent.set(k, json);
          changed[k] = v;
          any = true;
        }
      }
      return any ? changed : undefined;
    },
  };
}

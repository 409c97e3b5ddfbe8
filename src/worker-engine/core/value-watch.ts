/**
 * The data element change trigger (docs/triggers.md): the data elements some rule watches are
 * read on every snapshot the bridge sends (every page event) and compared, as JSON, with their
 * value on the one before. Nothing polls: a change shows with the next event. The first reading
 * is the baseline and fires nothing (Adobe's Core extension takes it when the rule is set up).
 */
import type { EngineEvent } from '../../protocol.ts';
import { safeJson } from './safe-json.ts';

export type ValueChange = Extract<EngineEvent, { type: 'data-element-change' }>;

/** `check(get)` reads each watched element with `get` and returns the ones whose value changed since the last check. */
export function createValueWatch(names: string[]): { check(get: (name: string) => unknown): ValueChange[] } {
  const last = new Map<string, { json: string; value: unknown }>();
  return {
    check(get) {
      const changes: ValueChange[] = [];
      for (const name of names) {
        const value = get(name);
        const json = safeJson(value);
        const before = last.get(name);
        if (before && before.json !== json) changes.push({ type: 'data-element-change', name, value, previous: before.value });
        last.set(name, { json, value });
      }
      return changes;
    },
  };
}

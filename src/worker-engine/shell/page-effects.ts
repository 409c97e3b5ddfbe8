/**
 * The engine's batch as it goes to the page: only what changes it (docs/runtime.md, "Only what
 * changes the page reaches it"). Cookie and sessionStorage writes that leave the page as it is
 * are dropped (`page-writes.ts`), `getVar` values go only when they changed (`var-cache.ts`).
 */
import type { Effect } from '../../protocol.ts';
import type { PageWrites } from './page-writes.ts';
import type { VarCache } from './var-cache.ts';

/** The page's share of `effects`, with each write's key (`holdEffects`: a later write of the same key replaces it). */
export function pageEffects(effects: Effect[], writes: PageWrites, vars: VarCache): { effects: Effect[]; keys: Array<string | undefined> } {
  const out: Effect[] = [];
  const keys: Array<string | undefined> = [];
  for (const e of effects) {
    if (e.type === 'cookie' || e.type === 'storage') {
      const write = writes.toPage(e);
      if (write) keys[out.push(write.effect) - 1] = write.key;
    } else if (e.type === 'hit') {
      // `window.s_objectID = 0`, the same whenever it runs: one per batch does, and it must not
      // count as an effect that looks at the page, which would keep every cookie write before it.
      keys[out.push(e) - 1] = 'h';
    } else if (e.type !== 'vars') {
      out.push(e);
    } else {
      const changed = vars.update(e.values);
      if (changed) out.push({ type: 'vars', values: changed });
    }
  }
  return { effects: out, keys };
}

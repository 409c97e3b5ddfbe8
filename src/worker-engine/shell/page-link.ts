/**
 * The page's side of the hot path, kept in step: what goes to the page (only what changes it,
 * held during a burst, in batches the bridge numbers 1, 2, 3…) and what its snapshots say it has
 * seen (their `applied` count, translated to the engine's batches; their cookies and session keys).
 */
import type { EffectBatch, EngineInput, Snapshot } from '../../protocol.ts';
import { createOutbox } from './batches.ts';
import { pageEffects } from './page-effects.ts';
import { createPageWrites } from './page-writes.ts';
import { postBatch } from './post-batch.ts';
import { withStartupFacts, withTimeZone } from './snapshots.ts';
import { createVarCache } from './var-cache.ts';

export interface PageLink {
  /** The engine's batch: the page's share goes out, or waits while inputs do. */
  toBridge(b: EffectBatch): void;
  /** An input as it arrived from the page: completed with the start-up facts (`withStartupFacts`). */
  arrived(input: EngineInput): EngineInput;
  /** The input as the engine gets it: a snapshot's `applied` in the engine's count, its time zone added. */
  fromBridge(input: EngineInput): EngineInput;
  /** An input that `arrived` was handled: when none waits any more, what was held goes out. */
  handled(): void;
  /** The latest data element values (`getVar`). */
  values(): Record<string, unknown>;
}

export function createPageLink(o: { port: { postMessage(m: unknown): void }; holdMs: number; now?: Snapshot }): PageLink {
  const writes = createPageWrites();
  const vars = createVarCache();
  /** Inputs received and not yet handled: while there are any, page effects are held. */
  let waiting = 0;
  const outbox = createOutbox({ holdMs: o.holdMs, waiting: () => waiting > 0, send: (n, effects) => postBatch(o.port, n, effects) });
  return {
    toBridge(b) {
      const { effects, keys } = pageEffects(b.effects, writes, vars);
      outbox.add(b.n, effects, keys);
    },
    arrived(input) {
      waiting++;
      return withStartupFacts(input, o.now);
    },
    fromBridge(input) {
      if (input?.type !== 'event' || !input.snapshot) return input;
      writes.saw(input.snapshot);
      return withTimeZone({ ...input, snapshot: { ...input.snapshot, applied: outbox.applied(input.snapshot.applied) } });
    },
    handled() {
      if (!--waiting) outbox.post();
    },
    values: vars.values,
  };
}

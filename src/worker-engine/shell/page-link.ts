/**
 * The page's side of the hot path, kept in step: what goes to the page (only what changes it,
 * held during a burst, in batches the bridge numbers 1, 2, 3…) and what its snapshots say it has
 * seen (their `applied` count, translated to the engine's batches; their cookies and session keys).
 */
import type { Effect, EffectBatch, EngineInput, Snapshot } from '../../protocol.ts';
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
  /** The shell's own effects for the page (the read set, the page triggers, start-up logs): with the next batch (`Outbox.extra`). */
  extra(effects: Effect[]): void;
  /**
   * The events the page posted before the worker started (up to the init's `now.seq`) are not all
   * handled yet: page effects and acknowledgements wait for them, and go out together.
   */
  starting(): boolean;
  /** The latest data element values (`getVar`). */
  values(): Record<string, unknown>;
  /** An acknowledgement for the page: with the batch that waits for it, or the next one (`Outbox.ack`). */
  ack(seq: number): void;
}

/**
 * The events the page posted before the worker started are waited for at most this long (one of
 * them may never come: a data layer structured clone refuses goes through offtag-effects.js, which
 * may not load); then what is held goes out, and acknowledgements resume.
 */
export const STARTUP_WAIT_MAX_MS = 1_000;

export function createPageLink(o: {
  port: { postMessage(m: unknown): void };
  holdMs: number;
  /** How long page effects may be held once a backlog outlasted `holdMs` (`createOutbox`). */
  backlogHoldMs?: number;
  now?: Snapshot;
  /** The start-up events are handled (or no longer waited for): acknowledgements may go. */
  started?(): void;
  /**
   * An acknowledgement is on its way (its commit is being written): page effects wait for it, at
   * most `holdMs`, so that both reach the page in one message, one task of its main thread.
   */
  acking?(): boolean;
}): PageLink {
  const writes = createPageWrites();
  const vars = createVarCache();
  /** Inputs received and not yet handled: while there are any, page effects are held. */
  let waiting = 0;
  /** The seq of each input received and not yet handled (0: not an event), and the highest handled. */
  const seqs: number[] = [];
  let handledSeq = 0;
  let startupSeq = o.now?.seq ?? 0;
  const starting = () => handledSeq < startupSeq;
  const stopWaiting = startupSeq && setTimeout(() => {
    if (!starting()) return;
    startupSeq = 0;
    startupOver();
  }, STARTUP_WAIT_MAX_MS);
  const busy = () => waiting > 0 || starting() || !!o.acking?.();
  const outbox = createOutbox({ holdMs: o.holdMs, backlogHoldMs: o.backlogHoldMs, waiting: busy, starting, send: (n, effects, a) => postBatch(o.port, n, effects, a) });
  /** Start-up is over: what was held goes now (with the acknowledgement it starts), or, while inputs still wait, within `holdMs`. */
  const startupOver = () => {
    o.started?.();
    if (busy()) outbox.arm();
    else outbox.post();
  };
  return {
    toBridge(b) {
      const { effects, keys } = pageEffects(b.effects, writes, vars);
      outbox.add(b.n, effects, keys);
    },
    arrived(input) {
      waiting++;
      seqs.push(input?.type === 'event' ? (input.snapshot?.seq ?? 0) : 0);
      return withStartupFacts(input, o.now);
    },
    fromBridge(input) {
      if (input?.type !== 'event' || !input.snapshot) return input;
      writes.saw(input.snapshot);
      return withTimeZone({ ...input, snapshot: { ...input.snapshot, applied: outbox.applied(input.snapshot.applied) } });
    },
    handled() {
      const was = starting();
      handledSeq = Math.max(handledSeq, seqs.shift() ?? 0);
      waiting--;
      if (was && !starting()) {
        clearTimeout(stopWaiting);
        startupOver();
      } else if (!busy()) outbox.post();
    },
    extra: (effects) => outbox.extra(effects),
    starting,
    values: vars.values,
    ack: (seq) => outbox.ack(seq),
  };
}

/**
 * The effects buffer: what the engine emits collects here and leaves as one batch per dispatch.
 * An effect emitted while no dispatch runs (late asynchronous work) leaves on its own, in a batch
 * handed to `onLate` once the current microtasks have run.
 */
import type { Effect, EffectBatch } from '../../protocol.ts';

/** Effects the bridge applies; the rest (requests, timers, the devtools feed) stay in the worker. */
export function isBridgeEffect(e: Effect): boolean {
  return e.type !== 'request' && e.type !== 'timer' && e.type !== 'monitor';
}

export interface EffectBuffer {
  emit(effect: Effect): void;
  /** The number the next batch with bridge effects will carry (cookie and storage writes remember it). */
  nextBatch(): number;
  /** Runs `work` as a dispatch: what it emits waits for the batch `work`'s promise ends with. */
  during<T>(work: () => Promise<T>): Promise<EffectBatch>;
}

export function createEffectBuffer(onLate?: (batch: EffectBatch) => void): EffectBuffer {
  let buffer: Effect[] = [];
  let lastBatch = 0;
  let dispatching = false;

  /** The batch of what was emitted so far; it is numbered only when the bridge has something to apply. */
  const take = (): EffectBatch => {
    const effects = buffer;
    buffer = [];
    const n = effects.some(isBridgeEffect) ? ++lastBatch : 0;
    return { n, effects };
  };

  return {
    emit(effect) {
      buffer.push(effect);
      // The first microtask takes every late effect emitted so far; the later ones find none.
      if (!dispatching && onLate) {
        queueMicrotask(() => {
          if (!dispatching && buffer.length) onLate(take());
        });
      }
    },
    nextBatch: () => lastBatch + 1,
    async during(work) {
      dispatching = true;
      try {
        await work();
      } finally {
        dispatching = false;
      }
      return take();
    },
  };
}

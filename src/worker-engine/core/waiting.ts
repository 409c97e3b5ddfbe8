/**
 * Waiting: work that waits for the world (a request's answer, a timer) is a promise the matching
 * later input resolves; tracked work (real asynchrony such as WebCrypto) holds the dispatch only
 * while nothing waits for the world, so nothing a dispatch awaits can wait on an effect of that
 * same dispatch (docs/errors.md, "Robustness").
 */
import type { NetResponse } from '../../protocol.ts';

/**
 * A wait until every microtask queued so far has run: the next macrotask. Not `setTimeout(0)`,
 * which browsers clamp to 4 ms once nested, and which capped the worker near 100 events/s.
 */
export function nextMacrotask(): () => Promise<void> {
  if (typeof setImmediate === 'function') return () => new Promise<void>((r) => setImmediate(r));
  if (typeof MessageChannel === 'function') {
    const channel = new MessageChannel();
    const waiting: Array<() => void> = [];
    // One message per wait, in order: the queue is never empty here.
    channel.port1.onmessage = () => waiting.shift()!();
    return () =>
      new Promise<void>((r) => {
        waiting.push(r);
        channel.port2.postMessage(0);
      });
  }
  return () => new Promise<void>((r) => setTimeout(r, 0));
}

export interface Waiting {
  /** `resolve` gets the answer to the request or timer `id` (`undefined`: a timer fired, or no answer). */
  wait(id: string, resolve: (value: NetResponse | undefined) => void): void;
  /** The world answered `id`; an id nothing waits for is ignored. */
  answer(id: string, value: NetResponse | undefined): void;
  /** Keeps the current dispatch open until `p` settles, unless it starts waiting for the world. */
  track<T>(p: Promise<T>): Promise<T>;
  /** Resolves once the work set going has nothing left to do but wait for the world. */
  settled(): Promise<void>;
}

export function createWaiting(settle: () => Promise<void>): Waiting {
  const waiting = new Map<string, (value: NetResponse | undefined) => void>();
  const tracked = new Set<Promise<unknown>>();
  /** Set while a dispatch waits on tracked work: called when that work starts to wait for the world. */
  let onWorldWait: (() => void) | undefined;

  return {
    wait(id, resolve) {
      waiting.set(id, resolve);
      onWorldWait?.();
    },
    answer(id, value) {
      const resolve = waiting.get(id);
      waiting.delete(id);
      resolve?.(value);
    },
    track(p) {
      tracked.add(p);
      const done = () => tracked.delete(p);
      p.then(done, done);
      return p;
    },
    async settled() {
      for (;;) {
        await settle();
        // Tracked work (hashing) holds the batch only while nothing waits for the world. Once
        // a request or a timer is outstanding, that work may be waiting for its answer: an
        // input queued behind this very dispatch. The batch leaves now, with the request in
        // it; what the work does after the answer leaves in a later batch.
        if (!tracked.size || waiting.size) return;
        await new Promise<void>((resolve) => {
          onWorldWait = resolve;
          void Promise.allSettled([...tracked]).then(() => resolve());
        });
        onWorldWait = undefined;
      }
    },
  };
}

/**
 * Hits leave in the order they were made, each after the one before (AppMeasurement queues too);
 * the chain counts the ones not finished (docs/delivery.md: an event is acknowledged once its hits are).
 */
export interface HitChain<T> {
  enqueue(item: T): Promise<void>;
  pending(): number;
}

/** `run` sends one item; a throw from it goes to `failed` and the chain goes on. */
export function createHitChain<T>(run: (item: T) => Promise<void>, failed: (item: T, e: unknown) => void): HitChain<T> {
  let chain: Promise<void> = Promise.resolve();
  let pending = 0;
  return {
    enqueue(item) {
      pending++;
      const next = chain
        .then(() => run(item))
        .catch((e: unknown) => failed(item, e))
        .finally(() => void pending--);
      chain = next;
      return next;
    },
    pending: () => pending,
  };
}

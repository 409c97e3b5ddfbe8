/** What the worker shell's parts (shell/*.ts) share. */
import type { RequestEffect } from '../../protocol.ts';

/** Delivers beacons; the worker uses the durable IndexedDB queue. */
export interface BeaconSink {
  /**
   * `delivered` is called once, on a 2xx answer, with the fetch round trip in ms. `page`: the
   * beacon waits for `commit(page, …)`, which stores it with the page's marker (queue.ts `enqueue`, queue-commit.ts `park`).
   */
  send(req: RequestEffect, delivered?: (rttMs: number) => void, page?: string): void;
  /** Re-send what an earlier page left behind. */
  resume?(): void;
  /** The origin's beacon sender, which the page started when the sink asked for it (transport/beacon-sink.ts). */
  sender?(port: MessagePort): void;
  /** Resolves once every beacon sent so far is safe, stored with the marker `page` = `seq` (queue-commit.ts `commit`). */
  commit?(page: string, seq: number): Promise<void>;
  /** The highest seq committed for `page`. */
  committed?(page: string): Promise<number>;
  queue?: Promise<{ readonly size: number; idle(): Promise<void> }>;
}

/** An entry of the devtools feed. */
export interface FeedEntry {
  name: string;
  data: unknown;
}

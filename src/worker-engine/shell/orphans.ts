/**
 * Orphans: the events earlier pages of the origin closed on before they were acknowledged
 * (protocol.ts `InitMessage.orphans`). Each runs on an engine of its own: its beacons go to the
 * queue, nothing reaches this page.
 */
import type { EngineInput } from '../../protocol.ts';
import { ORPHAN_KEY } from '../../protocol-keys.ts';
import type { BeaconSink, FeedEntry } from './types.ts';

/** While an orphan's hit waits (for the visitor ids), it is looked at again this often. */
export const ORPHAN_POLL_MS = 50;

export interface OrphanOptions {
  /** localStorage `[key, JSON of EngineInput[]]` pairs, key `ORPHAN_KEY` + that page's pid. */
  orphans: Array<[string, string]>;
  beacons: BeaconSink;
  feed(entry: FeedEntry): void;
  /** An engine of its own for the page `tag`; `busy`: a network answer or timer of it is being dispatched (host.ts `Host.busy`). */
  boot(tag: string): { input(input: EngineInput): Promise<void>; pendingHits(): number; busy(): boolean };
  /** What the worker adds to a snapshot before the engine sees it. */
  prepare(input: EngineInput): EngineInput;
  /** The origin's locks (navigator.locks), when there are. */
  locks?: { request(name: string, f: () => Promise<void>): Promise<void> };
}

/** Finishes the events after each page's stored marker, then commits their beacons with a marker up to their last seq. */
export async function finishOrphans(o: OrphanOptions): Promise<void> {
  const { orphans, beacons, feed } = o;
  if (!orphans.length || !beacons.commit || !beacons.committed) return;
  const work = async () => {
    for (const [key, json] of orphans) {
      const from = key.slice(ORPHAN_KEY.length);
      let inputs: EngineInput[];
      try {
        inputs = JSON.parse(json) as EngineInput[];
      } catch (e) {
        feed({ name: 'orphans-unreadable', data: { key, error: String(e) } });
        continue;
      }
      const safe = await beacons.committed!(from);
      const todo = inputs.filter((i) => i.type === 'event' && i.snapshot.seq > safe);
      feed({ name: 'orphans', data: { page: from, events: inputs.length, finishing: todo.length } });
      if (!todo.length) continue;
      const r = o.boot(from);
      for (const i of todo) await r.input(o.prepare(i));
      // A hit stops counting as pending inside the dispatch of the answer it waited for (the ID
      // call's), and its beacon reaches the sink when that dispatch ends: the commit waits for both,
      // or it would store the marker without the beacon, which no later commit of this page takes.
      while (r.pendingHits() > 0 || r.busy()) await new Promise((res) => setTimeout(res, ORPHAN_POLL_MS));
      await beacons.commit!(from, Math.max(...todo.map((i) => (i.type === 'event' ? i.snapshot.seq : 0))));
    }
  };
  try {
    // One page at a time reads the markers and finishes: two pages opening together never both do.
    await (o.locks ? o.locks.request('offtag-orphans', work) : work());
  } catch (e) {
    feed({ name: 'orphans-failed', data: String(e) });
  }
}

/**
 * An engine with its host, bound to this worker's world: the page's own engine, and one per
 * orphaned page (`tag`: that page's pid), whose effects reach no page.
 */
import type { EffectBatch, PageInfo } from '../../protocol.ts';
import { createEngine } from '../core/engine.ts';
import type { Container, EngineContext, EngineEnv } from '../core/types.ts';
import { createHost, fetchWithTimeout, type Host } from '../host.ts';
import type { SessionRecorder } from '../session-recorder.ts';
import type { Acknowledger } from './acknowledgements.ts';
import type { BeaconSink, FeedEntry } from './types.ts';

export interface BootOptions<N extends string, S extends object, X = unknown> {
  container: Container<N, S, X>;
  /** Absent: the container's own `services`. */
  services?: (ctx: EngineContext) => S;
  env: EngineEnv;
  config: unknown;
  debug: boolean;
  page: PageInfo;
  /** This page's name in the store's markers. */
  pid: string;
  beacons: BeaconSink;
  recorder: SessionRecorder;
  acks: Acknowledger;
  feed(entry: FeedEntry): void;
}

export interface Booted {
  host: Host;
  settings(): Record<string, unknown>;
  /** The container's hook (0 when it has none). */
  pendingHits(): number;
}

/** An engine with its host; `toPage` gets its batches; `tag`: the orphaned page it finishes. */
export function bootEngine<N extends string, S extends object, X>(o: BootOptions<N, S, X>, toPage: (b: EffectBatch) => void, tag?: string): Booted {
  const { beacons, recorder, acks, feed } = o;
  let h: Host | undefined;
  const engine = createEngine({
    container: o.container,
    services: o.services,
    env: o.env,
    config: o.config,
    debug: o.debug,
    page: o.page,
    onLateEffects: (batch) => {
      h?.route(batch);
      acks.acknowledge();
    },
  });
  h = createHost(engine, {
    toBridge: toPage,
    // The page's own engine records the network's answers for the session export; an orphan's does not.
    request: tag
      ? fetchWithTimeout
      : (req) =>
          fetchWithTimeout(req).then((res) => {
            recorder.response(req, res);
            return res;
          }),
    // With acknowledgements, a beacon is stored with its page's marker and sent after that
    // (queue.ts `enqueue`): the next acknowledgement commits it.
    beacon: (req, delivered) => {
      if (!beacons.commit) return beacons.send(req, delivered);
      beacons.send(req, delivered, tag ?? o.pid);
      // Whichever path made it (an event, a late batch, a network answer's dispatch), the
      // next task commits it, once the work around it settled.
      if (!tag) acks.beaconMade();
    },
    setTimer: (ms, fire) => setTimeout(fire, ms),
    monitor: tag ? (e) => feed({ name: e.name, data: { ...(e.data as object), replayOf: tag } }) : feed,
  });
  return { host: h, settings: () => ({ ...engine.settings }), pendingHits: engine.pendingHits };
}

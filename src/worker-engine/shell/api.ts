/**
 * The worker's API (protocol.ts `WorkerApi`), served with Comlink on the `api` port: the
 * devtools, the benches and the tests use it; and the devtools feed it serves.
 */
import { expose } from 'comlink';
import type { WorkerApi } from '../../protocol.ts';
import type { SessionFixture } from '../session-recorder.ts';
import type { BeaconSink, FeedEntry } from './types.ts';

/** How many devtools feed entries the worker keeps. */
export const MONITOR_LIMIT = 500;

export interface Feed {
  push(entry: FeedEntry): void;
  /** Oldest first, a copy. */
  entries(): FeedEntry[];
}

/** The devtools feed: the latest `MONITOR_LIMIT` entries. */
export function createFeed(limit = MONITOR_LIMIT): Feed {
  const entries: FeedEntry[] = [];
  return {
    push(entry) {
      if (entries.push(entry) > limit) entries.shift();
    },
    entries: () => [...entries],
  };
}

export interface ApiSources {
  /** A copy of the settings in force. */
  settings(): Record<string, unknown>;
  values(): Record<string, unknown>;
  beacons: BeaconSink;
  feed: Feed;
  session(): SessionFixture;
}

export function createWorkerApi(s: ApiSources): WorkerApi {
  return {
    settings: s.settings,
    values: s.values,
    pendingBeacons: async () => (s.beacons.queue ? (await s.beacons.queue).size : 0),
    monitor: s.feed.entries,
    session: s.session,
    beaconsIdle: async () => {
      if (s.beacons.queue) await (await s.beacons.queue).idle();
    },
  };
}

/** Serves the API on `port`. */
export const serveApi = (s: ApiSources, port: MessagePort): void => expose(createWorkerApi(s), port);

/**
 * The worker shell: binds the engine to the two ports the bridge hands over (the hot path, and
 * the Comlink API), `fetch`, timers and the durable beacon queue.
 */
import { expose } from 'comlink';
import { completePageInfo, cookieString, forPage, MONITOR_LIMIT, type Snapshot, type Effect, type EffectBatch, type EngineInput, type InitMessage, type RequestEffect, type WorkerApi } from '../protocol.ts';
import { createEngine } from './core/engine.ts';
import { parseCookieString } from './core/cookies.ts';
import { readSetOf } from './core/data-layer.ts';
import { sha256Hex } from './core/sha256.ts';
import type { Container, EngineContext, EngineEnv } from './core/types.ts';
import { createHost, fetchWithTimeout, type Host } from './host.ts';

export const browserEnv: EngineEnv = {
  now: () => Date.now(),
  random: () => Math.random(),
  sha256: sha256Hex,
};

/** Delivers beacons; the worker uses the durable IndexedDB queue. */
export interface BeaconSink {
  /** `delivered` is called once, on a 2xx answer, with the fetch round trip in ms. */
  send(req: RequestEffect, delivered?: (rttMs: number) => void): void;
  /** Re-send what an earlier page left behind. */
  resume?(): void;
  queue?: Promise<{ readonly size: number; idle(): Promise<void> }>;
}

export interface WorkerOptions<N extends string, S extends object> {
  container: Container<N, S>;
  services: (ctx: EngineContext) => S;
  beacons: (log: (message: string) => void) => BeaconSink;
}

/** Starts the engine for one page; `scope` is the worker's global (a parameter for tests). */
export function startWorker<N extends string, S extends object>(
  opts: WorkerOptions<N, S>,
  scope: Pick<DedicatedWorkerGlobalScope, 'addEventListener' | 'removeEventListener'> = self as DedicatedWorkerGlobalScope,
): void {
  const onInit = (ev: MessageEvent<InitMessage>) => {
    if (ev.data?.type !== 'offtag:init') return;
    scope.removeEventListener('message', onInit as EventListener);
    const { config, page, events, api, configDropped, debug } = ev.data;
    const values: Record<string, unknown> = {};
    const monitor: Array<{ name: string; data: unknown }> = [];
    /** What the bridge already holds for `getVar`, as JSON: only changed values travel again. */
    const sent = new Map<string, string>();
    /**
     * The page's last known cookies and session keys (from the latest snapshot), and what this
     * worker last wrote: a write that leaves the page as it is does not travel.
     */
    let latest: Snapshot | undefined;
    let latestCookies: Record<string, string> | undefined;
    const cookiesWritten = new Map<string, string>();
    const sessionWritten = new Map<string, string | null>();
    /**
     * Batches that end up with nothing for the page are not posted, so the bridge numbers the
     * posted ones 1, 2, 3…: `engineBatch[m]` is the engine's number of the bridge's batch m, and
     * `lastEngineBatch` the engine's latest (see `fromBridge`).
     */
    const engineBatch: number[] = [0];
    let lastEngineBatch = 0;
    const unchanged = (e: Effect): boolean => {
      if (e.type === 'storage') {
        return latest?.session[e.key] === e.value && (!sessionWritten.has(e.key) || sessionWritten.get(e.key) === e.value);
      }
      if (e.type === 'cookie') {
        const text = cookieString(e);
        latestCookies ??= parseCookieString(latest?.cookie ?? '');
        const leaves = e.expires !== undefined && e.expires <= Date.now() ? undefined : e.value;
        return cookiesWritten.get(e.name) === text && latestCookies[e.name] === leaves;
      }
      return false;
    };
    const toBridge = (b: EffectBatch) => {
      const effects: Effect[] = [];
      for (const e of b.effects) {
        if (e.type === 'cookie' || e.type === 'storage') {
          if (unchanged(e)) continue;
          if (e.type === 'storage') {
            sessionWritten.set(e.key, e.value);
            effects.push(e);
          } else {
            const page = forPage(e) as { type: 'cookie-string'; cookie: string };
            cookiesWritten.set(e.name, page.cookie);
            effects.push(page);
          }
          continue;
        }
        if (e.type !== 'vars') {
          effects.push(e);
          continue;
        }
        Object.assign(values, e.values);
        const changed: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(e.values)) {
          const json = JSON.stringify(v) ?? 'undefined';
          if (sent.get(k) !== json) {
            sent.set(k, json);
            changed[k] = v;
          }
        }
        if (Object.keys(changed).length) effects.push({ type: 'vars', values: changed });
      }
      lastEngineBatch = b.n;
      if (!effects.length) return;
      engineBatch.push(b.n);
      events.postMessage({ n: engineBatch.length - 1, effects });
    };
    /** An input from the page: a snapshot's `applied` counts posted batches; the engine counts its own. */
    const fromBridge = (input: EngineInput): EngineInput => {
      if (input?.type !== 'event' || !input.snapshot) return input;
      const m = input.snapshot.applied;
      latest = input.snapshot;
      latestCookies = undefined;
      // Batches not posted were "applied" at once: up to the one after the next posted batch, or all.
      const applied = m + 1 < engineBatch.length ? engineBatch[m + 1] - 1 : lastEngineBatch;
      return { ...input, snapshot: { ...input.snapshot, applied, tz: new Date(input.snapshot.time).getTimezoneOffset() } };
    };
    const beacons = opts.beacons((message) => events.postMessage({ n: 0, effects: [{ type: 'log', level: 'warn', message }] }));
    let host: Host | undefined;
    const engine = createEngine({
      container: opts.container,
      services: opts.services,
      env: browserEnv,
      config,
      debug,
      page: completePageInfo(page, navigator),
      onLateEffects: (batch) => host?.route(batch),
    });
    host = createHost(engine, {
      toBridge,
      request: fetchWithTimeout,
      beacon: (req, delivered) => beacons.send(req, delivered),
      setTimer: (ms, fire) => setTimeout(fire, ms),
      monitor: (entry) => {
        if (monitor.push(entry) > MONITOR_LIMIT) monitor.shift();
      },
    });
    // Inputs are handled one at a time, in the order the page sent them.
    let chain: Promise<void> = Promise.resolve();
    events.onmessage = (e: MessageEvent<EngineInput>) => {
      chain = chain.then(() => host!.input(fromBridge(e.data)));
    };
    const workerApi: WorkerApi = {
      settings: () => ({ ...engine.settings }),
      values: () => ({ ...values }),
      pendingBeacons: async () => (beacons.queue ? (await beacons.queue).size : 0),
      monitor: () => [...monitor],
      beaconsIdle: async () => {
        if (beacons.queue) await (await beacons.queue).idle();
      },
    };
    expose(workerApi, api);
    if (configDropped?.length) {
      const message = `offtagConfig values that cannot be sent to the worker were ignored: ${configDropped.join(', ')}.`;
      events.postMessage({ n: 0, effects: [{ type: 'log', level: 'error', message }] });
    }
    // The paths the container reads, once: from the next event on, the bridge copies only those.
    const readSet = readSetOf(opts.container.dataElements as Record<string, { type: string }>);
    if (readSet) events.postMessage({ n: 0, effects: [{ type: 'read-set', tree: readSet }] });
    beacons.resume?.();
  };
  scope.addEventListener('message', onInit as EventListener);
}

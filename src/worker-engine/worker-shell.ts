/**
 * The worker shell: binds the engine to the two ports the bridge hands over (the hot path, and
 * the Comlink API), `fetch`, timers and the durable beacon queue.
 */
import { expose } from 'comlink';
import { completePageInfo, MONITOR_LIMIT, type Effect, type EffectBatch, type EngineInput, type InitMessage, type RequestEffect, type WorkerApi } from '../protocol.ts';
import { createEngine } from './core/engine.ts';
import { sha256Hex } from './core/sha256.ts';
import type { Container, EngineContext, EngineEnv } from './core/types.ts';
import { createHost, fetchWithTimeout, type Host } from './host.ts';
import { createSessionRecorder } from './session-recorder.ts';

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
    const toBridge = (b: EffectBatch) => {
      const effects: Effect[] = [];
      for (const e of b.effects) {
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
      events.postMessage({ n: b.n, effects });
    };
    const beacons = opts.beacons((message) => events.postMessage({ n: 0, effects: [{ type: 'log', level: 'warn', message }] }));
    let host: Host | undefined;
    const pageInfo = completePageInfo(page, navigator);
    /** The session so far, for the devtools' "export session as replay fixture". */
    const recorder = createSessionRecorder(config, pageInfo);
    const engine = createEngine({
      container: opts.container,
      services: opts.services,
      env: browserEnv,
      config,
      debug,
      page: pageInfo,
      onLateEffects: (batch) => host?.route(batch),
    });
    host = createHost(engine, {
      toBridge,
      request: (req) =>
        fetchWithTimeout(req).then((res) => {
          recorder.response(req, res);
          return res;
        }),
      beacon: (req, delivered) => beacons.send(req, delivered),
      setTimer: (ms, fire) => setTimeout(fire, ms),
      monitor: (entry) => {
        if (monitor.push(entry) > MONITOR_LIMIT) monitor.shift();
      },
    });
    // Inputs are handled one at a time, in the order the page sent them.
    let chain: Promise<void> = Promise.resolve();
    events.onmessage = (e: MessageEvent<EngineInput>) => {
      recorder.input(e.data);
      chain = chain.then(() => host!.input(e.data));
    };
    const workerApi: WorkerApi = {
      settings: () => ({ ...engine.settings }),
      values: () => ({ ...values }),
      pendingBeacons: async () => (beacons.queue ? (await beacons.queue).size : 0),
      monitor: () => [...monitor],
      session: () => recorder.fixture(),
      beaconsIdle: async () => {
        if (beacons.queue) await (await beacons.queue).idle();
      },
    };
    expose(workerApi, api);
    if (configDropped?.length) {
      const message = `offtagConfig values that cannot be sent to the worker were ignored: ${configDropped.join(', ')}.`;
      events.postMessage({ n: 0, effects: [{ type: 'log', level: 'error', message }] });
    }
    beacons.resume?.();
  };
  scope.addEventListener('message', onInit as EventListener);
}

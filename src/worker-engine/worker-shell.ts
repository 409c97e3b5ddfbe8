/**
 * The worker shell: binds the engine to the two ports the bridge hands over (the hot path, and
 * the Comlink API), `fetch`, timers and the durable beacon queue.
 */
import { expose } from 'comlink';
import { completePageInfo, MONITOR_LIMIT, type Effect, type EffectBatch, type EngineInput, type InitMessage, type RequestEffect, type WorkerApi } from '../protocol.ts';
import { createEngine, inputFailed } from './core/engine.ts';
import { safeJson } from './core/safe-json.ts';
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
  scope: Pick<DedicatedWorkerGlobalScope, 'addEventListener' | 'removeEventListener'> & { postMessage?(m: unknown): void } = self as DedicatedWorkerGlobalScope,
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
          const json = safeJson(v);
          if (sent.get(k) !== json) {
            sent.set(k, json);
            changed[k] = v;
          }
        }
        if (Object.keys(changed).length) effects.push({ type: 'vars', values: changed });
      }
      try {
        events.postMessage({ n: b.n, effects });
      } catch (err) {
        // A value the page cannot receive (a function from a custom data element…) is left out, by name.
        const dropped: string[] = [];
        const safe: Effect[] = [];
        for (const e of effects) {
          try {
            safe.push(structuredClone(e));
            continue;
          } catch {
            if (e.type !== 'vars') {
              dropped.push(`a ${e.type} effect`);
              continue;
            }
          }
          const values: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(e.values)) {
            try {
              values[k] = structuredClone(v);
            } catch {
              dropped.push(`values.${k}`);
            }
          }
          safe.push({ type: 'vars', values });
        }
        const message = `Offtag could not send these values to the page (${(err as Error).name}); left out: ${dropped.join(', ')}.`;
        events.postMessage({ n: b.n, effects: [...safe, { type: 'log', level: 'error', message }] });
      }
    };
    const say = (level: 'warn' | 'error', message: string) => events.postMessage({ n: 0, effects: [{ type: 'log', level, message }] });
    const beacons = opts.beacons((message) => say('warn', message));
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
      // One input that fails is said once, with its name; the inputs after it go on as usual.
      chain = chain
        .then(() => host!.input(e.data))
        .catch((err: unknown) => say('error', inputFailed(e.data, err)));
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
    beacons.resume?.();
  };
  scope.addEventListener('message', onInit as EventListener);
  // Hello: the bridge hands over its ports only to a worker that is running (a CSP may block one way).
  scope.postMessage?.('offtag:up');
}

/**
 * The worker shell: binds the engine to Comlink (start-up), a MessagePort (the hot path),
 * `fetch`, timers and the durable beacon queue.
 */
import { expose } from 'comlink';
import type { EngineInput, PageInfo, WorkerApi } from '../protocol.ts';
import { createEngine, type Engine } from './core/engine.ts';
import type { Container, EngineContext, EngineEnv } from './core/types.ts';
import { createHost, fetchWithTimeout, type Host } from './host.ts';
import type { RequestEffect } from '../protocol.ts';

/** SHA-256 with WebCrypto, as lowercase hex. */
export async function webCryptoSha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

export const browserEnv: EngineEnv = {
  now: () => Date.now(),
  random: () => Math.random(),
  sha256: webCryptoSha256,
};

/** Delivers beacons; the worker uses the durable IndexedDB queue. */
export interface BeaconSink {
  send(req: RequestEffect): void;
  /** Re-send what an earlier page left behind. */
  resume?(): void;
}

export interface WorkerOptions<N extends string, S extends object> {
  container: Container<N, S>;
  services: (ctx: EngineContext) => S;
  beacons: (log: (message: string) => void) => BeaconSink;
}

export function startWorker<N extends string, S extends object>(opts: WorkerOptions<N, S>): void {
  let host: Host | undefined;
  let engine: Engine | undefined;
  const api: WorkerApi = {
    async init(config: unknown, page: PageInfo, port: MessagePort) {
      let toBridge: (batch: import('../protocol.ts').EffectBatch) => void = (b) => port.postMessage(b);
      const beacons = opts.beacons((message) => toBridge({ n: 0, effects: [{ type: 'log', level: 'warn', message }] }));
      engine = createEngine({
        container: opts.container,
        services: opts.services,
        env: browserEnv,
        config,
        page,
        onLateEffects: (batch) => host?.route(batch),
      });
      host = createHost(engine, {
        toBridge,
        request: fetchWithTimeout,
        beacon: (req) => beacons.send(req),
        setTimer: (ms, fire) => setTimeout(fire, ms),
      });
      // Inputs are handled one at a time, in the order the page sent them.
      let chain: Promise<void> = Promise.resolve();
      port.onmessage = (ev: MessageEvent<EngineInput>) => {
        chain = chain.then(() => host!.input(ev.data));
      };
      toBridge = (b) => port.postMessage(b);
      beacons.resume?.();
    },
  };
  expose(api);
}

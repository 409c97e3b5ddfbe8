/**
 * Binds the I/O-free engine to a world: requests to the network (beacons to the durable queue),
 * timers to the clock, page effects to the bridge. The worker shell and the main-thread variant
 * of the bench share it; the Node replay has its own deterministic world.
 */
import type { EffectBatch, EngineInput, NetResponse, RequestEffect } from '../protocol.ts';
import { isBridgeEffect, type Engine } from './core/engine.ts';

export interface HostIO {
  toBridge(batch: EffectBatch): void;
  /** A request whose answer the engine waits for. */
  request(req: RequestEffect): Promise<NetResponse>;
  /** A beacon: the queue owns its delivery from here on; `delivered` gets the round trip of a 2xx answer. */
  beacon(req: RequestEffect, delivered?: (rttMs: number) => void): void;
  setTimer(ms: number, fire: () => void): void;
  /** The devtools feed (optional: kept by the worker shell, ignored elsewhere). */
  monitor?(entry: { name: string; data: unknown }): void;
}

export interface Host {
  input(input: EngineInput): Promise<void>;
  /** Route a batch the engine produced outside a dispatch. */
  route(batch: EffectBatch): void;
  /**
   * A network answer or a timer is being dispatched. A hit that waited for it stops counting as
   * pending inside that dispatch, and the beacon it built is routed only when the dispatch ends, a
   * macrotask after its work settled (core/waiting.ts `settled`): until then it is in no queue.
   */
  busy(): boolean;
}

export function createHost(engine: Engine, io: HostIO): Host {
  const route = (batch: EffectBatch) => {
    for (const e of batch.effects) {
      if (e.type === 'request') {
        // A beacon's round trip comes back as an input: the next beacon reports it as `lrt`.
        if (e.fireAndForget) io.beacon(e, e.kind === 'beacon' ? (rttMs) => void input({ type: 'beacon-delivered', rttMs }) : undefined);
        else void io.request(e).then((response) => input({ type: 'response', id: e.id, response }));
      } else if (e.type === 'timer') {
        io.setTimer(e.delayMs, () => void input({ type: 'timer', id: e.id }));
      } else if (e.type === 'monitor') {
        io.monitor?.({ name: e.name, data: e.data });
      }
    }
    if (batch.n) io.toBridge({ n: batch.n, effects: batch.effects.filter(isBridgeEffect) });
  };
  let answering = 0;
  const input = async (i: EngineInput) => {
    if (i.type !== 'response' && i.type !== 'timer') return route(await engine.dispatch(i));
    answering++;
    try {
      route(await engine.dispatch(i));
    } finally {
      answering--;
    }
  };
  return { input, route, busy: () => answering > 0 };
}

/** `fetch` with the request's timeout; network failures and timeouts become answers, never throws. */
export async function fetchWithTimeout(req: RequestEffect): Promise<NetResponse> {
  const ctrl = new AbortController();
  const timer = req.timeout ? setTimeout(() => ctrl.abort(), req.timeout) : undefined;
  try {
    const res = await fetch(req.url, {
      method: req.method,
      body: req.body,
      headers: req.headers,
      credentials: req.credentials,
      signal: ctrl.signal,
    });
    return { status: res.status, body: await res.text() };
  } catch {
    return { status: 0, body: '', error: ctrl.signal.aborted ? 'timeout' : 'network' };
  } finally {
    clearTimeout(timer);
  }
}

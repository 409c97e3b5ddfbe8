/**
 * Bench variant 2: Offtag's engine on the main thread, no worker. The same `createEngine` +
 * storefront + `createServices` + `createHost` the worker runs, the same snapshot the bridge
 * takes (the data layer copied with `structuredClone`, as the worker receives it, because the
 * engine evaluates asynchronously and must not see later page edits), effects applied at once
 * with the bridge's `applyEffects`, requests and beacons with `fetch` (no IndexedDB queue:
 * lighter than Offtag's durable queue), and the same `window._satellite`.
 */
import type { EffectBatch, EngineEvent, EngineInput } from '../../src/protocol.ts';
import { completePageInfo } from '../../src/worker-engine/core/page-info.ts';
import { applyEffects, type ApplyHooks } from '../../src/main-bridge/apply-effects.ts';
import { forPage } from '../../src/worker-engine/shell/page-writes.ts';
import { listenForClicks } from '../../src/main-bridge/clicks.ts';
import { readPageInfo } from '../../src/main-bridge/page-info.ts';
import { installSatellite, isDebug } from '../../src/main-bridge/satellite.ts';
import { takeSnapshot } from '../../src/main-bridge/snapshot.ts';
import { storefront } from '../../containers/storefront/container.ts';
import { createEngine } from '../../src/worker-engine/core/engine.ts';
import { createHost, fetchWithTimeout } from '../../src/worker-engine/host.ts';
import { createServices } from '../../src/worker-engine/adobe-services.ts';
import { growContainer, sha256 } from './common.ts';

const w = window as unknown as Record<string, unknown>;
const config = (w.offtagConfig ?? {}) as Record<string, unknown>;
const dataLayerName = typeof config.dataLayer === 'string' ? config.dataLayer : 'digitalData';
const brand = typeof config.brand === 'string' ? config.brand : 'acme';
const container = growContainer(storefront, window.benchSynthetic);
const sessionKeys = container.sessionKeys.map((k) => k.replace('{brand}', brand));


let seq = 0;
let applied = 0;
const replies: Record<number, (e: { value?: unknown; error?: string }) => void> = {};
const hooks: ApplyHooks = {
  base: new URL('/dist/', location.href).href,
  vars: {},
  frameMessage: (input) => void host.input(input),
  reply(s, e) {
    replies[s]?.(e);
    delete replies[s];
  },
};

let host: ReturnType<typeof createHost>;
const engine = createEngine({
  container,
  services: createServices,
  env: { now: () => Date.now(), random: () => Math.random(), sha256 },
  config,
  debug: isDebug(),
  page: completePageInfo(readPageInfo(), navigator),
  onLateEffects: (batch) => host?.route(batch),
});
host = createHost(engine, {
  toBridge(batch: EffectBatch) {
    applyEffects(batch.effects.map(forPage), hooks);
    if (batch.n > applied) applied = batch.n;
  },
  request: fetchWithTimeout,
  beacon: (req) =>
    void fetch(req.url, { method: req.method, body: req.body, headers: req.headers, credentials: req.credentials, keepalive: true }).catch(
      () => undefined,
    ),
  setTimer: (ms, fire) => void setTimeout(fire, ms),
});

let chain: Promise<void> = Promise.resolve();
const send = (event: EngineEvent): number => {
  const snapshot = takeSnapshot(++seq, applied, dataLayerName, sessionKeys);
  snapshot.dataLayer = structuredClone(snapshot.dataLayer);
  const input: EngineInput = { type: 'event', event, snapshot };
  chain = chain.then(() => host.input(input));
  return seq;
};
const ask = (event: EngineEvent) =>
  new Promise<{ value?: unknown; error?: string }>((resolve) => {
    replies[send(event)] = resolve;
  });

installSatellite(send, ask, hooks, 'production', () => {});
send({ type: 'library-loaded' });
const domReady = () => send({ type: 'dom-ready' });
if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', domReady, { once: true });
else domReady();
if (document.readyState === 'complete') send({ type: 'window-loaded' });
else addEventListener('load', () => send({ type: 'window-loaded' }), { once: true });
listenForClicks(send);

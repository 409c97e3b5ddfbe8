/**
 * offtag.js, the one script tag. It snapshots the page when an event fires, posts the snapshot
 * to the worker in one one-way message, and applies the effect batches that come back. All
 * container logic runs in the worker.
 */
import type { EffectBatch, EngineEvent, EngineInput, InitMessage } from '../protocol.ts';
import { SESSION_KEYS } from '../storefront/session-keys.ts';
import { applyEffects, type ApplyHooks } from './apply-effects.ts';
import { listenForClicks } from './clicks.ts';
import { readPageInfo } from './page-info.ts';
import { cloneable, takeSnapshot } from './snapshot.ts';
import { narrow } from './read-set.ts';
import { installSatellite, isDebug } from './satellite.ts';

declare global {
  interface Window {
    offtagConfig?: unknown;
    offtag?: unknown;
    _satellite?: unknown;
  }
}

const w = window;

/** `dataLayer`, `brand`, `environment` and `workerUrl` are needed before the worker answers; the worker validates them all. */
const setting = (key: string, fallback: string): string => {
  const v = (w.offtagConfig as Record<string, unknown> | undefined)?.[key];
  return typeof v === 'string' && v ? v : fallback;
};

function start(): void {
  if (!w.atob || !w.Worker) {
    console.warn('Adobe Launch is unsupported in IE 9 and below.');
    return;
  }
  if (w.offtag) return;
  const script = document.currentScript as HTMLScriptElement | null;
  const base = script?.src ? script.src.replace(/[^/]*$/, '') : location.href;
  const workerUrl = new URL(setting('workerUrl', 'offtag-worker.js'), base).href;
  // A same-origin blob that loads the worker file lets offtag.js live on another origin
  // (a Content-Security-Policy must allow `worker-src blob:`).
  const worker = new Worker(URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(workerUrl)})`])));
  const dataLayerName = setting('dataLayer', 'digitalData');
  const brand = setting('brand', 'acme');
  const sessionKeys = SESSION_KEYS.map((k) => k.replace('{brand}', brand));
  const events = new MessageChannel();
  const apiChannel = new MessageChannel();
  const port = events.port1;

  let seq = 0;
  let applied = 0;
  const replies: Record<number, (e: { value?: unknown; error?: string; callbacks?: unknown[][] }) => void> = {};
  /** Main-thread milliseconds the bridge spent: per event (snapshot + post) and applying effect batches. */
  const metrics = { events: 0, postMs: 0, applyMs: 0 };

  const send = (event: EngineEvent): number => {
    const t0 = performance.now();
    const snap = takeSnapshot(++seq, applied, dataLayerName, sessionKeys);
    snap.dataLayer = narrow(snap.dataLayer, hooks.tree);
    const input: EngineInput = { type: 'event', event, snapshot: snap };
    try {
      port.postMessage(input);
    } catch (err) {
      const paths: string[] = [];
      const copy = cloneable(input, paths) as typeof input;
      (copy.snapshot.problems ??= []).push({ kind: 'uncloneable', detail: `${(err as Error).name}: ${(err as Error).message}`, paths });
      port.postMessage(copy);
    }
    metrics.events++;
    metrics.postMs += performance.now() - t0;
    return seq;
  };
  const ask = (event: EngineEvent) =>
    new Promise<{ value?: unknown; error?: string; callbacks?: unknown[][] }>((resolve) => {
      replies[send(event)] = resolve;
    });

  const hooks: ApplyHooks = {
    base,
    vars: {},
    frameMessage: (frameId, origin, data) => port.postMessage({ type: 'frame-message', frameId, origin, data }),
    reply(s, e) {
      replies[s]?.(e);
      delete replies[s];
    },
  };
  const onBatch = (batch: EffectBatch) => {
    const t0 = performance.now();
    applyEffects(batch.effects, hooks);
    // Numbered batches come in order, 1, 2, 3… (the worker shell numbers the ones it posts); 0 is a log.
    applied = batch.n || applied;
    metrics.applyMs += performance.now() - t0;
  };
  port.onmessage = (ev: MessageEvent<EffectBatch>) => onBatch(ev.data);

  const configDropped: string[] = [];
  const config = cloneable(w.offtagConfig, configDropped);
  const init: InitMessage = {
    type: 'offtag:init',
    config,
    configDropped,
    debug: isDebug(),
    page: readPageInfo(),
    events: events.port2,
    api: apiChannel.port2,
  };
  worker.postMessage(init, [events.port2, apiChannel.port2]);
  worker.onerror = (ev) => console.error(`Offtag: the worker did not start (${ev.message || workerUrl}).`);

  installSatellite(send, ask, hooks, setting('environment', 'production'), (on) => port.postMessage({ type: 'debug', on }));
  w.offtag = {
    metrics: () => ({ ...metrics }),
    /** Calls a worker service (the optional offtag-visitor.js facade uses it). */
    call: (service: string, method: string, args: unknown[]) => ask({ type: 'service-call', service, method, args }),
    /** The Comlink port of the worker's API (WorkerApi); the devtools and tools wrap it. */
    apiPort: apiChannel.port1,
    base,
  };

  send({ type: 'library-loaded' });
  const domReady = () => send({ type: 'dom-ready' });
  const loaded = () => send({ type: 'window-loaded' });
  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', domReady, { once: true });
  } else domReady();
  if (document.readyState === 'complete') loaded();
  else addEventListener('load', loaded, { once: true });
  listenForClicks((link) => send({ type: 'click', link }));
  dispatchEvent(new Event('offtag:ready'));
}

start();

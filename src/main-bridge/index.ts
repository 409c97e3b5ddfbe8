/**
 * offtag.js, the one script tag. It snapshots the page when an event fires, posts the snapshot
 * to the worker in one one-way message, and applies the effect batches that come back. All
 * container logic runs in the worker.
 */
import { wrap, transfer } from 'comlink';
import type { EffectBatch, EngineEvent, EngineInput, WorkerApi } from '../protocol.ts';
import { SESSION_KEYS } from '../storefront/session-keys.ts';
import { applyEffects, type ApplyHooks } from './apply-effects.ts';
import { listenForClicks } from './clicks.ts';
import { readPageInfo } from './page-info.ts';
import { cloneable, takeSnapshot } from './snapshot.ts';
import { installSatellite } from './satellite.ts';
import { installVisitorFacade } from './visitor-facade.ts';

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
  let worker: Worker;
  try {
    // A same-origin blob that loads the worker file lets offtag.js live on another origin.
    worker = new Worker(URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(workerUrl)})`])));
  } catch {
    worker = new Worker(workerUrl);
  }
  const dataLayerName = setting('dataLayer', 'digitalData');
  const brand = setting('brand', 'acme');
  const sessionKeys = SESSION_KEYS.map((k) => k.replace('{brand}', brand));
  const channel = new MessageChannel();
  const port = channel.port1;

  let seq = 0;
  let applied = 0;
  const early = new Set<number>();
  const replies: Record<number, (e: { value?: unknown; error?: string; callbacks?: unknown[][] }) => void> = {};
  const metrics = { events: 0, postMs: 0, applyMs: 0, last: { event: '', postMs: 0, applyMs: 0 } };
  const isDebug = () => {
    try {
      return localStorage.getItem('com.adobe.reactor.debug') === 'true';
    } catch {
      return false;
    }
  };

  const send = (event: EngineEvent): number => {
    const t0 = performance.now();
    const snap = takeSnapshot(++seq, applied, dataLayerName, sessionKeys);
    const input: EngineInput = { type: 'event', event, snapshot: snap };
    try {
      port.postMessage(input);
    } catch (err) {
      const dropped: string[] = [];
      const copy = cloneable(input, dropped);
      console.warn(
        `Offtag: the data layer could not be copied as it is (${(err as Error).name}: ${(err as Error).message}). Left out: ${dropped.join(', ').replace(/snapshot\.dataLayer/g, dataLayerName) || '(nothing)'}.`,
      );
      port.postMessage(copy);
    }
    const ms = performance.now() - t0;
    metrics.events++;
    metrics.postMs += ms;
    metrics.last = { event: event.type === 'direct-call' ? String(event.id) : event.type, postMs: ms, applyMs: 0 };
    return seq;
  };
  const ask = (event: EngineEvent) =>
    new Promise<{ value?: unknown; error?: string; callbacks?: unknown[][] }>((resolve) => {
      replies[send(event)] = resolve;
    });

  const hooks: ApplyHooks = {
    vars: {},
    monitor: [],
    debug: isDebug,
    frameMessage: (frameId, origin, data) => port.postMessage({ type: 'frame-message', frameId, origin, data }),
    reply(s, e) {
      replies[s]?.(e);
      delete replies[s];
    },
  };
  const onBatch = (batch: EffectBatch) => {
    const t0 = performance.now();
    applyEffects(batch.effects, hooks);
    // `applied` only counts batches with no gap before them, so a snapshot never claims one it has not seen.
    early.add(batch.n);
    while (early.delete(applied + 1)) applied++;
    const ms = performance.now() - t0;
    metrics.applyMs += ms;
    metrics.last.applyMs += ms;
  };
  port.onmessage = (ev: MessageEvent<EffectBatch>) => onBatch(ev.data);

  const api = wrap<WorkerApi>(worker);
  const dropped: string[] = [];
  const config = cloneable(w.offtagConfig, dropped);
  if (dropped.length) console.error(`offtagConfig values that cannot be sent to the worker were ignored: ${dropped.join(', ')}.`);
  api
    .init(config, readPageInfo(), transfer(channel.port2, [channel.port2]))
    .catch((err: Error) => console.error(`Offtag: the worker did not start: ${err.message}`));

  const satellite = installSatellite(send, ask, hooks, setting('environment', 'production'), isDebug);
  installVisitorFacade((method, args) => ask({ type: 'service-call', service: 'visitor', method, args }));
  w.offtag = {
    metrics: () => ({ ...metrics, last: { ...metrics.last } }),
    monitor: hooks.monitor,
    satellite,
    worker: api,
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
}

start();

/**
 * offtag.js, the one script tag. It snapshots the page when an event fires, posts the snapshot
 * to the worker in one one-way message, and applies the effect batches that come back. All
 * container logic runs in the worker.
 */
import { ORPHAN_KEY, type EffectBatch, type EngineEvent, type EngineInput, type InitMessage } from '../protocol.ts';
import { SESSION_KEYS } from '../storefront/session-keys.ts';
import { applyEffects, applyRare, type ApplyHooks } from './apply-effects.ts';
import { listenForClicks } from './clicks.ts';
import { readPageInfo } from './page-info.ts';
import { cloneable, takeSnapshot } from './snapshot.ts';
import { narrow } from './read-set.ts';
import { installSatellite, isDebug } from './satellite.ts';
import { pageSetting } from '../page-settings.ts';

declare global {
  interface Window {
    offtagConfig?: unknown;
    offtag?: unknown;
    _satellite?: unknown;
  }
}

const w = window;


function start(): void {
  if (!w.atob || !w.Worker) {
    console.warn('Adobe Launch is unsupported in IE 9 and below.');
    return;
  }
  if (w.offtag) return;
  const script = document.currentScript as HTMLScriptElement | null;
  const base = script?.src ? script.src.replace(/[^/]*$/, '') : location.href;
  // A throwing `offtagConfig` getter leaves the defaults (src/page-settings.ts: the rule both sides apply).
  let cfg: unknown;
  try {
    cfg = w.offtagConfig;
  } catch {
    /* the defaults */
  }
  const workerUrl = new URL(pageSetting(cfg, 'workerUrl') || 'offtag-worker.js', base).href;
  // The worker file itself when it is on the page's origin (CSP: `worker-src 'self'`); else, or
  // when that is blocked, a same-origin blob that loads it (CSP: `worker-src blob:`).
  // README.md, "Content-Security-Policy".
  const same = workerUrl.startsWith(location.origin + '/');
  const ways = same ? [workerUrl, ''] : [''];
  // Set when no way to start the worker is left; the messages are rare effects (offtag-effects.js).
  let dead = false;
  const noWorker = (event?: string) => applyRare({ type: 'no-worker', url: workerUrl, same, event }, hooks);
  const dataLayerName = pageSetting(cfg, 'dataLayer');
  const brand = pageSetting(cfg, 'brand');
  const sessionKeys = SESSION_KEYS.map((k) => k.replace('{brand}', brand));
  const events = new MessageChannel();
  const apiChannel = new MessageChannel();
  const port = events.port1;
  // Durable at `track` time (docs/delivery.md): each event is kept until the worker acknowledges
  // it, and what is still kept goes to localStorage on pagehide for the next page's worker.
  const pid = Math.random() + '';
  const kept: Record<number, string> = {};
  let orphans: Array<[string, string]> = [];
  try {
    orphans = Object.keys(localStorage)
      .filter((k) => !k.indexOf(ORPHAN_KEY))
      .map((k) => [k, localStorage[k]]);
  } catch {
    /* storage disabled: nothing was kept either */
  }
  addEventListener('pagehide', () => {
    try {
      const v = Object.values(kept);
      if (v[0]) localStorage.setItem(ORPHAN_KEY + pid, `[${v}]`);
    } catch {
      /* storage disabled or full: these events rely on the worker alone */
    }
  });

  let seq = 0;
  let applied = 0;
  const replies: Record<number, (e: { value?: unknown; error?: string; callbacks?: unknown[][] }) => void> = {};
  /** Main-thread milliseconds the bridge spent: per event (snapshot + post) and applying effect batches. */
  const metrics = { events: 0, postMs: 0, applyMs: 0 };

  const send = (event: EngineEvent): number => {
    // No worker: say where the event went (nowhere) rather than accept it silently.
    if (dead) return noWorker(event.type), 0;
    const t0 = performance.now();
    const snap = takeSnapshot(++seq, applied, dataLayerName, sessionKeys);
    snap.dataLayer = narrow(snap.dataLayer, hooks.tree);
    let input: EngineInput = { type: 'event', event, snapshot: snap };
    try {
      port.postMessage(input);
    } catch (err) {
      const paths: string[] = [];
      input = cloneable(input, paths) as typeof input;
      input.snapshot.problems!.push({ kind: 'uncloneable', detail: `${(err as Error).name}: ${(err as Error).message}`, paths });
      port.postMessage(input);
    }
    // A copy as of now (the snapshot holds the live data layer): JSON, what pagehide writes.
    try {
      kept[seq] = JSON.stringify(input);
    } catch {
      /* a data layer JSON cannot write (a cycle, a BigInt): this event relies on the worker alone */
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
    if (batch.a) {
      for (const k in kept) if (+k <= batch.a) delete kept[k];
      for (const [k] of orphans.splice(0)) localStorage.removeItem(k);
    }
    applyEffects(batch.effects, hooks);
    // Numbered batches come in order, 1, 2, 3… (the worker shell numbers the ones it posts); 0 is a log.
    applied = batch.n || applied;
    metrics.applyMs += performance.now() - t0;
  };
  port.onmessage = (ev: MessageEvent<EffectBatch>) => onBatch(ev.data);

  const configDropped: string[] = [];
  const config = cloneable(cfg, configDropped);
  const init: InitMessage = {
    type: 'offtag:init',
    config,
    configDropped,
    debug: isDebug(),
    page: readPageInfo(),
    events: events.port2,
    api: apiChannel.port2,
    pid,
    orphans,
  };
  // The next way to start the worker; the one that says hello gets the ports. A way the policy
  // blocks (at once, or by an error event) or that fails to load gives the next; none left: said once.
  let worker: Worker | undefined;
  const next = (): void => {
    const url = ways.shift();
    if (url == null) return noWorker(), void (dead = true);
    try {
      const wk = new Worker(url || URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(workerUrl)})`])));
      wk.onerror = () => worker || next();
      wk.onmessage = () => worker || (worker = wk).postMessage(init, [events.port2, apiChannel.port2]);
    } catch {
      next();
    }
  };
  next();

  installSatellite(send, ask, hooks, pageSetting(cfg, 'environment'), (on) => port.postMessage({ type: 'debug', on }));
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

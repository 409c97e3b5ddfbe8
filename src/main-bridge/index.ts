/**
 * offtag.js, the one script tag. It snapshots the page when an event fires, posts the snapshot
 * to the worker in one one-way message, and applies the effect batches that come back. All
 * container logic runs in the worker.
 *
 * Start-up stays off the page's critical path (docs/runtime.md, "Start-up"): nothing here reads
 * localStorage or probes cookies; the init message (debug flag, orphans, page facts with the
 * cached cookie domain) is built when the worker says hello.
 */
import type { EffectBatch, EngineEvent, EngineInput, InitMessage } from '../protocol.ts';
import { pageSide } from '../page-side/index.ts';
import type { PageData } from '../page-side/types.ts';
import { ORPHAN_KEY } from '../protocol-keys.ts';
import { applyEffects, applyRare, type ApplyHooks } from './apply-effects.ts';
import { listenForClicks } from './clicks.ts';
import { COOKIE_DOMAIN_KEY, pageFacts } from './page-info.ts';
import { takeSnapshot } from './snapshot.ts';
import { installSatellite, isDebug } from './satellite.ts';
import { pageSetting } from '../page-settings.ts';

/** The sessionStorage keys the container reads, written by the build from the container (tools/build.mjs); `{brand}` is the brand setting. */
declare const __OFFTAG_SESSION_KEYS__: (brand: string) => string[];
/**
 * The container's page code (tools/build/page-reads.ts): `0` for a container without any, so the
 * page side (src/page-side) is dropped from offtag.js; else the data offtag build writes outside
 * the bridge's code (page reads, imported Launch code), which the page side runs.
 */
declare const __OFFTAG_PAGE__: 0 | PageData;
const page = __OFFTAG_PAGE__ ? pageSide(__OFFTAG_PAGE__) : 0;

declare global {
  interface Window {
    offtagConfig?: unknown;
    offtag?: unknown;
    _satellite?: unknown;
  }
}


const w = window;

// One page, one bridge: start() fills these once; the pieces below share them.
/** The folder offtag.js came from (the page's folder when it has no src). */
let base: string;
let cfg: unknown;
let workerUrl: string;
/** The worker file is on the page's origin (CSP: `worker-src 'self'`). */
let same: boolean;
let dataLayerName: string;
let sessionKeys: string[];
let hooks: ApplyHooks;
const events = new MessageChannel();
const apiChannel = new MessageChannel();
const port = events.port1;
/** This page's id, naming its pagehide copy. */
const pid = Math.random() + '';
/** Events not yet acknowledged (docs/delivery.md: durable at `track` time). */
const kept: Record<number, EngineInput> = {};
let orphans: Array<[string, string]> = [];
let seq = 0;
let applied = 0;
/** Events up to here are acknowledged (acknowledgements are cumulative and come in order; a stale one does nothing). */
let acked = 0;
const replies: Record<number, (e: { value?: unknown; error?: string; callbacks?: unknown[][] }) => void> = {};
/** Main-thread milliseconds the bridge spent: per event (snapshot + post) and applying effect batches. */
const metrics = { events: 0, postMs: 0, applyMs: 0 };
/** Set once an input structured clone refused has been seen: later inputs go through offtag-effects.js. */
let held: unknown;
/** Set when no way to start the worker is left; the messages are rare effects (offtag-effects.js). */
let dead: unknown;
/** The worker that said hello. */
let worker: Worker | undefined;
/** The ways to start the worker still untried (`startWorker`). */
let ways: string[];

const blob = (url: string) => URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(url)})`]));
const noWorker = (event?: string) => applyRare({ type: 'no-worker', url: workerUrl, same, event }, hooks);


/**
 * What is still kept goes to localStorage, as JSON, on pagehide for the next page's worker. A
 * narrowed snapshot is kept as posted, the whole data layer as a copy (docs/runtime.md, "The pagehide copy").
 */
const keepOnPagehide = (): void => {
  addEventListener('pagehide', () => {
    let json = '';
    for (const k in kept)
      try {
        json += ',' + JSON.stringify(kept[k]);
      } catch {
        /* a data layer JSON cannot write (a cycle, a BigInt): this event relies on the worker alone */
      }
    try {
      if (json) localStorage[ORPHAN_KEY + pid] = `[${json.slice(1)}]`;
    } catch {
      /* storage disabled or full: these events rely on the worker alone */
    }
  });
};

/**
 * Posts an input; once a structured clone was refused, every later input goes through
 * offtag-effects.js (loaded on that first refusal), in order: it posts the input as it is, or a
 * copy `cloneable` makes when the clone is refused (docs/runtime.md, "Bridge size").
 */
const post = (input: EngineInput): unknown => {
  if (!held)
    try {
      return port.postMessage(input);
    } catch {
      held = 1;
    }
  applyRare({ type: 'clone', value: input, event: 1, copied: (copy) => port.postMessage(copy) }, hooks);
};

/** An event now: its snapshot, posted, and kept until acknowledged. `element`: a page trigger's, for the page reads. */
const send = (event: EngineEvent, element?: Element): number => {
  // No worker: say where the event went (nowhere) rather than accept it silently.
  if (dead) return noWorker(event.type), 0;
  const t0 = performance.now();
  const snapshot = takeSnapshot(++seq, applied, dataLayerName, sessionKeys, hooks.tree, !worker);
  if (page) snapshot.page = page.read(event, snapshot.problems!, element, seq);
  const input: EngineInput = { type: 'event', event, snapshot };
  post(input);
  try {
    // Kept as of now (docs/runtime.md, "The pagehide copy"): a snapshot narrowed to the read set is
    // made of fresh objects already; the whole data layer is the page's own, so it is copied now.
    kept[seq] = hooks.tree ? input : JSON.parse(JSON.stringify(input));
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

/** An effect batch from the worker: acknowledgements, then its effects. */
const onBatch = ({ data: batch }: MessageEvent<EffectBatch>): void => {
  const t0 = performance.now();
  if (batch.a) {
    // Not a walk over `kept`: in a burst that is hundreds of keys for every acknowledgement.
    while (acked < batch.a) delete kept[++acked];
    for (const [k] of orphans.splice(0)) delete localStorage[k];
  }
  applyEffects(batch.effects, hooks);
  // Numbered batches come in order, 1, 2, 3… (the worker shell numbers the ones it posts); 0 is a log.
  applied = batch.n || applied;
  metrics.applyMs += performance.now() - t0;
};

/**
 * The worker said hello: the init message, with what start-up left out — the orphans of earlier
 * pages, the cookie domain (cached per origin; probed by offtag-effects.js the first time).
 */
const hello = (wk: Worker): void => {
  let domain: string | undefined;
  try {
    for (const k in localStorage) if (!k.indexOf(ORPHAN_KEY)) orphans.push([k, localStorage[k]]);
    domain = localStorage[COOKIE_DOMAIN_KEY];
  } catch {
    /* storage disabled: nothing was kept either, and the probe runs every time */
  }
  if (domain == null) applyRare({ type: 'probe', done: (d) => init(wk, d) }, hooks);
  else init(wk, domain);
};

const init = (wk: Worker, cookieDomain: string): void => {
  // The two ports travel in the transfer list only: the worker takes them from `ev.ports` (events, api).
  const message: InitMessage = {
    type: 'init',
    config: cfg,
    debug: isDebug(),
    page: pageFacts(cookieDomain),
    // What the snapshots of start-up left out (cookies, session keys, viewport), read now; no data
    // layer. Its seq: the events posted so far, which the worker answers together.
    now: takeSnapshot(seq, 0, '', sessionKeys),
    pid,
    orphans,
  };
  // The origin's beacon sender (docs/delivery.md, "The sender") is not started here: the worker
  // asks for it once a page has sent enough beacons for it to pay back, and offtag-effects.js
  // starts it (rare-effects.ts `sender`).
  // (`go`'s arguments are only there to set the two fields in the clone's callback, in fewer bytes.)
  const go = (..._: unknown[]) => wk.postMessage(message, [events.port2, apiChannel.port2]);
  try {
    go();
  } catch {
    // A config structured clone refuses (a function…): offtag-effects.js copies what it can and names the rest.
    applyRare({ type: 'clone', value: cfg, copied: (copy, paths) => go((message.config = copy), (message.configDropped = paths)) }, hooks);
  }
};

/**
 * The next way to start the worker: the worker file itself when it is on the page's origin, else
 * (or when that is blocked) a same-origin blob that loads it (docs/embedding.md, "Content-Security-Policy").
 * The one that says hello gets the ports. A way the policy blocks (at once, or by an error event)
 * or that fails to load gives the next; none left: said once.
 */
const startWorker = (): void => {
  const url = ways.shift();
  if (url == null) return noWorker(), void (dead = 1);
  try {
    const wk = new Worker(url || blob(workerUrl));
    wk.onerror = () => worker || startWorker();
    wk.onmessage = () => worker || hello((worker = wk));
  } catch {
    startWorker();
  }
};

/** DOM Ready, Window Loaded (now if the page is past them) and link clicks. */
const listenForPage = (): void => {
  // Each fires once per document, so no `once` flag is needed.
  const domReady = () => send({ type: 'dom-ready' });
  const loaded = () => send({ type: 'window-loaded' });
  const state = document.readyState;
  if (state == 'loading') document.addEventListener('DOMContentLoaded', domReady);
  else domReady();
  if (state == 'complete') loaded();
  else addEventListener('load', loaded);
  listenForClicks(send);
};

function start(): void {
  // Settings from `offtagConfig` (a throwing getter leaves the defaults: src/page-settings.ts, the rule both sides apply).
  base = new URL('.', (document.currentScript as HTMLScriptElement | null)?.src || location.href).href;
  try {
    cfg = w.offtagConfig;
  } catch {
    /* the defaults */
  }
  workerUrl = new URL(pageSetting(cfg, 'workerUrl') || 'offtag-worker.js', base).href;
  same = workerUrl.startsWith(location.origin + '/');
  ways = same ? [workerUrl, ''] : [''];
  dataLayerName = pageSetting(cfg, 'dataLayer');
  const brand = pageSetting(cfg, 'brand');
  sessionKeys = __OFFTAG_SESSION_KEYS__(brand);
  hooks = {
    base,
    port,
    workerUrl,
    send,
    vars: {},
    frameMessage: post,
    reply(s, e) {
      replies[s]?.(e);
      delete replies[s];
    },
  };
  // The page side is there before `_satellite` (an imported container's is turbine's: src/page-side/satellite.ts).
  if (page) hooks.page = page;
  // No Worker: the unsupported message (docs/spec-coverage.md §9), printed by offtag-effects.js.
  if (!w.Worker) return applyRare({ type: 'no-worker' }, hooks);
  if (w.offtag) return;
  // The README's async snippet queues `_satellite.track` calls made before this script ran in `_satellite.q`.
  const stub = w._satellite as { q?: unknown[][] } | undefined;
  keepOnPagehide();
  port.onmessage = onBatch;
  startWorker();
  const satellite = installSatellite(send, ask, hooks, pageSetting(cfg, 'environment'), (on) => port.postMessage({ type: 'debug', on }));
  w.offtag = {
    // `acked`: the highest event seq the worker said is safe (its beacons stored); every event is, once `acked` reaches `events`.
    metrics: () => ({ ...metrics, acked }),
    /** Sends the worker an event and resolves with its reply (offtag-visitor.js sends `service-call`s). */
    ask,
    /** The Comlink port of the worker's API (WorkerApi); the devtools and tools wrap it. */
    apiPort: apiChannel.port1,
    base,
  };
  // The page side sets the library's events up first: what they pulled meanwhile goes with Library Loaded (src/page-side).
  send(page ? { type: 'library-loaded', setup: page.start(hooks, post) } : { type: 'library-loaded' });
  // Calls queued by the async snippet, in order, after Library Loaded (as a track right after the tag would be).
  // No stub (or one without a queue) throws nothing: a page's first exception costs ~1 ms of
  // start-up (V8 then works out the source positions of the functions on the stack).
  try {
    for (const a of stub?.q || []) satellite.track(...(a as [string]));
  } catch {
    /* not ours */
  }
  listenForPage();
}

start();

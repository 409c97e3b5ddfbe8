/**
 * Effects most page views never need: the ID-sync iframe and its messages, sync pixels and
 * third-party scripts. They live in offtag-effects.js, which offtag.js loads the first time the
 * worker asks for one, so the script tag every page pays for stays small.
 */
import type { Effect, EngineEvent, EngineInput, SnapshotProblem, TriggerListener } from '../protocol.ts';
import { loadScript } from '../third-party/load-script.ts';
import { COOKIE_DOMAIN_KEY, probeCookieDomain } from './page-info.ts';
import { cloneable } from './snapshot.ts';

/**
 * `no-worker` is the bridge's own (never from the worker): every way to start the worker failed.
 * Without `event`, the one error naming worker-src; with it, the warning for an event that goes nowhere.
 * Without `url`, the browser has no `Worker` at all: docs/spec-coverage.md §9's unsupported message.
 */
export type NoWorker = { type: 'no-worker'; url?: string; same?: boolean; event?: string };
/**
 * `probe` is the bridge's own too: the cookie-domain write probe (page-info.ts), run the first time
 * an origin's page starts (its answer is then cached in localStorage under COOKIE_DOMAIN_KEY), and every time
 * when storage is disabled. `done` gets the answer ('' when this file could not load: host-only).
 */
export type Probe = { type: 'probe'; done(cookieDomain: string): void };
/** Messages for what rarely goes wrong on the page, kept out of offtag.js (docs/errors.md): a `_satellite` call that threw (`failed`), a sessionStorage write that failed (`unwritten`). */
export type Said = { type: 'failed'; method: string; args: unknown[]; error: unknown } | { type: 'unwritten'; key: string; name: string };
/**
 * `clone`, the bridge's own: a value postMessage's structured clone may refuse (the init's config;
 * every event input of a page where one was refused). `copied` posts it: first the value itself;
 * when that throws, a copy structured clone accepts (snapshot.ts `cloneable`) with the paths left
 * out; for an event input (`event`), the copy's snapshot also carries the `uncloneable` problem
 * the worker words.
 */
export type Clone = { type: 'clone'; value: unknown; event?: 1; copied(copy: unknown, paths: string[]): void };
export type RareEffect = Extract<Effect, { type: 'iframe' | 'post-message' | 'image' | 'script' | 'listen' | 'sender' | 'preview' | 'preview-done' }> | NoWorker | Probe | Said | Clone;
export type FrameMessage = (input: Extract<EngineInput, { type: 'frame-message' }>) => void;
/** What offtag.js hands over with each rare effect (its `ApplyHooks`): where frame messages go, its folder, and its `send` (page triggers). */
export interface RareHooks {
  frameMessage: FrameMessage;
  base?: string;
  send?(event: EngineEvent, element?: Element): number;
  /** The events port to the worker, and the worker file (the sender is beside it). */
  port?: MessagePort;
  workerUrl?: string;
}

/**
 * The origin's beacon sender (docs/delivery.md, "The sender"), when the worker asks for it: a
 * SharedWorker beside the worker file (from another origin, a same-origin blob that loads it: one
 * sender per page then), whose port goes to the worker on the events port. None (no
 * SharedWorker, a policy): the worker goes on sending itself.
 */
function startSender(hooks: RareHooks): void {
  try {
    const url = new URL('offtag-sender.js', hooks.workerUrl).href;
    const same = url.startsWith(location.origin + '/');
    const src = same ? url : URL.createObjectURL(new Blob([`importScripts(${JSON.stringify(url)})`]));
    hooks.port!.postMessage({ type: 'sender' }, [new SharedWorker(src).port]);
  } catch {
    /* the worker sends */
  }
}

type Install = (listeners: TriggerListener[], send: (event: EngineEvent, element?: Element) => number) => void;

/**
 * The container's page triggers (docs/triggers.md): offtag-triggers.js, beside offtag.js, loaded
 * only now, installs them; their events go through offtag.js's `send` (a snapshot each).
 */
function listen(triggers: TriggerListener[], hooks: RareHooks): void {
  const w = window as unknown as { offtagTriggers?: Install };
  const s = document.createElement('script');
  s.src = hooks.base + 'offtag-triggers.js';
  s.onload = () => {
    try {
      w.offtagTriggers?.(triggers, hooks.send!);
    } catch (err) {
      console.error("Offtag: the container's page triggers could not be installed:", err);
    }
  };
  s.onerror = () => console.error(`Offtag: ${s.src} did not load; the container's page triggers (clicks on selectors, custom events, form submits, visibility, scroll depth, timers) do not fire.`);
  document.head.append(s);
}

type PreviewEffect = Extract<RareEffect, { type: 'preview' | 'preview-done' }>;

/**
 * Preview's code is offtag-preview.js, beside this file, loaded only by a browser that previews
 * (the worker's `preview` effect): every other page loads this file without it. If it cannot
 * load, the worker is told the preview did not start (after a hand-over it ignores that), and
 * serves the page.
 */
function withPreview(e: PreviewEffect, hooks: RareHooks): void {
  const w = window as unknown as { offtagPreview?: (e: PreviewEffect, hooks: RareHooks) => void };
  if (w.offtagPreview) return w.offtagPreview(e, hooks);
  const s = document.createElement('script');
  s.src = hooks.base + 'offtag-preview.js';
  s.onload = () => w.offtagPreview!(e, hooks);
  s.onerror = () => {
    console.error(`Failed to load script ${s.src}`);
    (hooks.frameMessage as (input: EngineInput) => void)({ type: 'preview', loaded: false });
  };
  document.head.append(s);
}

/** Runs `f` once the page has loaded, when the main thread is idle (within 2 s of load at the latest). */
export function afterLoadIdle(f: () => void): void {
  const idle = () => ('requestIdleCallback' in window ? requestIdleCallback(f, { timeout: 2000 }) : setTimeout(f, 200));
  if (document.readyState == 'complete') idle();
  else addEventListener('load', () => setTimeout(idle), { once: true });
}

const frames: Record<string, { el: HTMLIFrameElement; ready: boolean; queue: Array<[string, string]> }> = {};

export function applyRareEffect(e: RareEffect, hooks: RareHooks): void {
  switch (e.type) {
    case 'image':
      new Image().src = e.src;
      break;
    case 'iframe': {
      if (frames[e.id]) break;
      const f = (frames[e.id] = {
        el: document.createElement('iframe'),
        ready: false,
        queue: (e.messages ?? []).map((m) => [m, e.targetOrigin] as [string, string]),
      } as (typeof frames)[string]);
      // Inserted after the page's load, in an idle period (docs/runtime.md, "Rare effects load on
      // demand"; as VisitorAPI's `idSyncAttachIframeOnWindowLoad`): the frame's document is the
      // dearest part of Offtag's page load (docs/bench.md, "Page load"). Messages for it wait in
      // its queue until it has loaded, as before.
      afterLoadIdle(() => {
        const el = f.el;
        el.id = e.id;
        if (e.name) el.name = e.name;
        if (e.title) el.title = e.title;
        if (e.sandbox) el.setAttribute('sandbox', e.sandbox);
        el.style.cssText = 'display:none;width:0;height:0;border:0';
        el.onload = () => {
          el.className = 'aamIframeLoaded';
          f.ready = true;
          for (const [m, o] of f.queue.splice(0)) el.contentWindow?.postMessage(m, o);
        };
        // Only messages from this frame's window go back; the worker checks their origin.
        addEventListener('message', (ev) => {
          if (ev.source && ev.source === el.contentWindow) hooks.frameMessage({ type: 'frame-message', frameId: e.id, origin: ev.origin, data: ev.data });
        });
        el.src = e.src;
        (document.body ?? document.documentElement).appendChild(el);
      });
      break;
    }
    case 'post-message': {
      const f = frames[e.frameId];
      if (!f) break;
      if (f.ready) f.el.contentWindow?.postMessage(e.message, e.targetOrigin);
      else f.queue.push([e.message, e.targetOrigin]);
      break;
    }
    case 'script':
      loadScript(e);
      break;
    case 'listen':
      listen(e.triggers, hooks);
      break;
    case 'sender':
      startSender(hooks);
      break;
    case 'failed':
      console.error(`Offtag: _satellite.${e.method}() failed; dropped:`, e.args, e.error);
      break;
    case 'unwritten':
      console.warn(`Offtag: sessionStorage ${e.key} not written (${e.name})`);
      break;
    case 'clone': {
      // A page whose input was refused once sends every later one here: most go as they are.
      try {
        return e.copied(e.value, []);
      } catch (err) {
        const paths: string[] = [];
        const copy = cloneable(e.value, paths) as { snapshot: { problems: SnapshotProblem[] } };
        if (e.event) copy.snapshot.problems.push({ kind: 'uncloneable', detail: `${(err as Error).name}: ${(err as Error).message}`, paths });
        e.copied(copy, paths);
      }
      break;
    }
    case 'probe': {
      const d = probeCookieDomain(location.hostname);
      try {
        localStorage.setItem(COOKIE_DOMAIN_KEY, d);
      } catch {
        /* storage disabled: probed again next time */
      }
      e.done(d);
      break;
    }
    // Preview (docs/publishing.md): the worker asks for another environment's offtag.js.
    case 'preview':
    case 'preview-done':
      withPreview(e, hooks);
      break;
    case 'no-worker': {
      if (!e.url) return console.warn('Adobe Launch is unsupported in IE 9 and below.');
      // docs/errors.md: the text is kept here, out of offtag.js, as no page that tracks needs it.
      const m = `Offtag: the worker did not start (${e.url}): a Content-Security-Policy must allow ${e.same ? "'self' or " : ''}blob: in worker-src; nothing is tracked.`;
      if (e.event) console.warn(`${m} (${e.event})`);
      else console.error(m);
    }
  }
}

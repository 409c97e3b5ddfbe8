/**
 * Third-party scripts the worker asks the page to load (the storefront's: Datadog RUM). Each
 * `script` effect carries its own switch (docs/third-party.md):
 *
 * - main thread (the default): a `<script async>` written into the body, `crossorigin` when the
 *   effect asks for it. Once it has loaded, the global its `init` names is looked for; when it is
 *   not there yet, it is polled for 40 times every 250 ms (SPEC.md §9 "Tracker polling") before
 *   giving up with SPEC.md §8's words. Then `init` is called, and `then` after its delay.
 * - `partytown: true`: the script runs in Partytown's worker. Partytown's snippet is added only when
 *   the first such script is requested, and `init`/`then` go through Partytown's `forward` (the
 *   page-side tag never fires `onload` there).
 *
 * Every tag carries its mode and status in `data-offtag-mode` / `data-offtag-status`, which the
 * devtools overlay lists.
 */
import type { Effect } from '../protocol.ts';

export type ScriptEffect = Extract<Effect, { type: 'script' }>;

/** SPEC.md §9: tracker polling, 40 attempts every 250 ms. */
export const TRACKER_POLL_ATTEMPTS = 40;
export const TRACKER_POLL_INTERVAL_MS = 250;
/** SPEC.md §9: custom-code writes wait 20 ms (at a time) for the body. */
export const BODY_WAIT_MS = 20;

/** SPEC.md §8's tag-library messages, completed as Adobe's analytics extension words them. */
export const cannotFindGlobal = (name: string) => `Cannot find the global variable name: "${name}".`;
export const bailingOut = (name: string) => `Bailing out. Cannot find the variable name: "${name}".`;
export const failedToLoad = (src: string) => `Failed to load script ${src}`;

export type ScriptStatus = 'loading' | 'waiting-for-global' | 'ready' | 'no-global' | 'failed' | 'forwarded';

const w = window as unknown as Record<string, any>;

/** Where this file (offtag-effects.js) was loaded from: Partytown's lib sits beside it. */
const here = (document.currentScript as HTMLScriptElement | null)?.src || location.href;

function setStatus(s: HTMLScriptElement, status: ScriptStatus): void {
  s.setAttribute('data-offtag-status', status);
}

/** Resolves a dotted path on `window` (`DD_RUM.init`): the function and its owner. */
function resolve(path: string): { owner: any; fn: unknown } {
  const parts = path.split('.');
  let owner: any = w;
  for (let i = 0; i < parts.length - 1; i++) owner = owner?.[parts[i]];
  return { owner, fn: owner?.[parts[parts.length - 1]] };
}

/** Calls a global function by its dotted path, with `this` its owner; a throw is logged, never passed on. */
function callPath(path: string, args: unknown[]): void {
  const { owner, fn } = resolve(path);
  if (typeof fn !== 'function') {
    console.error(`Offtag: ${path} is not a function after its script loaded.`);
    return;
  }
  try {
    fn.apply(owner, args);
  } catch (err) {
    console.error(`Offtag: ${path} failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

function callInit(e: ScriptEffect): void {
  if (e.init) callPath(e.init.fn, e.init.args);
  const then = e.then;
  if (then) setTimeout(() => callPath(then.fn, then.args), then.delay);
}

/** The global a script defines: the first segment of its `init` path (`DD_RUM`). */
export const globalOf = (e: ScriptEffect): string | undefined => e.init?.fn.split('.')[0];

/**
 * After the script loaded: calls `init` when its global is there; otherwise polls for it
 * (TRACKER_POLL_ATTEMPTS × TRACKER_POLL_INTERVAL_MS) and bails out with SPEC.md's message.
 */
function whenGlobal(e: ScriptEffect, s: HTMLScriptElement): void {
  const name = globalOf(e);
  if (!name || w[name] != null) {
    setStatus(s, 'ready');
    return callInit(e);
  }
  setStatus(s, 'waiting-for-global');
  console.warn(cannotFindGlobal(name));
  let attempts = 0;
  const timer = setInterval(() => {
    attempts++;
    if (w[name] != null) {
      clearInterval(timer);
      setStatus(s, 'ready');
      callInit(e);
    } else if (attempts >= TRACKER_POLL_ATTEMPTS) {
      clearInterval(timer);
      setStatus(s, 'no-global');
      console.error(bailingOut(name));
    }
  }, TRACKER_POLL_INTERVAL_MS);
}

/** Runs `write` once `document.body` exists, looking again every BODY_WAIT_MS. */
export function whenBody(write: (body: HTMLElement) => void): void {
  if (document.body) write(document.body);
  else setTimeout(() => whenBody(write), BODY_WAIT_MS);
}

// ---- Partytown ------------------------------------------------------------------------------

/** Partytown's `lib` must be a path on the page's origin (its service worker's scope). */
export function partytownLib(base: string = here): string {
  const url = new URL('~partytown/', base);
  return url.origin === location.origin ? url.pathname : '/~partytown/';
}

let snippet: 'none' | 'loading' | 'ready' = 'none';
const afterSnippet: Array<() => void> = [];

/**
 * Adds Partytown's snippet (`~partytown/partytown.js`) the first time a Partytown script is
 * requested, with `forward` extended by the calls the scripts of this batch need.
 */
function requestPartytown(forward: string[]): void {
  const cfg: Record<string, any> = (w.partytown ??= {});
  if (snippet !== 'none') {
    if (forward.some((f) => !(cfg.forward ?? []).includes(f))) {
      console.warn(`Offtag: ${forward.join(', ')} cannot be forwarded: Partytown had already started.`);
    }
    return;
  }
  snippet = 'loading';
  cfg.lib ??= partytownLib();
  cfg.debug ??= false;
  cfg.forward = [...new Set([...(cfg.forward ?? []), ...forward])];
  const s = document.createElement('script');
  s.src = `${cfg.lib}partytown.js`;
  s.onload = () => {
    snippet = 'ready';
    for (const f of afterSnippet.splice(0)) f();
  };
  s.onerror = () => console.error(failedToLoad(s.src));
  document.head.appendChild(s);
}

function viaPartytown(e: ScriptEffect, s: HTMLScriptElement): void {
  s.type = 'text/partytown';
  const forward = [e.init?.fn, e.then?.fn].filter((f): f is string => !!f);
  const wasReady = snippet === 'ready';
  requestPartytown(forward);
  setStatus(s, 'forwarded');
  // The calls queue in the snippet's forward stubs and reach the script in Partytown's worker
  // once it has run; `onload` never fires on this page-side tag.
  const call = () => callInit(e);
  if (snippet === 'ready') call();
  else afterSnippet.push(call);
  // Partytown picks up scripts added after its start only when told.
  if (wasReady) dispatchEvent(new CustomEvent('ptupdate'));
}

// ---- entry ----------------------------------------------------------------------------------

/** Ids already requested (a tag waiting for the body is not in the document yet). */
const requested = new Set<string>();

export function loadScript(e: ScriptEffect): void {
  if (requested.has(e.id) || document.getElementById(e.id)) return;
  requested.add(e.id);
  const s = document.createElement('script');
  s.id = e.id;
  s.async = true;
  s.setAttribute('data-offtag-mode', e.partytown ? 'partytown' : 'main');
  if (e.crossOrigin) s.crossOrigin = e.crossOrigin;
  s.src = e.src;
  if (e.partytown) viaPartytown(e, s);
  else {
    setStatus(s, 'loading');
    s.onload = () => whenGlobal(e, s);
    s.onerror = () => {
      setStatus(s, 'failed');
      console.error(failedToLoad(e.src));
    };
  }
  // Like Launch's custom code, tags are written into the body, which may not exist yet.
  whenBody((body) => body.appendChild(s));
}

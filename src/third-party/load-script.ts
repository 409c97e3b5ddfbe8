/**
 * Third-party scripts the worker asks the page to load (the storefront's: Datadog RUM). Each
 * `script` effect carries its own switch (docs/third-party.md):
 *
 * - main thread (the default): a `<script async>` written into the body, `crossorigin` when the
 *   effect asks for it. Once it has loaded, the global its `init` names is looked for; when it is
 *   not there yet, it is polled for 40 times every 250 ms (docs/spec-coverage.md §9 "Tracker polling") before
 *   giving up with docs/spec-coverage.md §8's words. Then `init` is called, and `then` after its delay.
 * - `partytown: true`: the script runs in Partytown's worker. Partytown's snippet is added only when
 *   the first such script is requested, and `init`/`then` go through Partytown's `forward` (the
 *   page-side tag never fires `onload` there) to `offtagPartytownCall` in the worker, which calls
 *   them and writes what happened into the tag's status (see `partytownCalls`).
 *
 * Every tag carries its mode and status in `data-offtag-mode` / `data-offtag-status`, which the
 * devtools overlay lists.
 */
import type { Effect } from '../protocol.ts';

export type ScriptEffect = Extract<Effect, { type: 'script' }>;

/** docs/spec-coverage.md §9: tracker polling, 40 attempts every 250 ms. */
export const TRACKER_POLL_ATTEMPTS = 40;
export const TRACKER_POLL_INTERVAL_MS = 250;
/** docs/spec-coverage.md §9: custom-code writes wait 20 ms (at a time) for the body. */
export const BODY_WAIT_MS = 20;

/** docs/spec-coverage.md §8's tag-library messages, completed as Adobe's analytics extension words them. */
export const cannotFindGlobal = (name: string) => `Cannot find the global variable name: "${name}".`;
export const bailingOut = (name: string) => `Bailing out. Cannot find the variable name: "${name}".`;
export const failedToLoad = (src: string) => `Failed to load script ${src}`;

export type ScriptStatus = 'loading' | 'waiting-for-global' | 'ready' | 'no-global' | 'failed' | typeof PARTYTOWN_QUEUED;

/** A Partytown tag's status on the page until its calls reach the worker (the worker writes the next ones). */
export const PARTYTOWN_QUEUED = 'queued for Partytown';
/** The one function the page forwards to Partytown's worker: every tag's calls go through it. */
export const PARTYTOWN_CALL = 'offtagPartytownCall';

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
 * (TRACKER_POLL_ATTEMPTS × TRACKER_POLL_INTERVAL_MS) and bails out with the catalogue's message (docs/spec-coverage.md §8).
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

/**
 * Runs in Partytown's worker, as the text of an inline Partytown script (so it uses nothing from
 * outside itself), and defines `offtagPartytownCall(id, path, args, step)`: it calls a tag's
 * function there and writes what happened into the tag's `data-offtag-status` on the page
 * (Partytown carries the write over). In order, a later step never replaced by an earlier one:
 * `initialised` once `init` returned (and the promise it gave, if any, resolved);
 * `first call forwarded` once the next call returned (`… (the browser reports itself offline)`
 * when `navigator.onLine` is false, which SDKs such as Amplitude's act on); then, when that call's
 * result tells (Amplitude's `track(…).promise` resolves with the intake's `code`),
 * `event delivered (HTTP <code>)` or `event not delivered (<code>: <message>)`. A call whose
 * function is not there yet is tried again like the main thread's tracker polling (40 × 250 ms);
 * `failed: …` when it never comes or a call throws.
 */
export function partytownCalls(win: any): void {
  const reached: Record<string, number> = {};
  const rank = (status: string) =>
    status.indexOf('failed') == 0 ? 9 : status.indexOf('event') == 0 ? 3 : status.indexOf('first call') == 0 ? 2 : status.indexOf('initialised') == 0 ? 1 : 0;
  win.offtagPartytownCall = (id: string, path: string, args: unknown[], step: string) => {
    const set = (status: string) => {
      if (rank(status) < (reached[id] || 0)) return;
      reached[id] = rank(status);
      const tag = win.document.getElementById(id);
      if (tag) tag.setAttribute('data-offtag-status', status);
    };
    const fail = (err: any) => set('failed: ' + path + ': ' + ((err && err.message) || String(err)));
    const settled = (res: any) => {
      const code = res && res.code;
      if (typeof code == 'number') set(code >= 200 && code < 300 ? 'event delivered (HTTP ' + code + ')' : 'event not delivered (' + code + (res.message ? ': ' + res.message : '') + ')');
    };
    let attempts = 0;
    const attempt = () => {
      const parts = path.split('.');
      let owner = win;
      for (let i = 0; i < parts.length - 1; i++) owner = owner && owner[parts[i]];
      const fn = owner && owner[parts[parts.length - 1]];
      if (typeof fn != 'function') {
        if (++attempts < 40) setTimeout(attempt, 250);
        else set('failed: ' + path + ' is not a function in Partytown');
        return;
      }
      try {
        const result = fn.apply(owner, args);
        const promise = result && (typeof result.then == 'function' ? result : result.promise);
        const thenable = promise && typeof promise.then == 'function';
        if (step == 'init') {
          if (thenable) promise.then(() => set('initialised'), fail);
          else set('initialised');
          return;
        }
        set(win.navigator.onLine === false ? 'first call forwarded (the browser reports itself offline)' : 'first call forwarded');
        if (thenable) promise.then(settled, fail);
      } catch (err) {
        fail(err);
      }
    };
    attempt();
  };
}

let snippet: 'none' | 'loading' | 'ready' = 'none';
const afterSnippet: Array<() => void> = [];

/**
 * Adds Partytown's snippet (`~partytown/partytown.js`) the first time a Partytown script is
 * requested, with `offtagPartytownCall` in `forward` and the inline Partytown script that defines
 * it in the worker ahead of every tag (Partytown runs its scripts in document order, and hands
 * over the forwarded calls once they have run).
 */
function requestPartytown(): void {
  if (snippet !== 'none') return;
  snippet = 'loading';
  const cfg: Record<string, any> = (w.partytown ??= {});
  cfg.lib ??= partytownLib();
  cfg.debug ??= false;
  cfg.forward = [...new Set([...(cfg.forward ?? []), PARTYTOWN_CALL])];
  const calls = document.createElement('script');
  calls.type = 'text/partytown';
  calls.id = 'offtag-partytown-calls';
  calls.textContent = `(${partytownCalls})(window)`;
  document.head.appendChild(calls);
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
  const wasReady = snippet === 'ready';
  requestPartytown();
  setStatus(s, PARTYTOWN_QUEUED);
  // The calls queue in the snippet's forward stub and reach the worker once its scripts have run;
  // `onload` never fires on this page-side tag.
  const forward = (step: string, c: { fn: string; args: unknown[] }) => w[PARTYTOWN_CALL](e.id, c.fn, c.args, step);
  const call = () => {
    if (e.init) forward('init', e.init);
    const then = e.then;
    if (then) setTimeout(() => forward('then', then), then.delay);
  };
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
      // A tracker whose init will not run is said; a plain script (a Launch HTML block's) fails as
      // the page's own script tag does: the browser's failed load is all the console shows.
      if (e.init) console.error(failedToLoad(e.src));
    };
  }
  // Like Launch's custom code, tags are written into the body, which may not exist yet.
  whenBody((body) => body.appendChild(s));
}

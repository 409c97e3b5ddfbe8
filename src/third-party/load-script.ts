/**
 * Third-party scripts the worker asks the page to load (the storefront's only one is Datadog RUM).
 * Each `script` effect carries its own switch: `partytown: true` hands it to Partytown (the page
 * must then include Partytown's snippet and serve `~partytown/` from its own origin, as Partytown's
 * service worker requires); otherwise it loads on the main thread. Datadog RUM stays on the main
 * thread: it relies on PerformanceObserver, which Partytown does not proxy, and is not known to
 * work there (shared/reference/anchors.md §2).
 */
import type { Effect } from '../protocol.ts';

export type ScriptEffect = Extract<Effect, { type: 'script' }>;

/** Calls a global function by its dotted path (`DD_RUM.init`), with `this` its owner. */
function callPath(path: string, args: unknown[]): void {
  const parts = path.split('.');
  let owner: any = window;
  for (let i = 0; i < parts.length - 1; i++) owner = owner?.[parts[i]];
  const fn = owner?.[parts[parts.length - 1]];
  if (typeof fn === 'function') fn.apply(owner, args);
  else console.error(`Offtag: ${path} is not a function after its script loaded.`);
}

export function loadScript(e: ScriptEffect): void {
  if (document.getElementById(e.id)) return;
  const s = document.createElement('script');
  s.id = e.id;
  s.async = true;
  if (e.partytown) s.type = 'text/partytown';
  s.src = e.src;
  s.onload = () => {
    if (e.init) callPath(e.init.fn, e.init.args);
    const then = e.then;
    if (then) setTimeout(() => callPath(then.fn, then.args), then.delay);
  };
  s.onerror = () => console.error(`Failed to load script ${e.src}`);
  document.head.appendChild(s);
  // Partytown picks up scripts added after its start only when told.
  if (e.partytown) dispatchEvent(new CustomEvent('ptupdate'));
}

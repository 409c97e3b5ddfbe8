/**
 * Preview's page side, in offtag-effects.js (docs/publishing.md, "Preview"; the worker decides:
 * worker-engine/shell/preview.ts). Loads the asked environment's offtag.js, `<dir>/<env>/offtag.js`
 * beside this page's `<dir>/<build>/` folder, in place of the running one: `window.offtag` is
 * let go so the new script starts, and taken back when it does not. The answer goes to the worker
 * as an input (`hooks.frameMessage` is offtag.js's `post`, which posts any input).
 */
import type { EngineInput } from '../protocol.ts';

type Post = (input: EngineInput) => void;
const w = window as unknown as { offtag?: unknown; _satellite?: Record<string, (...a: unknown[]) => unknown> };

/** A published build's folder: `<dir>/<build>/`, its name a base-36 hash (tools/publish/store.ts). */
const BUILD = /\/[0-9a-z]{7,25}\/$/;

export function preview(env: string, own: string, base: string | undefined, post: Post): void {
  const answer = (loaded: boolean) => post({ type: 'preview', loaded });
  if (!base || !BUILD.test(base)) {
    console.warn(`Offtag: this browser asked to preview ${env}, but this offtag.js (${base}) is not a published environment's (offtag publish); it runs as it is.`);
    return answer(false);
  }
  const mine = w.offtag;
  const s = document.createElement('script');
  s.src = new URL(`../${env}/offtag.js`, base).href;
  const keep = (why: string) => {
    w.offtag = mine;
    console.warn(`Offtag: preview of ${env}: ${s.src} ${why}; this page runs ${own} as published.`);
    answer(false);
  };
  s.onload = () => {
    if (!w.offtag) return keep('did not start');
    console.info(`Offtag: preview: this browser runs ${env} (${s.src}) instead of ${own}; ?offtag_env= on any page ends it.`);
    answer(true);
  };
  s.onerror = () => keep('did not load');
  delete w.offtag;
  document.head.append(s);
}

/** After the hand-over: the `_satellite` calls made meanwhile, again, on the new bridge; the earlier pages' orphans kept for it. */
export function previewDone(calls: unknown[][], orphans: Array<[string, string]>): void {
  for (const [k, v] of orphans)
    try {
      localStorage[k] = v;
    } catch {
      /* storage disabled: nothing was kept either */
    }
  for (const [method, ...args] of calls) w._satellite?.[method as string]?.(...args);
}

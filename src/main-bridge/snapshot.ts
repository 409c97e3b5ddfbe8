/**
 * The per-event snapshot. The data layer itself is not walked here: postMessage's native
 * structured clone copies it. Only when that clone fails (functions, DOM nodes, throwing getters)
 * does `cloneable` walk it to drop what cannot travel, naming each path once.
 */
import type { ReadSet, Snapshot, SnapshotProblem } from '../protocol.ts';
import { narrow } from './read-set.ts';

/**
 * `tree`: the container's read set, when the worker has sent it (read-set.ts `narrow`). `early`:
 * taken during start-up, before the worker said hello: no viewport (on a phone, reading it then
 * forces a layout of a half-parsed page), no `document.cookie` and no sessionStorage (the first
 * access of each waits on the browser process). offtag.js takes a snapshot at hello, with no data
 * layer, and sends it with the init message; the worker shell fills those fields in from it
 * (docs/runtime.md, "Start-up").
 */
export function takeSnapshot(seq: number, applied: number, dataLayerName: string, sessionKeys: string[], tree?: ReadSet | null, early?: unknown): Snapshot {
  // Always an array (the worker reads `problems ?? []`), so the bridge can add to it without a check.
  const problems: SnapshotProblem[] = [];
  const session: Record<string, string | null> = {};
  let dataLayer: unknown;
  try {
    dataLayer = (window as unknown as Record<string, unknown>)[dataLayerName];
  } catch (e) {
    problems.push({ kind: 'data-layer', detail: (e as Error).message });
  }
  if (!early)
    try {
      for (const k of sessionKeys) session[k] = sessionStorage.getItem(k);
    } catch (e) {
      problems.push({ kind: 'session', detail: (e as Error).name });
    }
  // `tz` is the worker shell's to add (same clock, same zone): one Date less per event here.
  return {
    seq,
    applied,
    time: Date.now(),
    url: location.href,
    referrer: document.referrer,
    dataLayer: narrow(dataLayer, tree),
    gpc: !!(navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl,
    problems,
    ...(early ? {} : { cookie: document.cookie, session, viewport: { width: innerWidth, height: innerHeight } }),
  } as Snapshot;
}

/** How deep `cloneable` copies; what lies deeper is left out, by path, so no page value can overflow the stack. */
export const MAX_DEPTH = 100;

/**
 * A copy of `value` that structured clone accepts; `dropped` collects the paths left out. Never
 * throws: a Proxy whose traps throw, a revoked Proxy, or nesting deeper than MAX_DEPTH levels is
 * left out like a function is.
 */
export function cloneable(value: unknown, dropped: string[], path = '', seen = new Set<unknown>()): unknown {
  if (typeof value === 'function' || typeof value === 'symbol') return void dropped.push(path);
  if (typeof value !== 'object' || value === null) return value;
  try {
    if (value instanceof Node || seen.has(value)) throw 0;
    if (seen.size >= MAX_DEPTH) throw `${path} (deeper than ${MAX_DEPTH} levels)`;
    const arr = Array.isArray(value);
    const out: Record<string, unknown> | unknown[] = arr ? [] : {};
    seen.add(value);
    for (const k of Object.keys(value)) {
      const p = arr ? `${path}[${k}]` : path ? `${path}.${k}` : k;
      let v: unknown;
      try {
        v = (value as Record<string, unknown>)[k];
      } catch {
        dropped.push(p);
        continue;
      }
      (out as Record<string, unknown>)[k] = cloneable(v, dropped, p, seen);
    }
    seen.delete(value);
    return out;
  } catch (e) {
    dropped.push(typeof e == 'string' ? e : path);
  }
}

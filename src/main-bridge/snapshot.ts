/**
 * The per-event snapshot. The data layer itself is not walked here: postMessage's native
 * structured clone copies it. Only when that clone fails (functions, DOM nodes, throwing getters)
 * does `cloneable` walk it to drop what cannot travel, naming each path once.
 */
import type { ReadSet, Snapshot, SnapshotProblem } from '../protocol.ts';
import { narrow } from './read-set.ts';

/** The viewport as the snapshot carries it. On a phone, reading it while the page is still laid out forces a layout. */
export const viewport = () => ({ width: innerWidth, height: innerHeight });

/**
 * `tree`: the container's read set, when the worker has sent it (read-set.ts `narrow`). `early`:
 * taken during start-up, before the worker said hello: no viewport (offtag.js sends the one it reads
 * at hello with the init message, and the worker shell fills it in: docs/runtime.md, "Start-up").
 */
export function takeSnapshot(seq: number, applied: number, dataLayerName: string, sessionKeys: string[], tree?: ReadSet | null, early?: boolean): Snapshot {
  // Always an array (the worker reads `problems ?? []`), so the bridge can add to it without a check.
  const problems: SnapshotProblem[] = [];
  const session: Record<string, string | null> = {};
  let dataLayer: unknown;
  try {
    dataLayer = (window as unknown as Record<string, unknown>)[dataLayerName];
  } catch (e) {
    problems.push({ kind: 'data-layer-unreadable', detail: (e as Error).message });
  }
  try {
    for (const k of sessionKeys) session[k] = sessionStorage.getItem(k);
  } catch (e) {
    problems.push({ kind: 'session-unreadable', detail: (e as Error).name });
  }
  // `tz` is the worker shell's to add (same clock, same zone): one Date less per event here.
  return {
    seq,
    applied,
    time: Date.now(),
    url: location.href,
    referrer: document.referrer,
    cookie: document.cookie,
    session,
    dataLayer: narrow(dataLayer, tree),
    viewport: early ? undefined : viewport(),
    gpc: (navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl === true,
    problems,
  } as Snapshot;
}

/** How deep `cloneable` copies; what lies deeper is left out, by path (issue 9). */
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

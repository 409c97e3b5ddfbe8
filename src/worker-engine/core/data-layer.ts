/** Reading the data layer copy the bridge sent: dotted paths, and a guard against cycles. */
import type { ReadSet } from '../../protocol.ts';

/** A step: a run of characters other than `.`, `[` and `]`, so `[0]` gives `0`. */
const PATH_PART = /[^.[\]]+/g;

/** `page.pageInfo.pageType`, `product[0].productInfo.sku`, `page.element.0.click.id`. */
export function parsePath(path: string): string[] {
  const parts: string[] = [];
  for (const m of path.matchAll(PATH_PART)) parts.push(m[0]);
  return parts;
}

/** The value at `path`, or undefined when any step is missing. Never throws. */
export function readPath(root: unknown, path: string | string[]): unknown {
  let cur: unknown = root;
  for (const key of typeof path === 'string' ? parsePath(path) : path) {
    if (cur === null || (typeof cur !== 'object' && typeof cur !== 'string')) return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

/**
 * Structured clone keeps cycles, so the copy the worker gets may hold some. Replace every
 * back-reference by undefined and report the paths, so every later reader (and JSON output for
 * replay or the devtools) is safe. Runs in the worker, off the main thread.
 */
export function dropCycles(root: unknown): { value: unknown; cycles: string[] } {
  const cycles: string[] = [];
  const onPath = new Set<object>();
  const walk = (v: unknown, path: string): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (onPath.has(v)) {
      cycles.push(path || '(root)');
      return undefined;
    }
    onPath.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) v[i] = walk(v[i], `${path}[${i}]`);
    } else if (!ArrayBuffer.isView(v)) {
      // Own enumerable keys only: a Map, a Set, a Date or a RegExp has none, so it is kept as it is.
      // A typed array's indices hold numbers only and can be many: not walked.
      const o = v as Record<string, unknown>;
      for (const k of Object.keys(o)) o[k] = walk(o[k], path ? `${path}.${k}` : k);
    }
    onPath.delete(v);
    return v;
  };
  const value = walk(root, '');
  return { value, cycles };
}

/**
 * The data layer paths a container reads, for the bridge to copy instead of the whole layer
 * (docs/runtime.md, "The read set"): each data-layer element's path and each custom element's
 * declared `reads`, as a tree of keys whose leaves are 0 (a path under another one is covered by
 * it: the shorter path's whole value is read). `null` when a custom element declares no `reads`:
 * it may read anything, so the whole data layer keeps travelling.
 */
export function readSetOf(elements: Record<string, { type: string; path?: string; reads?: string[] }>): ReadSet | null {
  const paths: string[][] = [];
  for (const de of Object.values(elements)) {
    if (de.type === 'data-layer' && typeof de.path === 'string') paths.push(parsePath(de.path));
    else if (de.type === 'custom') {
      if (!Array.isArray(de.reads)) return null;
      for (const p of de.reads) paths.push(parsePath(p));
    }
  }
  const tree: ReadSet = {};
  for (const p of paths) {
    // An empty path is the whole layer.
    if (!p.length) return null;
    let node = tree;
    for (let i = 0; i < p.length; i++) {
      const next = node[p[i]];
      if (next === 0) break;
      if (i === p.length - 1) node[p[i]] = 0;
      else node = (node[p[i]] = next ?? {}) as ReadSet;
    }
  }
  return tree;
}

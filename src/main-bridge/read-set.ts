/**
 * The data layer read set: the worker sends, once, the paths its container's data elements read
 * (`readSetOf`, as a tree of keys whose leaves are 0), and from then on each snapshot carries a
 * copy of only those branches instead of the whole layer, so the per-event clone stays flat in
 * the layer's size. Without a read set (before the worker's answer, or when a custom data
 * element may read anything) the whole layer travels, as before. The bridge keeps the tree in
 * `hooks.tree` (apply-effects.ts).
 */
import type { ReadSet } from '../protocol.ts';


/**
 * Fresh plain objects down to each path's end, where the page's own value is kept (postMessage
 * clones it). The worker reads them by key, so an array on the way becomes an object with its
 * indices. A step that is null or not an object ends the path there, as the worker's `readPath`.
 */
const pick = (src: Record<string, unknown>, t: ReadSet): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const k in t) {
    const v = src[k];
    out[k] = !t[k] || v === null || typeof v !== 'object' ? v : pick(v as Record<string, unknown>, t[k] as ReadSet);
  }
  return out;
};

/** What the snapshot carries of the data layer. A getter that throws gives up the narrowing: the whole layer goes, and the clone reports it. */
export function narrow(root: unknown, tree: ReadSet | null | undefined): unknown {
  try {
    return tree && Object(root) === root ? pick(root as Record<string, unknown>, tree) : root;
  } catch {
    return root;
  }
}

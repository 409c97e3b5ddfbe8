/**
 * Page reads: values a container needs from the page itself (local storage, the document title,
 * a DOM element's attribute or property, custom code run on the page), read by offtag.js when it
 * takes an event's snapshot and carried in `snapshot.page`. `offtag build` writes the reads into
 * offtag.js as generated code, only for a container that has some (tools/build/page-reads.ts,
 * docs/containers.md "Page reads"). The engine only looks the values up: it stays I/O-free.
 */
import type { EngineEvent, Snapshot, SnapshotProblem } from '../../protocol.ts';

/** What a page read does on the page. */
export type PageRead =
  /** `localStorage.getItem(key)`; `null` when the item is absent or localStorage cannot be read (as Launch's Core extension). */
  | { from: 'local-storage'; key: string }
  /** `document.title`. */
  | { from: 'title' }
  /**
   * The first element matching `selector` (`document.querySelector`): `text` is its `innerText`
   * (or `textContent`), a property the element has (`id`, `className`, `href`, `value`…) is
   * read as a property, any other name as an attribute (`getAttribute`); undefined without an
   * element (Launch's Core DOM Attribute).
   */
  | { from: 'dom'; selector: string; property: string }
  /**
   * A function run on the page with the event (the bridge's `EngineEvent`). It is written into
   * offtag.js as its source text, so it must use nothing from the module around it: only its
   * argument and the page's globals. Its value must be structured-cloneable (what is not is
   * dropped and named, as for the data layer).
   */
  | { from: 'code'; code: (event: EngineEvent) => unknown };

/** The key of a rule's page condition: the rule's name (unique in a container) and the condition's index. */
export const conditionKey = (rule: string, index: number): string => `${rule}#${index}`;

/** The problem the bridge recorded for this read, if it threw. */
function problemOf(snapshot: Snapshot, group: 'd' | 'c', key: string): Extract<SnapshotProblem, { kind: 'page' }> | undefined {
  for (const p of snapshot.problems ?? []) if (p.kind === 'page' && p.g === group && p.k === key) return p;
  return undefined;
}

/**
 * A page read's value on this event's snapshot. Throws, with why, when there is none: the read
 * threw on the page, or the snapshot carries no page reads (an offtag.js built for another
 * container, or a snapshot from before the worker knew). A data element then takes its default,
 * a condition stops its rule, each with that message.
 */
export function pageValue(snapshot: Snapshot, group: 'd' | 'c', key: string): unknown {
  const values = snapshot.page?.[group];
  if (values && Object.prototype.hasOwnProperty.call(values, key)) return values[key];
  const failed = problemOf(snapshot, group, key);
  if (failed) throw new Error(`Its page read threw on the page: ${failed.detail}`);
  throw new Error('The event carries no value of its page read (offtag.js was built for a container without it: rebuild with offtag build).');
}

/** The words for a page read that threw (the snapshot's `page` problem). */
export function describePageProblem(p: Extract<SnapshotProblem, { kind: 'page' }>): string {
  const at = p.k.lastIndexOf('#');
  const what = p.g === 'd' ? `data element "${p.k}"` : `condition ${Number(p.k.slice(at + 1)) + 1} of rule "${p.k.slice(0, at)}"`;
  return `The page read of ${what} threw: ${p.detail}. The event goes on without its value.`;
}

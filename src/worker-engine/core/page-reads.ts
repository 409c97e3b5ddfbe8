/**
 * Page reads: values a container needs from the page itself (local storage, the document title,
 * a page global, a DOM element's attribute or property, custom code run on the page), read by offtag.js when it
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
   * A page global at a dotted path from `window` (`utag_data.page_name`, `products[0].sku`):
   * undefined as soon as a step is null or undefined (Launch's Core JavaScript Variable).
   */
  | { from: 'global'; path: string }
  /**
   * The first element matching `selector` (`document.querySelector`): `text` is its `innerText`
   * (or `textContent`), a property the element has (`id`, `className`, `href`, `value`…) is
   * read as a property, any other name as an attribute (`getAttribute`); undefined without an
   * element (Launch's Core DOM Attribute).
   */
  | { from: 'dom'; selector: string; property: string }
  /**
   * A function run on the page with the event (the bridge's `EngineEvent`) and, for a page
   * trigger's event, the element it matched (the clicked card, the submitted form). It is written into
   * offtag.js as its source text, so it must use nothing from the module around it: only its
   * argument and the page's globals. Its value must be structured-cloneable (what is not is
   * dropped and named, as for the data layer).
   */
  | { from: 'code'; code: (event: EngineEvent, element?: Element) => unknown }
  /**
   * Launch custom code (an imported data element or condition): the block's function source
   * (`function (event) {…}`), kept as text. offtag build writes it as a function of its own at the
   * top of offtag.js, outside the bridge (sloppy mode, the page's globals, nothing of offtag.js
   * in its scope); it is called with a turbine-shaped event and, for a page trigger's event, the
   * element as `this` and `event.element`.
   */
  | { from: 'launch-code'; source: string }
  /**
   * An imported Launch extension's data element or condition module (`module`: its path in the
   * library), run by the page's module host (src/page-side/host.ts) with its settings, as turbine
   * calls it: `exports(settings, event)`, `%tokens%` replaced on the page.
   */
  | { from: 'module'; module: string; settings: unknown };

/** An extension of an imported Launch library, as the page's module host runs it (src/page-side/host.ts). */
export interface PageExtension {
  displayName: string;
  settings?: unknown;
  hostedLibFilesBaseUrl?: string;
  /** Each module by its path: the script's source text (`function (module, exports, require, turbine) {…}`), its name, whether it is shared. */
  modules: Record<string, { script: string; name?: string; shared?: boolean }>;
}

/**
 * The page's module host of an imported Launch container (docs/import.md, "Other extensions"):
 * what offtag build writes into offtag.js for it. Each module's script is written as source text
 * and run as turbine runs it, with `require` and `turbine`.
 */
export interface PageSide {
  extensions: Record<string, PageExtension>;
  /** What turbine gives every module besides its extension's own: the library's build info, environment, property and company. */
  info: { buildInfo?: unknown; environment?: unknown; property?: { name?: string; id?: string }; propertySettings?: unknown; company?: unknown };
  /** The extensions' events, in rule order: the host calls each module at start; its trigger sends the direct call `key`, whose rule runs in the worker. */
  events: Array<{ key: string; module: string; settings: unknown; rule: string; displayName: string }>;
  /** The library's data element names: the `%tokens%` and `getDataElementValue` names the modules may use. */
  dataElements?: string[];
}

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

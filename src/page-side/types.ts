/**
 * What offtag build writes into offtag.js for a container with page code (tools/build/page-reads.ts):
 * a data literal, outside the bridge's code, whose functions (custom code blocks, module scripts)
 * are written as their source text at the top level of the file. Each is compiled in its own scope
 * — sloppy mode, the page's globals — and nothing of offtag.js is visible to it.
 */
import type { EngineEvent, EngineInput, LaunchEffect, PageValues, SnapshotProblem } from '../protocol.ts';
import type { PageSide } from '../worker-engine/core/page-reads.ts';
import type { LaunchFacts } from './satellite.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- page code, whatever it takes
export type Code = (this: any, ...args: any[]) => unknown;

/**
 * One read: `l` localStorage item, `t` the title, `v` a page global's path, `a` a DOM attribute,
 * `f` an authored page function `(event, element)`, `b` a Launch custom code block (turbine's
 * event, the element as `this`), `m` an extension module with its settings.
 */
export type Read = ['l', string] | ['t'] | ['v', string[]] | ['a', string, string] | ['f', Code] | ['b', Code] | ['m', string, unknown];

/** The events a page condition is read for: `1` every event, else `[type, direct-call id]`s (`trigger`: any page trigger). */
export type ReadOn = 1 | Array<[string, string?]>;

/** The module host's data: PageSide with each script as a function. */
export interface HostData {
  extensions: Record<string, { displayName: string; settings?: unknown; hostedLibFilesBaseUrl?: string; modules: Record<string, { script: Code; name?: string; shared?: boolean }> }>;
  info: PageSide['info'];
  events: PageSide['events'];
  /** The library's data elements (the names `%tokens%` and `getDataElementValue` know). */
  dataElements: string[];
}

export interface PageData {
  /** Data element reads, by name. */
  elements?: Record<string, Read>;
  /** Page conditions: their key (`rule#index`), the events they are read for, the read. */
  conditions?: Array<[string, ReadOn, Read]>;
  host?: HostData;
  /** Core's Custom Code events of an imported library: the direct call each trigger sends, its rule, its block. */
  events?: Array<[string, string, Code]>;
  /** An imported Launch container: what its `_satellite` (turbine's) tells and how it finishes the data elements it reads on the page. */
  launch?: LaunchFacts;
}

/** What offtag.js hands the page side once it has started: its `send` (a snapshot and an event), its `post` (an input as it is), the worker's latest values (`_satellite.getVar`). */
export interface PageHooks {
  send?(event: EngineEvent, element?: Element): number;
  vars: Record<string, unknown>;
}
export type Post = (input: EngineInput) => unknown;

export interface PageSideRuntime {
  /**
   * The page reads of one event (the snapshot's `page`); a read that throws is left out and named in
   * `problems`. `only`: that data element's read alone (a synchronous `_satellite.getVar` of it).
   */
  read(event: EngineEvent, problems: SnapshotProblem[], element: Element | undefined, seq: number, only?: string): PageValues;
  /** Makes offtag.js's `_satellite` turbine's, for an imported Launch container (before it is guarded and published). */
  launch(satellite: object, hooks: PageHooks): void;
  /**
   * Just before Library Loaded is sent: Core's Custom Code events' blocks run, the module host
   * evaluates the extensions' modules, and their events are set up. Returns the direct calls their
   * triggers pulled meanwhile: they go with Library Loaded (its `setup`).
   */
  start(hooks: PageHooks, post: Post): Array<{ id: string; detail?: unknown }>;
  /** A `launch` effect: one step of an imported rule. */
  run(effect: LaunchEffect): void;
}

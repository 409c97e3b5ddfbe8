/**
 * The container model (Adobe's: data elements, and rules made of events, conditions and
 * actions) as typed TypeScript, and the context the engine hands to each piece.
 */
import type { DataLayerFlavor, Effect, ElementProperty, EngineEvent, LinkClick, LogLevel, NetResponse, PageInfo, RequestEffect, Snapshot } from '../../protocol.ts';
import type { Settings } from './settings.ts';
import type { PageRead, PageSide } from './page-reads.ts';

/** Deterministic inputs the core must not take from the world itself. */
export interface EngineEnv {
  now(): number;
  /** In [0, 1). */
  random(): number;
  /** Lowercase hex SHA-256 of the UTF-8 text. */
  sha256(text: string): Promise<string>;
  /** `navigator.userAgentData.getHighEntropyValues(names)`; absent (or `{}`) where the browser has no client hints. */
  userAgentHints?(names: string[]): Promise<Record<string, unknown>>;
}

/** Cookies as the engine sees them: the latest snapshot plus the engine's own writes not yet seen in one. */
export interface CookieJar {
  get(name: string): string | undefined;
  /** Every cookie, as name → raw value (first wins, as document.cookie reads). */
  all(): Record<string, string>;
  set(name: string, value: string, options?: Omit<Extract<Effect, { type: 'cookie' }>, 'type' | 'name' | 'value'>): void;
  remove(name: string, options?: { path?: string; domain?: string }): void;
}

export interface SessionStore {
  get(key: string): string | null;
  set(key: string, value: string | null): void;
}

/** What every part of the engine may use: no DOM, no cookies, no network, only effects. */
export interface EngineContext {
  readonly settings: Settings;
  readonly env: EngineEnv;
  readonly page: PageInfo;
  /** The latest snapshot the bridge sent. */
  snapshot(): Snapshot;
  readonly cookies: CookieJar;
  readonly session: SessionStore;
  emit(effect: Effect): void;
  log(level: LogLevel, message: string): void;
  /** Feed for the devtools overlay. */
  monitor(name: string, data: unknown): void;
  /**
   * Ask the shell to make a request and wait for its answer (or `{error:'timeout'}` after
   * `timeout` ms). `fireAndForget` requests resolve at once with status 0.
   */
  fetch(request: Omit<RequestEffect, 'type' | 'id'>): Promise<NetResponse>;
  /** Resolves after `ms` of the shell's clock (a timer effect). */
  sleep(ms: number): Promise<void>;
  /**
   * Resolves with the input `{type: 'response', id}` that answers `id`: a step the page runs for
   * an effect this emitted (an imported Launch rule's page code, src/launch/page-steps.ts).
   */
  answer?(id: string): Promise<NetResponse | undefined>;
  /** A fresh id, unique within this engine, with a readable prefix. */
  nextId(prefix: string): string;
  /** Keeps the current dispatch open until `p` settles (for real asynchrony such as WebCrypto). */
  track<T>(p: Promise<T>): Promise<T>;
}

/** A data element: where its value comes from, and how the raw value is finished. */
/**
 * `X`: the container's own settings (its `settings` defaults), which the engine merges over its own
 * and hands to the container's code as `settings`; the engine itself never reads them.
 */
export type DataElementSource<N extends string, X = unknown> =
  | { type: 'data-layer'; path: string }
  | { type: 'cookie'; name: string | ((s: Settings & X) => string); decode?: boolean }
  | { type: 'session'; key: string | ((s: Settings & X) => string) }
  | { type: 'constant'; value: unknown }
  /** A value read on the page with each event (`page`, below): the snapshot's `page.d[name]`. */
  | { type: 'page' }
  | {
      type: 'custom';
      fn: (ctx: DataElementContext<N, X>) => unknown;
      /**
       * The data layer paths `fn` reads through `ctx.dataLayer` (`[]`: none). Absent: it may read
       * anything, so the bridge keeps sending the whole data layer (see `readSetOf`).
       */
      reads?: string[];
    };

export type DataElement<N extends string, X = unknown> = DataElementSource<N, X> & {
  /**
   * Returned (after logging) when the value is undefined, null or '' or when reading throws. A
   * function is called with the settings (a default that is a setting, such as the brand).
   */
  default?: unknown;
  /** Collapse whitespace runs into one space and trim (strings only). */
  cleanText?: boolean;
  forceLowerCase?: boolean;
  /** A message logged when the value is missing and the default is used. */
  missingMessage?: string;
  /**
   * Reading it writes cookies or storage (a visit counter, the previous page name): it is read only
   * by the rules that need it, never ahead of them for `getVar` (the engine's early values).
   */
  sideEffects?: boolean;
  /**
   * `session`: a value that is not missing is also stored in sessionStorage (under `storedKey`),
   * and answers while the source is missing, for the rest of the session (Launch's storage duration).
   */
  storage?: 'session';
  /**
   * Read on the page when the bridge takes each event's snapshot (src/worker-engine/core/page-reads.ts):
   * `offtag build` writes the read into offtag.js. The element's value is the snapshot's
   * `page.d[name]` (a `page` element; an imported element's own code reads it the same way).
   */
  page?: PageRead;
};

/** The sessionStorage key of a data element stored for the session (Launch's key). */
export const storedKey = (name: string): string => `com.adobe.reactor.dataElements.${name}`;

export interface DataElementContext<N extends string, X = unknown> {
  readonly settings: Settings & X;
  /** Facts about the page (its cookie domain, screen, origin). */
  readonly page: PageInfo;
  readonly snapshot: Snapshot;
  readonly event: EngineEvent;
  /** The value at a dotted path of the data layer (`page.pageInfo.pageType`, `product[0].productInfo.sku`). */
  dataLayer(path: string): unknown;
  /** Another data element's value (memoised per event). */
  get(name: N): unknown;
  /**
   * The value is for the page's `_satellite.getVar`, which turbine calls without an event: a Launch
   * data element that reads the event (custom code, Runtime Environment) reads none, as there.
   */
  readonly pageCall?: boolean;
  /** Whether `name` is a data element or a `setVar` value: a `%token%` turbine replaces. */
  has(name: string): boolean;
  readonly cookies: CookieJar;
  readonly session: SessionStore;
  log(level: LogLevel, message: string): void;
  /** The engine's random source (`env.random`, in [0, 1)); absent where the engine gives none (the early getVar values). */
  readonly random?: () => number;
}

export type RuleEventSpec =
  | { type: 'library-loaded' }
  /** `_satellite.pageBottom()`, else just before DOM Ready (Launch's Page Bottom). */
  | { type: 'page-bottom' }
  | { type: 'dom-ready' }
  | { type: 'window-loaded' }
  /**
   * `_satellite.track(id)`. `code` (an imported Launch Custom Code event, src/launch `customCodeEvent`):
   * a block, as a function's source, that the page side runs once when offtag.js starts, with a
   * `trigger` function each call of which sends this direct call.
   */
  | { type: 'direct-call'; id: string; code?: string }
  /** Any link click (automatic link tracking's event). */
  | { type: 'click' }
  | PageTriggerSpec;

/** How an event on an element counts for the elements around it (Adobe's Core extension "bubbling" options). */
export interface BubbleOptions {
  /** Only elements with these property values count (Adobe's `elementProperties`); all must match. */
  properties?: ElementProperty[];
  /** Fire when the event began on a descendant of the matched element; default true. */
  bubbleFireIfParent?: boolean;
  /** Fire even when the same event already fired a rule for a descendant; default true. */
  bubbleFireIfChildFired?: boolean;
  /** Once this fired, do not evaluate the matched element's ancestors; default false. */
  bubbleStop?: boolean;
}

/**
 * The triggers the bridge observes on the page, in a chunk loaded only for containers that use
 * them (docs/triggers.md). `data-element-change` is the worker's own: compared on each snapshot.
 */
export type PageTriggerSpec =
  /** A click on an element matching `selector` (or inside one). */
  | ({ type: 'click'; selector: string } & BubbleOptions)
  /** A DOM event named `name` reaching a listener on `target` (default `window`), optionally on an element matching `selector`. */
  | ({ type: 'custom-event'; name: string; target?: 'document' | 'window'; selector?: string } & BubbleOptions)
  /** A form submitted (matching `selector`, when given). */
  | ({ type: 'form-submit'; selector?: string } & BubbleOptions)
  /**
   * An element matching `selector` (and `properties`) entering the viewport: once per element, or on
   * every entry; with `delay`, once it has stayed in view that many milliseconds.
   */
  | { type: 'element-visible'; selector: string; everyEntry?: boolean; properties?: ElementProperty[]; delay?: number }
  /** The page scrolled so far that `percent` of its height has been in view; once per page. */
  | { type: 'scroll-depth'; percent: number }
  /** `ms` of page-visible time, then again every `ms`, `limit` times in all (default 1; 0: no limit). */
  | { type: 'timer'; ms: number; limit?: number }
  /** The URL changed without a page load (`pushState`, `replaceState`, `popstate`, `hashchange`). */
  | { type: 'history-change' }
  /** An element matching `selector` (and `properties`) is in the document: once per rule event. */
  | { type: 'element-exists'; selector: string; properties?: ElementProperty[] }
  /** The pointer entered an element matching `selector` and stayed on it `delay` ms (default 0: at once). */
  | ({ type: 'hover'; selector: string; delay?: number } & BubbleOptions)
  /** An HTML5 video or audio element (matching `selector`) has played `amount` seconds, or `amount` percent of its length. */
  | ({ type: 'media-time-played'; amount: number; unit?: 'second' | 'percent'; selector?: string } & BubbleOptions)
  /**
   * An object with an `event` pushed into the array `window[global]` (Adobe Client Data Layer's
   * `adobeDataLayer`, Google Tag Manager's `dataLayer`, Data Layer Manager's): only `event` when
   * given. `flavor` (default: `acdl` for `adobeDataLayer`, else `gtm`) says how the state is kept.
   */
  | { type: 'data-layer-push'; global: string; event?: string; flavor?: DataLayerFlavor }
  /** The data element `name`'s value changed between two snapshots. */
  | { type: 'data-element-change'; name: string };

export interface RuleContext<N extends string, S = unknown, X = unknown> {
  readonly settings: Settings & X;
  readonly event: EngineEvent;
  readonly snapshot: Snapshot;
  /** Facts about the page that do not change while it lives (its user agent, screen, cookie domain). */
  readonly page: PageInfo;
  readonly rule: { name: string };
  /** A data element's value for this event (memoised). */
  get(name: N): unknown;
  /** `%name%` tokens replaced by data element values (one whole token keeps the value's type). */
  replaceTokens(text: string): unknown;
  readonly services: S;
  readonly cookies: CookieJar;
  readonly session: SessionStore;
  emit(effect: Effect): void;
  log(level: LogLevel, message: string): void;
}

export interface Condition<N extends string, S = unknown, X = unknown> {
  name: string;
  /** The test, run in the worker. Absent for a page condition (`page`). */
  fn?: (ctx: RuleContext<N, S, X>) => boolean | Promise<boolean>;
  /**
   * A page condition: evaluated on the page when the bridge takes the snapshot of an event of
   * its rule (offtag build writes it into offtag.js); the rule engine reads its result,
   * `page.c[conditionKey(rule, index)]`, from the snapshot.
   */
  page?: PageRead;
  negate?: boolean;
  /** The data elements it reads, by name or `%token%` text: `offtag build` checks that they exist. */
  uses?: string[];
  /** Milliseconds; default 2000 (as published Launch builds). */
  timeout?: number;
}

export interface Action<N extends string, S = unknown, X = unknown> {
  name: string;
  fn: (ctx: RuleContext<N, S, X>) => void | Promise<void>;
  /** Part of it runs on the page (an imported Launch rule's page step, src/launch/page-steps.ts): offtag build writes the page side into offtag.js. */
  page?: boolean;
  /** The data elements it reads, by name or `%token%` text: `offtag build` checks that they exist. */
  uses?: string[];
  /** Milliseconds; default 2000. */
  timeout?: number;
}

export interface Rule<N extends string, S = unknown, X = unknown> {
  name: string;
  events: RuleEventSpec[];
  /** Lower runs first; default 50. Ties keep the container's order. */
  order?: number;
  conditions?: Condition<N, S, X>[];
  actions: Action<N, S, X>[];
}

export interface Container<N extends string, S = unknown, X = unknown> {
  name: string;
  /** Reported in `_satellite.buildInfo.containerVersion`. */
  version?: string;
  /** `_satellite.buildInfo.buildDate` (ISO 8601); absent: the time of the build. */
  buildDate?: string;
  /** The session keys the bridge must read for this container; `{brand}` is replaced. */
  sessionKeys: string[];
  /**
   * The container's settings: defaults for its own settings and for the engine's (core/settings.ts),
   * overridable by `window.offtagConfig` and checked by the same validator.
   */
  settings?: Record<string, unknown>;
  /**
   * Checks beyond the type a setting's default has, by dotted path: the phrase after "must be"
   * (e.g. `an http(s) URL or ''`) when a value is refused, else undefined.
   */
  settingChecks?: Record<string, (value: unknown) => string | undefined>;
  /** The services the rules use, built once per engine. */
  services?: (ctx: EngineContext) => S;
  dataElements: Record<N, DataElement<N, X>>;
  rules: Rule<N, S, X>[];
  /**
   * `every-event`: with each page event the engine evaluates every data element without side
   * effects and sends the page the values that changed, so `_satellite.getVar` answers the latest
   * (as turbine's, which computes on the call: a container imported from Launch). Absent: with the
   * first Library Loaded only, then what the rules read (each evaluation costs worker time).
   */
  getVarValues?: 'every-event';
  /**
   * How the engine reaches this container's services outside its rules, built once from them.
   * Absent: the engine has none of these hooks (clicks run only the click rules, service calls
   * are answered `Unknown service`, frame messages and deliveries are ignored).
   */
  hooks?: (services: S) => ContainerHooks;
  /**
   * What `offtag build` writes into offtag.js for the page besides the page reads: an imported
   * Launch container's other extensions, run there by the page's module host (docs/import.md).
   */
  page?: PageSide;
}

/**
 * What the engine calls on a container's services besides its rules. The engine knows these
 * signatures only, never the services themselves; every hook is optional.
 */
export interface ContainerHooks {
  /** A link click, before the click rules run (automatic link tracking). */
  onClick?(link: LinkClick): Promise<void> | void;
  /** A beacon of this page was delivered (2xx) after `rttMs`. */
  onBeaconDelivered?(rttMs: number): void;
  /** A postMessage from a frame one of the services created; origin unchecked. */
  onFrameMessage?(frameId: string, origin: string, data: unknown): void;
  /**
   * A call from a page-side facade (`service-call`, e.g. the `Visitor` facade). `undefined`: no
   * such service (the page is answered `Unknown service "<name>".`).
   */
  serviceCall?(service: string, method: string, args: unknown[]): Promise<object> | undefined;
  /** Work handed to the services whose effects are not emitted yet; the worker acknowledges events only at 0. */
  pendingHits?(): number;
}


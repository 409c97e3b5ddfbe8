/**
 * The messages that cross between the main-thread bridge and the worker engine.
 * Both sides import this module and nothing else from each other (and `protocol-keys.ts`, the
 * values both sides agree on). Types only: it compiles to nothing (tests/unit/package/protocol-types-only.test.ts).
 */

/** What the bridge reads from the page when an event fires. Structured-cloneable. */
export interface Snapshot {
  /** Event sequence number, counted by the bridge from 1. */
  seq: number;
  /** The highest effect batch number the bridge had applied when it took this snapshot. */
  applied: number;
  /** Epoch milliseconds when the event fired, and `Date#getTimezoneOffset()` then (added by the worker shell). */
  time: number;
  tz: number;
  url: string;
  referrer: string;
  /** `document.cookie` as it was; during start-up, as it was when the worker said hello (see `viewport`). */
  cookie: string;
  /** The sessionStorage keys the container declares; `null` when absent or unreadable. During start-up, as `cookie`. */
  session: Record<string, string | null>;
  /** A structured clone of `window[settings.dataLayer]` (undefined when the page has none). */
  dataLayer: unknown;
  /**
   * `innerWidth`/`innerHeight`. Absent, with `cookie` and `session`, from what offtag.js posts during
   * start-up: the worker shell fills the three in from the init's `now` (docs/runtime.md, "Start-up").
   */
  viewport: { width: number; height: number };
  /** `navigator.globalPrivacyControl === true`. */
  gpc: boolean;
  /** Problems the bridge met while reading; the worker words them (see `describeProblem`). */
  problems?: SnapshotProblem[];
  /**
   * What the container reads on the page with each event (local storage, the title, a DOM
   * attribute, custom code), by data element name (`d`) and by page condition (`c`, keyed
   * `conditionKey(rule, index)`): only for a container built with page reads (docs/containers.md).
   */
  page?: PageValues;
}

/** The page reads' values; a read that threw is absent, and named in `problems` (kind `page`). */
export interface PageValues {
  d?: Record<string, unknown>;
  c?: Record<string, unknown>;
}

/**
 * What the bridge could not read. The bridge sends codes, the worker writes the message, so the
 * texts stay out of the script tag every page pays for.
 */
export type SnapshotProblem =
  | { kind: 'session'; detail: string }
  | { kind: 'data-layer'; detail: string }
  /** The native clone failed; `paths` were left out of the copy (relative to the input). */
  | { kind: 'uncloneable'; detail: string; paths: string[] }
  /** A page read threw: `g` its group (`d` a data element, `c` a page condition), `k` its key. */
  | { kind: 'page'; g: 'd' | 'c'; k: string; detail: string };

/** The part of `PageInfo` the bridge reads; the worker knows the rest itself (its navigator, the origin's scheme). */
export type PageFacts = Pick<PageInfo, 'screen' | 'cookieDomain' | 'origin' | 'cookiesEnabled'>;

/** Facts about the page that do not change while it lives; read once at start. */
export interface PageInfo {
  userAgent: string;
  language: string;
  screen: { width: number; height: number; colorDepth: number };
  /** The cookie domain found by the write probe (VisitorAPI.js 5.5.0: cookies): '' means host-only. */
  cookieDomain: string;
  /** The origin of the page (for postMessage checks). */
  origin: string;
  /** Whether the page is served over https. */
  secure: boolean;
  /** Whether a test cookie could be written at all (AppMeasurement `k`). */
  cookiesEnabled: boolean;
}

/**
 * The page's lifecycle, in Launch's order. `page-bottom` is `_satellite.pageBottom()` (an imported
 * container's `_satellite` sends it); the engine fires it just before `dom-ready` when the page
 * never called it, as Launch's Core extension does at DOMContentLoaded.
 */
export type LifecycleEvent = 'library-loaded' | 'page-bottom' | 'dom-ready' | 'window-loaded';

/** A link click seen by the bridge's delegated listener. */
export interface LinkClick {
  /** Absolute URL of the link (`a.href`). */
  href: string;
  /**
   * The link's collapsed text (`innerText`, else `textContent`). Clicks recorded before `html` was
   * sent carry the whole name here (an explicit name, the text, else an alt, title or src).
   */
  text: string;
  /**
   * The link's `outerHTML`: the worker reads its name attributes, its `onclick` and, when there is no
   * text, the first alt or title (analytics/link-name.ts).
   */
  html?: string;
  /** The nearest ancestor's `data-id`, else its `id` (not empty), else 'BODY'; '' when no body was reached. */
  region: string;
  /** Whether the link's onclick already calls `.tl(`: such links are skipped (the worker reads it from `html` too). */
  hasTlCall?: boolean;
  /** The element's tag name (`A`, `AREA`): ClickMap's `ot`. */
  tag?: string;
  /**
   * `String(window.s_objectID)` when the click happened (ClickMap's `oid` instead of the URL): sent as
   * text even when unset (`undefined`, `0`), which the worker reads as none (`objectIdOf`).
   */
  objectId?: string;
}

export type EngineEvent =
  | { type: Exclude<LifecycleEvent, 'library-loaded'> }
  /**
   * `setup`: the direct calls the page's events pulled while the library set them up (an imported
   * Launch container's Custom Code events and other extensions' events, src/page-side): their rules
   * run among the Library Loaded rules by rule order, as turbine runs the triggers of its start.
   */
  | { type: 'library-loaded'; setup?: Array<{ id: string; detail?: unknown }> }
  | { type: 'direct-call'; id: string; detail?: unknown }
  | { type: 'click'; link: LinkClick }
  /** `_satellite.getVarAsync(name)`: evaluate one data element now. */
  | { type: 'get-var'; name: string }
  /** `_satellite.setVar(...)`. */
  | { type: 'set-var'; values: Record<string, unknown> }
  /** A call on a page-side facade (e.g. `Visitor.getInstance(...).getMarketingCloudVisitorID`). */
  | { type: 'service-call'; service: string; method: string; args: unknown[] }
  /** One of the container's page triggers fired (offtag-triggers.js observes them: docs/triggers.md). */
  | TriggerEvent
  /** A watched data element's value changed: the engine's own event, never the bridge's (docs/triggers.md). */
  | { type: 'data-element-change'; name: string; value: unknown; previous: unknown };

/** The page triggers the bridge observes for the worker, in a lazily loaded chunk (offtag-triggers.js). */
export type TriggerType =
  | 'click'
  | 'custom-event'
  | 'form-submit'
  | 'element-visible'
  | 'scroll-depth'
  | 'timer'
  | 'history-change'
  | 'element-exists'
  | 'hover'
  | 'media-time-played'
  | 'data-layer-push';

/** What the bridge tells about an element a trigger matched (`%this.…%`) or an event's target (`%target.…%`). */
export interface ElementInfo {
  tagName: string;
  id: string;
  className: string;
  /** The resolved `href` of a link (absent elsewhere). */
  href?: string;
  /** `textContent`, cut at `ELEMENT_TEXT_LIMIT` characters (`%this.@text%`). */
  text: string;
  /** Every attribute, name → value (`%this.getAttribute(name)%`). */
  attributes: Record<string, string>;
}

/**
 * A trigger fired on the page. `key` names the listener (the worker's `listen` list, core/triggers.ts
 * `listenerKey`); the rules whose events give that listener run.
 */
export interface TriggerEvent {
  type: 'trigger';
  key: string;
  on: TriggerType;
  /** The element the listener matched (clicks, submits, custom events on an element, visibility). */
  element?: ElementInfo;
  /** The DOM event's own target, when an element (a click's innermost element). */
  target?: ElementInfo;
  /**
   * A custom event's `detail`, when structured clone can copy it (else what it can: snapshot.ts
   * `cloneable`); the object a data layer push pushed; what a custom code event's block passed to
   * `trigger`.
   */
  detail?: unknown;
  /** A data layer push: the data layer's state after it (the pushes so far merged; docs/triggers.md). */
  state?: unknown;
  /** History change: the page's URL after the change. */
  url?: string;
  /** Hover: the milliseconds the pointer stayed on the element. */
  delay?: number;
  /** Media time played: the threshold crossed (`amount` seconds, or percent of the media's length). */
  amount?: number;
  unit?: 'second' | 'percent';
  /** Scroll depth: the threshold crossed, in percent. */
  percent?: number;
  /** Timer: how many times it has fired, from 1; and the page-visible milliseconds counted. */
  count?: number;
  ms?: number;
}

/**
 * Adobe's element property filter (`elementProperties`): the element's property `name` (its
 * attribute when it has no such property; `@text`/`innerText`: its text) equals `value`, or
 * matches it as a case-insensitive regular expression.
 */
export interface ElementProperty {
  name: string;
  value: string;
  valueIsRegex?: boolean;
}

/** Which element an element event matches: Launch's bubbling options and the element's properties. */
type ElementMatch = {
  bubbleFireIfParent?: boolean;
  bubbleFireIfChildFired?: boolean;
  bubbleStop?: boolean;
  properties?: ElementProperty[];
};

/**
 * A listener the worker asks the bridge to install (the `listen` effect). One per distinct rule
 * event; `key` comes back in each `trigger` event it causes; `rules`: the names of the rules whose
 * events it serves, for the bridge's message when the browser cannot install it (a selector it
 * does not take).
 */
export type TriggerListener = { rules?: string[] } & (
  | ({ key: string; type: 'click' | 'form-submit'; selector?: string } & ElementMatch)
  | ({ key: string; type: 'custom-event'; name: string; target: 'document' | 'window'; selector?: string } & ElementMatch)
  /** `delay`: ms the element must stay in view before it fires. */
  | { key: string; type: 'element-visible'; selector: string; everyEntry?: boolean; properties?: ElementProperty[]; delay?: number }
  | { key: string; type: 'scroll-depth'; percent: number }
  /** `limit`: how many times it fires; 0: no limit. */
  | { key: string; type: 'timer'; ms: number; limit: number }
  /** The page's URL changed without a load: `pushState`, `replaceState`, `popstate`, `hashchange`. */
  | { key: string; type: 'history-change' }
  /** An element matching `selector` (and `properties`) is in the document: once. */
  | { key: string; type: 'element-exists'; selector: string; properties?: ElementProperty[] }
  /** The pointer entered an element matching `selector` and stayed `delay` ms (0: at once). */
  | ({ key: string; type: 'hover'; selector: string; delay?: number } & ElementMatch)
  /** An HTML5 media element (matching `selector`) has played `amount` seconds, or percent of its length. */
  | {
      key: string;
      type: 'media-time-played';
      amount: number;
      unit: 'second' | 'percent';
      selector?: string;
      bubbleFireIfParent?: boolean;
      bubbleFireIfChildFired?: boolean;
      bubbleStop?: boolean;
      properties?: ElementProperty[];
    }
  /**
   * An object pushed into the array `window[global]` (created when absent) whose `event` is `event`
   * (absent: any object with an `event`). `flavor`: how the data layer's state is kept (docs/triggers.md).
   */
  | { key: string; type: 'data-layer-push'; global: string; event?: string; flavor: DataLayerFlavor }
);

/**
 * Whose data layer a push event follows: Adobe Client Data Layer (`adobeDataLayer`), Google Tag
 * Manager (`dataLayer`), or Search Discovery's Data Layer Manager (`SDI-DLM:` events; its state is
 * the event objects pushed so far, shallowly merged).
 */
export type DataLayerFlavor = 'acdl' | 'gtm' | 'dlm';

export interface NetResponse {
  status: number;
  body: string;
  /** Set when no HTTP answer came: a network failure or the request's timeout. */
  error?: 'network' | 'timeout';
}

/** Everything that moves the engine: events from the page, answers from the network, timers. */
export type EngineInput =
  | { type: 'event'; event: EngineEvent; snapshot: Snapshot }
  | { type: 'response'; id: string; response: NetResponse }
  | { type: 'timer'; id: string }
  /** A postMessage a frame the engine created sent to the page; the bridge checked nothing. */
  | { type: 'frame-message'; frameId: string; origin: string; data: unknown }
  /** `_satellite.setDebug(on)`: debug-level messages travel to the page only while it is on. */
  | { type: 'debug'; on: boolean }
  /** The transport delivered one of this page's beacons (2xx) after `rttMs`: the next beacon's `lrt`. */
  | { type: 'beacon-delivered'; rttMs: number }
  /** offtag-effects.js's answer to a `preview` effect: the other environment's offtag.js runs (`loaded`), or this page keeps its own. */
  | { type: 'preview'; loaded: boolean };

export type LogLevel = 'debug' | 'log' | 'info' | 'warn' | 'error';

export interface CookieWrite {
  type: 'cookie';
  name: string;
  /** Written as given: callers encode. */
  value: string;
  /** Epoch ms. Absent: a session cookie. In the past: removes the cookie. */
  expires?: number;
  path?: string;
  /** '' or absent: host-only. */
  domain?: string;
  sameSite?: 'Lax' | 'Strict' | 'None';
  secure?: boolean;
}

export interface RequestEffect {
  type: 'request';
  /** Unique within the engine; a response comes back with this id unless `fireAndForget`. */
  id: string;
  /** What the request is for: the worker shell routes beacons to the durable queue. */
  kind: 'beacon' | 'id-service' | 'opt-out-status' | 'other';
  method: 'GET' | 'POST';
  url: string;
  body?: string;
  headers?: Record<string, string>;
  credentials: 'include' | 'omit' | 'same-origin';
  /** Milliseconds before the shell gives up and answers `{error:'timeout'}`. */
  timeout?: number;
  /** No response is fed back into the engine (beacons: the queue owns their delivery). */
  fireAndForget?: boolean;
}

export type Effect =
  | CookieWrite
  | { type: 'storage'; key: string; value: string | null }
  | { type: 'log'; level: LogLevel; message: string }
  | RequestEffect
  /** Fire an input `{type:'timer', id}` after `delayMs`. */
  | { type: 'timer'; id: string; delayMs: number }
  /** A hidden iframe (the ID sync); `messages` are posted to `targetOrigin` once it has loaded. */
  | {
      type: 'iframe';
      id: string;
      src: string;
      name?: string;
      title?: string;
      sandbox?: string;
      targetOrigin: string;
      messages?: string[];
    }
  /** A message for an iframe created earlier (posted once it has loaded). */
  | { type: 'post-message'; frameId: string; message: string; targetOrigin: string }
  /** A pixel the page must load (ID syncs with `syncOnPage`). */
  | { type: 'image'; src: string }
  /**
   * A script the page must load. `init` names a global function path to call with `args` once the
   * script has loaded (e.g. `DD_RUM.init`). `partytown` routes it through Partytown.
   */
  | {
      type: 'script';
      id: string;
      src: string;
      partytown?: boolean;
      /** `crossorigin` of the tag: needed by scripts that `import()` their own chunks (Datadog's recorder). */
      crossOrigin?: 'anonymous';
      init?: { fn: string; args: unknown[] };
      /** A second call, `delay` ms after the init call (RUM adds cookies as context after 1 s). */
      then?: { fn: string; args: unknown[]; delay: number };
    }
  /** Data element values from the latest evaluation: what `_satellite.getVar` answers. */
  | { type: 'vars'; values: Record<string, unknown> }
  /** The answer to a `get-var` or `service-call` event. */
  | { type: 'reply'; seq: number; value?: unknown; error?: string; callbacks?: unknown[][] }
  /** A feed for the devtools overlay (rule firings, beacons); the worker keeps it, the page never gets it. */
  | { type: 'monitor'; name: string; data: unknown }
  /** The worker shell's, never the engine's: a cookie write as the `document.cookie` string, built in the worker. */
  | { type: 'cookie-string'; cookie: string }
  /** The tracker made a hit (a page view or a rule's link hit): the bridge resets `window.s_objectID` as AppMeasurement does. */
  | { type: 'hit' }
  /** The worker shell's, sent once: the data layer paths the container reads, or null for all (main-bridge/read-set.ts). */
  | { type: 'read-set'; tree: ReadSet | null }
  /** The worker shell's, sent once when the container's rules use page triggers: the bridge loads offtag-triggers.js and installs them. */
  | { type: 'listen'; triggers: TriggerListener[] }
  /**
   * The worker shell's, sent once, at the page's `SENDER_AFTER_BEACONS`th beacon: offtag-effects.js
   * starts the origin's SharedWorker sender and posts its port back on the events port, as a
   * message `{ type: 'sender' }` (docs/delivery.md, "The sender").
   */
  | { type: 'sender' }
  /**
   * The worker shell's (shell/preview.ts): this browser previews `env`; offtag-effects.js loads that
   * environment's offtag.js in place of this one (`own`) and answers with a `preview` input.
   */
  | { type: 'preview'; env: string; own: string }
  /** After the hand-over: the `_satellite` calls to make again on the new bridge, and the orphans to keep for it. */
  | { type: 'preview-done'; calls: unknown[][]; orphans: Array<[string, string]> }
  | LaunchEffect;

/**
 * One step of an imported Launch rule that runs on the page (src/page-side/steps.ts): custom code
 * written as a script of its own, HTML written into the page, an external code file loaded from
 * the library's host, another extension's action run by the page's module host. `answer`: the id
 * of the input `{type: 'response', id, response}` the page posts once the step has ended (status
 * 200 — for an Analytics step with its record in `body` —, or 500 with the error in `body`), for a rule that waits for it (turbine's component
 * sequencing). Only offtag.js built with page code (offtag build) runs it.
 */
export interface LaunchEffect {
  type: 'launch';
  step: LaunchStep;
  /** The action's name (its module's, as turbine names it) and its rule's, for messages and the devtools' timings. */
  name: string;
  rule: string;
  /** The event's snapshot seq: the page gives the element a page trigger matched to the step as `this`. */
  seq: number;
  /** The turbine-shaped event (`$type`, `$rule`, a direct call's `identifier` and `detail`). */
  event: Record<string, unknown>;
  /** Data element values computed for this event, given to `_satellite.getVar` on the page before the step runs. */
  values?: Record<string, unknown>;
  answer?: string;
  /** The Core extension's CSP nonce for the scripts the step writes. */
  nonce?: string;
}

export type LaunchStep =
  /**
   * JavaScript (tokens replaced), run as a script of its own: the body of a function of `event,
   * target, Promise` with the element as `this` (`fn`: the text is that function itself), or,
   * `global`, a script run as written.
   */
  | { js: string; global?: boolean; fn?: boolean }
  /** HTML (tokens replaced), written at the end of the body; its scripts run in order. */
  | { html: string }
  /** An external custom code file (`_satellite.__registerScript(url, code)`), loaded at run time. */
  | { url: string; language: 'javascript' | 'html'; global?: boolean }
  /** An extension's action module (its settings with tokens replaced). */
  | { module: string; settings: unknown }
  /**
   * Analytics custom code that needs the page, at its place in the rule (the customSetup, a Set
   * Variables block, doPlugins for a beacon), run against the page-side `s` with the worker's
   * variables `vars`; the answer's body is the record of what it did to `s`, as JSON
   * (src/launch/appmeasurement/page-tracker.ts).
   */
  | { analytics: 'setup' | 'block' | 'plugins'; vars: Record<string, unknown>; block?: number; global?: boolean; linkType?: string; linkName?: string };

/** Data layer keys the container reads, as a tree: 0 marks a path's end, whose whole value is read. */
export interface ReadSet {
  [key: string]: ReadSet | 0;
}

/** A batch of effects for the bridge, numbered so that snapshots can say what they have seen. */
export interface EffectBatch {
  n: number;
  effects: Effect[];
  /**
   * Acknowledgement (docs/delivery.md): every event up to this seq, and every orphan the bridge
   * handed over at init, is safe (its beacons are stored, or delivered): the bridge forgets them.
   */
  a?: number;
}

/**
 * The first and only plain message the bridge posts to the worker. Everything afterwards travels
 * on the two ports it carries.
 */
export interface InitMessage {
  type: 'init';
  /** The page's `window.offtagConfig` (validated in the worker). */
  config: unknown;
  page: PageFacts;
  /**
   * The hot path: the bridge posts `EngineInput`s, one one-way message per event; the worker posts `EffectBatch`es back.
   * offtag.js leaves it (and `api`) out and transfers the two ports only: the worker then takes `ev.ports` [events, api].
   */
  events?: MessagePort;
  /** The API surface, served with Comlink (`WorkerApi`): the devtools, the benches and the tests use it. */
  api?: MessagePort;
  /**
   * `ev.ports[2]` when there is one: the origin's beacon sender, a SharedWorker (offtag-sender.js,
   * docs/delivery.md "The sender"). The worker's beacons go through it once it said it is there.
   */
  sender?: MessagePort;
  /**
   * A snapshot offtag.js took when the worker said hello (its data layer left out): the snapshots
   * of its start-up carry no viewport, `document.cookie` or session keys (reading them then forces
   * a layout on phones, and the first storage and cookie access waits on the browser process); the
   * worker shell fills them in from this one, with its problems (docs/runtime.md, "Start-up").
   * Its `seq` is the last event the page posted before this message: the worker holds what it
   * has for the page until those are handled, and says them together (one batch, one acknowledgement).
   */
  now?: Snapshot;
  /** Paths of `offtagConfig` that could not be sent (functions, DOM nodes…); absent when none. */
  configDropped?: string[];
  /** Adobe's debug switch (localStorage `com.adobe.reactor.debug`) as the page started. */
  debug: boolean;
  /** Names this page in the beacon store's acknowledgement markers (`ack:<pid>`). */
  pid?: string;
  /**
   * Events earlier pages of the origin closed on before they were acknowledged: localStorage
   * `[key, JSON of EngineInput[]]`, key `ORPHAN_KEY` (protocol-keys.ts) + that page's pid. The worker finishes them.
   */
  orphans?: Array<[string, string]>;
}

/** What the worker exposes through Comlink on the `api` port. */
export interface WorkerApi {
  /** The settings in force, after validation. */
  settings(): Record<string, unknown>;
  /** Data element values from the latest evaluations (name → value). */
  values(): Record<string, unknown>;
  /** Beacons the durable queue is still working on. */
  pendingBeacons(): Promise<number>;
  /** Resolves when the queue has nothing left to send. */
  beaconsIdle(): Promise<void>;
  /** The devtools feed, oldest first (the latest `MONITOR_LIMIT` entries, worker-engine/shell/api.ts). */
  monitor(): Array<{ name: string; data: unknown }>;
  /** The session so far as a replay fixture (docs/replay.md): the page's snapshots and events, the network's answers. */
  session(): import('./worker-engine/session-recorder.ts').SessionFixture;
}

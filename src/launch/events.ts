/** The Core extension's events (and Data Layer Manager's push event) as the engine's rule event specs. */
import type { DataLayerFlavor, ElementProperty } from '../protocol.ts';
import type { RuleEventSpec } from '../worker-engine/core/types.ts';
import { EXTENSION_EVENT } from '../page-side/event.ts';

export const libraryLoaded = (): RuleEventSpec => ({ type: 'library-loaded' });
export const domReady = (): RuleEventSpec => ({ type: 'dom-ready' });
export const windowLoaded = (): RuleEventSpec => ({ type: 'window-loaded' });
/**
 * Core Page Bottom: when the page calls `_satellite.pageBottom()` at the end of its body, else just
 * before DOM Ready (Launch fires it at DOMContentLoaded then): the engine's `page-bottom` event.
 */
export const pageBottom = (): RuleEventSpec => ({ type: 'page-bottom' });
export const directCall = (identifier: string): RuleEventSpec => ({ type: 'direct-call', id: identifier.trim() });

/** Adobe's bubbling options (the Core extension's `createBubbly`), only those the settings give, and its element property filter. */
export interface LaunchBubbling {
  bubbleFireIfParent?: boolean;
  bubbleFireIfChildFired?: boolean;
  bubbleStop?: boolean;
  elementProperties?: ElementProperty[];
}
/** The element property filter as the engine's triggers take it (an empty one is none); the engine checks and normalises each entry (core/triggers.ts). */
const props = (o: { elementProperties?: ElementProperty[] }) => (o.elementProperties?.length ? { properties: o.elementProperties } : {});
const bubbling = (o: LaunchBubbling) => ({
  ...props(o),
  ...(o.bubbleFireIfParent !== undefined ? { bubbleFireIfParent: o.bubbleFireIfParent } : {}),
  ...(o.bubbleFireIfChildFired !== undefined ? { bubbleFireIfChildFired: o.bubbleFireIfChildFired } : {}),
  ...(o.bubbleStop !== undefined ? { bubbleStop: o.bubbleStop } : {}),
});
/**
 * Without a selector, Launch's Core events fire for the event's target only, never for its
 * ancestors: the engine's click needs a selector (without one it is the link-tracking click), so
 * "any element" is `*` fired for the target only.
 */
const anyElement = { selector: '*', bubbleFireIfParent: false } as const;

/**
 * Core Custom Event: Launch listens on `window` in the capture phase, so an event of that type
 * dispatched on any element, on `document` or on `window` is seen: the engine's `window` target.
 */
export const customEvent = (type: string, elementSelector?: string, o: LaunchBubbling = {}): RuleEventSpec =>
  elementSelector
    ? { type: 'custom-event', name: type, target: 'window', selector: elementSelector, ...bubbling(o) }
    : { type: 'custom-event', name: type, target: 'window', ...props(o) };
/** Core Click: a click on an element matching the selector (or inside one, by the bubbling options). */
export const click = (elementSelector?: string, o: LaunchBubbling = {}): RuleEventSpec =>
  elementSelector ? { type: 'click', selector: elementSelector, ...bubbling(o) } : { type: 'click', ...props(o), ...anyElement };
/** Core Form Submission. */
export const formSubmission = (elementSelector?: string, o: LaunchBubbling = {}): RuleEventSpec =>
  elementSelector ? { type: 'form-submit', selector: elementSelector, ...bubbling(o) } : { type: 'form-submit', ...props(o) };
/**
 * Core Enters Viewport: `frequency` "firstEntry" (Launch's default) or "everyEntry"; `delay`: the
 * milliseconds the element must stay in view ("in view for"); `elementProperties` checked as it enters.
 */
export const entersViewport = (elementSelector: string, frequency?: string, o: { delay?: number; elementProperties?: ElementProperty[] } = {}): RuleEventSpec => ({
  type: 'element-visible',
  selector: elementSelector,
  ...(frequency === 'everyEntry' ? { everyEntry: true } : {}),
  ...props(o),
  ...(o.delay ? { delay: o.delay } : {}),
});
/** Core Time On Page: once, after that many seconds of page-visible time. */
export const timeOnPage = (seconds: number): RuleEventSpec => ({ type: 'timer', ms: seconds * 1000 });
/** Core Data Element Change: the data element's value differs from its previous reading. */
export const dataElementChange = (name: string): RuleEventSpec => ({ type: 'data-element-change', name });
/** Core History Change: `pushState`, `replaceState`, `popstate` or `hashchange` changed the URL. */
export const historyChange = (): RuleEventSpec => ({ type: 'history-change' });
/** Core Element Exists: an element matching the selector (and property filter) is in the document; once. */
export const elementExists = (elementSelector: string, o: { elementProperties?: ElementProperty[] } = {}): RuleEventSpec => ({
  type: 'element-exists',
  selector: elementSelector,
  ...props(o),
});
/** Core Mouse Hover: the pointer entered a matching element and stayed `delay` milliseconds (0: at once). */
export const hover = (elementSelector: string, delay = 0, o: LaunchBubbling = {}): RuleEventSpec => ({
  type: 'hover',
  selector: elementSelector,
  ...(delay ? { delay } : {}),
  ...bubbling(o),
});
/** Core Media Time Played: a video or audio element (matching the selector) has played `amount` seconds, or percent. */
export const mediaTimePlayed = (amount: number, unit: 'second' | 'percent', elementSelector?: string, o: LaunchBubbling = {}): RuleEventSpec => ({
  type: 'media-time-played',
  amount,
  unit,
  ...(elementSelector ? { selector: elementSelector, ...bubbling(o) } : props(o)),
});
/**
 * The Core events that are one DOM event seen on `document` in the capture phase (Media Ended,
 * Play, Pause, Volume Changed, Stalled, Loaded Data; Blur, Focus, Change, Key Press, Mouse Down):
 * the engine's custom event on `document`, with Core's selector, bubbling options and filter.
 */
export const domEvent = (name: string, elementSelector?: string, o: LaunchBubbling = {}): RuleEventSpec =>
  elementSelector
    ? { type: 'custom-event', name, target: 'document', selector: elementSelector, ...bubbling(o) }
    : { type: 'custom-event', name, target: 'document', ...props(o) };
/** Core's DOM events by module, and the DOM event each is. */
export const DOM_EVENTS: Record<string, string> = {
  'mediaEnded.js': 'ended',
  'mediaPlay.js': 'play',
  'mediaPause.js': 'pause',
  'mediaVolumeChange.js': 'volumechange',
  'mediaStalled.js': 'stalled',
  'mediaLoadedData.js': 'loadeddata',
  'blur.js': 'blur',
  'focus.js': 'focus',
  'change.js': 'change',
  'keyPress.js': 'keypress',
  'keyDown.js': 'keydown',
  'keyUp.js': 'keyup',
  'mousedown.js': 'mousedown',
};
/**
 * Core Custom Code event: its block (a function's source, `function (trigger) {…}`) runs on the
 * page when offtag.js starts (src/page-side, as turbine runs it while setting its rules up), with
 * a `trigger` function; each call sends this direct call, whose rule runs in the worker, and what
 * the block passes to `trigger` is part of the rule's event. `n`: the event's number in the library.
 */
export const customCodeEvent = (block: string, n: number): RuleEventSpec => ({ type: 'direct-call', id: `${EXTENSION_EVENT}core.custom-code:${n}`, code: block });
/**
 * A data layer push: an object with `event` pushed into `window[global]` (Data Layer Manager's
 * Data Layer Push with its `eventType`; Adobe Client Data Layer; Google Tag Manager's `dataLayer`).
 */
export const dataLayerPush = (global: string, event?: string, flavor?: DataLayerFlavor): RuleEventSpec => ({
  type: 'data-layer-push',
  global,
  ...(event !== undefined ? { event } : {}),
  ...(flavor ? { flavor } : {}),
});

/** The Core extension's events as the engine's rule event specs. */
import type { ElementProperty } from '../protocol.ts';
import type { RuleEventSpec } from '../worker-engine/core/types.ts';

export const libraryLoaded = (): RuleEventSpec => ({ type: 'library-loaded' });
export const domReady = (): RuleEventSpec => ({ type: 'dom-ready' });
export const windowLoaded = (): RuleEventSpec => ({ type: 'window-loaded' });
/**
 * Core Page Bottom: Launch fires it when the page calls `_satellite.pageBottom()` at the end of its
 * body, or at DOMContentLoaded when the page never does. Offtag's bridge loads with the page, so it
 * is the engine's DOM-ready event; its rules take their place among DOM Ready rules by rule order.
 */
export const pageBottom = (): RuleEventSpec => ({ type: 'dom-ready' });
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

/**
 * The values the bridge and the worker agree on, beside the types of `protocol.ts` (which holds
 * types only). Both sides import this module.
 */

/** localStorage key prefix of a page's unacknowledged events, written on `pagehide` (`InitMessage.orphans`). */
export const ORPHAN_KEY = 'offtag:u:';

/** How much of an element's text travels with a trigger event. */
export const ELEMENT_TEXT_LIMIT = 1000;

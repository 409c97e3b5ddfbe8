/**
 * The Launch runtime: what an imported Launch container is written with. The Core extension's data
 * elements, events and conditions, the Analytics and Experience Cloud ID extensions' actions and
 * custom code, as engine data elements and rules that behave as turbine runs them (a default only
 * for null or undefined, then clean text, then lower case; storage duration; rule order; components
 * in sequence). Everything here runs in the worker, except what a page read or a page step names
 * (page-steps.ts: offtag.js's page side runs those).
 */
export * from './types.ts';
export * from './data-elements.ts';
export * from './custom-code.ts';
export * from './events.ts';
export * from './conditions.ts';
export * from './actions.ts';
export * from './page-steps.ts';
export * from './analytics.ts';
export * from './ecid.ts';
export * from './visitor-behavior.ts';
export * from './virtual-page.ts';
export * from './appmeasurement/tracker.ts';

/**
 * The analytics variable mapping (docs/spec-coverage.md D5) as one declarative table. Each value is a
 * `%data element%` token or a `D=` copy instruction; the types check both the variable names
 * against docs/spec-coverage.md §9's ranges (props 1–75, eVars 1–250, hierarchies 1–5, lists 1–3: `prop76`
 * does not compile) and the tokens against the container's data elements.
 */
import type { TrackerVarName } from '../../src/worker-engine/analytics/variables.ts';
import type { StorefrontElement } from './data-elements.ts';
import { LOGGED_IN_EVENT } from './derived.ts';

/** A data element token, or a `D=` copy of another parameter made by the collection server. */
export type VariableSource = `%${StorefrontElement}%` | `D=${string}`;
/** `satisfies VariableMapping` rejects any name outside the ranges, e.g. `prop76` or `list4`. */
export type VariableMapping = Partial<Record<TrackerVarName, VariableSource>>;

/**
 * Page views. `currencyCode` is not set: the tracker sends `cc=USD`, the storefront's currency
 * (docs/spec-coverage.md §9), on every hit.
 */
export const PAGE_VIEW_VARIABLES = {
  pageName: '%page name%',
  channel: '%line of business%',
  server: '%hostname%',
  hier1: '%hierarchy%',
  eVar1: '%login state%',
  eVar2: '%account number%',
  eVar3: '%SAP account id%',
  eVar4: '%customer combination key%',
  eVar5: '%community type%',
  eVar6: '%RML state%',
  eVar7: '%organization id%',
  eVar8: '%user identifier%',
  eVar9: '%client profile id%',
  eVar10: '%sales group%',
  eVar11: '%platform id%',
  eVar12: '%language%',
  eVar13: '%template%',
  eVar14: '%content title%',
  eVar15: '%previous page name%',
  eVar16: '%new/repeat%',
  eVar17: '%visit number%',
  eVar18: '%days since last visit%',
  eVar19: '%time since last visit%',
  eVar20: '%product SKU%',
  prop1: 'D=v1',
  prop2: 'D=pageName',
  list1: '%element impression ids%',
  list2: '%internal campaign impressions%',
  events: '%login event%',
} as const satisfies VariableMapping;

/** The modal view is a page view named after the modal (docs/spec-coverage.md D4). */
export const MODAL_VIEW_VARIABLES = {
  ...PAGE_VIEW_VARIABLES,
  pageName: '%modal page name%',
} as const satisfies VariableMapping;

/** What link beacons carry (docs/spec-coverage.md D5), besides the parameters AppMeasurement always sends. */
export const LINK_TRACK_VARS = ['pageName', 'eVar1', 'eVar4', 'list1', 'list2', 'events'] as const satisfies readonly (keyof typeof PAGE_VIEW_VARIABLES)[];
export const LINK_TRACK_EVENTS = [LOGGED_IN_EVENT] as const;

/** The variables of a link beacon: the page-view mapping cut to LINK_TRACK_VARS. */
export const LINK_VARIABLES: VariableMapping = Object.fromEntries(
  LINK_TRACK_VARS.map((name) => [name, PAGE_VIEW_VARIABLES[name]]),
);

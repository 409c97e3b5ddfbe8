/**
 * What the page-side `Visitor` facade (main-bridge/visitor-facade.ts) and the worker's visitor
 * service agree on, beside protocol.ts (types only) and protocol-keys.ts: VisitorAPI.js 5.5.0's
 * public surface (its version, `AuthState`, `OptOut`, `adobe.OptInCategories`), the org id check
 * and the texts both sides say. Both import this module; visitor/constants.ts re-exports it.
 */

export const VISITOR_VERSION = '5.5.0';

export const ORG_SUFFIX = '@AdobeOrg';

/** `Visitor.AuthState` (docs/spec-coverage.md §4): unknown 0, authenticated 1, logged out 2. */
export const AuthState = { UNKNOWN: 0, AUTHENTICATED: 1, LOGGED_OUT: 2 } as const;
/** `Visitor.OptOut`: the opt-out type that covers everything. */
export const OptOut = { GLOBAL: 'global' } as const;
/** `adobe.OptInCategories` (docs/spec-coverage.md §4). */
export const OptInCategories = {
  AAM: 'aam',
  ADCLOUD: 'adcloud',
  ANALYTICS: 'aa',
  CAMPAIGN: 'campaign',
  ECID: 'ecid',
  LIVEFYRE: 'livefyre',
  TARGET: 'target',
  MEDIA_ANALYTICS: 'mediaaa',
} as const;

/** The messages both sides say, with docs/spec-coverage.md §8's exact texts (the rest: visitor/constants.ts `MESSAGES`). */
export const FACADE_MESSAGES = {
  useGetInstance: 'Please use `Visitor.getInstance` to instantiate Visitor.',
  orgRequired: 'Visitor requires Adobe Marketing Cloud Org ID.',
  orgNotString: 'Org ID is not a string.',
} as const;

/** The org id check of the library and its Launch extension (docs/spec-coverage.md §5, §8): appends `@AdobeOrg` when it has no `@`. */
export function normalizeOrgId(org: unknown): string {
  if (!org) throw new Error(FACADE_MESSAGES.orgRequired);
  if (typeof org !== 'string') throw new Error(FACADE_MESSAGES.orgNotString);
  return org.includes('@') ? org : org + ORG_SUFFIX;
}

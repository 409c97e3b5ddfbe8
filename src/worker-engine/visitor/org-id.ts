/**
 * The org id check of the library and its Launch extension (docs/spec-coverage.md §5, §8). Shared by the worker's
 * service and the page-side facade, so both refuse an org id with the same words.
 */
import { MESSAGES, ORG_SUFFIX } from './constants.ts';

/** Validates the org id, appending `@AdobeOrg` when it has no `@`. */
export function normalizeOrgId(org: unknown): string {
  if (!org) throw new Error(MESSAGES.orgRequired);
  if (typeof org !== 'string') throw new Error(MESSAGES.orgNotString);
  return org.includes('@') ? org : org + ORG_SUFFIX;
}

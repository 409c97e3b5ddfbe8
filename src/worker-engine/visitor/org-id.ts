/**
 * The org id check of the library and its Launch extension (docs/spec-coverage.md §5, §8): shared with the
 * page-side facade through src/visitor-api.ts, so both refuse an org id with the same words.
 */
export { normalizeOrgId } from '../../visitor-api.ts';

/**
 * The numbers and texts of VisitorAPI.js 5.5.0 (docs/spec-coverage.md §8–§9; docs/visitor.md), each named once.
 * docs/visitor.md says where each one applies, and which cannot apply inside a worker.
 */
import { FACADE_MESSAGES } from '../../visitor-api.ts';

// The public surface the page-side facade shares (src/visitor-api.ts), under the names used here.
export { AuthState, OptInCategories, OptOut, ORG_SUFFIX, VISITOR_VERSION } from '../../visitor-api.ts';

/** `loadTimeout`: the /id request's own timeout (the library sets it on the XHR). */
export const LOAD_TIMEOUT_MS = 30000;
/**
 * How long a framed child page waits for its parent's answer before using a local MID.
 * Child-iframe mode needs `window.parent`; a worker has none, so nothing here waits on it.
 */
export const HANDSHAKE_TIMEOUT_MS = 250;

/**
 * Time units of the library (it counts them in seconds: hours 3600, days 86400, weeks 604800,
 * months 2592000, years 31536000), here in milliseconds.
 */
export const SECOND_MS = 1000;
export const HOUR_MS = 3600 * SECOND_MS;
export const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;
export const MONTH_MS = 30 * DAY_MS;
export const YEAR_MS = 365 * DAY_MS;

/** The ID call is due again when `MCIDTS` is more than this many days old. */
export const ID_CALL_INTERVAL_DAYS = 1;
/** `id_sync_ttl` when the reply has none: the lifetime of `MCAAMLH` and `MCAAMB`. */
export const DEFAULT_ID_SYNC_TTL_SECONDS = WEEK_MS / SECOND_MS;
/** `d_ottl` when the reply has none: the lifetime of `MCOPTOUT`. */
export const DEFAULT_OPT_OUT_TTL_SECONDS = 7200;
/** The AMCV cookie itself is rewritten to live this long on every change. */
export const AMCV_COOKIE_LIFETIME_SECONDS = (2 * YEAR_MS) / SECOND_MS;

/** The legacy hash-transport of ID syncs slows down after this long (no postMessage only). */
export const ID_SYNC_THROTTLE_START_MS = 30000;
/** `MCSYNCS` / `MCSYNCSOP` are cut to at most this many characters. */
export const MAX_SYNC_COOKIE_LENGTH = 649;
/** `minutesToLive` of `idSyncByURL` when none is given (two weeks). */
export const DEFAULT_ID_SYNC_BY_URL_TTL_MINUTES = 20160;

/** `sdidParamExpiry`: an `adobe_mc_sdid` URL parameter is accepted for this long. */
export const SDID_PARAM_EXPIRY_SECONDS = 30;
/** An `adobe_mc` URL parameter is accepted while this many whole minutes old or less. */
export const URL_IDS_MAX_AGE_MINUTES = 5;

/** Opt-in storage lifetime the Launch extension sets when storage is on and none is given: 13 × 30 days. */
export const OPT_IN_STORAGE_EXPIRY_SECONDS = (13 * 30 * DAY_MS) / SECOND_MS;
/** The opt-in cookie lifetime the library falls back to when no expiry is configured. */
export const OPT_IN_COOKIE_LIFETIME_FALLBACK_SECONDS = 34190000;
export const OPT_IN_COOKIE_NAME = 'adobeujs-optin';

export const DEFAULT_ID_SERVICE_HOST = 'dpm.demdex.net';
export const ID_SYNC_CONTAINER_ID = 0;
/** What every cookie written with the defaults carries as its first field (VisitorAPI.js 5.5.0: cookies). */
export const DEFAULT_AMCV_DIGEST = 179643557;

/** Messages, with docs/spec-coverage.md §8's exact texts. */
export const MESSAGES = {
  ...FACADE_MESSAGES,
  serverStateInvalid: '`serverState` has an invalid format.',
  invalidPreviousPermissions: 'Invalid `previousPermissions`!',
  invalidPreOptInApprovals: 'Invalid `preOptInApprovals`!',
  invalidCategories: '[OptIn] Invalid category(-ies). Please use the `OptIn.Categories` enum.',
  pathExcluded: 'MCID library not loaded. One of the path exclusions matches the current path.',
} as const;

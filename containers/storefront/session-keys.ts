/**
 * The sessionStorage keys the storefront container reads (docs/spec-coverage.md D2, D3). The bridge
 * snapshots exactly these; `{brand}` is the brand setting.
 */
export const BRAND_PLACEHOLDER = '{brand}';
/** The cached user profile, JSON `{ profile: { attributes, profileInfo } }`. */
export const USER_DATA_KEY = `${BRAND_PLACEHOLDER}UserData`;
/** The page name of the previous page view. */
export const PREVIOUS_PAGE_NAME_KEY = `${BRAND_PLACEHOLDER}PreviousPageName`;

export const SESSION_KEYS = [USER_DATA_KEY, PREVIOUS_PAGE_NAME_KEY];

/** A key of SESSION_KEYS for a brand. */
export const sessionKey = (key: string, brand: string): string => key.replace(BRAND_PLACEHOLDER, brand);

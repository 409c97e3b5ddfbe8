/**
 * The sessionStorage keys the storefront container reads (DECISIONS.md §2, §3). The bridge
 * snapshots exactly these; `{brand}` is the brand setting.
 */
export const SESSION_KEYS = ['{brand}UserData', '{brand}PreviousPageName'];

/** The page facts the visitor service reads from URLs: its path (for the path exclusions) and its host. */

/** Whether a path exclusion applies to `pathname` (equal, or a case-insensitive regex match). */
export function isPathExcluded(pathname: string, exclusions: readonly string[]): boolean {
  return exclusions.some((p) => {
    if (p === pathname) return true;
    try {
      return new RegExp(p, 'i').test(pathname);
    } catch {
      return false;
    }
  });
}

/** The path of a URL, `/` when it has none; any string is accepted. */
export function pathnameOf(url: string): string {
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)/i.exec(url);
  return (m?.[1] || '/') as string;
}

export function hostnameOf(url: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]*)/i.exec(url)?.[1] ?? '';
}

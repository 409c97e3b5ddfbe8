/**
 * Writes that leave the page as it is do not travel (docs/runtime.md, "Only what changes the page
 * reaches it"): a cookie or sessionStorage write equal to what the page's latest snapshot shows
 * and to what this worker last wrote is skipped. Cookie writes travel as their `document.cookie`
 * string, built here.
 */
import type { CookieWrite, Effect, Snapshot } from '../../protocol.ts';
import { cookieString, parseCookieString } from '../core/cookies.ts';

/** An effect as the bridge applies it: cookie writes become their `document.cookie` string (the bridge has no `cookie` case). */
export const forPage = (e: Effect): Effect => (e.type === 'cookie' ? { type: 'cookie-string', cookie: cookieString(e) } : e);

export type StorageWrite = Extract<Effect, { type: 'storage' }>;

export interface PageWrites {
  /** The page's latest snapshot: the cookies and session keys it had then. */
  saw(snapshot: Snapshot): void;
  /**
   * The write as the page applies it, with its key (a later write of the same key replaces it:
   * `holdEffects`); undefined when it would leave the page as it is.
   */
  toPage(e: CookieWrite | StorageWrite): { effect: Effect; key: string } | undefined;
}

export function createPageWrites(): PageWrites {
  let latest: Snapshot | undefined;
  let latestCookies: Record<string, string> | undefined;
  const cookiesWritten = new Map<string, string>();
  const sessionWritten = new Map<string, string | null>();
  const unchanged = (e: CookieWrite | StorageWrite): boolean => {
    if (e.type === 'storage') {
      return latest?.session[e.key] === e.value && (!sessionWritten.has(e.key) || sessionWritten.get(e.key) === e.value);
    }
    const text = cookieString(e);
    latestCookies ??= parseCookieString(latest?.cookie ?? '');
    const leaves = e.expires !== undefined && e.expires <= Date.now() ? undefined : e.value;
    return cookiesWritten.get(e.name) === text && latestCookies[e.name] === leaves;
  };
  return {
    saw(snapshot) {
      latest = snapshot;
      latestCookies = undefined;
    },
    toPage(e) {
      if (unchanged(e)) return undefined;
      if (e.type === 'storage') {
        sessionWritten.set(e.key, e.value);
        return { effect: e, key: 's' + e.key };
      }
      const page = forPage(e) as { type: 'cookie-string'; cookie: string };
      cookiesWritten.set(e.name, page.cookie);
      return { effect: page, key: `c${e.name};${e.domain ?? ''};${e.path ?? '/'}` };
    },
  };
}

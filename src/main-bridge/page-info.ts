/** Facts read once per page, and the cookie-domain probe of the visitor library (VisitorAPI.js 5.5.0: cookies). */
import type { PageFacts } from '../protocol.ts';

const PROBE = 'TEST_AMCV_COOKIE_WRITE';

/** localStorage key of the cookie domain the probe found for this origin (docs/runtime.md, "Start-up"). */
export const COOKIE_DOMAIN_KEY = 'offtag:cd';

/** The shortest host suffix (two labels up) that accepts a cookie; '' for host-only (IPs, localhost). */
export function probeCookieDomain(host: string): string {
  if (/^[\d.]+$|^\[|^localhost$/.test(host)) return '';
  const labels = host.split('.');
  for (let i = labels.length - 2; i > 0; i--) {
    const domain = '.' + labels.slice(i).join('.');
    document.cookie = `${PROBE}=cookie; path=/; domain=${domain}`;
    if (document.cookie.includes(`${PROBE}=cookie`)) {
      document.cookie = `${PROBE}=; path=/; domain=${domain}; max-age=0`;
      return domain;
    }
  }
  return '';
}

/**
 * What only the page can tell; the worker adds the rest (see `completePageInfo`). offtag.js passes
 * the cookie domain it cached (or had offtag-effects.js probe); `readPageInfo` probes now.
 */
export const pageFacts = (cookieDomain: string): PageFacts => ({
  screen: { width: screen.width, height: screen.height, colorDepth: screen.colorDepth },
  cookieDomain,
  origin: location.origin,
  cookiesEnabled: navigator.cookieEnabled,
});

export const readPageInfo = (): PageFacts => pageFacts(probeCookieDomain(location.hostname));

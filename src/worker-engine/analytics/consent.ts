/**
 * The analytics extension's EU-compliance gate (docs/spec-coverage.md §6, docs/spec-coverage.md D7): the tracking cookie
 * must read exactly `true` at the moment of each event; otherwise no tracker exists for that
 * event, the message below is logged, and nothing is kept to send later.
 */
import type { EngineContext } from '../core/types.ts';

export const EU_COMPLIANCE_MESSAGE = 'EU compliance was not acknowledged by the user.';
export const TRACKING_CONSENT_VALUE = 'true';

/** Said once per page, after the first consent drop: the cookie and the value that grant consent. */
export const consentHint = (cookie: string): string =>
  `Analytics tracking waits for the consent cookie ${cookie}=${TRACKING_CONSENT_VALUE} (named by offtagConfig.trackingConsentCookie), which the site's consent manager sets; until then no analytics beacon is sent or kept.`;

/** A function that logs `consentHint` the first time it is called (one per engine, so once per page). */
export function consentHinter(ctx: Pick<EngineContext, 'settings' | 'log'>): () => void {
  let said = false;
  return () => {
    if (said) return;
    said = true;
    ctx.log('info', consentHint(ctx.settings.trackingConsentCookie));
  };
}

/** Whether this event may be tracked. An empty cookie name turns the gate off, as in the extension. */
export function trackingConsented(ctx: Pick<EngineContext, 'settings' | 'cookies'>): boolean {
  const name = ctx.settings.trackingConsentCookie;
  if (!name) return true;
  return ctx.cookies.get(name) === TRACKING_CONSENT_VALUE;
}

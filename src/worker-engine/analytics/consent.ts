/**
 * The analytics extension's EU-compliance gate (docs/spec-coverage.md §6, docs/spec-coverage.md D7): the tracking cookie
 * must read exactly `true` (or one of the `trackingConsentValues` setting) at the moment of each event; otherwise no tracker exists for that
 * event, the message below is logged, and nothing is kept to send later.
 */
import type { EngineContext } from '../core/types.ts';

export const EU_COMPLIANCE_MESSAGE = 'EU compliance was not acknowledged by the user.';
export const TRACKING_CONSENT_VALUE = 'true';

/** Said once per page, after the first consent drop: the cookie and the value that grant consent. */
export const consentHint = (cookie: string, values: readonly string[] = [TRACKING_CONSENT_VALUE]): string =>
  `Analytics tracking waits for the consent cookie ${values.map((v) => `${cookie}=${v}`).join(' or ')} (named by offtagConfig.trackingConsentCookie), which the site's consent manager sets; until then no analytics beacon is sent or kept.`;

/** A function that logs `consentHint` the first time it is called (one per engine, so once per page). */
export function consentHinter(ctx: Pick<EngineContext, 'settings' | 'log'>): () => void {
  let said = false;
  return () => {
    if (said) return;
    said = true;
    ctx.log('info', consentHint(ctx.settings.trackingConsentCookie, consentValues(ctx.settings)));
  };
}

/** Whether this event may be tracked. An empty cookie name turns the gate off, as in the extension. */
export function trackingConsented(ctx: Pick<EngineContext, 'settings' | 'cookies'>): boolean {
  const name = ctx.settings.trackingConsentCookie;
  if (!name) return true;
  const value = ctx.cookies.get(name);
  return value !== undefined && consentValues(ctx.settings).includes(value);
}

/** The cookie values that grant tracking: the setting's (`['true']` unless a container or page says otherwise). */
const consentValues = (s: Pick<EngineContext['settings'], 'trackingConsentValues'>): readonly string[] =>
  Array.isArray(s.trackingConsentValues) ? s.trackingConsentValues : [TRACKING_CONSENT_VALUE];

/**
 * The analytics extension's EU-compliance gate (SPEC.md §6, DECISIONS.md §7): the tracking cookie
 * must read exactly `true` at the moment of each event; otherwise no tracker exists for that
 * event, the message below is logged, and nothing is kept to send later.
 */
import type { EngineContext } from '../core/types.ts';

export const EU_COMPLIANCE_MESSAGE = 'EU compliance was not acknowledged by the user.';
export const TRACKING_CONSENT_VALUE = 'true';

/** Whether this event may be tracked. An empty cookie name turns the gate off, as in the extension. */
export function trackingConsented(ctx: Pick<EngineContext, 'settings' | 'cookies'>): boolean {
  const name = ctx.settings.trackingConsentCookie;
  if (!name) return true;
  return ctx.cookies.get(name) === TRACKING_CONSENT_VALUE;
}

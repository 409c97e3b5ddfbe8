/**
 * The tracker's fixed configuration (what the Launch Analytics extension sets on AppMeasurement)
 * and the tracker itself: its report suite and the origin beacons go to, made from the settings.
 */
import { reportSuiteFor, type Settings } from '../core/settings.ts';
import { tagContainerMarker, trackingOrigin } from './beacon-url.ts';

export const CHARACTER_SET = 'UTF-8';
/** Above this length a beacon with an id goes as a POST (AppMeasurement 2.27.0: transport). */
export const MAX_GET_LENGTH = 2047;
/** The consumer name AppMeasurement asks the visitor service for the supplemental data id with. */
export const SDID_CONSUMER = 'AppMeasurement:0';
/**
 * AppMeasurement's `expectSupplementalData`: when set, the tracker makes a supplemental data id
 * itself and the hit waits on Adobe's side for Target's data (A4T). The Launch property does not set
 * it (no Target runs beside it), so the tracker only takes an id that already exists.
 */
export const EXPECT_SUPPLEMENTAL_DATA = false;
/** The session cookie whose presence AppMeasurement reports as `k`. */
export const COOKIE_CHECK = 's_cc';
export const TRACKER_UNAVAILABLE = 'Unable to create AppMeasurement tracker';
/** As the Launch extension sets it on the tracker (`JS-2.27.0-LF8J`). */
export const MARKER = tagContainerMarker();

export interface Tracker {
  rsid: string;
  origin: string;
}

/** The tracker the settings describe, or the message saying why there is none. */
export function resolveTracker(settings: Settings, pageSecure: boolean): Tracker | string {
  // AppMeasurement's trackingServerSecure, on a secure page (an imported Launch container's setting, when its library has one).
  const secure = (settings as Settings & { trackingServerSecure?: unknown }).trackingServerSecure;
  if (pageSecure && typeof secure === 'string' && secure) settings = { ...settings, trackingServer: secure };
  const rsid = reportSuiteFor(settings);
  if (!rsid || !/^[A-Za-z0-9._-]+(,[A-Za-z0-9._-]+)*$/.test(rsid)) {
    return `${TRACKER_UNAVAILABLE}: no valid report suite for the "${settings.environment}" environment (${JSON.stringify(rsid)}).`;
  }
  try {
    const origin = trackingOrigin(settings.trackingServer, pageSecure);
    if (!settings.trackingServer || new URL(origin).origin !== origin) throw new Error('not an origin');
    return { rsid, origin };
  } catch {
    return `${TRACKER_UNAVAILABLE}: the tracking server ${JSON.stringify(settings.trackingServer)} is neither a host nor an origin.`;
  }
}

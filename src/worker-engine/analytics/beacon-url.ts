/**
 * Where a beacon goes (AppMeasurement 2.27.0: beacon URL and parameters):
 * `<origin>/b/ss/<rsid>/<1 or 10>/JS-2.27.0[-<marker>]/s<random>`.
 */
import type { EngineEnv } from '../core/types.ts';
import { originFor } from '../core/settings.ts';

/** The AppMeasurement release whose wire format Offtag reproduces. */
export const APPMEASUREMENT_VERSION = '2.27.0';
/** `P` of the path: 1, or 10 with postbacks (Audience Manager forwarding, `usePostbacks`). */
export const BEACON_PATH_MODE = '1';
export const POSTBACKS_PATH_MODE = '10';
/** Written by `offtag build` into every bundle (tools/build/build.ts): the library's build info. */
declare const __OFFTAG_BUILD_INFO__: { buildDate: string } | undefined;
/**
 * The container build date: the library's, as `_satellite.buildInfo` reports it; run from source
 * (the Node replay), docs/spec-coverage.md §9's date, which the replay goldens carry. The Launch analytics
 * extension derives the tracker's `tagContainerMarker` from it.
 */
export const CONTAINER_BUILD_DATE = typeof __OFFTAG_BUILD_INFO__ == 'object' ? __OFFTAG_BUILD_INFO__.buildDate : '2025-08-19T00:00:00Z';

/**
 * Launch's version marker: `L`, then base 36 of (year − 2010), the last base-36 digit of
 * (month 1–12 + 12 × the UTC third of the day), and base 36 of the day of the month, upper-cased.
 * For 2025-08-19 00:00 UTC it is `LF8J`, so beacons read `JS-2.27.0-LF8J`.
 */
export function tagContainerMarker(buildDate: string = CONTAINER_BUILD_DATE): string {
  const d = new Date(buildDate);
  if (Number.isNaN(d.getTime())) throw new Error(`Invalid container build date: ${buildDate}`);
  const year = (d.getUTCFullYear() - 2010).toString(36);
  const month = (d.getUTCMonth() + 1 + 12 * Math.floor(d.getUTCHours() / 8)).toString(36).slice(-1);
  const day = d.getUTCDate().toString(36);
  return `L${year}${month}${day}`.toUpperCase();
}

/** The random part of the path changes epoch every three hours (`floor(ms/10800000) % 10`). */
const SID_EPOCH_MS = 10_800_000;
const SID_RANDOM_SPAN = 1e13;

/** `s` + one digit of the 3-hour epoch + a random integer below 1e13, unpadded. */
export function sessionRandom(env: Pick<EngineEnv, 'now' | 'random'>): string {
  return `s${Math.floor(env.now() / SID_EPOCH_MS) % 10}${Math.floor(env.random() * SID_RANDOM_SPAN)}`;
}

/**
 * The tracking server's origin (docs/spec-coverage.md D1): a bare host follows the page's scheme, a full
 * origin (`http://127.0.0.1:4175`) is used as it is.
 */
export function trackingOrigin(trackingServer: string, pageSecure: boolean): string {
  return originFor(trackingServer, pageSecure ? 'https:' : 'http:');
}

export interface BeaconPathInput {
  origin: string;
  rsid: string;
  /** `tagContainerMarker`: appended as `-<marker>` when set. */
  marker?: string;
  sid: string;
  /** The hit asks for the collector's JSONP answer (AppMeasurement's postbacks). */
  postbacks?: boolean;
}

export function beaconPath({ origin, rsid, marker, sid, postbacks }: BeaconPathInput): string {
  const version = `JS-${APPMEASUREMENT_VERSION}${marker ? `-${marker}` : ''}`;
  return `${origin}/b/ss/${rsid}/${postbacks ? POSTBACKS_PATH_MODE : BEACON_PATH_MODE}/${version}/${sid}`;
}

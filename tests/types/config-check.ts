/**
 * Type-checked by tests/unit/docs/configuration.test.ts with `tsc -p tests/types` (apart from the
 * main program, whose bridge declares the same window globals loosely): offtag.d.ts as a site
 * would use it, and OfftagConfig against the engine's Settings, both ways, key by key.
 */
import type { OfftagConfig } from '../../offtag.d.ts';
import type { Settings as EngineSettings } from '../../src/worker-engine/core/settings.ts';
import type { StorefrontSettings } from '../../containers/storefront/settings.ts';

/** offtag.d.ts types the storefront's page: the engine's settings and the storefront's own. */
type Settings = EngineSettings & StorefrontSettings;

type Deep<T> = { [K in keyof T]-?: Deep1<NonNullable<T[K]>> };
type Deep1<V> = V extends readonly unknown[] ? V : V extends object ? Deep<V> : V;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export const configMatchesSettings: Same<Deep<OfftagConfig>, Deep<Settings>> = true;

// A page's code, typed by offtag.d.ts alone.
window.offtagConfig = { environment: 'development', trackingServer: 'http://127.0.0.1:4175', rum: { applicationId: 'x' } };
window._satellite.track('Page View');
_satellite.track('Page View');
const value: unknown = window._satellite.getVar('page name');
void value;
const ms: number | undefined = window.offtag?.metrics().postMs;
void ms;

/**
 * The settings the bridge needs before the worker answers (`brand`, `dataLayer`, `environment`,
 * `workerUrl`), with the one rule both sides apply: a non-empty string (for
 * `environment`, one of the three stages), else the default. The worker's settings check uses
 * this same function, so a value the bridge falls back on is reported there, never read
 * differently on the two sides. A `window.offtagConfig` whose getters throw gives the defaults.
 * The defaults are the container's, written in by the build.
 */
declare const __OFFTAG_PAGE_DEFAULTS__: { brand: string; dataLayer: string; environment: string; workerUrl: string } | undefined;

export const PAGE_SETTINGS: { brand: string; dataLayer: string; environment: string; workerUrl: string } =
  // The build writes the container's defaults here (tools/build.mjs `define`); from source, the engine's.
  typeof __OFFTAG_PAGE_DEFAULTS__ == 'object' ? __OFFTAG_PAGE_DEFAULTS__ : { brand: '', dataLayer: 'digitalData', environment: 'production', workerUrl: '' };

export type PageSettingKey = keyof typeof PAGE_SETTINGS;

export function pageSetting(config: unknown, key: PageSettingKey): string {
  try {
    // `?.`: no offtagConfig throws nothing (a page's first exception costs start-up ~1 ms).
    const v = (config as Record<string, unknown> | undefined)?.[key];
    if (typeof v == 'string' && (v || key == 'workerUrl') && (key != 'environment' || /^(development|staging|production)$/.test(v))) return v;
  } catch {
    /* no config, or a throwing getter: the default */
  }
  return PAGE_SETTINGS[key];
}

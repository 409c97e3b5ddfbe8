/**
 * The page's side of Offtag, as a storefront's own code uses it: `window._satellite.track` after
 * the data layer is set, `window.offtag.metrics()`, and the local servers' URLs that
 * `/offtag-config.js` (served by `offtag serve`) puts in `window.offtagServers`.
 */

/** The direct calls the storefront container listens to (docs/spec-coverage.md §4). */
export type DirectCall = 'Page View' | 'Content: Modal View' | 'Element Impressions' | 'Element Interactions';

interface Satellite {
  track(id: string, detail?: unknown): void;
}
interface OfftagGlobal {
  metrics(): Record<string, number>;
  base: string;
  /** Reopens the devtools overlay once offtag-devtools.js has loaded. */
  openDevtools?: (dock?: 'left' | 'right') => void;
}
export interface LocalServers {
  collectorUrl: string;
  idServiceUrl: string;
  rumUrl: string;
  scriptUrl: string;
}
type Page = typeof window & {
  _satellite?: Satellite;
  offtag?: OfftagGlobal;
  offtagServers?: LocalServers;
  digitalData?: unknown;
};
const page = window as Page;

export const servers = (): LocalServers | undefined => page.offtagServers;
export const offtag = (): OfftagGlobal | undefined => page.offtag;

/** Events asked for before offtag.js has run, each with the data layer it was fired with. */
const waiting: Array<[DirectCall, unknown]> = [];

/**
 * Sets the data layer, then fires the direct call: the container reads `window.digitalData` at the
 * moment of `track`, so each event carries the data layer it was fired with. Before offtag.js has
 * run (it is `async`), the call waits with its own data layer and goes out, in order, when it has.
 */
export function track(event: DirectCall, dataLayer: unknown): void {
  page.digitalData = dataLayer;
  if (page._satellite) page._satellite.track(event);
  else waiting.push([event, dataLayer]);
  // For the collector panel: look again soon.
  dispatchEvent(new Event('demo:tracked'));
}

function flush(): void {
  const s = page._satellite;
  if (!s || !waiting.length) return;
  const latest = page.digitalData;
  for (const [event, dataLayer] of waiting.splice(0)) {
    page.digitalData = dataLayer;
    s.track(event);
  }
  page.digitalData = latest;
}
// `_satellite` is there once offtag.js has run, which its script tag's `load` event says (index.html).
document.getElementById('offtag-tag')?.addEventListener('load', flush);

/** Loads the devtools overlay from beside offtag.js (it is loaded only on demand). */
export function openDevtools(): void {
  const o = offtag();
  if (!o) return;
  // Loaded once; after that the overlay reopens. Docked on the left, away from the collector panel.
  if (document.getElementById('offtag-devtools-script')) return o.openDevtools?.('left');
  const s = document.createElement('script');
  s.id = 'offtag-devtools-script';
  s.dataset.dock = 'left';
  s.src = o.base + 'offtag-devtools.js';
  document.head.append(s);
}

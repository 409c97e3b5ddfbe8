/**
 * The bench's world: variant bundles (Vite `build()` into bench/.build/), the local servers on
 * port 0 (collector, ID service, a static server that also writes the bench pages) and the
 * browser.
 */
import { build } from 'vite';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { gzipSize } from '../../tools/build/gzip-size.ts';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser } from 'playwright';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../chromium.ts';
import { startCollector, type Collector } from '../../tools/collector/server.ts';
import { startIdService, type IdService } from '../../tools/id-service/server.ts';
import { serveStatic } from '../../tools/static.ts';
import { buildConstants } from '../../tools/build/build.ts';
import { storefront } from '../../containers/storefront/container.ts';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BUILD = `${ROOT}bench/.build`;
export const DIST = `${ROOT}dist`;

export type Variant = 'offtag' | 'main-thread' | 'turbine' | 'alloy' | 'legacy';

/**
 * Adobe's AppMeasurement repository (github.com/adobe/appmeasurement: AppMeasurement.js 2.27.0 and
 * VisitorAPI.js 5.5.0), a clone named by OFFTAG_APPMEASUREMENT_REPO, bare or not: the legacy
 * variant runs them, read from there when the bench runs (never copied into this repository).
 * Without it the bench has no legacy variant, and the turbine variant, whose beacons are Offtag's
 * own code, stands in for the legacy stack (the results say which one each figure used).
 */
export const LEGACY_REPO = process.env.OFFTAG_APPMEASUREMENT_REPO;
function legacyFile(name: string): string | undefined {
  if (!LEGACY_REPO) return undefined;
  try {
    return execFileSync('git', ['-C', LEGACY_REPO, 'show', `HEAD:dist/${name}`], { encoding: 'utf8', maxBuffer: 1 << 24 });
  } catch {
    return undefined;
  }
}
/** The two libraries, when the repository is there: `/legacy/<name>` on the bench server. */
export const LEGACY_FILES: Record<string, string> | undefined = (() => {
  const am = legacyFile('AppMeasurement.js');
  const v = legacyFile('VisitorAPI.js');
  return am && v ? { 'VisitorAPI.js': v, 'AppMeasurement.js': am } : undefined;
})();
/** The variant the "× legacy" figures and goals compare with: the real libraries when present, else turbine (Offtag's beacon code on turbine). */
export const LEGACY: Variant = LEGACY_FILES ? 'legacy' : 'turbine';

export const VARIANTS: Variant[] = ['offtag', 'main-thread', 'turbine', 'alloy', ...(LEGACY_FILES ? (['legacy'] as const) : [])];
export const VARIANT_LABEL: Record<Variant | 'none', string> = {
  offtag: 'Offtag (worker)',
  'main-thread': 'Same engine, main thread',
  turbine: 'Adobe Tags runtime (turbine)',
  alloy: 'Adobe Web SDK (alloy)',
  legacy: 'Legacy: turbine + AppMeasurement 2.27 + VisitorAPI 5.5',
  none: 'No tag (baseline)',
};
/** The script each variant puts on the main thread (URL path on the bench server); the legacy variant's two libraries come before it. */
export const SCRIPT: Record<Variant, string> = {
  offtag: '/dist/offtag.js',
  'main-thread': '/build/main-thread.js',
  turbine: '/build/turbine.js',
  alloy: '/build/alloy.js',
  legacy: '/build/legacy.js',
};
const LEGACY_SCRIPTS = '<script src="/legacy/VisitorAPI.js"></script><script src="/legacy/AppMeasurement.js"></script>';

export const CONTAINER_SIZES = [
  { dataElements: 10, rules: 4 },
  { dataElements: 100, rules: 40 },
  { dataElements: 1000, rules: 400 },
];

/** The constants `offtag build` writes into a bundle (tools/build/build.ts), for the storefront's production build. */
const BUILD_CONSTANTS = buildConstants(storefront as never, 'production', new Date().toISOString());

const bundle = (entry: string, fileName: string, define: Record<string, string> = {}) =>
  build({
    root: ROOT,
    configFile: false,
    logLevel: 'error',
    define: { ...BUILD_CONSTANTS, ...define },
    build: {
      outDir: BUILD,
      emptyOutDir: false,
      target: 'es2020',
      minify: true,
      sourcemap: false,
      copyPublicDir: false,
      lib: { entry: `${ROOT}${entry}`, formats: ['iife'], name: 'benchVariant', fileName: () => fileName },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });

/** Builds the variant bundles and one grown offtag worker per container size. */
export async function buildVariants(sizes = CONTAINER_SIZES): Promise<void> {
  if (!existsSync(`${DIST}/offtag.js`) || !existsSync(`${DIST}/offtag-worker.js`)) {
    throw new Error('dist/offtag.js is missing: run "node tools/build.mjs" (npm run bench does) first.');
  }
  await mkdir(BUILD, { recursive: true });
  await bundle('bench/variants/main-thread.ts', 'main-thread.js');
  await bundle('bench/variants/turbine.ts', 'turbine.js');
  await bundle('bench/variants/alloy.ts', 'alloy.js');
  if (LEGACY_FILES) await bundle('bench/variants/legacy.ts', 'legacy.js');
  await bundle('bench/variants/react-app.ts', 'react-app.js');
  await writeFloorFiles();
  // The grown workers' folder gets the origin's sender too (offtag.js starts it beside the worker file).
  await copyFile(`${DIST}/offtag-sender.js`, `${BUILD}/offtag-sender.js`);
  for (const s of sizes) {
    await bundle('bench/variants/offtag-worker-synthetic.ts', workerFile(s), {
      __BENCH_DE__: String(s.dataElements),
      __BENCH_RULES__: String(s.rules),
    });
  }
}
export const workerFile = (s: { dataElements: number; rules: number }) => `offtag-worker-${s.dataElements}de-${s.rules}r.js`;

export async function sizeOf(path: string): Promise<{ raw: number; gzip: number }> {
  const b = await readFile(path);
  return { raw: b.length, gzip: gzipSize(path) };
}

/** The storefront's data layer, complete (no "not set" messages), padded to about `bytes` of JSON. */
export function dataLayer(bytes = 0): Record<string, unknown> {
  const dl: Record<string, unknown> = {
    page: {
      pageInfo: { pageType: 'Product Detail', pageUID: 'product 4KM91', contentTitle: 'Safety Glasses, Clear Lens', language: 'en', template: 'pdp' },
      category: { lineOfBusiness: 'industrial', level: '3', leafCategoryId: 'N-8y2', leafCategoryName: 'Safety Glasses' },
      element: [{ impression: { id: 'hero-banner' }, click: { id: 'add-to-cart' } }, { impression: { id: 'recs-carousel' } }],
    },
    modal: { page: { pageInfo: { pageType: 'Quick View', pageUID: 'qv 4KM91' } } },
    internalCampaign: [{ impression: { id: 'spring-sale' } }],
    product: [{ productInfo: { sku: '4KM91' } }],
    cart: { freightForwarder: 'none' },
    user: { profile: { attributes: { loginState: 'Full Logged In', accountNumber: '0812345' }, profileInfo: { profileID: '1000042' } } },
  };
  const base = JSON.stringify(dl).length;
  if (bytes > base) {
    const items: unknown[] = [];
    let size = base + 20;
    for (let i = 0; size < bytes; i++) {
      const item = { sku: `SKU-${i}`, name: `Product number ${i}`, price: i * 1.25, tags: ['a', 'b'], seen: i % 2 === 0 };
      size += JSON.stringify(item).length + 1;
      items.push(item);
    }
    dl.listing = items;
  }
  return dl;
}

export interface PageOptions {
  variant: Variant | 'none';
  dataLayerBytes?: number;
  synthetic?: { dataElements: number; rules: number };
  /** The INP page: a small React app (bench/variants/react-app.ts) after the variant's script. */
  react?: boolean;
  /** A product page: it fires one Page View right after the tag, as the storefront's pages do (the load figures, bench/load/load.ts). */
  pageView?: boolean;
  /** Appended to the page's body (the load figures' own end-of-load signal). */
  tail?: string;
  /** Run before the tag, after the page's set-up lines (the load account's ablations, bench/load/load.ts). */
  head?: string;
  /** Merged into `offtagConfig`. */
  config?: Record<string, unknown>;
  /** With `variant: 'none'`: a load floor's script instead of a tag (`FLOORS`, bench/load/load.ts). */
  floor?: Floor;
  /** Another build's offtag.js (its worker, sender and chunks beside it): builds side by side (`--dists`, bench/load/load.ts). */
  script?: string;
}

/**
 * The load floors (docs/bench.md, "Page load"): what any tag that moves its work to a worker
 * pays at least. Each is a script file of offtag.js's size that does nothing (offtag.js's own
 * bytes inside `if (0) { … }`: parsed, never run), then, cumulatively, `new Worker` of an empty
 * file, and one 2 KB `postMessage` to it (floor (d), the one the load goals are against).
 */
export type Floor = 'script' | 'worker' | 'post';
export const FLOOR_LABEL: Record<Floor, string> = {
  script: 'floor (b): a 3 KB script that does nothing',
  worker: 'floor (c): (b) + `new Worker` of an empty file',
  post: 'floor (d): (c) + one 2 KB `postMessage`',
};

/** Writes the floors' files into bench/.build/ (`floor-<floor>.js`, the workers' `floor-empty.js` and `floor-receive.js`). */
export async function writeFloorFiles(): Promise<void> {
  await mkdir(BUILD, { recursive: true });
  const noop = `if (0) {\n${await readFile(`${DIST}/offtag.js`, 'utf8')}\n}\n`;
  const message = JSON.stringify(JSON.stringify(dataLayer(2048)));
  await writeFile(`${BUILD}/floor-empty.js`, '');
  await writeFile(`${BUILD}/floor-receive.js`, 'onmessage = function () {};\n');
  await writeFile(`${BUILD}/floor-script.js`, noop);
  await writeFile(`${BUILD}/floor-worker.js`, `${noop}new Worker('/build/floor-empty.js');\n`);
  await writeFile(`${BUILD}/floor-post.js`, `${noop}new Worker('/build/floor-receive.js').postMessage(JSON.parse(${message}));\n`);
}

export interface World {
  base: string;
  /**
   * Chromium's arguments for every browser of the bench (Playwright's and the ones started by
   * hand): `*.demdex.net` resolves to the bench's ID service, so the ID-sync iframe is on another
   * site than the page, as on a real site (desktop Chromium runs its document in a process of its
   * own), for Offtag and the legacy libraries alike (`ID_SYNC_ORIGIN`).
   */
  chromiumArgs: string[];
  collector: Collector;
  idService: IdService;
  browser: Browser;
  /** Alloy's requests answered so far, with their arrival times (epoch ms). */
  edgeHits: number[];
  pageUrl(o: PageOptions): string;
  close(): Promise<void>;
}

/**
 * The ID-sync iframe's origin on the bench pages: VisitorAPI.js's own (`http://fast.<subdomain>.demdex.net`
 * with `loadSSL` off, the ID service's subdomain `dpm`), which `World.chromiumArgs` maps to the ID service.
 */
export const ID_SYNC_ORIGIN = 'http://fast.dpm.demdex.net';

/** The lines every bench page runs before its tag: consent cookies, the container's config, the data layer. */
export function pageSetup(collector: string, id: string, dataLayerBytes?: number, extra: Record<string, unknown> = {}): string {
  const config = { trackingServer: collector, idServiceHost: id, idSyncOrigin: ID_SYNC_ORIGIN, ...extra };
  return `document.cookie = 'sat_track=true; path=/';
document.cookie = 'OptanonConsent=groups%3DC0001%3A1%2CC0007%3A1; path=/';
window.offtagConfig = ${JSON.stringify(config)};
window.digitalData = ${JSON.stringify(dataLayer(dataLayerBytes))};`;
}

/**
 * A SharedWorker (run from a blob) that makes the GETs it is sent, `window` at a time, in order
 * of starting, with credentials and `keepalive` as a beacon and each answer's body cancelled (as Offtag's sender), and answers with the ms it took: the
 * no-engine ceilings of bench:burst and bench:request-cpu.
 */
export const CEILING_WORKER = `onconnect = (c) => { const port = c.ports[0]; port.onmessage = async ({ data: { urls, window } }) => {
  const t0 = performance.now(); let next = 0;
  const lane = async () => { while (next < urls.length) { const u = urls[next++]; (await fetch(u, { credentials: 'include', keepalive: true })).body?.cancel(); } };
  await Promise.all(Array.from({ length: window }, lane));
  port.postMessage(performance.now() - t0);
}; };`;

function pageHtml(o: PageOptions, collector: string, id: string): string {
  const script = o.floor
    ? `<script src="/build/floor-${o.floor}.js"></script>`
    : o.variant === 'none'
      ? ''
      : `${o.variant === 'legacy' ? LEGACY_SCRIPTS : ''}<script src="${o.script ?? SCRIPT[o.variant]}"></script>${o.pageView ? `<script>_satellite.track('Page View')</script>` : ''}`;
  const worker = { ...(o.variant === 'offtag' && o.synthetic ? { workerUrl: `/build/${workerFile(o.synthetic)}` } : {}), ...o.config };
  return `<!doctype html><html><head><meta charset="utf-8"><title>bench ${o.variant}</title>
<script>
${pageSetup(collector, id, o.dataLayerBytes, worker)}
${o.synthetic && o.variant !== 'offtag' ? `window.benchSynthetic = ${JSON.stringify(o.synthetic)};` : ''}
${o.head ?? ''}
</script>
${script}
</head><body><h1>Bench page: ${o.variant}</h1><p>Storefront events are fired by the bench.</p>${o.react ? '<div id="root"></div><script src="/build/react-app.js"></script>' : ''}${o.tail ?? ''}</body></html>`;
}

export async function startWorld(): Promise<World> {
  const collector = await startCollector({ port: 0, quiet: true });
  const idService = await startIdService({ port: 0 });
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    try {
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
    if (url.pathname === '/page') {
      const o = JSON.parse(url.searchParams.get('o') ?? '{}') as PageOptions;
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      return res.end(pageHtml(o, collector.url, idService.url));
    }
    if (url.pathname === '/blank') {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      return res.end('<!doctype html><title>blank</title>');
    }
    const legacy = url.pathname.startsWith('/legacy/') ? LEGACY_FILES?.[url.pathname.slice(8)] : undefined;
    if (legacy) {
      res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' });
      return res.end(legacy);
    }
    if (await serveStatic(req, res, `${DIST}/`, '/dist/')) return;
    if (await serveStatic(req, res, `${BUILD}/`, '/build/')) return;
    res.writeHead(404).end('not found');
    } catch (e) {
      res.writeHead(400).end(String(e));
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const chromiumArgs = [`--host-resolver-rules=MAP *.demdex.net ${new URL(idService.url).host}`];
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...chromiumArgs], headless: true });
  return {
    base,
    chromiumArgs,
    collector,
    idService,
    browser,
    edgeHits: [],
    pageUrl: (o) => `${base}/page?o=${encodeURIComponent(JSON.stringify(o))}`,
    async close() {
      await browser.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await collector.close();
      await idService.close();
    },
  };
}

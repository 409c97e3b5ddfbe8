/**
 * `npm start` / `offtag serve`: the demo storefront page and the local servers the container
 * talks to, all on loopback:
 *   page        http://127.0.0.1:4173   demo page, test pages (/test/), dist/ same-origin (/dist/)
 *   script host http://127.0.0.1:4174   dist/ from another origin, as a CDN would serve offtag.js
 *   collector   http://127.0.0.1:4175   analytics beacons (/b/ss/…), decoded at /__beacons
 *   ID service  http://127.0.0.1:4176   /id, /optOutStatus, /dest5.html
 *   RUM intake  http://127.0.0.1:4177   the Datadog RUM SDK bundle (/datadog-rum.js, from npm) and its
 *                                       proxy intake: decoded events at /__events, replay at /__replay
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { serveStatic } from './static.ts';
import { startRumIntake } from './rum-intake/server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const HOST = '127.0.0.1';

/** `OFFTAG_PORT_BASE` moves all five ports together (two checkouts can run their tests side by side). */
const BASE = Number(process.env.OFFTAG_PORT_BASE) || 4173;
export const PORTS = { page: BASE, scripts: BASE + 1, collector: BASE + 2, idService: BASE + 3, rum: BASE + 4 } as const;

export interface Servers {
  pageUrl: string;
  scriptUrl: string;
  collectorUrl: string;
  idServiceUrl: string;
  rumUrl: string;
  close(): Promise<void>;
}

/**
 * The settings the demo and the test pages use: every host points at a local server. RUM loads the
 * real SDK from the intake's origin and posts to it through the SDK's `proxy`; requests to
 * `<intake>/echo/traced` stand for the API host whose calls carry trace headers.
 */
export function localConfig(s: Pick<Servers, 'collectorUrl' | 'idServiceUrl' | 'rumUrl'>) {
  return {
    trackingServer: s.collectorUrl,
    idServiceHost: s.idServiceUrl,
    idSyncOrigin: s.idServiceUrl,
    rum: {
      applicationId: 'demo-app',
      clientToken: 'pubdemo',
      scriptUrl: `${s.rumUrl}/datadog-rum.js`,
      proxy: `${s.rumUrl}/intake`,
      allowedTracingUrls: [`${s.rumUrl}/echo/traced`, 'https://insights-api.example.com'],
    },
    // A product-analytics tag run through Partytown: Amplitude's SDK from npm, served and received by the intake.
    amplitude: {
      apiKey: 'demo-amplitude-key',
      scriptUrl: `${s.rumUrl}/amplitude/amplitude-min.js`,
      serverUrl: `${s.rumUrl}/amplitude/2/httpapi`,
      partytown: true,
    },
  };
}

export async function startServers({ quiet = false, base = PORTS as Record<keyof typeof PORTS, number> } = {}): Promise<Servers> {
  const dist = `${root}dist`;
  if (!existsSync(`${dist}/offtag.js`)) throw new Error('dist/offtag.js is missing: run "npm run build" first.');
  const { startCollector } = await import('./collector/server.ts');
  const { startIdService } = await import('./id-service/server.ts');
  const collector = await startCollector({ port: base.collector, host: HOST, quiet });
  const idService = await startIdService({ port: base.idService, host: HOST });
  const rum = await startRumIntake({ port: base.rum, host: HOST, quiet });
  const urls = { collectorUrl: collector.url, idServiceUrl: idService.url, rumUrl: rum.url };
  const scriptUrl = `http://${HOST}:${base.scripts}`;
  const configJs = `window.offtagConfig = Object.assign(${JSON.stringify(localConfig(urls))}, window.offtagConfig || {});\n` +
    `window.offtagServers = ${JSON.stringify({ ...urls, scriptUrl })};\n`;

  const page = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/offtag-config.js') {
      res.writeHead(200, { 'Content-Type': 'text/javascript', 'Cache-Control': 'no-store' });
      return res.end(configJs);
    }
    if (await serveStatic(req, res, `${dist}/`, '/dist/')) return;
    if (await serveStatic(req, res, `${dist}/~partytown/`, '/~partytown/')) return;
    if (await serveStatic(req, res, `${root}tests/e2e/pages/`, '/test/')) return;
    // The insights area (where the RUM rule applies) is the same demo page under /insights/.
    if (path === '/insights/') req.url = '/';
    if (await serveStatic(req, res, `${root}demo/`, '/')) return;
    res.writeHead(404).end('not found');
  });
  const scripts = createServer(async (req, res) => {
    if (await serveStatic(req, res, `${dist}/`, '/', { 'Access-Control-Allow-Origin': '*' })) return;
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((r) => page.listen(base.page, HOST, r));
  await new Promise<void>((r) => scripts.listen(base.scripts, HOST, r));
  const close = (s: ReturnType<typeof createServer>) => new Promise<void>((r) => s.close(() => r()));
  return {
    pageUrl: `http://${HOST}:${base.page}`,
    scriptUrl,
    ...urls,
    async close() {
      page.closeAllConnections();
      scripts.closeAllConnections();
      await Promise.all([close(page), close(scripts), collector.close(), idService.close(), rum.close()]);
    },
  };
}

export async function serve(argv: string[]): Promise<void> {
  const quiet = argv.includes('--quiet');
  const s = await startServers({ quiet });
  console.log(`Offtag demo: open ${s.pageUrl}/`);
  console.log(`  offtag.js from ${s.scriptUrl}/offtag.js (another origin than the page)`);
  console.log(`  collector ${s.collectorUrl}/__beacons · ID service ${s.idServiceUrl} · RUM intake ${s.rumUrl}/__events`);
  const stop = () => void s.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  await new Promise(() => {});
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await serve(process.argv.slice(2));

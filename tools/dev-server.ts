/**
 * `npm start` / `offtag serve`: the demo storefront page and the local servers the container
 * talks to, all on loopback:
 *   page        http://127.0.0.1:4173   the demo storefront (dist/demo/, every route), test pages (/test/),
 *                                       dist/ same-origin (/dist/)
 *   script host http://127.0.0.1:4174   dist/ from another origin, as a CDN would serve offtag.js
 *   collector   http://127.0.0.1:4175   analytics beacons (/b/ss/…), decoded at /__beacons
 *   ID service  http://127.0.0.1:4176   /id, /optOutStatus, /dest5.html
 *   RUM intake  http://127.0.0.1:4177   the Datadog RUM SDK bundle (/datadog-rum.js, from npm) and its
 *                                       proxy intake: decoded events at /__events, replay at /__replay
 */
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { packageRoot } from './package-root.ts';
import { serveStatic } from './static.ts';
import { startRumIntake } from './rum-intake/server.ts';

const root = packageRoot(import.meta.url);
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
      // The intake is on loopback: a browser with no other interface says it is offline
      // (navigator.onLine false), and Amplitude would keep every event.
      holdWhileOffline: false,
    },
  };
}

export type PortName = keyof typeof PORTS;

/** A port that is taken: `serve` turns it into one line instead of a stack. */
export class PortInUseError extends Error {
  constructor(readonly server: PortName, readonly host: string, readonly port: number) {
    super(`port ${port} on ${host} (the ${SERVER_NAMES[server]}) is in use`);
  }
}

const SERVER_NAMES: Record<PortName, string> = {
  page: 'demo page',
  scripts: 'script host',
  collector: 'collector',
  idService: 'ID service',
  rum: 'RUM intake',
};

/** Fails with PortInUseError for the first of the five ports that cannot be listened on. */
async function checkPorts(host: string, base: Record<PortName, number>): Promise<void> {
  for (const name of Object.keys(base) as PortName[]) {
    const probe = createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', (err: NodeJS.ErrnoException) =>
        reject(err.code === 'EADDRINUSE' || err.code === 'EACCES' ? new PortInUseError(name, host, base[name]) : err),
      );
      probe.listen(base[name], host, () => probe.close(() => resolve()));
    });
  }
}

export async function startServers({
  quiet = false,
  base = PORTS as Record<PortName, number>,
  host = HOST,
}: { quiet?: boolean; base?: Record<PortName, number>; host?: string } = {}): Promise<Servers> {
  const HOST = host;
  const dist = `${root}dist`;
  if (!existsSync(`${dist}/offtag.js`)) throw new Error('dist/offtag.js is missing: run "npm run build" first.');
  if (!existsSync(`${dist}/demo/index.html`)) throw new Error('dist/demo/ (the demo storefront) is missing: run "npm run build" first.');
  await checkPorts(HOST, base);
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
    // The demo storefront (dist/demo/, built from demo/ by tools/build.mjs), a client-side routed
    // app: its files, and index.html for every route (a path with no file extension).
    if (await serveStatic(req, res, `${dist}/demo/`, '/')) return;
    if ((req.method === 'GET' || req.method === 'HEAD') && !/\.[^/]*$/.test(path)) {
      req.url = '/';
      if (await serveStatic(req, res, `${dist}/demo/`, '/')) return;
    }
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

export const SERVE_USAGE = `usage: offtag serve [--port <n>] [--host <address>] [--scripts-port <n>] [--collector-port <n>]
                   [--id-port <n>] [--rum-port <n>] [--quiet]
  --port             the demo page (default ${PORTS.page}, or OFFTAG_PORT_BASE); the other four follow it: +1 … +4
  --host             the address to listen on and to put in the URLs (default ${HOST})
  --scripts-port     the script host (offtag.js from another origin)
  --collector-port   the analytics collector
  --id-port          the visitor-ID service
  --rum-port         the RUM intake`;

const PORT_FLAGS: Record<string, PortName> = {
  '--port': 'page',
  '--scripts-port': 'scripts',
  '--collector-port': 'collector',
  '--id-port': 'idService',
  '--rum-port': 'rum',
};

/** Parses serve's options; a bad one is an Error whose message is the one line to print. */
export function parseServeArgs(argv: string[]): { quiet: boolean; host: string; base: Record<PortName, number> } {
  let host = HOST;
  let quiet = false;
  const given: Partial<Record<PortName, number>> = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2) as [string, string | undefined];
    if (flag === '--quiet' || flag === '--no-build') {
      quiet ||= flag === '--quiet';
      continue;
    }
    if (flag !== '--host' && !(flag in PORT_FLAGS)) throw new Error(`offtag serve: unknown option ${argv[i]}`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new Error(`offtag serve: ${flag} needs a value`);
    if (flag === '--host') {
      host = value;
      continue;
    }
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > 65535) throw new Error(`offtag serve: ${flag} must be a port number (1-65535); got ${value}`);
    given[PORT_FLAGS[flag]] = n;
  }
  const page = given.page ?? PORTS.page;
  const base: Record<PortName, number> = {
    page,
    scripts: given.scripts ?? page + 1,
    collector: given.collector ?? page + 2,
    idService: given.idService ?? page + 3,
    rum: given.rum ?? page + 4,
  };
  const ports = Object.values(base);
  if (new Set(ports).size !== ports.length) throw new Error(`offtag serve: two servers cannot share a port (${ports.join(', ')})`);
  return { quiet, host, base };
}

/** `offtag serve`: returns an exit code when it cannot start; otherwise runs until stopped. */
export async function serve(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(SERVE_USAGE);
    return 0;
  }
  let s: Servers;
  try {
    s = await startServers(parseServeArgs(argv));
  } catch (err) {
    if (err instanceof PortInUseError) {
      const flag = Object.entries(PORT_FLAGS).find(([, n]) => n === err.server)![0];
      console.error(`offtag serve: ${err.message}; stop what uses it or pick another with ${flag} <n>${err.server === 'page' ? '' : ' (or --port <n>: the others follow it)'}.`);
      return 1;
    }
    console.error((err as Error).message);
    return 1;
  }
  console.log(`Offtag demo: open ${s.pageUrl}/`);
  console.log(`  offtag.js from ${s.scriptUrl}/offtag.js (another origin than the page)`);
  console.log(`  collector ${s.collectorUrl}/__beacons · ID service ${s.idServiceUrl} · RUM intake ${s.rumUrl}/__events`);
  const stop = () => void s.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise<number>(() => {});
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) process.exitCode = await serve(process.argv.slice(2));

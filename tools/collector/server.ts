/**
 * The local analytics collector: receives `/b/ss/…` beacons (GET and POST) from the demo page and
 * the tests, keeps them decoded, serves them at `GET /__beacons`, and prints one line per beacon.
 * `POST /__fail?count=N&status=503` makes the next N beacons fail (status 0: the connection is
 * dropped, a network error; status -1: no answer at all) so the fault tests can watch the queue
 * retry; `GET /__fail` answers `{ count, status, refused }` (`refused`: beacons refused so far, the
 * event a test waits for instead of a clock). `POST /__poison?match=TEXT` answers 500 to every beacon whose pageName contains TEXT
 * (a beacon the server will never take: `npm run faults`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeBeacon, summarize, type DecodedBeacon } from './decode.ts';

/** A beacon as the collector keeps it: decoded, plus what the test needs to know about its arrival. */
export type CollectedBeacon = DecodedBeacon & {
  /** Epoch ms of arrival. */
  receivedAt: number;
  /** True when a beacon with the same random path segment arrived before (a re-send). */
  duplicate: boolean;
  /** The path and the query string exactly as they arrived (the body's, for a POST). */
  path: string;
  query: string;
  /** The request's `Cookie` header (credentials included?). */
  cookie?: string;
};

export interface Collector {
  url: string;
  close(): Promise<void>;
  /** The beacons kept so far, oldest first (the same array `/__beacons` serves). */
  beacons: CollectedBeacon[];
}

export interface CollectorOptions {
  port: number;
  host?: string;
  quiet?: boolean;
  /** Called with each beacon kept (`offtag dev` prints it decoded). */
  onBeacon?: (beacon: CollectedBeacon) => void;
}

/** The 1×1 transparent GIF AppMeasurement's image requests expect. */
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const MAX_BODY = 1 << 20;

function cors(req: IncomingMessage, res: ServerResponse): void {
  const origin = req.headers.origin;
  // Credentials are included, so the origin must be echoed, never `*`.
  if (origin) {
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Vary', 'Origin');
  }
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(new Error('body too large'));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startCollector({ port, host = '127.0.0.1', quiet = false, onBeacon }: CollectorOptions): Promise<Collector> {
  const beacons: CollectedBeacon[] = [];
  const seen = new Set<string>();
  let failures = { count: 0, status: 503 };
  /** Requests refused on purpose (/__fail) since the last reset: what a test waits for. */
  let refused = 0;
  let poison: string | undefined;

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://collector');
    cors(req, res);
    try {
      if (req.method === 'OPTIONS') {
        res.writeHead(204).end();
        return;
      }
      if (url.pathname === '/__beacons' && req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify(beacons));
        return;
      }
      if (url.pathname === '/__reset' && req.method === 'POST') {
        beacons.length = 0;
        seen.clear();
        poison = undefined;
        failures = { count: 0, status: 503 };
        refused = 0;
        res.writeHead(204).end();
        return;
      }
      if (url.pathname === '/__fail' && req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' }).end(JSON.stringify({ ...failures, refused }));
        return;
      }
      if (url.pathname === '/__fail' && req.method === 'POST') {
        failures = { count: Number(url.searchParams.get('count') ?? '1') || 0, status: Number(url.searchParams.get('status') ?? '503') };
        res.writeHead(204).end();
        return;
      }
      if (url.pathname === '/__poison' && req.method === 'POST') {
        poison = url.searchParams.get('match') || undefined;
        res.writeHead(204).end();
        return;
      }
      if (url.pathname.startsWith('/b/ss/') && (req.method === 'GET' || req.method === 'POST')) {
        const body = req.method === 'POST' ? await readBody(req) : undefined;
        if (poison && String(decodeBeacon(req.url ?? '', body).pageName ?? '').includes(poison)) {
          res.writeHead(500, { 'Content-Type': 'text/plain' }).end('poisoned on purpose (/__poison)');
          return;
        }
        if (failures.count > 0) {
          failures.count--;
          refused++;
          if (failures.status === 0) {
            req.socket.destroy();
            return;
          }
          // -1: never answer (the socket stays open until the client gives up).
          if (failures.status === -1) return;
          res.writeHead(failures.status, { 'Content-Type': 'text/plain' }).end('failing on purpose (/__fail)');
          return;
        }
        const decoded = decodeBeacon(req.url ?? '', body);
        const key = `${decoded.rsid}/${decoded.sid}`;
        const [path = '', search = ''] = (req.url ?? '').split(/\?(.*)/s);
        const beacon: CollectedBeacon = { ...decoded, path, query: body || search, method: req.method, receivedAt: Date.now(), duplicate: seen.has(key), cookie: req.headers.cookie };
        seen.add(key);
        beacons.push(beacon);
        if (!quiet) console.log(summarize(beacon) + (beacon.duplicate ? ' (DUPLICATE)' : ''));
        onBeacon?.(beacon);
        if (req.method === 'POST') res.writeHead(204).end();
        else res.writeHead(200, { 'Content-Type': 'image/gif', 'Cache-Control': 'no-store' }).end(GIF);
        return;
      }
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    } catch (e) {
      res.writeHead(400, { 'Content-Type': 'text/plain' }).end(e instanceof Error ? e.message : String(e));
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host}:${address.port}`;
  if (!quiet) console.log(`[collector] listening on ${url} (beacons at ${url}/__beacons)`);
  return {
    url,
    beacons,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((e) => (e ? reject(e) : resolve()));
      }),
  };
}

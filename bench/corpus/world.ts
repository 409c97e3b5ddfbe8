/**
 * The corpus runs' network: every host the page, its tags, workers and frames reach is answered
 * by one local server. Chromium maps every host name to it (`--host-resolver-rules`), so the page
 * is served at the library's own site origin and requests made by Offtag's dedicated worker and
 * its SharedWorker sender reach it exactly as the page's do (Playwright's `route` does not see a
 * SharedWorker's requests). One port speaks HTTPS (a self-signed certificate made at start,
 * accepted with `--ignore-certificate-errors`) and plain HTTP.
 *
 * What it answers, for both sides alike:
 * - the page (the side's HTML at the site's URL), turbine's library, Offtag's build and `page-code.js`
 *   (and the site's bundle without the library, where it carried one);
 * - Adobe's public AppMeasurement.js 2.27.0 (and its Activity Map module, the part of that file
 *   between its "Start/End ActivityMap Module" markers) wherever a library asks for
 *   `AppMeasurement[.min].js` or `AppMeasurement_Module_ActivityMap[.min].js`;
 * - `/b/ss/…` beacons: recorded (host, path, decoded parameters) and answered by the project's
 *   collector (tools/collector);
 * - the ID service's paths on any other host (`/id`, `/optOutStatus`, `/dest5.html`, …): the
 *   project's ID service (tools/id-service), with a `demdex` cookie holding one fixed MID added
 *   when the request has none, so both sides get the same visitor ID; its replies name this
 *   host where they named the local service. The Analytics visitor ID call (`/id` with
 *   `d_fieldgroup=A`, made to the tracking server) is answered as for a first visit, which has no
 *   `s_vi` cookie: `{}` (no `id`, so no `aid`);
 * - Adobe's Edge Network (the Web SDK's `/ee/[region/]v1/interact` and `…/collect`, on any host)
 *   as it answers a first visit: `interact` 200 with `{requestId, handle}` whose handles are the
 *   visitor's ECID (`identity:result`, the same fixed MID) and its identity cookie to keep
 *   (`state:store` `kndctr_<org>_identity`, the property's org), `collect` 204; with the page's
 *   origin allowed, credentials too. The Web SDK needs both: it takes an answer without a `handle`
 *   list as a failure, and its first event fails unless the answer set the identity cookie;
 * - `--assets` files by name (custom code `RC…-source.min.js`); anything else 404 (and is listed).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { startCollector, type Collector } from '../../tools/collector/server.ts';
import { decodeBeacon } from '../../tools/collector/decode.ts';
import { startIdService, type IdService } from '../../tools/id-service/server.ts';
import { serveStatic } from '../../tools/static.ts';

/** The MID every side's ID calls are answered with (the `demdex` cookie the ID service keys visitors on). */
export const CORPUS_MID = '41284960711373302781577314566843810362';

/** A beacon as the world received it. */
export interface RecordedBeacon {
  host: string;
  /** `/b/ss/<rsid>/<P>/<version>`, without the random request id. */
  path: string;
  rsid: string;
  sid: string;
  method: string;
  params: Record<string, string>;
  at: number;
}

export interface Current {
  /** The page's URL (its origin serves the page, the build and page-code.js). */
  url: string;
  html: string;
  /** `Set-Cookie` values of the page's response. */
  cookies?: string[];
  /** turbine: where the library is served, and its text; Offtag: the site bundle without the library, where the library came in one. */
  library?: { path: string; text: string };
  /** Offtag: the build folder (served under `/offtag-corpus/build/`) and page-code.js. */
  build?: string;
  pageCode?: string;
  /** The property's Experience Cloud org (`company.orgId`): whose identity cookie the Edge answers store. */
  orgId?: string;
}

export interface World {
  port: number;
  /** Chromium's arguments that send every host here. */
  chromiumArgs: string[];
  set(current: Current | undefined): void;
  beacons: RecordedBeacon[];
  /** Requests answered 404, `host/path`, since the last `reset`. */
  missing: string[];
  /** Every request since the last `reset` (`METHOD host/path`), for a side's readings file. */
  requests: string[];
  reset(): void;
  /** Resolves at the page's next `POST /__corpus/done` (the cost runs). */
  nextDone(): Promise<void>;
  close(): Promise<void>;
}

export const BUILD_PREFIX = '/offtag-corpus/build/';
export const LIBRARY_HOST = 'assets.adobedtm.com';

/** Chromium's own requests (sign-in, component checks): answered 404 like any unknown host, never listed as a page's. */
const BROWSER_HOSTS = new Set(['accounts.google.com', 'android.clients.google.com', 'clients2.google.com', 'update.googleapis.com', 'optimizationguide-pa.googleapis.com', 'content-autofill.googleapis.com']);
const ID_PATHS = new Set(['/id', '/optOutStatus', '/dest5.html', '/dest5/record', '/ibs/pixel']);
const HOP = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

/** The Edge Network's paths (Web SDK 2.x): `/ee/v1/interact`, `/ee/irl1/v1/collect`, … */
const EDGE_PATH = /^\/ee\/(?:[a-z0-9]+\/)?v\d+\/(interact|collect)$/;

/**
 * Edge's answer to a first visit's `interact`: the ECID it gives the visitor, and the identity
 * cookie the Web SDK writes from it (Edge's value is a protobuf whose field 1 is the ECID, base64).
 */
export function edgeAnswer(requestId: string, orgId: string | undefined): { requestId: string; handle: Array<{ type: string; payload: unknown[] }> } {
  const mid = Buffer.from(CORPUS_MID);
  const identity = Buffer.concat([Buffer.from([0x0a, mid.length]), mid]).toString('base64');
  return {
    requestId,
    handle: [
      { type: 'identity:result', payload: [{ id: CORPUS_MID, namespace: { code: 'ECID' } }] },
      ...(orgId ? [{ type: 'state:store', payload: [{ key: `kndctr_${orgId.replace('@', '_')}_identity`, value: identity, maxAge: 34128000 }] }] : []),
    ],
  };
}

/** Adobe's AppMeasurement.js and its Activity Map module, from the repository's mirror (never copied into this one). */
export function appMeasurementFiles(mirror: string): Record<string, string> {
  const whole = execFileSync('git', ['-C', mirror, 'show', 'HEAD:dist/AppMeasurement.js'], { encoding: 'utf8', maxBuffer: 1 << 24 });
  const start = whole.lastIndexOf('/*', whole.indexOf('Start ActivityMap Module'));
  const endMarker = '/* End ActivityMap Module */';
  const end = whole.indexOf(endMarker);
  const files: Record<string, string> = { AppMeasurement: whole };
  if (start >= 0 && end > start) files.AppMeasurement_Module_ActivityMap = whole.slice(start, end + endMarker.length) + '\n';
  try {
    files.AppMeasurement_Module_AudienceManagement = execFileSync('git', ['-C', mirror, 'show', 'HEAD:dist/AppMeasurement_Module_AudienceManagement.js'], { encoding: 'utf8', maxBuffer: 1 << 24 });
  } catch {
    /* not in this mirror: a library that asks for it gets a 404, on both sides */
  }
  return files;
}

function selfSignedCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'offtag-corpus-cert-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '2', '-subj', '/CN=offtag-corpus'], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const readBody = (req: http.IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

/** Forwards a request to a local service and its answer back; `rewrite` edits a text answer. */
async function forward(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, base: string, headers: Record<string, string> = {}, rewrite?: (text: string) => string): Promise<void> {
  const h: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && !HOP.has(k) && k !== 'host') h[k] = v;
  const r = await fetch(base + (req.url ?? '/'), { method: req.method, headers: { ...h, ...headers }, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : new Uint8Array(body), redirect: 'manual' });
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of r.headers) if (!HOP.has(k) && k !== 'set-cookie') out[k] = v;
  const cookies = r.headers.getSetCookie();
  if (cookies.length) out['set-cookie'] = cookies;
  let payload: Buffer = Buffer.from(await r.arrayBuffer());
  if (rewrite && /json|html|javascript|text/.test(r.headers.get('content-type') ?? '')) payload = Buffer.from(rewrite(payload.toString('utf8')));
  res.writeHead(r.status, out).end(payload);
}

export interface WorldOptions {
  port: number;
  mirror: string;
  assets?: string;
}

export async function startWorld(o: WorldOptions): Promise<World> {
  const files = appMeasurementFiles(o.mirror);
  const collector: Collector = await startCollector({ port: o.port + 1, quiet: true });
  const idService: IdService = await startIdService({ port: o.port + 2 });
  const idOrigin = new URL(idService.url);
  let current: Current | undefined;
  const beacons: RecordedBeacon[] = [];
  const missing: string[] = [];
  const requests: string[] = [];
  let done: (() => void) | undefined;

  const handler = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const secure = (req.socket as { encrypted?: boolean }).encrypted === true;
    const host = (req.headers.host ?? '').toLowerCase();
    const url = new URL(req.url ?? '/', `${secure ? 'https' : 'http'}://${host || 'corpus.invalid'}`);
    const page = current ? new URL(current.url) : undefined;
    const onPage = !!page && url.host === page.host;
    if (!BROWSER_HOSTS.has(host)) requests.push(`${req.method} ${url.host}${url.pathname}${process.env.CORPUS_DEBUG_QUERY ? url.search : ""}`);
    try {
      const body = await readBody(req);
      if (url.pathname === '/__corpus/done' && req.method === 'POST') {
        const d = done;
        done = undefined;
        d?.();
        return void res.writeHead(204).end();
      }
      if (current && onPage && url.pathname === page!.pathname && req.method === 'GET')
        return void res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...(current.cookies?.length ? { 'Set-Cookie': current.cookies } : {}) }).end(current.html);
      if (current?.library && host === LIBRARY_HOST && url.pathname === current.library.path)
        return void res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(current.library.text);
      if (current?.build && onPage && url.pathname.startsWith(BUILD_PREFIX) && (await serveStatic(req, res, current.build, BUILD_PREFIX))) return;
      if (current?.pageCode && onPage && url.pathname.endsWith('.page-code.js'))
        return void res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(readFileSync(current.pageCode));
      const am = /^(AppMeasurement(?:_Module_\w+)?)(?:\.min)?\.js$/.exec(basename(url.pathname));
      if (am && files[am[1]!]) return void res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(files[am[1]!]);
      if (url.pathname.startsWith('/b/ss/')) {
        const d = decodeBeacon(req.url ?? '', req.method === 'POST' ? body.toString('utf8') : undefined);
        beacons.push({ host: url.host, path: `/b/ss/${d.rsid}/${url.pathname.split('/')[4] ?? ''}/${d.version}`, rsid: d.rsid, sid: d.sid, method: d.method, params: d.params, at: Date.now() });
        return void (await forward(req, body, res, collector.url));
      }
      const edge = EDGE_PATH.exec(url.pathname);
      if (edge) {
        if (req.headers.origin) res.setHeader('Access-Control-Allow-Origin', req.headers.origin), res.setHeader('Access-Control-Allow-Credentials', 'true');
        if (req.method === 'OPTIONS') return void res.writeHead(204, { 'Access-Control-Allow-Methods': 'POST', 'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? 'content-type' }).end();
        if (edge[1] === 'collect') return void res.writeHead(204).end();
        return void res.writeHead(200, { 'Content-Type': 'application/json;charset=utf-8' }).end(JSON.stringify(edgeAnswer(url.searchParams.get('requestId') ?? '', current?.orgId)));
      }
      if (!onPage && url.pathname === '/id' && url.searchParams.get('d_fieldgroup') === 'A') {
        const callback = url.searchParams.get('callback');
        if (req.headers.origin) res.setHeader('Access-Control-Allow-Origin', req.headers.origin), res.setHeader('Access-Control-Allow-Credentials', 'true');
        return void res.writeHead(200, { 'Content-Type': callback ? 'text/javascript' : 'application/json' }).end(callback ? `${callback}({})` : '{}');
      }
      if (!onPage && ID_PATHS.has(url.pathname)) {
        const cookie = req.headers.cookie ?? '';
        const headers: Record<string, string> = /(?:^|;\s*)demdex=/.test(cookie) ? {} : { cookie: `${cookie ? cookie + '; ' : ''}demdex=${CORPUS_MID}` };
        const here = `//${url.host}`;
        return void (await forward(req, body, res, idService.url, headers, (t) => t.split(`//${idOrigin.host}`).join(here)));
      }
      if (o.assets && host === LIBRARY_HOST) {
        const file = join(o.assets, basename(url.pathname));
        try {
          const text = readFileSync(file);
          return void res.writeHead(200, { 'Content-Type': 'text/javascript; charset=utf-8' }).end(text);
        } catch {
          /* not among the assets */
        }
      }
      // The browser asks every page's origin for an icon: none, without an error on either side.
      if (onPage && url.pathname === '/favicon.ico') return void res.writeHead(204).end();
      if (!BROWSER_HOSTS.has(host)) missing.push(`${url.host}${url.pathname}`);
      // With CORS headers: a page's cross-origin fetch of a file the corpus does not have fails as a 404, as a missing file on a real host does, not as a CORS refusal.
      if (req.headers.origin) res.setHeader('Access-Control-Allow-Origin', req.headers.origin), res.setHeader('Access-Control-Allow-Credentials', 'true');
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not in the corpus world');
    } catch (e) {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' }).end(String(e));
    }
  };

  const tls = selfSignedCertificate();
  const plain = http.createServer(handler);
  const secure = https.createServer(tls, handler);
  // One port for both: a TLS connection starts with a handshake record (0x16).
  const server = net.createServer({ pauseOnConnect: true }, (socket) => {
    socket.once('readable', () => {
      const first = socket.read(1) as Buffer | null;
      if (!first) return void socket.destroy();
      socket.unshift(first);
      (first[0] === 0x16 ? secure : plain).emit('connection', socket);
    });
    socket.on('error', () => socket.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, '127.0.0.1', () => resolve());
  });
  return {
    port: o.port,
    chromiumArgs: [`--host-resolver-rules=MAP * 127.0.0.1:${o.port}`, '--ignore-certificate-errors'],
    set: (c) => void (current = c),
    beacons,
    missing,
    requests,
    reset() {
      beacons.length = 0;
      missing.length = 0;
      requests.length = 0;
    },
    nextDone: () => new Promise<void>((resolve) => (done = resolve)),
    async close() {
      plain.closeAllConnections();
      secure.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await collector.close();
      await idService.close();
    },
  };
}

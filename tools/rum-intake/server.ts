/**
 * A local Datadog RUM intake, the first-party endpoint the SDK's `proxy` option points at
 * (setting `rum.proxy`). It takes what the real browser SDK (`@datadog/browser-rum`) posts and
 * keeps it decoded:
 *
 *   POST <any path>?ddforward=/api/v2/rum?…     newline-delimited JSON, deflated or not
 *   POST <any path>?ddforward=/api/v2/replay?…  multipart form data: `event` (JSON metadata) and
 *                                              `segment` (deflated JSON records)
 *   POST /api/v2/{rum,replay,logs}              the same, posted without the proxy envelope
 *
 *   GET  /__events    JSON array of the SDK's events (view, action, resource, error, long_task,
 *                     vital, telemetry…), as sent, each with its `type`
 *   GET  /__replay    JSON array of replay segments: the metadata plus the decoded `records`
 *   GET  /__batches   one entry per request: path, forwarded path and query, encoding, count
 *   GET  /__calls     requests made to /echo/… (method, path, headers): a stand-in API host that
 *                     shows which requests carried trace headers
 *   POST /__reset     forgets everything
 *
 * It also serves the SDK's CDN bundle from the npm package (`/datadog-rum.js` and its `chunks/`),
 * so the page loads it from another origin, as it would from Datadog's CDN.
 *
 * The other third-party tag of the demo, Amplitude's browser SDK (`@amplitude/analytics-browser`,
 * its script build from npm), is served and received here too:
 *   GET  /amplitude/amplitude-min.js   the SDK
 *   POST /amplitude/2/httpapi          its HTTP API v2 uploads (`{ api_key, events }`)
 *   GET  /__amplitude                  the events received, with the `api_key` they came with
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { constants, inflateSync } from 'node:zlib';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { packageRoot } from '../package-root.ts';
import { serveStatic } from '../static.ts';

/**
 * A third-party SDK's files, as the demo loads them: the copy tools/build.mjs puts in
 * `dist/demo-vendor/<vendor>/` (all an installed package has: the SDKs are dev dependencies), else
 * the npm package in the checkout.
 */
function sdkDir(name: string, sub: string, vendor: string): string {
  const vendored = `${packageRoot(import.meta.url)}dist/demo-vendor/${vendor}/`;
  if (existsSync(vendored)) return vendored;
  try {
    return `${dirname(createRequire(import.meta.url).resolve(`${name}/package.json`))}/${sub}/`;
  } catch {
    return vendored;
  }
}
const SDK_BUNDLE = sdkDir('@datadog/browser-rum', 'bundle', 'datadog-rum');
const AMPLITUDE_SCRIPTS = sdkDir('@amplitude/analytics-browser', 'lib/scripts', 'amplitude');

export interface RumBatch {
  /** The path the request came to, and the Datadog intake path it was meant for. */
  path: string;
  track: string;
  query: Record<string, string>;
  time: number;
  encoding: 'deflate' | 'none';
  count: number;
  /** Set when the body could not be decoded (it is then kept as text). */
  problem?: string;
  raw?: string;
}

export interface ReplaySegment {
  [k: string]: unknown;
  records: unknown[];
}

export interface EchoCall {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
}

function cors(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Allow-Headers', req.headers['access-control-request-headers'] ?? 'content-type');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Timing-Allow-Origin', '*');
}

/** The SDK deflates in a streaming worker (zlib format); a sync-flushed tail is accepted too. */
function inflate(buf: Buffer): Buffer | undefined {
  if (buf.length < 2 || buf[0] !== 0x78) return undefined;
  try {
    return inflateSync(buf, { finishFlush: constants.Z_SYNC_FLUSH });
  } catch {
    return undefined;
  }
}

/** Newline-delimited JSON (RUM events): the parsed lines, or where it broke. */
export function decodeNdjson(buf: Buffer): { events: unknown[]; encoding: RumBatch['encoding']; problem?: string; raw?: string } {
  const inflated = inflate(buf);
  const text = (inflated ?? buf).toString('utf8');
  const encoding = inflated ? 'deflate' : 'none';
  const events: unknown[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line));
    } catch (err) {
      return { events, encoding, problem: `line ${i + 1} is not JSON (${(err as Error).message})`, raw: text.slice(0, 2000) };
    }
  }
  return { events, encoding };
}

/** A replay request: multipart form data with the segment's metadata and its deflated records. */
export async function decodeReplay(buf: Buffer, contentType: string): Promise<{ segment?: ReplaySegment; problem?: string }> {
  try {
    const form = await new Response(new Uint8Array(buf), { headers: { 'content-type': contentType } }).formData();
    const event = form.get('event');
    const segment = form.get('segment');
    if (!(segment instanceof Blob)) return { problem: 'no "segment" part' };
    const bytes = Buffer.from(await segment.arrayBuffer());
    const json = (inflate(bytes) ?? bytes).toString('utf8');
    const data = JSON.parse(json) as ReplaySegment;
    const meta = event instanceof Blob ? (JSON.parse(await event.text()) as Record<string, unknown>) : {};
    return { segment: { ...meta, ...data, records: Array.isArray(data.records) ? data.records : [] } };
  } catch (err) {
    return { problem: `replay body not readable (${(err as Error).message})` };
  }
}

const json = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
};

export async function startRumIntake({ port = 0, host = '127.0.0.1', quiet = true } = {}) {
  const batches: RumBatch[] = [];
  const events: unknown[] = [];
  const replay: ReplaySegment[] = [];
  const calls: EchoCall[] = [];
  const amplitude: Array<Record<string, unknown>> = [];

  const receive = async (req: IncomingMessage, url: URL, body: Buffer) => {
    // `?ddforward=/api/v2/rum?ddsource=browser&…` (proxy) or the intake's own path.
    const forward = url.searchParams.get('ddforward');
    const target = new URL(forward ?? `${url.pathname}${url.search}`, 'http://x');
    const track = target.pathname.replace(/^\/api\/v2\//, '');
    const batch: RumBatch = {
      path: url.pathname,
      track,
      query: Object.fromEntries(target.searchParams),
      time: Date.now(),
      encoding: 'none',
      count: 0,
    };
    if (track === 'replay') {
      const r = await decodeReplay(body, String(req.headers['content-type'] ?? ''));
      if (r.segment) {
        replay.push(r.segment);
        batch.count = 1;
        batch.encoding = 'deflate';
      } else batch.problem = r.problem;
    } else {
      const r = decodeNdjson(body);
      events.push(...r.events);
      Object.assign(batch, { count: r.events.length, encoding: r.encoding, problem: r.problem, raw: r.raw });
    }
    batches.push(batch);
    if (!quiet) console.log(`[rum-intake] ${track} ${batch.count} ${track === 'replay' ? 'segment' : 'event(s)'}${batch.problem ? ` (${batch.problem})` : ''}`);
  };

  const server = createServer(async (req, res) => {
    cors(req, res);
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'OPTIONS') return res.writeHead(204).end();
    if (url.pathname.startsWith('/echo/')) {
      calls.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers });
      return json(res, { ok: true });
    }
    if (req.method === 'GET') {
      if (url.pathname === '/__events') return json(res, events);
      if (url.pathname === '/__replay') return json(res, replay);
      if (url.pathname === '/__batches') return json(res, batches);
      if (url.pathname === '/__calls') return json(res, calls);
      if (url.pathname === '/__amplitude') return json(res, amplitude);
      if (await serveStatic(req, res, AMPLITUDE_SCRIPTS, '/amplitude/', { 'Access-Control-Allow-Origin': req.headers.origin ?? '*' })) return;
      // The SDK bundle, as Datadog's CDN serves it (CORS, so `crossorigin` tags and `import()` work).
      if (await serveStatic(req, res, SDK_BUNDLE, '/', { 'Access-Control-Allow-Origin': req.headers.origin ?? '*' })) return;
    }
    if (url.pathname === '/__reset' && req.method === 'POST') {
      batches.length = events.length = replay.length = calls.length = amplitude.length = 0;
      return res.writeHead(204).end();
    }
    if (req.method === 'POST' && url.pathname === '/amplitude/2/httpapi') {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        try {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { api_key?: string; events?: Array<Record<string, unknown>> };
          for (const e of body.events ?? []) amplitude.push({ ...e, api_key: body.api_key });
          if (!quiet) console.log(`[rum-intake] amplitude ${body.events?.length ?? 0} event(s)`);
          json(res, { code: 200, events_ingested: body.events?.length ?? 0, server_upload_time: Date.now() });
        } catch (err) {
          res.writeHead(400, { 'Content-Type': 'application/json' }).end(JSON.stringify({ code: 400, error: (err as Error).message }));
        }
      });
      return;
    }
    if (req.method === 'POST' && (url.searchParams.has('ddforward') || url.pathname.startsWith('/api/v2/'))) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        void receive(req, url, Buffer.concat(chunks)).finally(() => {
          res.writeHead(202, { 'Content-Type': 'application/json' }).end('{}');
        });
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address();
  const url = `http://${host}:${typeof address === 'object' && address ? address.port : port}`;
  return {
    url,
    batches,
    events,
    replay,
    calls,
    amplitude,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

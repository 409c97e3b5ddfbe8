/**
 * A local Datadog RUM intake: accepts what the browser SDK posts (`/api/v2/rum`,
 * `/api/v2/replay`, `/api/v2/logs`; newline-delimited JSON, possibly deflate-compressed by the
 * SDK's worker), keeps it and serves it back as JSON for the demo and the tests.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { inflateSync } from 'node:zlib';

export interface RumBatch {
  path: string;
  query: Record<string, string>;
  time: number;
  /** Parsed events (one per NDJSON line); raw text when the body could not be read. */
  events: unknown[];
  raw?: string;
}

function cors(req: IncomingMessage, res: ServerResponse) {
  res.setHeader('Access-Control-Allow-Origin', req.headers.origin ?? '*');
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Access-Control-Allow-Headers', 'content-type');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
}

function parseBody(buf: Buffer): { events: unknown[]; raw?: string } {
  let text: string;
  try {
    text = inflateSync(buf).toString('utf8');
  } catch {
    text = buf.toString('utf8');
  }
  const events: unknown[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      events.push(JSON.parse(line));
    } catch {
      return { events, raw: text };
    }
  }
  return { events };
}

export async function startRumIntake({ port = 0, host = '127.0.0.1', quiet = true } = {}) {
  const batches: RumBatch[] = [];
  const server = createServer((req, res) => {
    cors(req, res);
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'OPTIONS') return res.writeHead(204).end();
    if (url.pathname === '/__events') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      return res.end(JSON.stringify(batches));
    }
    if (url.pathname === '/__reset' && req.method === 'POST') {
      batches.length = 0;
      return res.writeHead(204).end();
    }
    if (req.method === 'POST' && url.pathname.startsWith('/api/v2/')) {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const batch: RumBatch = {
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          time: Date.now(),
          ...parseBody(Buffer.concat(chunks)),
        };
        batches.push(batch);
        if (!quiet) console.log(`[rum-intake] ${url.pathname} ${batch.events.length} event(s)`);
        res.writeHead(202, { 'Content-Type': 'application/json' }).end('{}');
      });
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(port, host, r));
  const address = server.address();
  const url = `http://${host}:${typeof address === 'object' && address ? address.port : port}`;
  return {
    url,
    batches,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

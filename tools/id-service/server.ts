/**
 * A local stand-in for Adobe's ID service (dpm.demdex.net) that speaks the protocol of
 * VisitorAPI.js 5.5.0 (the /id call, its reply, the ID-sync iframe; docs/visitor.md), for the demo and the tests:
 * `GET /id`, `GET /optOutStatus`, `GET /dest5.html`, plus `/__calls` and `POST /__reset`.
 */
import { randomInt, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEST5_HTML } from './dest5.ts';

export interface IdServiceCall {
  path: string;
  query: Record<string, string>;
  /** The query string as it arrived (parameter order is part of the wire format). */
  search: string;
  time: number;
}

export interface IdServiceOptions {
  port: number;
  host?: string;
  /** `d_region` / `dcs_region` of every reply. */
  region?: number;
  /** `subdomain` of every reply (the ID-sync iframe's host, `<subdomain>.demdex.net` in production). */
  subdomain?: string;
  /** `d_optout` of every reply, e.g. `['global']`. */
  optOut?: string[];
}

export interface IdService {
  url: string;
  close(): Promise<void>;
  calls: IdServiceCall[];
}

const DEMDEX_COOKIE = 'demdex';
const DEMDEX_MAX_AGE_SECONDS = 180 * 86400;
const ID_SYNC_TTL_SECONDS = 604800;
const OPT_OUT_TTL_SECONDS = 7200;
/** Minutes an ID-sync destination counts as synced (one week). */
const SYNC_TTL_MINUTES = 10080;
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

function newMid(): string {
  let mid = '';
  while (mid.length < 38) mid += String(randomInt(0, 10));
  return mid;
}

function cookiesOf(req: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const i = part.indexOf('=');
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}

/** Credentialed CORS: the page's origin echoed, never `*`. */
function cors(req: http.IncomingMessage, res: http.ServerResponse): void {
  const origin = req.headers.origin;
  if (!origin) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Credentials', 'true');
  res.setHeader('Vary', 'Origin');
}

export async function startIdService({ port, host = '127.0.0.1', region = 7, subdomain = 'dpm', optOut = [] }: IdServiceOptions): Promise<IdService> {
  const calls: IdServiceCall[] = [];
  /** The blob and region the service keeps per visitor, as AAM would. */
  const blobs = new Map<string, string>();
  let base = '';
  let hang = false;

  const reply = (mid: string) => {
    let blob = blobs.get(mid);
    if (!blob) blobs.set(mid, (blob = randomBytes(36).toString('base64').replace(/[+/=]/g, 'x')));
    return {
      d_mid: mid,
      id_sync_ttl: ID_SYNC_TTL_SECONDS,
      d_blob: blob,
      d_region: region,
      dcs_region: region,
      d_ottl: OPT_OUT_TTL_SECONDS,
      ...(optOut.length ? { d_optout: optOut } : {}),
      ibs: [
        { id: '411', tag: 'img', url: [`${base.replace(/^https?:/, '')}/ibs/pixel?dpid=411`], ttl: SYNC_TTL_MINUTES, fireURLSync: 1, syncOnPage: 0 },
        { id: '477', tag: 'img', url: [`${base.replace(/^https?:/, '')}/ibs/pixel?dpid=477`], ttl: SYNC_TTL_MINUTES, fireURLSync: 0, syncOnPage: 1 },
      ],
      subdomain,
      tid: randomBytes(6).toString('base64'),
    };
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://local');
    const query = Object.fromEntries(url.searchParams);
    const path = url.pathname;
    cors(req, res);
    if (req.method === 'OPTIONS') {
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST');
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
      res.writeHead(204).end();
      return;
    }
    if (path === '/__calls') {
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(calls));
      return;
    }
    if (path === '/__hang' && req.method === 'POST') {
      // `npm run faults`: /id calls get no answer while on (the socket stays open).
      hang = query.on === '1';
      res.writeHead(204).end();
      return;
    }
    if (path === '/__reset' && req.method === 'POST') {
      calls.length = 0;
      blobs.clear();
      hang = false;
      res.writeHead(204).end();
      return;
    }
    calls.push({ path, query, search: url.search.slice(1), time: Date.now() });
    if (hang && path === '/id') return;
    switch (path) {
      case '/id': {
        const known = query.d_mid && /^[0-9a-fA-F-]+$/.test(query.d_mid) ? query.d_mid : cookiesOf(req)[DEMDEX_COOKIE];
        const mid = known && /^[0-9a-fA-F-]+$/.test(known) ? known : newMid();
        const secure = base.startsWith('https:');
        res.setHeader(
          'Set-Cookie',
          `${DEMDEX_COOKIE}=${mid}; Max-Age=${DEMDEX_MAX_AGE_SECONDS}; Path=/; ${secure ? 'SameSite=None; Secure' : 'SameSite=Lax'}`,
        );
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(reply(mid)));
        return;
      }
      case '/optOutStatus':
        res
          .writeHead(200, { 'Content-Type': 'application/json' })
          .end(JSON.stringify({ d_optout: optOut, d_ottl: OPT_OUT_TTL_SECONDS }));
        return;
      case '/dest5.html':
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(DEST5_HTML);
        return;
      case '/dest5/record':
        res.writeHead(204).end();
        return;
      case '/ibs/pixel':
        res.writeHead(200, { 'Content-Type': 'image/gif', 'Cache-Control': 'no-store' }).end(PIXEL);
        return;
      default:
        res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const addr = server.address() as AddressInfo;
  base = `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
  return {
    url: base,
    calls,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}

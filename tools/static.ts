/** A small static file handler for the dev server (no dependencies). */
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.map': 'application/json',
  '.pdf': 'application/pdf',
};

/** Serves `dir` under `prefix`; answers false when the path is not a file there. */
export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  dir: string,
  prefix = '/',
  headers: Record<string, string> = {},
): Promise<boolean> {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  if (!path.startsWith(prefix)) return false;
  let rel = normalize(path.slice(prefix.length)).replace(/^(\.\.[/\\])+/, '');
  if (rel === '' || rel === '.' || rel.endsWith('/')) rel = join(rel, 'index.html');
  const file = join(dir, rel);
  if (!file.startsWith(dir)) return false;
  try {
    const s = await stat(file);
    if (!s.isFile()) return false;
    const body = await readFile(file);
    res.writeHead(200, {
      'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
      // Pages: revalidated every time, yet eligible for the back/forward cache, as a storefront's
      // are (no-store keeps a page out of it: tests/e2e/bfcache.spec.ts).
      'Cache-Control': extname(file) === '.html' ? 'no-cache' : 'no-store',
      ...headers,
    });
    res.end(body);
    return true;
  } catch {
    return false;
  }
}

/**
 * `offtag dev --container <file> [--page <file.html>]`: the loop of writing a container. It builds
 * the container for development (debug messages on) into a temporary folder, serves a page with it
 * on loopback — the site's own page (`--page`, with the files beside it), or a blank one — with the
 * local collector and ID service, prints each beacon decoded, and on each save of the container's
 * files (or the page) builds again and reloads the page. A build with problems prints them and
 * keeps the previous build serving. Nothing is written into the project.
 */
import { existsSync, watch, type FSWatcher } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { buildLibrary } from '../build/build.ts';
import { formatBeacon } from '../collector/decode.ts';
import type { CollectedBeacon } from '../collector/server.ts';
import { serveStatic } from '../static.ts';

const HOST = '127.0.0.1';
const BASE = Number(process.env.OFFTAG_PORT_BASE) || 4173;

export const DEV_USAGE = `usage: offtag dev --container <file> [--page <file.html>] [--port <n>] [--host <address>]
  --container  the container module (as offtag build takes it)
  --page       your page: served with the container's offtag.js and the files beside it (default: a blank page)
  --port       the page (default ${BASE}, or OFFTAG_PORT_BASE); the collector is --port + 2, the ID service --port + 3
  --host       the address to listen on (default ${HOST})`;

export interface DevOptions {
  container: string;
  page?: string;
  port: number;
  host: string;
  /** Where lines go (the terminal). */
  print?: (line: string) => void;
}

/** The options of `offtag dev`, or the one line that says what is wrong. */
export function parseDevArgs(argv: string[]): DevOptions | string {
  const o: Partial<DevOptions> = { port: BASE, host: HOST };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    if (flag === '--help' || flag === '-h') return DEV_USAGE;
    const value = argv[i + 1];
    if (!['--container', '--page', '--port', '--host'].includes(flag)) return `offtag dev: unknown argument "${flag}". ${DEV_USAGE}`;
    if (value === undefined || value.startsWith('--')) return `offtag dev: ${flag} needs a value.`;
    i++;
    if (flag === '--container') o.container = value;
    if (flag === '--page') o.page = value;
    if (flag === '--host') o.host = value;
    if (flag === '--port') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 65532) return `offtag dev: --port must be a port number; got ${value}`;
      o.port = n;
    }
  }
  if (!o.container) return `offtag dev: give the container: --container <file>. ${DEV_USAGE}`;
  return o as DevOptions;
}

/** The files a build writes: served for a request of that name at any path, so a page's own script tag (`/dist/blog/offtag.js`) gets the development build. */
const BUILD_FILE = /(?:^|\/)(offtag(?:-[a-z]+)?\.js|~partytown\/.*)$/;

const blankPage = (name: string, consent: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>offtag dev · ${escapeHtml(name)}</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:42rem;margin:2rem auto;padding:0 1rem}code{background:#f3f3f3;padding:0 .2em}</style>
</head>
<body>
<h1>offtag dev · ${escapeHtml(name)}</h1>
<p>A blank page with your container's <code>offtag.js</code>. Each beacon prints in the terminal, decoded.
Serve your own page instead with <code>--page index.html</code>.</p>
${consent ? `<p>This page gives tracking consent itself (the cookie <code>${escapeHtml(consent)}</code>); on your site, your consent manager sets it.</p>` : ''}
<p><a href="#a-link" id="a-link">A link</a> · <button type="button" id="track">_satellite.track(</button><input id="call" value="page view" aria-label="direct call id"><button type="button" id="send">)</button></p>
<script>
  document.getElementById('send').onclick = document.getElementById('track').onclick = function () {
    _satellite.track(document.getElementById('call').value);
  };
</script>
</body>
</html>
`;

function escapeHtml(s: string): string {
  return s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);
}

/**
 * What goes into the page: `offtagConfig` pointing at the local servers (whatever the page sets,
 * these win: the page keeps its other settings), the `_satellite` queue, offtag.js unless the page
 * loads it itself, and the reload on rebuild.
 */
export function devSnippet(urls: { collector: string; idService: string }, withScript: boolean, consent?: string): string {
  const local = { environment: 'development', trackingServer: urls.collector, idServiceHost: urls.idService, idSyncOrigin: urls.idService };
  return [
    '<script>',
    consent ? `document.cookie=${JSON.stringify(`${consent}; path=/`)};` : '',
    `(function(){var d=${JSON.stringify(local)},v=Object.assign({},window.offtagConfig||{},d);`,
    "Object.defineProperty(window,'offtagConfig',{configurable:true,get:function(){return v},set:function(x){v=Object.assign({},x,d)}})})();",
    'window._satellite=window._satellite||{q:[],track:function(){_satellite.q.push(arguments)}};',
    "new EventSource('/__offtag/reload').onmessage=function(){location.reload()};",
    '</script>',
    withScript ? '<script src="/offtag.js" async></script>' : '',
  ].join('');
}

/** The page with the snippet at the start of its head (or of the document). */
export function withSnippet(html: string, urls: { collector: string; idService: string }, consent?: string): string {
  const snippet = devSnippet(urls, !/<script[^>]+src=["']?[^"'>]*offtag\.js/i.test(html), consent);
  const head = /<head[^>]*>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + snippet + html.slice(head.index + head[0].length);
  return snippet + html;
}

/** One beacon as the terminal shows it: the decoder's table, indented. */
export function beaconLines(b: CollectedBeacon, n: number): string[] {
  const table = formatBeacon(b).split('\n').filter((l) => !l.startsWith('(offtag decode'));
  while (table.at(-1) === '') table.pop();
  return [`beacon ${n}: ${table[0]}`, ...table.slice(1).filter((l, i) => i > 0 || l !== '').map((l) => `  ${l}`)];
}

export interface Dev {
  url: string;
  collectorUrl: string;
  /** Resolves after the next build (`ok`: the page was told to reload). */
  nextBuild(): Promise<{ ok: boolean }>;
  close(): Promise<void>;
}

async function listen(server: ReturnType<typeof createServer>, port: number, host: string, what: string): Promise<void> {
  await new Promise<void>((ok, fail) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      fail(err.code === 'EADDRINUSE' || err.code === 'EACCES' ? new Error(`offtag dev: port ${port} on ${host} (${what}) is in use; pick another with --port <n>.`) : err),
    );
    server.listen(port, host, () => ok());
  });
}

export async function startDev(o: DevOptions): Promise<Dev> {
  const print = o.print ?? ((line: string) => console.log(line));
  const container = resolve(o.container);
  const shown = relative(process.cwd(), container) || container;
  const page = o.page ? resolve(o.page) : undefined;
  const out = join(await mkdtemp(join(tmpdir(), 'offtag-dev-')), 'build');
  const { startCollector } = await import('../collector/server.ts');
  const { startIdService } = await import('../id-service/server.ts');
  let count = 0;
  const collector = await startCollector({ port: o.port + 2, host: o.host, quiet: true, onBeacon: (b) => print(beaconLines(b, ++count).join('\n')) }).catch((err: NodeJS.ErrnoException) => {
    throw err.code === 'EADDRINUSE' ? new Error(`offtag dev: port ${o.port + 2} on ${o.host} (the collector) is in use; pick another with --port <n>.`) : err;
  });
  const idService = await startIdService({ port: o.port + 3, host: o.host }).catch(async (err: NodeJS.ErrnoException) => {
    await collector.close();
    throw err.code === 'EADDRINUSE' ? new Error(`offtag dev: port ${o.port + 3} on ${o.host} (the ID service) is in use; pick another with --port <n>.`) : err;
  });
  const urls = { collector: collector.url, idService: idService.url };

  const reloads = new Set<ServerResponse>();
  let name = basename(container);
  /** The consent cookie that grants tracking, `name=value` (the container's settings: its cookie and first value), or '' when the gate is off. */
  let consent = 'sat_track=true';
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/__offtag/reload') {
      res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store', Connection: 'keep-alive' });
      res.write(': offtag dev\n\n');
      reloads.add(res);
      req.on('close', () => reloads.delete(res));
      return;
    }
    const file = BUILD_FILE.exec(path);
    if (file) {
      req.url = `/${file[1]}`;
      if (await serveStatic(req, res, `${out}/`, '/')) return;
    }
    if (path === '/' || path === '/index.html' || (page && path === `/${basename(page)}`)) {
      const html = page ? await readFile(page, 'utf8').catch(() => `<!doctype html><p>offtag dev: cannot read ${escapeHtml(page)}</p>`) : blankPage(name, consent);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      // The blank page gives consent (it says so); the site's own page keeps its own consent flow.
      res.end(withSnippet(html, urls, page ? undefined : consent));
      return;
    }
    if (page && (await serveStatic(req, res, `${dirname(page)}/`, '/'))) return;
    // A page without an icon: the browser's own request would be a 404 on the console, among the container's messages.
    if (path === '/favicon.ico') return void res.writeHead(204).end();
    res.writeHead(404).end('not found');
  });
  try {
    await listen(server, o.port, o.host, 'the page');
  } catch (err) {
    await Promise.all([collector.close(), idService.close()]);
    throw err;
  }
  const url = `http://${o.host}:${o.port}/`;

  let waiting: Array<(r: { ok: boolean }) => void> = [];
  let watchers: FSWatcher[] = [];
  let watched = new Set<string>();
  let building: Promise<void> | undefined;
  let again = false;

  const build = async (): Promise<void> => {
    const started = Date.now();
    let ok = false;
    try {
      const result = await buildLibrary({ container, env: 'development', out });
      if (result.problems.length) {
        print(`offtag dev: ${shown} has ${result.problems.length} problem${result.problems.length > 1 ? 's' : ''}; the page keeps the last build:`);
        for (const p of result.problems) print(`  ${p}`);
      } else {
        ok = true;
        print(`offtag dev: built ${shown} (development) in ${((Date.now() - started) / 1000).toFixed(1)} s · offtag.js ${result.gzip} bytes gzip`);
      }
      watchFiles([container, ...result.files, ...(page ? [page] : [])]);
      if (ok && result.container) {
        name = result.container.name;
        const settings = (result.container.settings ?? {}) as { trackingConsentCookie?: unknown; trackingConsentValues?: unknown };
        const cookie = typeof settings.trackingConsentCookie === 'string' ? settings.trackingConsentCookie : 'sat_track';
        const value = Array.isArray(settings.trackingConsentValues) && typeof settings.trackingConsentValues[0] === 'string' ? settings.trackingConsentValues[0] : 'true';
        consent = cookie ? `${cookie}=${value}` : '';
        for (const r of reloads) r.write('data: reload\n\n');
      }
    } catch (err) {
      print(`offtag dev: the build failed: ${err instanceof Error ? err.message : String(err)}`);
      watchFiles([container, ...(page ? [page] : [])]);
    }
    const w = waiting;
    waiting = [];
    for (const r of w) r({ ok });
  };

  const rebuild = () => {
    if (building) {
      again = true;
      return;
    }
    building = build().finally(() => {
      building = undefined;
      if (again) {
        again = false;
        rebuild();
      }
    });
  };

  let timer: NodeJS.Timeout | undefined;
  function watchFiles(files: string[]) {
    const next = new Set(files.map((f) => resolve(f)));
    if ([...next].every((f) => watched.has(f)) && next.size === watched.size) return;
    for (const w of watchers) w.close();
    watched = next;
    // Folders, not files: an editor that saves by replacing the file would end a file's watch.
    const dirs = new Set([...next].map((f) => dirname(f)));
    watchers = [...dirs].map((dir) =>
      watch(dir, (_event, file) => {
        if (!file || !watched.has(join(dir, file.toString()))) return;
        clearTimeout(timer);
        timer = setTimeout(rebuild, 80);
      }),
    );
  }

  await (building = build().finally(() => (building = undefined)));
  print(`offtag dev: open ${url} · ${page ? `your page ${relative(process.cwd(), page)}` : 'a blank page (yours: --page index.html)'}, with ${shown}'s offtag.js`);
  print(`  beacons go to the local collector ${urls.collector} and print here, decoded; a save of the container's files rebuilds it and reloads the page`);
  return {
    url,
    collectorUrl: urls.collector,
    nextBuild: () => new Promise((r) => waiting.push(r)),
    async close() {
      clearTimeout(timer);
      for (const w of watchers) w.close();
      for (const r of reloads) r.end();
      server.closeAllConnections();
      await Promise.all([new Promise<void>((r) => server.close(() => r())), collector.close(), idService.close()]);
      await rm(dirname(out), { recursive: true, force: true });
    },
  };
}

/** `offtag dev …`: runs until stopped; an exit code when it cannot start. */
export async function devCommand(argv: string[]): Promise<number> {
  const o = parseDevArgs(argv);
  if (typeof o === 'string') {
    (o === DEV_USAGE ? console.log : console.error)(o);
    return o === DEV_USAGE ? 0 : 2;
  }
  for (const [what, file] of [['container', o.container], ['page', o.page]] as const)
    if (file && !existsSync(file)) {
      console.error(`offtag dev: the ${what} ${file} does not exist.`);
      return 2;
    }
  let dev: Dev;
  try {
    dev = await startDev(o);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    return 1;
  }
  const stop = () => void dev.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return new Promise<number>(() => {});
}

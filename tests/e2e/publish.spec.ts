/**
 * Publishing (docs/publishing.md) end to end: `offtag publish`, `promote`, `rollback` into a folder
 * served by a plain static server (another origin, as a CDN, with the cache headers the docs give),
 * a page on its own origin embedding `<dir>/production/offtag.js`. After each step a fresh browser
 * context loads the page and the beacons say which version runs (prop5: v1 or v2) and for which
 * environment (the report suite). Then preview in one context while another keeps production, the
 * overlay's switch, a broken container and two publishes at once.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, test, type APIRequestContext, type Browser, type BrowserContext } from '@playwright/test';
import { serveStatic } from '../../tools/static.ts';
import { beacons, consoleOf, resetServers, SERVERS, type Beacon } from './helpers.ts';

const run = promisify(execFile);
const DIR = resolve('dist/test-builds/publish/site');
const V1 = 'tests/fixtures/publish/shop-v1.ts';
const V2 = 'tests/fixtures/publish/shop-v2.ts';
const BROKEN = 'tests/fixtures/publish/shop-broken.ts';

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function offtag(...args: string[]): Promise<Ran> {
  try {
    const r = await run(process.execPath, ['tools/offtag.mjs', ...args], { maxBuffer: 1 << 24 });
    return { code: 0, ...r };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

interface Published {
  version: string;
  build: string;
  previous: string | null;
  embed: { url: string; snippet: string };
  pinned: { url: string; integrity: string; snippet: string };
}

async function publish(container: string, env: string, note: string): Promise<Published> {
  const r = await offtag('publish', '--container', container, '--env', env, '--to', DIR, '--note', note, '--url', cdnUrl, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

async function versions(): Promise<{ environments: Record<string, string>; versions: Array<{ id: string; builds: Record<string, string>; live: string[] }> }> {
  const r = await offtag('versions', '--to', DIR, '--json');
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout);
}

let cdn: Server;
let site: Server;
let cdnUrl: string;
let siteUrl: string;

/** The page: its data layer names it (`?name=`), the async snippet queues the page view, the embed is production's (or `embed`). */
const page = (embed = `<script src="${cdnUrl}/production/offtag.js" async></script>`) => `<!doctype html>
<html><head><meta charset="utf-8"><title>shop</title>
<script>
  document.cookie = 'sat_track=true; path=/';
  window.offtagConfig = { trackingServer: ${JSON.stringify(SERVERS.collector)}, idServiceHost: ${JSON.stringify(SERVERS.idService)}, idSyncOrigin: ${JSON.stringify(SERVERS.idService)} };
  window.shopData = { page: { name: new URLSearchParams(location.search).get('name') || 'home', section: 'Shoes' }, promo: { id: 'spring' } };
  window._satellite = window._satellite || { q: [], track: function () { _satellite.q.push(arguments); } };
  _satellite.track('page view');
</script>
${embed}
</head><body><h1>shop</h1></body></html>
`;

/** A page with `offtag build`'s storefront library (dist/, from the dev server's script host), not a published one. */
const plainPage = () => `<!doctype html>
<html><head><meta charset="utf-8"><title>plain</title>
<script src="${SERVERS.scripts}/offtag.js" async></script>
</head><body><h1>plain</h1></body></html>
`;

test.beforeAll(async () => {
  rmSync(DIR, { recursive: true, force: true });
  // The folder as a CDN serves it (docs/publishing.md, "Hosting"): builds for a year, the rest revalidated; CORS for the overlay.
  cdn = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const immutable = /^\/[0-9a-z]{7,25}\//.test(path) || path.startsWith('/versions/');
    const headers = { 'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=60', 'Access-Control-Allow-Origin': '*' };
    if (!(await serveStatic(req, res, DIR + '/', '/', headers))) res.writeHead(404).end();
  });
  site = createServer((req, res) =>
    res
      .writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' })
      .end(req.url?.startsWith('/plain') ? plainPage() : req.url?.startsWith('/pinned') ? page(pinned) : page()),
  );
  await new Promise<void>((r) => cdn.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`;
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await Promise.all([new Promise((r) => cdn.close(r)), new Promise((r) => site.close(r))]);
});

test.beforeEach(async ({ request }) => {
  await resetServers(request);
});

test.describe.configure({ mode: 'serial', timeout: 240_000 });

/** The beacon whose page name or link name is `name`, once the collector has it. */
async function beacon(request: APIRequestContext, name: string): Promise<Beacon> {
  const find = async () => (await beacons(request)).find((b) => (b.hitType === 't' ? b.pageName : b.linkName) === name);
  await expect.poll(find, { timeout: 20_000, message: `beacon "${name}"` }).toBeTruthy();
  return (await find())!;
}

/** A first visit (a fresh profile: nothing cached) to the page named `name`. */
async function visit(browser: Browser, name: string, query = ''): Promise<BrowserContext> {
  const context = await browser.newContext();
  const p = await context.newPage();
  await p.goto(`${siteUrl}/?name=${name}${query}`);
  return context;
}

let v1: Published;
let v2: Published;
/** The script tag the site's page gets at `/pinned`. */
let pinned = '';

test('publish v1 to production: the page sends v1 beacons, with the production report suite', async ({ browser, request }) => {
  v1 = await publish(V1, 'production', 'first release');
  expect(v1.version).toMatch(/^[0-9a-z]{7,}$/);
  const c = await visit(browser, 'p1');
  expect(await beacon(request, 'p1')).toMatchObject({ hitType: 't', rsid: 'shopprod', prop5: 'v1', channel: 'shoes' });
  // The page loaded the build's files from its immutable folder, not the environment's.
  const base = await c.pages()[0]!.evaluate(() => (window as any).offtag.base);
  expect(base).toBe(`${cdnUrl}/${v1.build}/`);
  await c.close();
  expect((await versions()).environments).toEqual({ production: v1.version });
});

test('the snippets publish prints: the environment’s embed, and this version alone with Subresource Integrity, which the browser checks', async ({ browser, request }) => {
  expect(v1.embed).toEqual({ url: `${cdnUrl}/production/offtag.js`, snippet: `<script src="${cdnUrl}/production/offtag.js" async></script>` });
  expect(v1.pinned.snippet).toBe(`<script src="${cdnUrl}/${v1.build}/offtag.js" integrity="${v1.pinned.integrity}" crossorigin="anonymous" async></script>`);
  pinned = v1.pinned.snippet;
  let c = await browser.newContext();
  await (await c.newPage()).goto(`${siteUrl}/pinned?name=s1`);
  expect(await beacon(request, 's1')).toMatchObject({ rsid: 'shopprod', prop5: 'v1' });
  await c.close();
  // A file that is not the one published: the browser refuses it, and says why.
  pinned = v1.pinned.snippet.replace(v1.pinned.integrity, `sha384-${Buffer.alloc(48).toString('base64')}`);
  c = await browser.newContext();
  const p = await c.newPage();
  const lines = consoleOf(p);
  await p.goto(`${siteUrl}/pinned?name=s2`);
  await expect.poll(() => lines.some((l) => l.includes('integrity') && l.includes(`${v1.build}/offtag.js`))).toBe(true);
  expect(await p.evaluate(() => 'offtag' in window)).toBe(false);
  await c.close();
});

test('publish v2 to staging leaves production on v1; promote moves production to v2, built for production', async ({ browser, request }) => {
  v2 = await publish(V2, 'staging', 'promo rule');
  let c = await visit(browser, 'p2');
  expect(await beacon(request, 'p2')).toMatchObject({ rsid: 'shopprod', prop5: 'v1' });
  await c.close();

  const r = await offtag('promote', '--to', DIR, '--from', 'staging', '--env', 'production', '--json');
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ version: v2.version, env: 'production', previous: v1.version, from: 'staging' });
  const list = await versions();
  expect(list.environments).toEqual({ production: v2.version, staging: v2.version });
  expect(list.versions.find((v) => v.id === v2.version)?.live).toEqual(['staging', 'production']);
  c = await visit(browser, 'p3');
  // v2's page view (prop5 v2, and its new eVar1), with production's report suite: the version staging ran, for production.
  expect(await beacon(request, 'p3')).toMatchObject({ rsid: 'shopprod', prop5: 'v2', eVar1: 'shoes' });
  await c.close();
});

test('rollback: production sends v1 beacons again; an unknown version is one line and changes nothing', async ({ browser, request }) => {
  const r = await offtag('rollback', '--to', DIR, '--env', 'production', '--json');
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(r.stdout)).toMatchObject({ version: v1.version, previous: v2.version });
  const c = await visit(browser, 'p4');
  expect(await beacon(request, 'p4')).toMatchObject({ rsid: 'shopprod', prop5: 'v1' });
  await c.close();

  const pointer = readFileSync(join(DIR, 'production/offtag.js'));
  const bad = await offtag('rollback', '--to', DIR, '--env', 'production', '--version', 'zzzzzzz');
  expect(bad.code).toBe(1);
  expect(bad.stderr.trim().split('\n')).toEqual([`offtag rollback: no version "zzzzzzz" in ${DIR} (offtag versions --to ${DIR} lists them).`]);
  expect(readFileSync(join(DIR, 'production/offtag.js')).equals(pointer)).toBe(true);
});

test('preview: ?offtag_env=staging runs staging (v2) in one context, kept by a cookie, while another context keeps production (v1)', async ({ browser, request }) => {
  const a = await browser.newContext();
  const pa = await a.newPage();
  const lines = consoleOf(pa);
  await pa.goto(`${siteUrl}/?name=a1&offtag_env=staging`);
  // The page view queued by the snippet before any script ran is sent by staging's version, to staging's report suite.
  expect(await beacon(request, 'a1')).toMatchObject({ rsid: 'shopstage', prop5: 'v2', eVar1: 'shoes' });
  expect((await a.cookies()).find((c) => c.name === 'offtag_env')).toMatchObject({ value: 'staging', path: '/' });
  await expect.poll(() => lines.some((l) => l.includes('Offtag: preview: this browser runs staging'))).toBe(true);
  // A rule only v2 has, through the `_satellite` the page now has.
  await pa.evaluate(() => (window as any)._satellite.track('promo'));
  expect(await beacon(request, 'promo')).toMatchObject({ rsid: 'shopstage', prop5: 'v2', eVar2: 'spring' });
  const staging = (await versions()).versions.find((v) => v.id === v2.version)!.builds.staging;
  expect(await pa.evaluate(() => [(window as any)._satellite.environment.stage, (window as any).offtag.base])).toEqual(['staging', `${cdnUrl}/${staging}/`]);

  // Another browser, at the same time: production, v1.
  const b = await visit(browser, 'b1');
  expect(await beacon(request, 'b1')).toMatchObject({ rsid: 'shopprod', prop5: 'v1' });

  // The cookie keeps the preview on the next page, without the parameter.
  await pa.goto(`${siteUrl}/?name=a2`);
  expect(await beacon(request, 'a2')).toMatchObject({ rsid: 'shopstage', prop5: 'v2' });
  // Exactly one page view per page: production's worker sent nothing for the pages it handed over.
  expect((await beacons(request)).filter((x) => x.hitType === 't').map((x) => x.pageName).sort()).toEqual(['a1', 'a2', 'b1']);

  // ?offtag_env= ends it: production again, and the cookie is gone.
  await pa.goto(`${siteUrl}/?name=a3&offtag_env=`);
  expect(await beacon(request, 'a3')).toMatchObject({ rsid: 'shopprod', prop5: 'v1' });
  expect((await a.cookies()).find((c) => c.name === 'offtag_env')).toBeUndefined();
  await Promise.all([a.close(), b.close()]);
});

test('preview of an environment with nothing published: the console says so and the page runs production, its queued page view too', async ({ browser, request }) => {
  const c = await browser.newContext();
  const p = await c.newPage();
  const lines = consoleOf(p);
  await p.goto(`${siteUrl}/?name=d1&offtag_env=development`);
  expect(await beacon(request, 'd1')).toMatchObject({ rsid: 'shopprod', prop5: 'v1' });
  expect(lines).toContain(`Offtag: preview of development: ${cdnUrl}/development/offtag.js did not load; this page runs production as published.`);
  expect(await p.evaluate(() => (window as any).offtag.base)).toBe(`${cdnUrl}/${v1.build}/`);
  await c.close();
});

test('preview asked of a page whose offtag.js is not a published one: the console says so, the page runs its own', async ({ browser }) => {
  const c = await browser.newContext();
  const p = await c.newPage();
  const lines = consoleOf(p);
  await p.goto(`${siteUrl}/plain?offtag_env=staging`);
  await expect
    .poll(() => lines)
    .toContain(`Offtag: this browser asked to preview staging, but this offtag.js (${SERVERS.scripts}/) is not a published environment's (offtag publish); it runs as it is.`);
  // It runs as it is: the worker answers.
  expect(await p.evaluate(() => (window as any)._satellite.getVarAsync('page type'))).toBeDefined();
  expect(await p.evaluate(() => (window as any)._satellite.environment.stage)).toBe('production');
  await c.close();
});

test('the overlay says which environment and version run, and switches this browser to staging and back', async ({ browser, request }) => {
  const c = await visit(browser, 'o1');
  const p = c.pages()[0]!;
  await beacon(request, 'o1');
  await p.evaluate(() => document.head.append(Object.assign(document.createElement('script'), { src: (window as any).offtag.base + 'offtag-devtools.js' })));
  const line = p.locator('#offtag-devtools .publishing');
  await expect(line.locator('.running')).toHaveText(`runs production · version ${v1.version}`);
  await expect(line.locator('.live')).toHaveText(`staging: ${v2.version} · production: ${v1.version}`);
  await Promise.all([p.waitForEvent('load'), line.getByRole('button', { name: 'staging' }).click()]);
  expect(await beacon(request, 'o1')).toBeTruthy();
  await expect.poll(async () => (await beacons(request)).filter((x) => x.pageName === 'o1').map((x) => x.rsid)).toEqual(['shopprod', 'shopstage']);
  await p.evaluate(() => document.head.append(Object.assign(document.createElement('script'), { src: (window as any).offtag.base + 'offtag-devtools.js' })));
  await expect(line.locator('.running')).toHaveText(`runs staging · version ${v2.version} · preview of staging (this browser only)`);
  await Promise.all([p.waitForEvent('load'), line.getByRole('button', { name: 'end preview' }).click()]);
  await expect.poll(async () => (await beacons(request)).filter((x) => x.pageName === 'o1').map((x) => x.rsid)).toEqual(['shopprod', 'shopstage', 'shopprod']);
  await c.close();
});

/** Everything production runs: its offtag.js, the state's word for it, and the page's beacons. */
async function production(browser: Browser, request: APIRequestContext, name: string) {
  const c = await visit(browser, name);
  const b = await beacon(request, name);
  await c.close();
  return { pointer: readFileSync(join(DIR, 'production/offtag.js'), 'utf8'), live: (await versions()).environments.production, prop5: b.prop5, rsid: b.rsid };
}

test('a broken container is refused: nothing is written, production is untouched', async ({ browser, request }) => {
  const before = await production(browser, request, 'x1');
  const entries = readdirSync(DIR).sort();
  const r = await offtag('publish', '--container', BROKEN, '--env', 'production', '--to', DIR);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('%relase% names no data element');
  expect(r.stderr).toContain('is not valid; nothing was published, production is unchanged.');
  expect(readdirSync(DIR).sort()).toEqual(entries);
  expect(await production(browser, request, 'x2')).toEqual({ ...before });
  expect(before).toMatchObject({ live: v1.version, prop5: 'v1' });
});

test('two publishes at once: both versions whole, staging on one of them, production untouched', async ({ browser, request }) => {
  const before = await production(browser, request, 'y1');
  const [x, y] = await Promise.all([publish(V1, 'staging', 'concurrent one'), publish(V2, 'staging', 'concurrent two')]);
  const list = await versions(); // exits 1 on any damage: every build and record whole, every embed its version's
  expect(list.versions.map((v) => v.id)).toEqual(expect.arrayContaining([x.version, y.version]));
  expect([x.version, y.version]).toContain(list.environments.staging);
  expect(existsSync(join(DIR, '.offtag-publish.lock'))).toBe(false);
  expect(readdirSync(DIR).filter((n) => n.startsWith('.offtag-tmp-'))).toEqual([]);
  expect(await production(browser, request, 'y2')).toEqual({ ...before });
  // Staging's page runs whichever version it points at, whole.
  const c = await visit(browser, 'y3', '&offtag_env=staging');
  expect(await beacon(request, 'y3')).toMatchObject({ rsid: 'shopstage', prop5: list.environments.staging === x.version ? 'v1' : 'v2' });
  await c.close();
});

test('a publish killed while it builds leaves production as it was, and the next publish goes through', async ({ browser, request }) => {
  const before = await production(browser, request, 'k1');
  const child = spawn(process.execPath, ['tools/offtag.mjs', 'publish', '--container', V2, '--env', 'production', '--to', DIR], { stdio: 'ignore' });
  const exited = new Promise((r) => child.once('exit', r));
  // Killed as soon as its builds are under way (their temporary folder appears), before any switch.
  await expect.poll(() => readdirSync(DIR).some((n) => n.startsWith('.offtag-tmp-')), { timeout: 60_000 }).toBe(true);
  child.kill('SIGKILL');
  await exited;
  expect(await production(browser, request, 'k2')).toEqual({ ...before }); // and `versions` found no damage
  const next = await publish(V2, 'production', 'after the killed one');
  expect((await versions()).environments.production).toBe(next.version);
});

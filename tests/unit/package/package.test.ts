import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as a user gets it: `npm pack`, then `npm install <tarball>` into an empty folder (its
 * dependencies from the registry: esbuild, terser and the few modules the build uses), then `npx
 * offtag` from there: every command runs from the package alone (the CLI is prebuilt into dist/cli/,
 * the demo's third-party SDKs copied into dist/demo-vendor/), `offtag build` and `offtag import`
 * included. docs/containers.md's own walk from an empty folder is tests/unit/package/empty-folder.test.ts.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const BEACON = 'https://metrics.example.com/b/ss/acmeprod/1/JS-2.27.0/s42?AQB=1&pageName=acme%3Ahome%3Ax&v1=Full%20Logged%20In&events=event49&pe=lnk_d&pev1=https%3A%2F%2Fwww.example.com%2Fa.pdf&AQE=1';

/** Bytes of the files under a folder, as `du` counts them: links not followed, a file with two names (esbuild's binary) once. */
function sizeOf(path: string, seen = new Set<number>()): number {
  const s = lstatSync(path);
  if (s.isDirectory()) return readdirSync(path).reduce((n, name) => n + sizeOf(join(path, name), seen), 0);
  if (seen.has(s.ino)) return 0;
  seen.add(s.ino);
  return s.size;
}

let dir: string;
let app: string;
const started: ChildProcess[] = [];

/** Five free loopback ports. */
async function freePorts(n: number): Promise<number[]> {
  const servers = await Promise.all(
    Array.from({ length: n }, () => new Promise<ReturnType<typeof createServer>>((r) => { const s = createServer(); s.listen(0, '127.0.0.1', () => r(s)); })),
  );
  const ports = servers.map((s) => (s.address() as { port: number }).port);
  await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
  return ports;
}

const withoutNpmNoise = (text: string) => text.split('\n').filter((l) => l && !l.startsWith('npm warn')).join('\n');

/** A container as docs/containers.md writes one. */
const CONTAINER = `import { adobeServices, dataLayer, defineContainer } from 'offtag/container';

export default defineContainer({
  name: 'blog',
  settings: { dataLayer: 'blogData', reportSuites: { production: 'blogprod', staging: 'blogstage', development: 'blogdev' } },
  dataElements: { section: dataLayer('page.section', { default: 'home' }) },
  services: adobeServices(),
  rules: (k) => [{ name: 'Page View', events: [{ type: 'dom-ready' }], actions: [k.pageView(k.variables({ pageName: 'blog:%section%' }))] }],
});
`;

beforeAll(async () => {
  if (!existsSync(`${root}dist/offtag.js`)) throw new Error('dist/offtag.js is missing: run "npm run build" first.');
  dir = mkdtempSync(join(tmpdir(), 'offtag-pack-'));
  app = join(dir, 'app');
  mkdirSync(`${app}/node_modules`, { recursive: true });
  const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: root });
  const tarball = join(dir, packed.stdout.trim().split('\n').at(-1)!);
  writeFileSync(`${app}/package.json`, JSON.stringify({ name: 'site', private: true }));
  await run('npm', ['install', '--no-audit', '--no-fund', tarball], { cwd: app });
}, 180_000);

afterAll(() => {
  for (const p of started) if (p.pid && p.exitCode === null) process.kill(-p.pid, 'SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed package, installed into an empty folder', () => {
  it('installs offtag and its dependencies only (no React, tsx, Vite, SDKs or Partytown), at the size the README gives', () => {
    expect(Object.keys(pkg.dependencies ?? {}).sort()).toEqual(['@jridgewell/trace-mapping', 'acorn', 'comlink', 'css-selector-parser', 'esbuild', 'idb-keyval', 'terser']);
    expect(pkg.optionalDependencies ?? {}).toEqual({});
    expect(pkg.peerDependencies ?? {}).toEqual({});
    const installed = readdirSync(`${app}/node_modules`).filter((n) => !n.startsWith('.'));
    for (const dev of ['react', 'tsx', 'vite', '@vitejs', '@qwik.dev', '@datadog', '@amplitude', 'typescript']) expect(installed, dev).not.toContain(dev);
    const mb = (p: string) => sizeOf(p) / 1e6;
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const said = /installs ([\d.]+) MB \(the package ([\d.]+) MB, its dependencies the rest/.exec(readme);
    expect(said, 'README.md: "installs <n> MB (the package <n> MB, its dependencies the rest"').not.toBeNull();
    const [all, own] = [mb(`${app}/node_modules`), mb(`${app}/node_modules/offtag`)];
    expect(Math.abs(Number(said![1]) - all) / all, `README says ${said![1]} MB, installed ${all.toFixed(1)} MB`).toBeLessThan(0.15);
    expect(Math.abs(Number(said![2]) - own) / own, `README says ${said![2]} MB for the package, installed ${own.toFixed(1)} MB`).toBeLessThan(0.15);
  });

  it('npx offtag replay runs the prebuilt CLI (no tsx) and checks the fixture', async () => {
    expect(existsSync(`${app}/node_modules/offtag/tools/cli.ts`)).toBe(false);
    const fixture = `${root}tests/fixtures/storefront/page-view-logged-in.json`;
    const { stdout } = await run('npx', ['offtag', 'replay', fixture], { cwd: app });
    expect(stdout.split('\n')[1]).toMatch(/^#2 direct-call "Page View": rule Page View · beacon t acmeprod pageName=acme:educational content:order management /);
    writeFileSync(`${dir}/bad.json`, '{"events":[{"type":"pageview"}]}');
    const bad = await run('npx', ['offtag', 'replay', `${dir}/bad.json`], { cwd: app }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: withoutNpmNoise(err.stderr) }),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^offtag replay: .*bad\.json: event #1 \(pageview\): "type" must be one of /);
  }, 30_000);

  it('offtag/container and offtag/launch are JavaScript with declaration files; no TypeScript source is shipped', () => {
    const installed = `${app}/node_modules/offtag`;
    const manifest = JSON.parse(readFileSync(`${installed}/package.json`, 'utf8'));
    expect(manifest.exports['./container']).toEqual({ types: './dist/lib/container/index.d.ts', default: './dist/lib/container/index.js' });
    expect(manifest.exports['./launch']).toEqual({ types: './dist/lib/launch/index.d.ts', default: './dist/lib/launch/index.js' });
    for (const f of ['dist/lib/container/index.js', 'dist/lib/container/index.d.ts', 'dist/lib/launch/index.js', 'dist/lib/launch/index.d.ts', 'dist/runtime/bridge.js']) expect(existsSync(`${installed}/${f}`), f).toBe(true);
    expect(existsSync(`${installed}/src`)).toBe(false);
    // Declaration files name .js modules: a site's TypeScript needs no allowImportingTsExtensions.
    expect(readFileSync(`${installed}/dist/lib/container/index.d.ts`, 'utf8')).not.toMatch(/from '[^']+\.ts'/);
  });

  it('npx offtag build: a container that imports offtag/container; a folder that is not a build is refused, a failed build leaves nothing', async () => {
    mkdirSync(`${app}/src`, { recursive: true });
    writeFileSync(`${app}/src/container.ts`, CONTAINER);
    const built = await run('npx', ['offtag', 'build', '--container', 'src/container.ts', '--out', 'public/offtag'], { cwd: app });
    expect(built.stdout).toMatch(/^public\/offtag\/offtag\.js: \d+ bytes, \d+ bytes gzip \(budget: 3072\) · src\/container\.ts · production$/m);
    const info = JSON.parse(readFileSync(`${app}/public/offtag/build-info.json`, 'utf8'));
    expect(readdirSync(`${app}/public/offtag`).sort()).toEqual([...info.files].sort());
    // An earlier build is replaced.
    await run('npx', ['offtag', 'build', '--container', 'src/container.ts', '--out', 'public/offtag', '--env', 'staging'], { cwd: app });
    expect(JSON.parse(readFileSync(`${app}/public/offtag/build-info.json`, 'utf8')).environment).toBe('staging');
    // A folder with a site's files is not.
    writeFileSync(`${app}/public/index.html`, '<!doctype html>');
    const refused = await run('npx', ['offtag', 'build', '--container', 'src/container.ts', '--out', 'public'], { cwd: app }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: withoutNpmNoise(err.stderr) }),
    );
    expect(refused).toEqual({ code: 1, stderr: "offtag build: public holds files that are not an earlier offtag build's (index.html, offtag); offtag build replaces only its own output: give --out a new or empty folder." });
    expect(readdirSync(`${app}/public`).sort()).toEqual(['index.html', 'offtag']);
    // A broken container: its line, exit 1, and nothing left behind.
    writeFileSync(`${app}/src/broken.ts`, CONTAINER.replace("type: 'dom-ready'", "type: 'dom-redy'"));
    const broken = await run('npx', ['offtag', 'build', '--container', 'src/broken.ts', '--out', 'out'], { cwd: app }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: withoutNpmNoise(err.stderr) }),
    );
    expect(broken.code).toBe(1);
    expect(broken.stderr).toMatch(/^src\/broken\.ts:\d+:\d+: rule "Page View", event 1: "dom-redy" is no event type; did you mean "dom-ready"\?/);
    expect(readdirSync(app).filter((n) => n === 'out' || n.includes('offtag-build'))).toEqual([]);
  }, 120_000);

  it('npx offtag import: the imported container imports offtag/container and offtag/launch, builds and replays', async () => {
    const fixtures = `${root}tests/fixtures/launch`;
    await run('npx', ['offtag', 'import', `${fixtures}/every-module.js`, '--assets', `${fixtures}/assets`, '--out', 'imported/shop'], { cwd: app });
    const source = readFileSync(`${app}/imported/shop/container.ts`, 'utf8');
    expect(source).toContain(`from "offtag/container"`);
    expect(source).toContain(`from "offtag/launch"`);
    const built = await run('npx', ['offtag', 'build', '--container', 'imported/shop/container.ts', '--out', 'public/shop'], { cwd: app });
    expect(built.stdout).toMatch(/^public\/shop\/offtag\.js: /m);
    const replayed = await run('npx', ['offtag', 'replay', '--container', 'imported/shop/container.ts', `${root}tests/fixtures/storefront/page-view-logged-in.json`], { cwd: app });
    expect(replayed.stdout.split('\n')[0]).toMatch(/^#1 library-loaded: rules /);
  }, 120_000);

  it('ships offtag.js, its types and the CLI, and none of the tests', () => {
    const installed = `${app}/node_modules/offtag`;
    for (const f of ['dist/offtag.js', 'dist/offtag-worker.js', 'dist/offtag-sender.js', 'dist/offtag-effects.js', 'dist/offtag-triggers.js', 'dist/offtag-devtools.js', 'offtag.d.ts', 'tools/offtag.mjs', 'docs/configuration.md', 'README.md']) {
      expect(existsSync(`${installed}/${f}`), f).toBe(true);
    }
    expect(existsSync(`${installed}/tests`)).toBe(false);
    // The end-to-end tests build libraries into dist/test-builds/ (served at /dist/ by the test server); never shipped.
    expect(existsSync(`${installed}/dist/test-builds`)).toBe(false);
    const manifest = JSON.parse(readFileSync(`${installed}/package.json`, 'utf8'));
    expect(manifest.private).toBeUndefined();
    expect(manifest.types).toBe('./offtag.d.ts');
    expect(manifest.exports['.']).toEqual({ types: './offtag.d.ts', default: './dist/offtag.js' });
    expect(manifest.bin).toEqual({ offtag: 'tools/offtag.mjs' });
    for (const f of ['dist/cli/offtag-cli.mjs', 'dist/demo-vendor/datadog-rum/datadog-rum.js', 'dist/demo-vendor/amplitude/amplitude-min.js']) {
      expect(existsSync(`${installed}/${f}`), f).toBe(true);
    }
  });

  it('npx offtag decode prints the table', async () => {
    const { stdout } = await run('npx', ['offtag', 'decode', BEACON], { cwd: app });
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('link beacon · acmeprod · GET · JS-2.27.0 · s42');
    expect(lines.find((l) => l.startsWith('link URL'))?.replace(/ {2,}/g, ' | ')).toBe('link URL | pev1 | https://www.example.com/a.pdf');
    expect(lines.find((l) => l.startsWith('eVar1'))?.replace(/ {2,}/g, ' | ')).toBe('eVar1 | v1 | Full Logged In');
  }, 30_000);

  it('npx offtag serve --port … serves the demo, offtag.js and the collector; a busy port is one line', async () => {
    const [page, scripts, collector, id, rum] = await freePorts(5);
    const args = ['offtag', 'serve', '--port', `${page}`, '--scripts-port', `${scripts}`, '--collector-port', `${collector}`, '--id-port', `${id}`, '--rum-port', `${rum}`, '--quiet'];
    const server = spawn('npx', args, { cwd: app, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    started.push(server);
    let out = '';
    server.stdout!.on('data', (d) => (out += d));
    await expect.poll(() => out, { timeout: 20_000 }).toContain('Offtag demo: open');
    expect(out).toContain(`http://127.0.0.1:${page}/`);
    expect((await fetch(`http://127.0.0.1:${page}/`)).status).toBe(200);
    const script = await fetch(`http://127.0.0.1:${scripts}/offtag.js`);
    expect(script.status).toBe(200);
    expect(await script.text()).toBe(readFileSync(`${root}dist/offtag.js`, 'utf8'));
    expect(await (await fetch(`http://127.0.0.1:${collector}/__beacons`)).json()).toEqual([]);
    expect((await fetch(`http://127.0.0.1:${rum}/datadog-rum.js`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${rum}/amplitude/amplitude-min.js`)).status).toBe(200);

    // The same ports again: one line on stderr, exit code 1, no stack.
    const busy = await run('npx', args, { cwd: app }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: withoutNpmNoise(err.stderr) }),
    );
    expect(busy.code).toBe(1);
    expect(busy.stderr).toBe(
      `offtag serve: port ${page} on 127.0.0.1 (the demo page) is in use; stop what uses it or pick another with --port <n>.`,
    );
  }, 60_000);
});

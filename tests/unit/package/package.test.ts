import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The package as a user gets it: `npm pack`, then `npm install --offline <tarball>` into an empty
 * folder, then `npx offtag` from there. The package has no dependencies (the CLI is prebuilt into
 * dist/cli/, the demo's third-party SDKs copied into dist/demo-vendor/), so the install needs no
 * network and brings nothing but offtag itself.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8'));
const BEACON = 'https://metrics.example.com/b/ss/acmeprod/1/JS-2.27.0/s42?AQB=1&pageName=acme%3Ahome%3Ax&v1=Full%20Logged%20In&events=event49&pe=lnk_d&pev1=https%3A%2F%2Fwww.example.com%2Fa.pdf&AQE=1';

/** Bytes of the files under a folder. */
function sizeOf(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.size;
  return readdirSync(path).reduce((n, name) => n + sizeOf(join(path, name)), 0);
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

beforeAll(async () => {
  if (!existsSync(`${root}dist/offtag.js`)) throw new Error('dist/offtag.js is missing: run "npm run build" first.');
  dir = mkdtempSync(join(tmpdir(), 'offtag-pack-'));
  app = join(dir, 'app');
  mkdirSync(`${app}/node_modules`, { recursive: true });
  const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: root });
  const tarball = join(dir, packed.stdout.trim().split('\n').at(-1)!);
  writeFileSync(`${app}/package.json`, JSON.stringify({ name: 'site', private: true }));
  await run('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: app });
}, 90_000);

afterAll(() => {
  for (const p of started) if (p.pid && p.exitCode === null) process.kill(-p.pid, 'SIGTERM');
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('the packed package, installed into an empty folder', () => {
  it('has no dependencies: installing it brings offtag alone (no React, tsx, SDKs or Partytown), at the size the README gives', () => {
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.optionalDependencies ?? {}).toEqual({});
    expect(pkg.peerDependencies ?? {}).toEqual({});
    expect(readdirSync(`${app}/node_modules`).filter((n) => !n.startsWith('.'))).toEqual(['offtag']);
    const mb = sizeOf(`${app}/node_modules/offtag`) / 1e6;
    const readme = readFileSync(`${root}README.md`, 'utf8');
    const said = /installs ([\d.]+) MB and no dependencies/.exec(readme);
    expect(said, 'README.md: "installs <n> MB and no dependencies"').not.toBeNull();
    expect(Math.abs(Number(said![1]) - mb) / mb, `README says ${said![1]} MB, installed ${mb.toFixed(2)} MB`).toBeLessThan(0.15);
  });

  it('npx offtag replay runs the prebuilt CLI (no tsx) and checks the fixture', async () => {
    expect(existsSync(`${app}/node_modules/offtag/tools/cli.ts`)).toBe(false);
    const fixture = `${root}tests/fixtures/storefront/page-view-logged-in.json`;
    const { stdout } = await run('npx', ['--offline', 'offtag', 'replay', fixture], { cwd: app });
    expect(stdout.split('\n')[1]).toMatch(/^#2 direct-call "Page View": rule Page View · beacon t acmeprod pageName=acme:educational content:order management /);
    writeFileSync(`${dir}/bad.json`, '{"events":[{"type":"pageview"}]}');
    const bad = await run('npx', ['--offline', 'offtag', 'replay', `${dir}/bad.json`], { cwd: app }).then(
      () => ({ code: 0, stderr: '' }),
      (err: { code: number; stderr: string }) => ({ code: err.code, stderr: withoutNpmNoise(err.stderr) }),
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^offtag replay: .*bad\.json: event #1 \(pageview\): "type" must be one of /);
  }, 30_000);

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
    const { stdout } = await run('npx', ['--offline', 'offtag', 'decode', BEACON], { cwd: app });
    const lines = stdout.split('\n');
    expect(lines[0]).toBe('link beacon · acmeprod · GET · JS-2.27.0 · s42');
    expect(lines.find((l) => l.startsWith('link URL'))?.replace(/ {2,}/g, ' | ')).toBe('link URL | pev1 | https://www.example.com/a.pdf');
    expect(lines.find((l) => l.startsWith('eVar1'))?.replace(/ {2,}/g, ' | ')).toBe('eVar1 | v1 | Full Logged In');
  }, 30_000);

  it('npx offtag serve --port … serves the demo, offtag.js and the collector; a busy port is one line', async () => {
    const [page, scripts, collector, id, rum] = await freePorts(5);
    const args = ['--offline', 'offtag', 'serve', '--port', `${page}`, '--scripts-port', `${scripts}`, '--collector-port', `${collector}`, '--id-port', `${id}`, '--rum-port', `${rum}`, '--quiet'];
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

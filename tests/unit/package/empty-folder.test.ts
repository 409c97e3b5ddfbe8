import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright';
import { afterAll, describe, expect, it } from 'vitest';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../../chromium.ts';

/**
 * docs/containers.md, section 1, followed as written by a new user, in an empty folder with the
 * packed package (the one change: `npm install offtag` installs the tarball; its dependencies and
 * TypeScript come from the registry): each `sh` block's commands run in order, the `ts` block
 * whose first line names a file is written there, `offtag dev` is opened in Chromium and its
 * terminal must print the page view decoded; the container type-checks with `tsc --init`'s
 * settings and builds. A change to the section that breaks the walk breaks this test. Then, in the
 * same folder, the container of "Single-page apps and data layers" (section 6: history change, ACDL
 * and GTM pushes, `fromEvent`) type-checks against the package's declarations and builds
 * (tests/e2e/container-events.spec.ts runs it in Chromium from the checkout).
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const run = promisify(execFile);
const md = readFileSync(`${root}docs/containers.md`, 'utf8');
const section = md.slice(md.indexOf('## 1. '), md.indexOf('## 2. '));
const blocks = [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)].map((m) => ({ lang: m[1]!, code: m[2]! }));
const spa = md.slice(md.indexOf('### Single-page apps and data layers'), md.indexOf('## 7. '));
const spaContainer = /^```ts\n(\/\/ tags\/shop\.ts\n[\s\S]*?)^```/m.exec(spa)?.[1];

const dir = mkdtempSync(join(tmpdir(), 'offtag-empty-folder-'));
const site = join(dir, 'site');
const started: ChildProcess[] = [];
afterAll(() => {
  for (const p of started) stop(p);
  rmSync(dir, { recursive: true, force: true });
});

/** Ends a process group this test started (it may have ended already). */
function stop(p: ChildProcess) {
  try {
    if (p.pid) process.kill(-p.pid, 'SIGTERM');
  } catch {
    /* already gone */
  }
}

/** A port p with p, p + 2 and p + 3 free (offtag dev's page, collector and ID service). */
async function freeBase(): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
    });
  for (let p = 20000 + Math.floor(Math.random() * 20000); ; p += 7) if ((await free(p)) && (await free(p + 2)) && (await free(p + 3))) return p;
}

/** Runs `offtag dev` as written, opens what it says to open, and returns the terminal once a beacon is printed. */
async function devLoop(command: string): Promise<string> {
  const base = await freeBase();
  const dev = spawn('sh', ['-c', command], { cwd: site, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, OFFTAG_PORT_BASE: String(base) } });
  started.push(dev);
  let out = '';
  dev.stdout!.on('data', (d) => (out += d));
  dev.stderr!.on('data', (d) => (out += d));
  await expect.poll(() => out, { timeout: 60_000, message: 'offtag dev says where to open' }).toMatch(/offtag dev: open (http:\S+)/);
  const url = /offtag dev: open (http:\S+)/.exec(out)![1]!;
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage();
    await page.goto(url);
    await expect.poll(() => out, { timeout: 30_000, message: 'a beacon printed' }).toMatch(/^beacon 1: page view beacon · blogdev · /m);
  } finally {
    await browser.close();
    stop(dev);
  }
  return out;
}

describe('docs/containers.md: from an empty folder to a beacon, with the packed package', () => {
  it('every step as written: install, the container, offtag dev (a beacon in Chromium), tsc, offtag build', async () => {
    expect(blocks.map((b) => b.lang)).toEqual(['sh', 'ts', 'sh', '', 'sh', '', 'sh']);
    const packed = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: root });
    const tarball = join(dir, packed.stdout.trim().split('\n').at(-1)!);
    mkdirSync(site);
    const steps: string[] = [];
    for (const block of blocks) {
      if (block.lang === 'ts') {
        const file = /^\/\/ (\S+)\n/.exec(block.code)?.[1];
        expect(file, 'the container block names its file').toBe('tags/container.ts');
        mkdirSync(join(site, dirname(file!)), { recursive: true });
        writeFileSync(join(site, file!), block.code);
        steps.push(`wrote ${file}`);
        continue;
      }
      if (block.lang !== 'sh') continue;
      for (const line of block.code.split('\n').filter(Boolean)) {
        const command = line === 'npm install offtag' ? `npm install --no-audit --no-fund ${tarball}` : line;
        steps.push(line);
        if (line.startsWith('npx offtag dev ')) {
          const terminal = await devLoop(command);
          expect(terminal).toMatch(/^offtag dev: built tags\/container\.ts \(development\) in [\d.]+ s · offtag\.js \d+ bytes gzip$/m);
          expect(terminal).toMatch(/^ {2}pageName +pageName +blog:home$/m);
          continue;
        }
        const result = await run('sh', ['-c', command], { cwd: site }).catch((err: { code: number; stdout: string; stderr: string }) => err);
        expect('code' in result ? `${line}: exit ${result.code}\n${result.stdout}${result.stderr}` : '', line).toBe('');
      }
    }
    expect(steps).toEqual([
      'npm init -y',
      'npm pkg set type=module',
      'npm install offtag',
      'wrote tags/container.ts',
      'npx offtag dev --container tags/container.ts',
      'npm install --save-dev typescript',
      'npx tsc --init',
      'npx tsc --noEmit',
      'npx offtag build --container tags/container.ts --out public/offtag',
    ]);
    // Nothing but the package and TypeScript was installed by hand; the build wrote its folder.
    const manifest = JSON.parse(readFileSync(join(site, 'package.json'), 'utf8'));
    expect(Object.keys(manifest.dependencies)).toEqual(['offtag']);
    expect(Object.keys(manifest.devDependencies)).toEqual(['typescript']);
    expect(existsSync(join(site, 'public/offtag/offtag.js'))).toBe(true);
    expect(readdirSync(join(site, 'public/offtag'))).toContain('offtag-worker.js');

    // Section 6's single-page app container, beside the first: tsc (the package's declarations) and the build.
    expect(spaContainer, 'docs/containers.md has the tags/shop.ts block').toBeDefined();
    writeFileSync(join(site, 'tags/shop.ts'), spaContainer!);
    for (const line of ['npx tsc --noEmit', 'npx offtag build --container tags/shop.ts --out public/shop']) {
      const result = await run('sh', ['-c', line], { cwd: site }).catch((err: { code: number; stdout: string; stderr: string }) => err);
      expect('code' in result ? `${line}: exit ${result.code}\n${result.stdout}${result.stderr}` : '', line).toBe('');
    }
    expect(readdirSync(join(site, 'public/shop'))).toContain('offtag-worker.js');
  }, 300_000);
});

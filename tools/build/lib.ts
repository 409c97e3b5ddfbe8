/**
 * `dist/lib/`: what a site's project imports, as JavaScript with declaration files, so its own
 * TypeScript settings check a container with no special flag: `offtag/container` (the authoring
 * API), `offtag/launch` (the Launch runtime imported containers are written with) and the worker's
 * start, which `offtag build` bundles with the container (tools/build/build.ts). Emitted by the
 * checkout's TypeScript, one file per source file (so the container and the worker share modules
 * in a bundle), with `.ts` import paths written as `.js`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The package's JavaScript entries, by the source file they are emitted from. */
export const LIB_ENTRIES = ['container/index.ts', 'launch/index.ts', 'worker-engine/worker-shell.ts', 'worker-engine/transport/beacon-sink.ts'];

export async function buildLib(out: string): Promise<void> {
  const tmp = await mkdtemp(join(tmpdir(), 'offtag-lib-'));
  try {
    const config = {
      compilerOptions: {
        target: 'ES2022',
        module: 'ESNext',
        moduleResolution: 'bundler',
        lib: ['ES2022', 'DOM', 'DOM.Iterable', 'WebWorker'],
        // waiting.ts feature-tests setImmediate (Node); no declaration names a Node type.
        types: ['node'],
        typeRoots: [`${root}node_modules/@types`],
        strict: true,
        skipLibCheck: true,
        declaration: true,
        rewriteRelativeImportExtensions: true,
        isolatedModules: true,
        rootDir: `${root}src`,
        outDir: out,
      },
      files: LIB_ENTRIES.map((e) => `${root}src/${e}`),
    };
    await writeFile(`${tmp}/tsconfig.json`, JSON.stringify(config));
    await rm(out, { recursive: true, force: true });
    try {
      await promisify(execFile)(`${root}node_modules/.bin/tsc`, ['-p', `${tmp}/tsconfig.json`], { cwd: root });
    } catch (err) {
      throw new Error(`dist/lib: tsc failed:\n${(err as { stdout?: string }).stdout ?? err}`);
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  // Declaration files keep the sources' `.ts` paths; a site's settings resolve `.js` ones.
  for (const file of await readdir(out, { recursive: true }))
    if (file.endsWith('.d.ts')) {
      const path = join(out, file);
      const text = await readFile(path, 'utf8');
      await writeFile(path, text.replace(/((?:from|import)\s*\(?\s*['"]\.{1,2}\/[^'"]*?)\.ts(['"])/g, '$1.js$2'));
    }
}

/**
 * tools/ is the checkout's command line (build, import, serve, replay): an installed package ships
 * only tools/offtag.mjs of it, and nothing a page or a worker runs may need it. esbuild bundles each
 * runtime entry point (the script tag's code, the worker, the sender, the lazy chunks, the page
 * side, offtag/container, offtag/launch) and the worker `offtag build` writes for the storefront and
 * for an imported Launch library, and every file a bundle takes in, and every module those files
 * import even for types (a declaration file of dist/lib would name it), must lie outside tools/.
 */
import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ALIASES, workerEntry } from '../../../tools/build/build.ts';
import { LIB_ENTRIES } from '../../../tools/build/lib.ts';
import { RUNTIME_CHUNKS } from '../../../tools/build/runtime.ts';
import { runImport } from '../../../tools/import/command.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const tools = resolve(root, 'tools');
const OUT = 'test-results/unit-build-layout';

const under = (dir: string, path: string) => !relative(dir, path).startsWith('..');

/** Each file under tools/ a bundle takes in or a file of src/ imports (even for types), with the file that imports it. */
function toolsInputs(meta: Metafile): string[] {
  const found = new Set<string>();
  const check = (path: string, by: string) => under(tools, path) && found.add(`${relative(root, path)} (imported by ${relative(root, by)})`);
  for (const [input, { imports }] of Object.entries(meta.inputs)) {
    const abs = resolve(root, input);
    for (const i of imports) if (!i.external) check(resolve(root, i.path), abs);
    // A type-only import is erased from the bundle but stays in the emitted declaration files.
    if (abs.startsWith(`${root}src/`) && /\.tsx?$/.test(abs))
      for (const [, spec] of readFileSync(abs, 'utf8').matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) check(resolve(dirname(abs), spec!), abs);
  }
  return [...found];
}

const bundle = async (options: Parameters<typeof build>[0]) => {
  const result = await build({
    bundle: true,
    write: false,
    metafile: true,
    platform: 'browser',
    format: 'esm',
    target: 'es2020',
    logLevel: 'silent',
    outdir: `${OUT}/out`,
    // A stray import of a command-line file fails on what it is, not on the Node modules it imports.
    external: ['node:*'],
    ...options,
  });
  return result.metafile!;
};

describe('nothing under tools/ is in what a page or a worker runs', () => {
  const entries = [
    'src/main-bridge/index.ts',
    'src/page-side/index.ts',
    ...RUNTIME_CHUNKS.map(([, entry]) => entry),
    ...LIB_ENTRIES.map((e) => `src/${e}`),
  ];

  it('the runtime entry points: the bridge, the page side, the sender, the lazy chunks, the devtools, the worker, offtag/container, offtag/launch', async () => {
    expect(entries).toEqual(expect.arrayContaining(['src/worker-engine/sender-main.ts', 'src/worker-engine/worker-shell.ts', 'src/container/index.ts', 'src/launch/index.ts']));
    const meta = await bundle({ entryPoints: entries.map((e) => `${root}${e}`) });
    expect(Object.keys(meta.inputs).length).toBeGreaterThan(50);
    expect(toolsInputs(meta)).toEqual([]);
  });

  it.each([
    ['the storefront container', () => `${root}containers/storefront/container.ts`],
    [
      'a container imported from a Launch library',
      () => {
        runImport({ library: 'tests/fixtures/launch/storefront.js', out: `${OUT}/imported`, assets: 'tests/fixtures/launch/assets' });
        return resolve(`${OUT}/imported/container.ts`);
      },
    ],
  ])("%s: the worker offtag build bundles", async (_, containerFile) => {
    const file = containerFile();
    const meta = await bundle({
      stdin: { contents: workerEntry(file, 'production'), resolveDir: dirname(file), sourcefile: 'offtag-worker-entry.js', loader: 'js' },
      alias: PACKAGE_ALIASES,
    });
    expect(Object.keys(meta.inputs).some((i) => resolve(root, i) === file)).toBe(true);
    expect(toolsInputs(meta)).toEqual([]);
  });
});

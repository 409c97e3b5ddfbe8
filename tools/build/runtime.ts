/**
 * The container-independent part of every library, built in the checkout with Vite (a development
 * tool of the checkout, never a dependency of the package): the script tag's code before a
 * container's constants are written in (`bridge.js`, minified with the `__OFFTAG_*__` constants
 * left as free names: `offtag build` writes them in with terser, tools/build/build.ts), the
 * sender, the lazy chunks, the devtools and Partytown's files. The package ships them in
 * `dist/runtime/`, so `offtag build` in a site's project bundles only the container's worker.
 */
import { cp, mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The chunks every library serves as they are, by file name and entry. */
export const RUNTIME_CHUNKS: ReadonlyArray<readonly [file: string, entry: string]> = [
  ['offtag-sender.js', 'src/worker-engine/sender-main.ts'],
  ['offtag-visitor.js', 'src/main-bridge/visitor-entry.ts'],
  ['offtag-effects.js', 'src/main-bridge/rare-effects-entry.ts'],
  // Page triggers (docs/triggers.md): loaded by offtag-effects.js only for a container whose rules use them.
  ['offtag-triggers.js', 'src/main-bridge/triggers-entry.ts'],
  // Preview (docs/publishing.md): loaded by offtag-effects.js only in a browser that previews another environment.
  ['offtag-preview.js', 'src/main-bridge/preview-entry.ts'],
  ['offtag-devtools.js', 'src/devtools/index.tsx'],
];

/** The script tag's code, its container constants still to write in. */
export const BRIDGE_TEMPLATE = 'bridge.js';

export async function buildRuntime(out: string): Promise<string> {
  const { build } = await import('vite');
  await rm(out, { recursive: true, force: true });
  await mkdir(out, { recursive: true });
  const bundle = (entry: string, fileName: string) =>
    build({
      root,
      configFile: false,
      logLevel: 'warn',
      // React (the devtools) reads it; the bridge's own constants stay free names here.
      define: { 'process.env.NODE_ENV': '"production"' },
      build: {
        outDir: out,
        emptyOutDir: false,
        target: 'es2020',
        minify: true,
        sourcemap: false,
        copyPublicDir: false,
        lib: { entry: `${root}${entry}`, formats: ['iife'], name: 'offtagBundle', fileName: () => fileName },
      },
    });
  await bundle('src/main-bridge/index.ts', BRIDGE_TEMPLATE);
  for (const [file, entry] of RUNTIME_CHUNKS) await bundle(entry, file);
  await cp(`${root}node_modules/@qwik.dev/partytown/lib`, `${out}/~partytown`, { recursive: true });
  return out;
}

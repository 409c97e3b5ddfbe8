/**
 * What the default build adds to dist/ for the package (README "As a package"), so that installing
 * it is all a site's project needs:
 * - `dist/cli/offtag-cli.mjs`: the `offtag` command prebuilt for Node with everything it imports
 *   (tools/offtag.mjs runs it outside the checkout), except the package's dependencies (esbuild,
 *   terser…, installed with it) and the checkout's own tools, which only checkout paths load.
 * - `dist/lib/`: `offtag/container` and `offtag/launch` as JavaScript with declaration files
 *   (tools/build/lib.ts).
 * - `dist/runtime/`: the files no container changes (tools/build/runtime.ts), which `offtag build`
 *   copies into each library.
 * - `dist/demo-vendor/`: the Datadog RUM and Amplitude scripts the demo loads, which the local RUM
 *   intake serves (tools/rum-intake/server.ts).
 */
import { cp, mkdir, readFile, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { runtimeDir } from './build.ts';
import { buildLib } from './lib.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** The checkout's tools, which the prebuilt CLI never loads (only checkout paths do); never bundled. */
export const CLI_EXTERNAL = ['vite', 'tsx', '@vitejs/plugin-react', 'rolldown', 'lightningcss', 'fsevents'];

export async function buildPackageExtras(dist = `${root}dist`): Promise<void> {
  await rm(`${dist}/runtime`, { recursive: true, force: true });
  await cp(await runtimeDir(), `${dist}/runtime`, { recursive: true });
  await buildLib(`${dist}/lib`);
  const dependencies = Object.keys(JSON.parse(await readFile(`${root}package.json`, 'utf8')).dependencies ?? {});
  const vendor = `${dist}/demo-vendor`;
  await mkdir(`${vendor}/amplitude`, { recursive: true });
  await cp(`${root}node_modules/@datadog/browser-rum/bundle/datadog-rum.js`, `${vendor}/datadog-rum/datadog-rum.js`);
  await cp(`${root}node_modules/@datadog/browser-rum/bundle/chunks`, `${vendor}/datadog-rum/chunks`, { recursive: true });
  await cp(`${root}node_modules/@amplitude/analytics-browser/lib/scripts/amplitude-min.js`, `${vendor}/amplitude/amplitude-min.js`);
  const { build } = await import('vite');
  await build({
    root,
    configFile: false,
    logLevel: 'warn',
    ssr: { noExternal: true, external: [...CLI_EXTERNAL, ...dependencies], target: 'node' },
    build: {
      ssr: `${root}tools/cli.ts`,
      outDir: `${dist}/cli`,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      sourcemap: false,
      copyPublicDir: false,
      rollupOptions: { output: { format: 'es', entryFileNames: 'offtag-cli.mjs', chunkFileNames: '[name]-[hash].mjs' } },
    },
  });
}

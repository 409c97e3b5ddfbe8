/**
 * What the default build adds to dist/ for the package (README "As a package"), so a site that
 * installs it needs no dependency:
 * - `dist/cli/offtag-cli.mjs`: the `offtag` command prebuilt for Node with everything it imports
 *   (tools/offtag.mjs runs it outside the checkout). The build tools a command loads only when run
 *   (`offtag build`'s Vite, tsx) stay external: such a command says which package it needs.
 * - `dist/demo-vendor/`: the Datadog RUM and Amplitude scripts the demo loads, which the local RUM
 *   intake serves (tools/rum-intake/server.ts).
 */
import { cp, mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** Packages the CLI loads only for commands that build code; never bundled. */
export const CLI_EXTERNAL = ['vite', 'tsx', '@vitejs/plugin-react', 'terser', 'esbuild', 'rolldown', 'lightningcss', 'fsevents'];

export async function buildPackageExtras(dist = `${root}dist`): Promise<void> {
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
    ssr: { noExternal: true, external: CLI_EXTERNAL, target: 'node' },
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

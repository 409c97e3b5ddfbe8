// Builds dist/: offtag.js (the one classic script a site embeds), offtag-worker.js (the worker,
// loaded by offtag.js through a same-origin blob), the devtools overlay, Partytown's files and the
// demo storefront (a React app, dist/demo/, served by `offtag serve`).
import { build } from 'vite';
import react from '@vitejs/plugin-react';
import { cp, mkdir, rm, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist`;

const bundle = (entry, fileName, extra = {}) =>
  build({
    root,
    configFile: false,
    logLevel: 'warn',
    define: { 'process.env.NODE_ENV': '"production"' },
    build: {
      outDir: dist,
      emptyOutDir: false,
      target: 'es2020',
      minify: true,
      sourcemap: false,
      copyPublicDir: false,
      lib: { entry: `${root}${entry}`, formats: ['iife'], name: extra.name ?? 'offtagBundle', fileName: () => fileName },
      ...extra.build,
    },
  });

await rm(dist, { recursive: true, force: true });
await mkdir(dist, { recursive: true });
await bundle('src/main-bridge/index.ts', 'offtag.js');
await bundle('src/worker-engine/worker-main.ts', 'offtag-worker.js');
await bundle('src/worker-engine/sender-main.ts', 'offtag-sender.js');
await bundle('src/main-bridge/visitor-entry.ts', 'offtag-visitor.js');
await bundle('src/main-bridge/rare-effects-entry.ts', 'offtag-effects.js');
if (existsSync(`${root}src/devtools/index.tsx`)) await bundle('src/devtools/index.tsx', 'offtag-devtools.js');
await cp(`${root}node_modules/@qwik.dev/partytown/lib`, `${dist}/~partytown`, { recursive: true });
// The demo storefront (demo/, README "The two commands"): an app of its own, not part of Offtag.
if (existsSync(`${root}demo/index.html`)) {
  await build({
    root: `${root}demo`,
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: `${dist}/demo`, emptyOutDir: true, target: 'es2020', sourcemap: false },
  });
}

// The third-party SDKs the demo loads, served by the local RUM intake (tools/rum-intake/server.ts):
// copied here so an installed package serves the demo without them as dependencies.
const vendor = `${dist}/demo-vendor`;
await mkdir(`${vendor}/amplitude`, { recursive: true });
await cp(`${root}node_modules/@datadog/browser-rum/bundle/datadog-rum.js`, `${vendor}/datadog-rum/datadog-rum.js`);
await cp(`${root}node_modules/@datadog/browser-rum/bundle/chunks`, `${vendor}/datadog-rum/chunks`, { recursive: true });
await cp(`${root}node_modules/@amplitude/analytics-browser/lib/scripts/amplitude-min.js`, `${vendor}/amplitude/amplitude-min.js`);

// The `offtag` command, prebuilt for Node with everything it imports (tools/offtag.mjs runs it
// when the package is installed, so a site needs neither tsx nor the tools' dependencies).
await build({
  root,
  configFile: false,
  logLevel: 'warn',
  ssr: { noExternal: true, target: 'node' },
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

const main = await readFile(`${dist}/offtag.js`);
const size = { raw: main.length, gzip: gzipSync(main, { level: 9 }).length };
await writeFile(`${dist}/size.json`, JSON.stringify({ 'offtag.js': size }, null, 2));
console.log(`dist/offtag.js: ${size.raw} bytes, ${size.gzip} bytes gzip (budget: 3072)`);

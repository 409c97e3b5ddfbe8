/**
 * `offtag build`: one library per container and environment, as Launch builds development,
 * staging and production libraries (docs/containers.md, "Build"). It loads the container module,
 * validates it (src/container/validate.ts: one line per problem, naming the file, the item and
 * what is wrong), then bundles offtag.js, the worker (its entry generated for this container),
 * the sender, the rare-effects and visitor chunks, the devtools and Partytown's files into `--out`.
 * The container's session keys, page-setting defaults and build info are written into the bridge,
 * and its page code (page reads, imported Launch code: tools/build/page-reads.ts) beside it.
 */
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { gzipSize } from './gzip-size.ts';
import { tsImport } from 'tsx/esm/api';
import type { Container } from '../../src/worker-engine/core/types.ts';
import { defaultsFor, type Environment } from '../../src/worker-engine/core/settings.ts';
import { validateContainer } from '../../src/container/validate.ts';
import { PAGE_PARAMETER, pageReadProblems, pageReadsIn, pageText, wrapBridge } from './page-reads.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
export const DEFAULT_CONTAINER = 'containers/storefront/container.ts';
export const ENVIRONMENTS: readonly Environment[] = ['development', 'staging', 'production'];
export const BRIDGE_BUDGET = 3072;

export interface BuildOptions {
  /** The container module (its default export, or its one exported container). */
  container: string;
  env: Environment;
  out: string;
  /** Also build the demo storefront app (the default `npm run build`). */
  demo?: boolean;
  /** The build date written into `_satellite.buildInfo`; default: the container's `buildDate`, else now. */
  buildDate?: string;
}

const USAGE = 'usage: offtag build [--container <file>] [--env development|staging|production] [--out <dir>]';

/** The options of `offtag build`'s argument list, or the one line that says what is wrong with it. */
export function parseBuildArgs(argv: string[]): BuildOptions | string {
  const o: BuildOptions = { container: DEFAULT_CONTAINER, env: 'production', out: 'dist', demo: true };
  for (let i = 0; i < argv.length; i++) {
    const [flag, value] = [argv[i], argv[i + 1]];
    if (flag === '--help') return USAGE;
    if (!['--container', '--env', '--out'].includes(flag)) return `offtag build: unknown argument "${flag}". ${USAGE}`;
    if (value === undefined || value.startsWith('--')) return `offtag build: ${flag} needs a value. ${USAGE}`;
    i++;
    if (flag === '--container') [o.container, o.demo] = [value, value === DEFAULT_CONTAINER];
    if (flag === '--out') o.out = value;
    if (flag === '--env') {
      if (!(ENVIRONMENTS as readonly string[]).includes(value)) return `offtag build: --env must be one of ${ENVIRONMENTS.join(', ')}; got "${value}".`;
      o.env = value as Environment;
    }
  }
  return o;
}

/** The container a module exports: its default export, else its one export that looks like a container. */
export async function loadContainer(file: string): Promise<Container<string, object, unknown>> {
  const mod = (await tsImport(pathToFileURL(resolve(file)).href, import.meta.url)) as Record<string, unknown>;
  const isContainer = (v: unknown): v is Container<string, object, unknown> =>
    !!v && typeof v === 'object' && 'dataElements' in v && 'rules' in v;
  if (isContainer(mod.default)) return mod.default;
  const found = Object.values(mod).filter(isContainer);
  if (found.length === 1) return found[0];
  throw new Error(`${file}: exports no container (export default defineContainer({...})).`);
}

/** The settings the build adds for an environment: the environment itself, and debug messages on in development. */
export function environmentSettings(env: Environment): Record<string, unknown> {
  return env === 'development' ? { environment: env, debug: true } : { environment: env };
}

/** What the build writes into the bundles (Vite `define`): the container's facts the bridge needs before the worker answers. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any container, whatever its names, services and settings
/**
 * The bridge's session keys as a function of the page's brand (`offtagConfig.brand`): each
 * `{brand}` in a key becomes the brand, written as an expression (fewer bytes in offtag.js than
 * replacing at run time).
 */
export function sessionKeysOf(keys: readonly string[]): string {
  return `(b)=>[${keys.map((k) => k.split('{brand}').map((part) => JSON.stringify(part)).join('+b+')).join(',')}]`;
}

/** The page side's defines: `__OFFTAG_PAGE__` (0, or the wrapper's parameter); `__OFFTAG_PAGE_HOST__`, `__OFFTAG_PAGE_STEPS__` (1 with a module host, with page steps). */
const pageDefines = (page: { data?: string; host: boolean; steps?: boolean }) => ({
  __OFFTAG_PAGE__: page.data ? PAGE_PARAMETER : '0',
  __OFFTAG_PAGE_HOST__: page.host ? '1' : '0',
  __OFFTAG_PAGE_STEPS__: page.steps ? '1' : '0',
});

export function buildConstants(container: Container<any, any, any>, env: Environment, buildDate: string) {
  const d = defaultsFor(container);
  return {
    __OFFTAG_PAGE_DEFAULTS__: JSON.stringify({ brand: d.brand, dataLayer: d.dataLayer, environment: env, workerUrl: d.workerUrl }),
    __OFFTAG_SESSION_KEYS__: sessionKeysOf(container.sessionKeys),
    // `0` without page code: the bridge's page side (src/page-side) is dropped (tools/build/page-reads.ts);
    // else the parameter of offtag.js's wrapper that holds the container's page code, written outside the bundle.
    ...pageDefines(pageText(container)),
    __OFFTAG_BUILD_INFO__: JSON.stringify({
      buildDate,
      turbineBuildDate: buildDate,
      turbineVersion: 'offtag',
      environment: env,
      minified: true,
      containerName: container.name,
      containerVersion: container.version ?? '',
    }),
    'process.env.NODE_ENV': '"production"',
  };
}

/** The worker's entry (its composition root) for one container: generated, so the engine imports no container. */
export function workerEntry(containerFile: string, env: Environment): string {
  const src = (p: string) => JSON.stringify(join(root, 'src', p));
  return [
    `// Generated by offtag build for ${relative(root, containerFile) || containerFile} (${env}).`,
    `import * as mod from ${JSON.stringify(containerFile)};`,
    `import { startWorker } from ${src('worker-engine/worker-shell.ts')};`,
    `import { createBeaconSink } from ${src('worker-engine/transport/beacon-sink.ts')};`,
    `const found = mod.default ?? Object.values(mod).find((v) => v && typeof v === 'object' && 'dataElements' in v);`,
    `const container = { ...found, settings: { ...found.settings, ...${JSON.stringify(environmentSettings(env))} } };`,
    `startWorker({ container, beacons: createBeaconSink });`,
    '',
  ].join('\n');
}

/**
 * A second pass over offtag.js, the one script every page pays for (<= 3072 B gzip): terser, three
 * passes, over Vite's minified output, inlines the single-use functions and constants that keep
 * the bridge's source split into named pieces (src/main-bridge/index.ts). `unsafe_arrows` makes
 * function expressions that use neither `this` nor `arguments` arrows; the bridge calls none with `new`.
 */
export async function squeezeBridge(file: string): Promise<void> {
  const { minify } = await import('terser');
  const { code } = await minify(await readFile(file, 'utf8'), { ecma: 2020, compress: { passes: 3, unsafe_arrows: true } });
  if (code) await writeFile(file, code);
}

/**
 * What `buildLibrary` made: offtag.js's size (raw and gzip), and `bridge`, the gzip size of the same
 * offtag.js without the container's page code — the figure the 3072-byte budget is for: page
 * code (page reads, imported Launch code, and the page side that runs them) is the container's own,
 * written into offtag.js only for a container that has some (docs/containers.md, "Page reads").
 * Equal to `gzip` for a container without page code.
 */
export interface BuildResult {
  gzip: number;
  raw: number;
  bridge: number;
  problems: string[];
}

export async function buildLibrary(o: BuildOptions): Promise<BuildResult> {
  const file = isAbsolute(o.container) ? o.container : resolve(o.container);
  const container = await loadContainer(file);
  const shown = relative(process.cwd(), file) || file;
  const problems = [...validateContainer(container, shown), ...pageReadProblems(pageReadsIn(container), shown, container.page)];
  if (problems.length) return { gzip: 0, raw: 0, bridge: 0, problems };
  const buildDate = o.buildDate ?? (container as { buildDate?: string }).buildDate ?? new Date().toISOString();
  const out = resolve(o.out);
  const define = buildConstants(container, o.env, buildDate);
  const { build } = await import('vite');
  const bundle = (entry: string, fileName: string, outDir = out, defines: Record<string, string> = define) =>
    build({
      root,
      configFile: false,
      logLevel: 'warn',
      define: defines,
      build: {
        outDir,
        emptyOutDir: false,
        target: 'es2020',
        minify: true,
        sourcemap: false,
        copyPublicDir: false,
        lib: { entry, formats: ['iife'], name: 'offtagBundle', fileName: () => fileName },
      },
    });

  const tmp = await mkdtemp(join(tmpdir(), 'offtag-build-'));
  let bridge = 0;
  try {
    const entry = join(tmp, 'worker-entry.ts');
    await writeFile(entry, workerEntry(file, o.env));
    await rm(out, { recursive: true, force: true });
    await mkdir(out, { recursive: true });
    await bundle(`${root}src/main-bridge/index.ts`, 'offtag.js');
    await squeezeBridge(`${out}/offtag.js`);
    // The container's page code: written as plain text outside the bundled bridge (tools/build/page-reads.ts).
    const page = pageText(container);
    if (page.data) await writeFile(`${out}/offtag.js`, wrapBridge(await readFile(`${out}/offtag.js`, 'utf8'), page.data));
    // The bridge alone (no page code), measured against its budget.
    if (page.data) {
      await bundle(`${root}src/main-bridge/index.ts`, 'offtag.js', join(tmp, 'bridge'), { ...define, ...pageDefines({ host: false }) });
      await squeezeBridge(join(tmp, 'bridge', 'offtag.js'));
      bridge = gzipSize(join(tmp, 'bridge', 'offtag.js'));
    }
    await bundle(entry, 'offtag-worker.js');
    await bundle(`${root}src/worker-engine/sender-main.ts`, 'offtag-sender.js');
    await bundle(`${root}src/main-bridge/visitor-entry.ts`, 'offtag-visitor.js');
    await bundle(`${root}src/main-bridge/rare-effects-entry.ts`, 'offtag-effects.js');
    // Page triggers (docs/triggers.md): loaded by offtag-effects.js only for a container whose rules use them.
    await bundle(`${root}src/main-bridge/triggers-entry.ts`, 'offtag-triggers.js');
    // Preview (docs/publishing.md): loaded by offtag-effects.js only in a browser that previews another environment.
    await bundle(`${root}src/main-bridge/preview-entry.ts`, 'offtag-preview.js');
    if (existsSync(`${root}src/devtools/index.tsx`)) await bundle(`${root}src/devtools/index.tsx`, 'offtag-devtools.js');
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  await cp(`${root}node_modules/@qwik.dev/partytown/lib`, `${out}/~partytown`, { recursive: true });
  // The demo storefront (demo/, README "The two commands"): an app of its own, not part of Offtag.
  if (o.demo && existsSync(`${root}demo/index.html`)) {
    const react = (await import('@vitejs/plugin-react')).default;
    await build({
      root: `${root}demo`,
      configFile: false,
      logLevel: 'warn',
      plugins: [react()],
      build: { outDir: `${out}/demo`, emptyOutDir: true, target: 'es2020', sourcemap: false },
    });
  }
  const main = await readFile(`${out}/offtag.js`);
  const size = { raw: main.length, gzip: gzipSize(`${out}/offtag.js`) };
  await writeFile(`${out}/size.json`, JSON.stringify({ 'offtag.js': size }, null, 2));
  await writeFile(`${out}/build-info.json`, JSON.stringify(JSON.parse(define.__OFFTAG_BUILD_INFO__), null, 2));
  return { ...size, bridge: bridge || size.gzip, problems: [] };
}

/** `offtag build …`: 0 when built, 1 when the container is invalid (one line per problem), 2 for bad arguments. */
export async function buildCommand(argv: string[]): Promise<number> {
  const o = parseBuildArgs(argv);
  if (typeof o === 'string') {
    console.error(o);
    return o === USAGE ? 0 : 2;
  }
  let result;
  try {
    result = await buildLibrary(o);
  } catch (err) {
    console.error(`offtag build: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
  if (result.problems.length) {
    for (const p of result.problems) console.error(p);
    return 1;
  }
  const out = relative(process.cwd(), resolve(o.out)) || '.';
  // A container with page code: the budget is the bridge's, and the page code (with the page side that runs it) is the container's own.
  const reads = result.gzip !== result.bridge ? `, for the bridge alone: ${result.bridge} bytes; the container's page code adds ${result.gzip - result.bridge}` : '';
  console.log(`${out}/offtag.js: ${result.raw} bytes, ${result.gzip} bytes gzip (budget: ${BRIDGE_BUDGET}${reads}) · ${o.container} · ${o.env}`);
  return 0;
}

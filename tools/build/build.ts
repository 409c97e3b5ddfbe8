/**
 * `offtag build`: one library per container and environment, as Launch builds development,
 * staging and production libraries (docs/containers.md, "Build"). It loads the container module
 * (esbuild bundles it for Node), validates it (src/container/validate.ts: one line per problem,
 * `file:line:column: item: what`, tools/build/locate.ts finds where), then writes, into a folder
 * beside `--out` that replaces it only at the end:
 * - offtag.js: the script tag's code (tools/build/runtime.ts) with the container's constants
 *   written in by terser (session keys, page-setting defaults, build info), and its page code (page
 *   reads, imported Launch code: tools/build/page-reads.ts) beside it;
 * - offtag-worker.js: the engine and the container, bundled by esbuild from a generated entry;
 * - the sender, the lazy chunks, the devtools and Partytown's files, which no container changes:
 *   the installed package's `dist/runtime/`, or in the checkout built by Vite for each build.
 * esbuild and terser are the package's dependencies: nothing else is needed in a site's project.
 */
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { gzipSize } from './gzip-size.ts';
import type { Container } from '../../src/worker-engine/core/types.ts';
import { defaultsFor, type Environment } from '../../src/worker-engine/core/settings.ts';
import { containerProblems, type Problem } from '../../src/container/validate.ts';
import { codeEventsIn, PAGE_PARAMETER, pageReadProblems, pageReadsIn, pageText, wrapBridge } from './page-reads.ts';
import { createLocator, shownAt, type Locator } from './locate.ts';

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

/** The checkout has the sources (and Vite, for the container-independent files); an installed package has dist/. */
const checkout = existsSync(`${root}src/main-bridge/index.ts`);
/** A module of the package: the checkout's source, or the installed package's JavaScript (dist/lib, tools/build/lib.ts). */
const lib = (path: string) => (checkout ? `${root}src/${path}.ts` : `${root}dist/lib/${path}.js`);
/**
 * `offtag/container` and `offtag/launch` as this package's own modules, wherever the container is:
 * the container and the worker then share one copy of each module in offtag-worker.js.
 */
export const PACKAGE_ALIASES = { 'offtag/container': lib('container/index'), 'offtag/launch': lib('launch/index') };

/** A container that cannot be loaded (a syntax error, an import that does not resolve, an exception): its lines. */
export class ContainerLoadError extends Error {
  constructor(readonly lines: string[]) {
    super(lines.join('\n'));
  }
}

interface EsbuildMessage {
  text: string;
  location?: { file: string; line: number; column: number } | null;
}
/** esbuild's messages as `file:line:column: text` lines. */
function esbuildLines(err: unknown): string[] | undefined {
  const errors = (err as { errors?: EsbuildMessage[] } | null)?.errors;
  if (!Array.isArray(errors) || !errors.length) return undefined;
  return errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}:${e.location.column + 1}: ${e.text}` : e.text));
}

const isContainer = (v: unknown): v is Container<string, object, unknown> => !!v && typeof v === 'object' && 'dataElements' in v && 'rules' in v;

/** A loaded container and the source files it was written in (its own, not the package's: what a rebuild watches). */
export interface LoadedContainer {
  container: Container<string, object, unknown>;
  files: string[];
}

/**
 * Loads a container module (its default export, else its one exported container): esbuild
 * bundles it for Node (TypeScript or JavaScript, whatever it imports), and Node runs the bundle.
 */
export async function loadContainerModule(file: string): Promise<LoadedContainer> {
  const { build } = await import('esbuild');
  const path = resolve(file);
  const tmp = await mkdtemp(join(tmpdir(), 'offtag-load-'));
  try {
    let result;
    try {
      result = await build({
        entryPoints: [path],
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        outfile: join(tmp, 'container.mjs'),
        metafile: true,
        sourcemap: 'inline',
        alias: PACKAGE_ALIASES,
        logLevel: 'silent',
      });
    } catch (err) {
      throw new ContainerLoadError(esbuildLines(err) ?? [`${file}: ${err instanceof Error ? err.message : String(err)}`]);
    }
    process.setSourceMapsEnabled(true);
    let mod: Record<string, unknown>;
    try {
      mod = (await import(pathToFileURL(join(tmp, 'container.mjs')).href)) as Record<string, unknown>;
    } catch (err) {
      throw new ContainerLoadError([`${file}: loading the container threw: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`]);
    }
    const own = (input: string) => {
      const abs = resolve(input);
      return !abs.split(/[\\/]/).includes('node_modules') && !abs.startsWith(`${root}src/`) && !abs.startsWith(`${root}dist/`);
    };
    const files = Object.keys(result.metafile.inputs).map((i) => resolve(i)).filter(own);
    if (isContainer(mod.default)) return { container: mod.default, files };
    const found = Object.values(mod).filter(isContainer);
    if (found.length === 1) return { container: found[0], files };
    throw new ContainerLoadError([`${file}: exports no container (export default defineContainer({...})).`]);
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The container a module exports: its default export, else its one export that looks like a container. */
export async function loadContainer(file: string): Promise<Container<string, object, unknown>> {
  return (await loadContainerModule(file)).container;
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

/**
 * The page side's defines: `__OFFTAG_PAGE__` (0, or the wrapper's parameter); `__OFFTAG_PAGE_HOST__`,
 * `__OFFTAG_PAGE_STEPS__`, `__OFFTAG_LAUNCH__` (1 with a module host, with page steps, for a
 * container imported from Launch: its `_satellite` is turbine's).
 */
const pageDefines = (page: { data?: string; host: boolean; steps?: boolean; launch?: boolean }) => ({
  __OFFTAG_PAGE__: page.data ? PAGE_PARAMETER : '0',
  __OFFTAG_PAGE_HOST__: page.host ? '1' : '0',
  __OFFTAG_PAGE_STEPS__: page.steps ? '1' : '0',
  __OFFTAG_LAUNCH__: page.launch ? '1' : '0',
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
  const q = (p: string) => JSON.stringify(p);
  return [
    `// Generated by offtag build for ${relative(root, containerFile) || containerFile} (${env}).`,
    `import * as mod from ${q(containerFile)};`,
    `import { startWorker } from ${q(lib('worker-engine/worker-shell'))};`,
    `import { createBeaconSink } from ${q(lib('worker-engine/transport/beacon-sink'))};`,
    `const found = mod.default ?? Object.values(mod).find((v) => v && typeof v === 'object' && 'dataElements' in v);`,
    `const container = { ...found, settings: { ...found.settings, ...${JSON.stringify(environmentSettings(env))} } };`,
    `startWorker({ container, beacons: createBeaconSink });`,
    '',
  ].join('\n');
}

/**
 * offtag.js, the one script every page pays for (<= 3072 B gzip), from the script tag's code
 * (`bridge.js`, tools/build/runtime.ts) with the container's constants written in: terser, three
 * passes, inlines them and the single-use functions and constants that keep the bridge's source
 * split into named pieces (src/main-bridge/index.ts), and drops the page-read code of a container
 * without page code. `unsafe_arrows` makes function expressions that use neither `this` nor
 * `arguments` arrows; the bridge calls none with `new`.
 */
export async function writeBridge(template: string, constants: Record<string, string>): Promise<string> {
  const { minify } = await import('terser');
  const global_defs = Object.fromEntries(Object.entries(constants).filter(([k]) => k.startsWith('__OFFTAG_')).map(([k, v]) => [`@${k}`, v]));
  const { code } = await minify(template, { ecma: 2020, compress: { passes: 3, unsafe_arrows: true, global_defs } });
  if (!code) throw new Error('terser wrote no offtag.js');
  return code;
}

let checkoutRuntime: Promise<string> | undefined;
/**
 * The folder of the files no container changes (tools/build/runtime.ts): the installed package's
 * dist/runtime/; in the checkout, built from the sources once per process.
 */
export async function runtimeDir(): Promise<string> {
  if (!checkout) return `${root}dist/runtime`;
  checkoutRuntime ??= mkdtemp(join(tmpdir(), 'offtag-runtime-')).then(async (dir) => {
    const { buildRuntime } = await import('./runtime.ts');
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return buildRuntime(dir);
  });
  return checkoutRuntime;
}

/** The files every build writes besides the runtime's (the runtime's are listed in its folder). */
const OWN_FILES = ['offtag.js', 'offtag-worker.js', 'size.json', 'build-info.json'];

/**
 * Why `out` may not be replaced, or undefined: a missing or empty folder, or an earlier build's
 * (its build-info.json lists its files, and the folder holds nothing else), may be.
 */
export function outputFolderProblem(out: string): string | undefined {
  if (!existsSync(out)) return undefined;
  if (!statSync(out).isDirectory()) return `${out} is a file, not a folder`;
  const entries = readdirSync(out);
  if (!entries.length) return undefined;
  let files: unknown;
  try {
    const info = JSON.parse(readFileSync(join(out, 'build-info.json'), 'utf8')) as { turbineVersion?: string; files?: unknown };
    if (info.turbineVersion === 'offtag') files = info.files;
  } catch {
    /* no build-info.json: not a build */
  }
  const ours = Array.isArray(files) ? (files as string[]) : undefined;
  const foreign = ours ? entries.filter((e) => !ours.includes(e)) : entries;
  if (!foreign.length) return undefined;
  const named = foreign.slice(0, 3).join(', ') + (foreign.length > 3 ? `, and ${foreign.length - 3} more` : '');
  return `${out} holds files that are not an earlier offtag build's (${named}); offtag build replaces only its own output: give --out a new or empty folder`;
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
  /** The container's own source files (what `offtag dev` watches). */
  files: string[];
  /** The container as loaded, when it was. */
  container?: Container<string, object, unknown>;
}

export async function buildLibrary(o: BuildOptions): Promise<BuildResult> {
  const file = isAbsolute(o.container) ? o.container : resolve(o.container);
  const shown = relative(process.cwd(), file) || file;
  const out = resolve(o.out);
  const refused = o.demo ? undefined : outputFolderProblem(out);
  if (refused) return { gzip: 0, raw: 0, bridge: 0, problems: [`offtag build: ${refused.replace(out, o.out)}.`], files: [] };
  let loaded: LoadedContainer;
  try {
    loaded = await loadContainerModule(file);
  } catch (err) {
    if (err instanceof ContainerLoadError) return { gzip: 0, raw: 0, bridge: 0, problems: err.lines, files: [] };
    throw err;
  }
  const { container, files } = loaded;
  const problems = await locatedProblems(container, files, shown);
  if (problems.length) return { gzip: 0, raw: 0, bridge: 0, problems, files };
  const buildDate = o.buildDate ?? (container as { buildDate?: string }).buildDate ?? new Date().toISOString();
  const define = buildConstants(container, o.env, buildDate);

  // Written beside `out` and moved into its place at the end: a failed build leaves nothing.
  await mkdir(dirname(out), { recursive: true });
  const stage = await mkdtemp(join(dirname(out), `.${basename(out)}.offtag-build-`));
  let bridge = 0;
  try {
    const runtime = await runtimeDir();
    const template = await readFile(join(runtime, 'bridge.js'), 'utf8');
    // The container's page code: written as plain text outside the bridge (tools/build/page-reads.ts).
    const page = pageText(container);
    const bridgeCode = await writeBridge(template, define);
    await writeFile(join(stage, 'offtag.js'), page.data ? wrapBridge(bridgeCode, page.data) : bridgeCode);
    // The bridge alone (no page code), measured against its budget.
    if (page.data) {
      const alone = join(stage, 'bridge-alone', 'offtag.js');
      await mkdir(dirname(alone));
      await writeFile(alone, await writeBridge(template, { ...define, ...pageDefines({ host: false }) }));
      bridge = gzipSize(alone);
      await rm(dirname(alone), { recursive: true });
    }
    await bundleWorker(file, o.env, define, join(stage, 'offtag-worker.js'));
    const runtimeFiles = (await readdir(runtime)).filter((f) => f !== 'bridge.js');
    for (const f of runtimeFiles) await cp(join(runtime, f), join(stage, f), { recursive: true });
    // The demo storefront (demo/, README "The two commands"): an app of its own, not part of Offtag.
    if (o.demo && existsSync(`${root}demo/index.html`)) {
      const { build } = await import('vite');
      const react = (await import('@vitejs/plugin-react')).default;
      await build({
        root: `${root}demo`,
        configFile: false,
        logLevel: 'warn',
        plugins: [react()],
        build: { outDir: join(stage, 'demo'), emptyOutDir: true, target: 'es2020', sourcemap: false },
      });
    }
    const main = await readFile(join(stage, 'offtag.js'));
    const size = { raw: main.length, gzip: gzipSize(join(stage, 'offtag.js')) };
    await writeFile(join(stage, 'size.json'), JSON.stringify({ 'offtag.js': size }, null, 2));
    const written = [...new Set([...OWN_FILES, ...runtimeFiles, ...(existsSync(join(stage, 'demo')) ? ['demo'] : [])])];
    await writeFile(join(stage, 'build-info.json'), JSON.stringify({ ...JSON.parse(define.__OFFTAG_BUILD_INFO__), files: written }, null, 2));
    // Checked again: the folder may have changed while the build ran.
    const late = o.demo ? undefined : outputFolderProblem(out);
    if (late) return { gzip: 0, raw: 0, bridge: 0, problems: [`offtag build: ${late.replace(out, o.out)}.`], files };
    await chmod(stage, 0o755);
    await rm(out, { recursive: true, force: true });
    await rename(stage, out);
    return { ...size, bridge: bridge || size.gzip, problems: [], files, container };
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

/** A container file's problems, as `offtag build` prints them (nothing is built). */
export async function checkContainerFile(file: string): Promise<string[]> {
  const shown = relative(process.cwd(), resolve(file)) || file;
  try {
    const { container, files } = await loadContainerModule(file);
    return await locatedProblems(container, files, shown);
  } catch (err) {
    if (err instanceof ContainerLoadError) return err.lines;
    throw err;
  }
}

/** offtag-worker.js: the engine's worker with the container, one script (esbuild). */
async function bundleWorker(file: string, env: Environment, define: ReturnType<typeof buildConstants>, outfile: string): Promise<void> {
  const { build } = await import('esbuild');
  try {
    await build({
      stdin: { contents: workerEntry(file, env), resolveDir: dirname(file), sourcefile: 'offtag-worker-entry.js', loader: 'js' },
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'es2020',
      minify: true,
      legalComments: 'none',
      // esbuild's define takes JSON: the worker reads these two (the bridge's other constants are written by terser).
      define: {
        __OFFTAG_BUILD_INFO__: define.__OFFTAG_BUILD_INFO__,
        __OFFTAG_PAGE_DEFAULTS__: define.__OFFTAG_PAGE_DEFAULTS__,
        'process.env.NODE_ENV': '"production"',
      },
      alias: PACKAGE_ALIASES,
      outfile,
      logLevel: 'silent',
    });
  } catch (err) {
    throw new ContainerLoadError(esbuildLines(err) ?? [String(err)]);
  }
}

/** The container's problems, each `file:line:column: item: what` (the file alone where no literal writes the item). */
export async function locatedProblems(container: Container<string, object, unknown>, files: string[], shown: string): Promise<string[]> {
  const problems: Problem[] = containerProblems(container);
  const pageReads = pageReadProblems(pageReadsIn(container), shown, container.page, codeEventsIn(container));
  if (!problems.length && !pageReads.length) return [];
  const locator: Locator = await createLocator(files.length ? files : [resolve(shown)]);
  const lines = problems.map((p) => `${shownAt(locator.locate(p.at), shown)}: ${p.item}: ${p.what}`);
  // tools/build/page-reads.ts words its own problems (`<file>: data element "x": …`, `<file>: rule "R", page condition 2: …`).
  for (const line of pageReads) {
    const rest = line.slice(shown.length + 2);
    const element = /^data element "(.+?)": /.exec(rest);
    const condition = /^rule "(.+?)", page condition (\d+): /.exec(rest);
    const at = element
      ? locator.locate({ kind: 'element', name: element[1] })
      : condition
        ? locator.locate({ kind: 'rule', rule: condition[1], part: 'conditions', index: Number(condition[2]) - 1 })
        : undefined;
    lines.push(`${shownAt(at, shown)}: ${rest}`);
  }
  return lines;
}

/**
 * What to say when the container file is not there: the default (the checkout's storefront) is
 * not in a site's project, where `--container` is what is missing.
 */
export function containerMissing(file: string, byDefault: boolean): string | undefined {
  if (existsSync(file)) return undefined;
  return byDefault
    ? `offtag build: give the container: --container <file> (without it the build looks for ${file}, the storefront of Offtag's own checkout).`
    : `offtag build: the container ${file} does not exist.`;
}

/** `offtag build …`: 0 when built, 1 when the container is invalid (one line per problem), 2 for bad arguments. */
export async function buildCommand(argv: string[]): Promise<number> {
  const o = parseBuildArgs(argv);
  if (typeof o === 'string') {
    console.error(o);
    return o === USAGE ? 0 : 2;
  }
  const missing = containerMissing(o.container, !argv.includes('--container'));
  if (missing) {
    console.error(missing);
    return 2;
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
  const out = o.out.replace(/\/+$/, '') || '.';
  // A container with page code: the budget is the bridge's, and the page code (with the page side that runs it) is the container's own.
  const reads = result.gzip !== result.bridge ? `, for the bridge alone: ${result.bridge} bytes; the container's page code adds ${result.gzip - result.bridge}` : '';
  console.log(`${out}/offtag.js: ${result.raw} bytes, ${result.gzip} bytes gzip (budget: ${BRIDGE_BUDGET}${reads}) · ${o.container} · ${o.env}`);
  return 0;
}

/**
 * The publish folder (docs/publishing.md): plain static files any host or CDN serves.
 *
 *   <dir>/offtag-publish.json   which version each environment runs, and the log of every change (short cache)
 *   <dir>/<env>/offtag.js       the environment's embed URL: the live build's offtag.js, its folder pointed at that build (short cache)
 *   <dir>/<build>/…             one environment's build of one version, named by a hash of its files (immutable)
 *   <dir>/versions/<id>.json    a version's record: when, what, the note, its builds and their files' hashes, the container's description (immutable)
 *
 * Builds and records are written once, under a temporary name, then renamed into place, so nothing
 * ever names a half-written one (a record under the lock, as it may be there already); an environment moves when its offtag.js is renamed over the old
 * one, under a lock (`<dir>/.offtag-publish.lock`) so two commands never interleave their changes.
 * What is there is checked, never guessed: `check` names each problem of a damaged folder.
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, relative, sep } from 'node:path';
import type { Environment } from '../../src/worker-engine/core/settings.ts';
import type { ContainerDescription } from './describe.ts';

export const ENVIRONMENTS: readonly Environment[] = ['development', 'staging', 'production'];
export const STATE_FILE = 'offtag-publish.json';
export const STATE_FORMAT = 'offtag-publish/1';
export const VERSIONS_DIR = 'versions';
export const LOCK_FILE = '.offtag-publish.lock';
/** Temporary builds and files start with this; a crashed command may leave one behind (never served: nothing names it). */
export const TMP_PREFIX = '.offtag-tmp-';
/**
 * Ids are this many base-36 characters of a SHA-256, longer only when a shorter one is taken:
 * a build's id is in every environment's offtag.js, where each character costs about a byte of
 * gzip against the 3072-byte budget (docs/publishing.md, "Size").
 */
export const ID_LENGTH = 7;

export interface BuildRecord {
  /** The build's folder under `<dir>`. */
  id: string;
  /** Every file of the build (paths relative to its folder, `/`-separated) and its SHA-256, hex. */
  files: Record<string, string>;
  /** `sha384-…` of its offtag.js: the `integrity` of a script tag that loads this build only. */
  integrity: string;
}

export interface VersionRecord {
  id: string;
  /** When it was first published (ISO 8601). */
  time: string;
  /** The environment it was first published to. */
  env: Environment;
  container: { name: string; version: string; file: string };
  /** SHA-256 of the container's source: its file and the files it imports by relative path (describe.ts `sourceFiles`). */
  sourceHash: string;
  /** The builder's `--note`. */
  note: string;
  /** The version built for each environment, at publish time: promoting never builds. */
  builds: Record<Environment, BuildRecord>;
  /** The container in its own terms, for `offtag diff` (describe.ts). */
  description: ContainerDescription;
}

export interface LogEntry {
  time: string;
  action: 'publish' | 'promote' | 'rollback';
  env: Environment;
  version: string;
  /** `promote`: the environment it came from. */
  from?: Environment;
  note?: string;
}

export interface PublishState {
  format: typeof STATE_FORMAT;
  /** The version each environment runs and that version's build for it. */
  environments: Partial<Record<Environment, { version: string; build: string }>>;
  /** Every change, oldest first. */
  log: LogEntry[];
}

/** A problem of a damaged folder; `env` when it concerns one environment's embed only. */
export interface Damage {
  message: string;
  env?: Environment;
  /** The environment's offtag.js is not the one its version's build makes (a rollback or promote to a named version rewrites it). */
  pointer?: boolean;
}

export interface Store {
  dir: string;
  state: PublishState;
  versions: Map<string, VersionRecord>;
}

export const emptyState = (): PublishState => ({ format: STATE_FORMAT, environments: {}, log: [] });

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** A base-36 digest of `text`, long enough to cut ids of any length used here from. */
export function digest36(text: string): string {
  const hex = sha256(text).slice(0, 32);
  return BigInt('0x' + hex).toString(36).padStart(25, '0');
}

/** Every file under `root` (recursive), as `/`-separated relative paths, sorted. */
export async function listFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string) => {
    for (const e of await readdir(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else if (e.isFile()) out.push(relative(root, p).split(sep).join('/'));
    }
  };
  await walk(root);
  return out.sort();
}

/** Each file of a folder and its SHA-256. */
export async function manifestOf(root: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const f of await listFiles(root)) files[f] = sha256(await readFile(join(root, f)));
  return files;
}

const manifestText = (files: Record<string, string>) =>
  Object.keys(files)
    .sort()
    .map((f) => `${f}\0${files[f]}\n`)
    .join('');

/** Names a build folder may never take: the environments', the records', and ours. */
const RESERVED = new Set<string>([...ENVIRONMENTS, VERSIONS_DIR]);

const equalFiles = (a: Record<string, string>, b: Record<string, string>) => manifestText(a) === manifestText(b);

/**
 * The base of a build's offtag.js: written by `offtag build` as `new URL(".", <its script URL>)`;
 * an environment's copy names the build's folder instead (`pointerText`).
 */
const BASE = 'new URL(".",';

/**
 * The environment's offtag.js for a build: the build's own, whose folder (`offtag.base`, where it
 * finds the worker, the sender and the lazy chunks) is the build's, `<dir>/<build>/`, though it is
 * served from `<dir>/<env>/`. No extra request, no loader: the same script, a few bytes longer.
 */
export function pointerText(bridge: string, build: string): string {
  const at = bridge.split(BASE).length - 1;
  if (at !== 1)
    throw new Error(`the build's offtag.js computes its folder ${at} times where offtag publish expects once (${BASE}…): this offtag's bridge and publish disagree`);
  return bridge.replace(BASE, `new URL(${JSON.stringify(`../${build}/`)},`);
}

/** `sha384-…` of a file's bytes (Subresource Integrity). */
export const integrityOf = (data: Buffer | string) => `sha384-${createHash('sha384').update(data).digest('base64')}`;

/** Writes a file under a temporary name beside it, then renames it over the target: readers see the old file or the new one, whole. */
export async function writeAtomic(file: string, data: string | Buffer): Promise<void> {
  const tmp = join(file, '..', `${TMP_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  await writeFile(tmp, data);
  await rename(tmp, file);
}

/**
 * Moves a finished build (a folder of files) into `<dir>` under its content's name: the shortest
 * id from `ID_LENGTH` on that is free or already holds exactly these files (the same build
 * published again, or by a concurrent publish). Returns the build's record.
 */
export async function installBuild(dir: string, built: string): Promise<BuildRecord> {
  const files = await manifestOf(built);
  if (!files['offtag.js']) throw new Error(`${built} has no offtag.js`);
  const integrity = integrityOf(await readFile(join(built, 'offtag.js')));
  const full = digest36(manifestText(files));
  for (let n = ID_LENGTH; n <= full.length; n++) {
    const id = full.slice(0, n);
    if (RESERVED.has(id)) continue;
    const target = join(dir, id);
    try {
      await rename(built, target);
      return { id, files, integrity };
    } catch (err) {
      // A folder of that name is there (ENOTEMPTY, EEXIST or EPERM, by system); anything else is the error it says.
      if (!existsSync(target)) throw err;
    }
    // Taken: by this very build (published before, or by another publish at once), or by another.
    if (equalFiles(await manifestOf(target).catch(() => ({})), files)) {
      await rm(built, { recursive: true, force: true });
      return { id, files, integrity };
    }
  }
  throw new Error(`no free name for a build in ${dir}`);
}

/** A version's id: from its builds' ids, so the same builds are the same version. */
export const versionIdOf = (builds: Record<Environment, BuildRecord>) => digest36(ENVIRONMENTS.map((e) => `${e}\0${builds[e].id}\n`).join(''));

const recordPath = (dir: string, id: string) => join(dir, VERSIONS_DIR, `${id}.json`);

/**
 * Writes a version's record once, holding the folder's lock: the shortest id free or holding the
 * same builds. A version published again keeps its first record (its time and note); the log has
 * each publish.
 */
export async function writeRecord(dir: string, record: Omit<VersionRecord, 'id'>, fullId: string): Promise<VersionRecord> {
  await mkdir(join(dir, VERSIONS_DIR), { recursive: true });
  for (let n = ID_LENGTH; n <= fullId.length; n++) {
    const id = fullId.slice(0, n);
    const file = recordPath(dir, id);
    if (!existsSync(file)) {
      const full: VersionRecord = { id, ...record };
      await writeAtomic(file, JSON.stringify(full, null, 2) + '\n');
      return full;
    }
    const existing = await readRecord(dir, id).catch(() => undefined);
    if (existing && ENVIRONMENTS.every((e) => existing.builds?.[e]?.id === record.builds[e].id)) return existing;
  }
  throw new Error(`no free id for a version in ${dir}`);
}

export async function readRecord(dir: string, id: string): Promise<VersionRecord> {
  return JSON.parse(await readFile(recordPath(dir, id), 'utf8')) as VersionRecord;
}

/** What makes a record a record (the fields every command reads). */
function recordProblem(r: unknown, file: string): string | undefined {
  const v = r as Partial<VersionRecord> | null;
  if (!v || typeof v !== 'object') return `${file} is not a version record`;
  if (typeof v.id !== 'string' || !file.endsWith(`/${v.id}.json`)) return `${file} names another id (${JSON.stringify(v.id)})`;
  if (typeof v.time !== 'string' || !v.builds || typeof v.builds !== 'object') return `${file} lacks its time or builds`;
  for (const e of ENVIRONMENTS) {
    const b = v.builds[e];
    if (!b || typeof b.id !== 'string' || !b.files || typeof b.files !== 'object') return `${file} lacks its ${e} build`;
  }
  return undefined;
}

function stateProblem(s: unknown): string | undefined {
  const st = s as Partial<PublishState> | null;
  if (!st || typeof st !== 'object') return `${STATE_FILE} is not an object`;
  if (st.format !== STATE_FORMAT) return `${STATE_FILE} has format ${JSON.stringify(st.format)}; this offtag reads ${STATE_FORMAT}`;
  if (!st.environments || typeof st.environments !== 'object' || !Array.isArray(st.log)) return `${STATE_FILE} lacks "environments" or "log"`;
  for (const [env, at] of Object.entries(st.environments)) {
    if (!(ENVIRONMENTS as readonly string[]).includes(env)) return `${STATE_FILE} names an unknown environment ${JSON.stringify(env)}`;
    if (!at || typeof at.version !== 'string' || typeof at.build !== 'string') return `${STATE_FILE}: environment ${env} lacks its version or build`;
  }
  return undefined;
}

/** Whether `<dir>` is a publish folder, an empty (or missing) one, or something else. */
export async function folderKind(dir: string): Promise<'store' | 'empty' | 'other' | 'missing'> {
  if (!existsSync(dir)) return 'missing';
  if (!(await stat(dir)).isDirectory()) return 'other';
  if (existsSync(join(dir, STATE_FILE))) return 'store';
  const names = (await readdir(dir)).filter((n) => !n.startsWith(TMP_PREFIX) && n !== LOCK_FILE);
  return names.length ? 'other' : 'empty';
}

/**
 * Reads the folder: its state and every version record. A file that cannot be read or does not
 * have its shape is a `Damage`, never skipped.
 */
export async function readStore(dir: string): Promise<{ store: Store; damage: Damage[] }> {
  const damage: Damage[] = [];
  let state = emptyState();
  try {
    const raw = JSON.parse(await readFile(join(dir, STATE_FILE), 'utf8'));
    const p = stateProblem(raw);
    if (p) damage.push({ message: p });
    else state = raw as PublishState;
  } catch (err) {
    damage.push({ message: `${STATE_FILE} cannot be read (${(err as Error).message})` });
  }
  const versions = new Map<string, VersionRecord>();
  const vdir = join(dir, VERSIONS_DIR);
  if (existsSync(vdir))
    for (const name of (await readdir(vdir)).filter((n) => n.endsWith('.json')).sort()) {
      const file = `${VERSIONS_DIR}/${name}`;
      try {
        const r = JSON.parse(await readFile(join(vdir, name), 'utf8'));
        const p = recordProblem(r, file);
        if (p) damage.push({ message: p });
        else versions.set((r as VersionRecord).id, r as VersionRecord);
      } catch (err) {
        damage.push({ message: `${file} cannot be read (${(err as Error).message})` });
      }
    }
  return { store: { dir, state, versions }, damage };
}

/** A build's files as recorded: each one there, with its recorded hash. */
export async function buildDamage(dir: string, build: BuildRecord): Promise<string | undefined> {
  const root = join(dir, build.id);
  if (!existsSync(root)) return `build ${build.id}/ is missing`;
  for (const [f, hash] of Object.entries(build.files)) {
    let data: Buffer;
    try {
      data = await readFile(join(root, f));
    } catch {
      return `build ${build.id}/ lacks ${f}`;
    }
    if (sha256(data) !== hash) return `build ${build.id}/${f} is not the file that was published (its hash differs)`;
  }
  return undefined;
}

/**
 * Every problem of a folder read by `readStore`: each environment's version and build are there
 * and whole, and its offtag.js is the one that build makes; the log names known versions.
 */
export async function check(store: Store): Promise<Damage[]> {
  const out: Damage[] = [];
  for (const env of ENVIRONMENTS) {
    const at = store.state.environments[env];
    if (!at) continue;
    const v = store.versions.get(at.version);
    if (!v) {
      out.push({ env, message: `${STATE_FILE} says ${env} runs version ${at.version}, which has no record (${VERSIONS_DIR}/${at.version}.json)` });
      continue;
    }
    if (v.builds[env].id !== at.build) {
      out.push({ env, message: `${STATE_FILE} says ${env} runs build ${at.build}, but version ${at.version}'s ${env} build is ${v.builds[env].id}` });
      continue;
    }
    const broken = await buildDamage(store.dir, v.builds[env]);
    if (broken) {
      out.push({ env, message: `${env} runs version ${at.version}, whose ${broken}` });
      continue;
    }
    const expected = pointerText(await readFile(join(store.dir, at.build, 'offtag.js'), 'utf8'), at.build);
    const actual = await readFile(join(store.dir, env, 'offtag.js'), 'utf8').catch(() => undefined);
    if (actual === undefined) out.push({ env, pointer: true, message: `${env}/offtag.js is missing (${STATE_FILE} says ${env} runs version ${at.version})` });
    else if (actual !== expected)
      out.push({ env, pointer: true, message: `${env}/offtag.js is not version ${at.version}'s (${STATE_FILE} says ${env} runs it): changed by hand, or a command was interrupted` });
  }
  for (const e of store.state.log)
    if (!store.versions.has(e.version)) out.push({ message: `${STATE_FILE}'s log names version ${e.version}, which has no record` });
  return out;
}

/**
 * The versions an environment ran, as a stack: a publish, a promote or a rollback to another
 * version puts one on top; a rollback to the one below the top takes the top off. Its top is what
 * runs; the one below is "the version live before", where a rollback without `--version` goes, so
 * rolling back twice after three publishes runs the first.
 */
export function historyOf(state: PublishState, env: Environment): string[] {
  const stack: string[] = [];
  for (const e of state.log) {
    if (e.env !== env) continue;
    // A rollback to the version below the top is a step back, whether it was named or not.
    if (e.action === 'rollback' && stack[stack.length - 2] === e.version) stack.pop();
    else if (stack[stack.length - 1] !== e.version) stack.push(e.version);
  }
  return stack;
}

/** Versions, newest first. */
export const newestFirst = (versions: Iterable<VersionRecord>) =>
  [...versions].sort((a, b) => (a.time < b.time ? 1 : a.time > b.time ? -1 : a.id < b.id ? -1 : 1));

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs `fn` holding the folder's lock: one command at a time changes which version runs where.
 * A lock left by a process of this machine that is gone is taken over; one held longer than
 * `waitMs` is one line naming its holder.
 */
export async function withLock<T>(dir: string, fn: () => Promise<T>, waitMs = 60_000): Promise<T> {
  const file = join(dir, LOCK_FILE);
  const started = Date.now();
  for (;;) {
    try {
      const h = await open(file, 'wx');
      await h.writeFile(JSON.stringify({ pid: process.pid, host: hostname(), time: new Date().toISOString() }));
      await h.close();
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = await readFile(file, 'utf8')
        .then((t) => JSON.parse(t) as { pid: number; host: string; time: string })
        .catch(() => undefined);
      if (holder && holder.host === hostname() && !alive(holder.pid)) {
        await rm(file, { force: true });
        continue;
      }
      if (Date.now() - started > waitMs)
        throw new Error(
          `another offtag command holds ${file}${holder ? ` (process ${holder.pid} on ${holder.host}, since ${holder.time})` : ''}; if none is running, delete that file`,
        );
      await sleep(50);
    }
  }
  try {
    return await fn();
  } finally {
    await rm(file, { force: true });
  }
}

/**
 * Points `env` at `version` (its build for `env`) and logs it: the environment's offtag.js, then
 * the state, each written whole and renamed into place. Call it holding the lock, with a store
 * read under it.
 */
export async function pointEnvironment(store: Store, env: Environment, version: VersionRecord, entry: Omit<LogEntry, 'env' | 'version' | 'time'>): Promise<LogEntry> {
  const build = version.builds[env];
  const broken = await buildDamage(store.dir, build);
  if (broken) throw new Error(`version ${version.id}'s ${broken}; ${env} was not changed`);
  const bridge = await readFile(join(store.dir, build.id, 'offtag.js'), 'utf8');
  const logged: LogEntry = { time: new Date().toISOString(), action: entry.action, env, version: version.id, ...(entry.from ? { from: entry.from } : {}), ...(entry.note ? { note: entry.note } : {}) };
  const state: PublishState = {
    ...store.state,
    environments: { ...store.state.environments, [env]: { version: version.id, build: build.id } },
    log: [...store.state.log, logged],
  };
  await mkdir(join(store.dir, env), { recursive: true });
  await writeAtomic(join(store.dir, env, 'offtag.js'), pointerText(bridge, build.id));
  await writeAtomic(join(store.dir, STATE_FILE), JSON.stringify(state, null, 2) + '\n');
  store.state = state;
  return logged;
}

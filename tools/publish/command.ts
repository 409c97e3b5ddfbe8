/**
 * `offtag publish | versions | promote | rollback | diff` (docs/publishing.md): versions built once
 * into a folder of static files, environments pointed at them. The folder's layout and its rules
 * are store.ts's; the build is tools/build/build.ts's `buildLibrary`, run once per environment.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { basename, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSize } from '../build/gzip-size.ts';
import type { Environment } from '../../src/worker-engine/core/settings.ts';
import { describeContainer, sourceHash, sourceOfItems } from './describe.ts';
import { diffDescriptions, diffLines } from './diff.ts';
import {
  check,
  ENVIRONMENTS,
  folderKind,
  historyOf,
  installBuild,
  newestFirst,
  pointEnvironment,
  readStore,
  STATE_FILE,
  TMP_PREFIX,
  versionIdOf,
  withLock,
  writeRecord,
  emptyState,
  type BuildRecord,
  type Damage,
  type Store,
  type VersionRecord,
} from './store.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
/** offtag.js's budget, tools/build/build.ts `BRIDGE_BUDGET` (not imported: that module loads the build's tools, which `versions` and `diff` do without). */
const BUDGET = 3072;

export const PUBLISH_USAGE = `usage:
  offtag publish --container <file> --env <development|staging|production> --to <dir> [--note <text>] [--url <where <dir> is served>] [--json]
  offtag versions --to <dir> [--json]
  offtag promote --to <dir> --from <env> --env <env> [--json]
  offtag rollback --to <dir> --env <env> [--version <id>] [--json]
  offtag diff --to <dir> <id> <id> [--json]`;

interface Args {
  flags: Record<string, string>;
  json: boolean;
  positional: string[];
}

/** The flags a command takes (each with a value), `--json`, and positional arguments; or the line that says what is wrong. */
export function parseArgs(command: string, argv: string[], takes: string[], positional = 0): Args | string {
  const a: Args = { flags: {}, json: false, positional: [] };
  for (let i = 0; i < argv.length; i++) {
    const x = argv[i]!;
    if (x === '--json') a.json = true;
    else if (x.startsWith('--')) {
      const name = x.slice(2);
      if (!takes.includes(name)) return `offtag ${command}: unknown option ${x}.`;
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) return `offtag ${command}: ${x} needs a value.`;
      a.flags[name] = v;
    } else a.positional.push(x);
  }
  if (a.positional.length !== positional) return positional ? `offtag ${command}: give ${positional} version ids.` : `offtag ${command}: unexpected argument "${a.positional[0]}".`;
  if (!a.flags.to) return `offtag ${command}: --to <dir> is required (the publish folder).`;
  for (const f of ['env', 'from'])
    if (f in a.flags && !(ENVIRONMENTS as readonly string[]).includes(a.flags[f]!))
      return `offtag ${command}: --${f} must be one of ${ENVIRONMENTS.join(', ')}; got "${a.flags[f]}".`;
  return a;
}

/** What a command prints: lines for people, or one JSON line. */
class Out {
  constructor(private json: boolean) {}
  line(text: string) {
    if (!this.json) console.log(text);
  }
  result(value: unknown) {
    if (this.json) console.log(JSON.stringify(value));
  }
}

function say(command: string, message: string): number {
  console.error(`offtag ${command}: ${message}`);
  return 1;
}

function damaged(command: string, dir: string, damage: Damage[]): number {
  console.error(`offtag ${command}: ${dir} is damaged; nothing was changed. Restore it from where it is served, or publish into a new folder:`);
  for (const d of damage) console.error(`  ${d.message}`);
  return 1;
}

/** Reads an existing publish folder, or says why it cannot. */
async function openStore(command: string, dir: string): Promise<{ store: Store; damage: Damage[] } | number> {
  const kind = await folderKind(dir);
  if (kind === 'missing' || kind === 'empty') return say(command, `${dir} has no published version (offtag publish --to ${dir} publishes the first).`);
  if (kind === 'other') return say(command, `${dir} is not a publish folder (it has no ${STATE_FILE}).`);
  const read = await readStore(dir);
  return { store: read.store, damage: [...read.damage, ...(read.damage.length ? [] : await check(read.store))] };
}

/** A version by its id or an unambiguous start of it. */
function findVersion(store: Store, id: string): VersionRecord | string {
  const exact = store.versions.get(id);
  if (exact) return exact;
  const found = id.length >= 4 ? [...store.versions.keys()].filter((k) => k.startsWith(id)) : [];
  if (found.length === 1) return store.versions.get(found[0]!)!;
  if (found.length > 1) return `"${id}" starts ${found.length} version ids (${found.join(', ')}); give more of it.`;
  return `no version "${id}" in ${store.dir} (offtag versions --to ${store.dir} lists them).`;
}

const liveIn = (store: Store, id: string) => ENVIRONMENTS.filter((e) => store.state.environments[e]?.version === id);

/** The script tags for an environment: its embed (follows what it runs), and this build alone with Subresource Integrity. */
export function snippets(url: string, env: Environment, build: BuildRecord) {
  const embed = `${url}/${env}/offtag.js`;
  const pinned = `${url}/${build.id}/offtag.js`;
  return {
    embed: { url: embed, snippet: `<script src="${embed}" async></script>` },
    pinned: {
      url: pinned,
      integrity: build.integrity,
      snippet: `<script src="${pinned}" integrity="${build.integrity}" crossorigin="anonymous" async></script>`,
    },
  };
}

const urlOf = (flags: Record<string, string>, dir: string) => (flags.url ?? `/${basename(resolve(dir))}`).replace(/\/+$/, '');

function printSnippets(out: Out, url: string, env: Environment, build: BuildRecord, given: boolean) {
  const s = snippets(url, env, build);
  out.line(`  ${env}'s embed: ${s.embed.snippet}`);
  out.line(`  this version only, with SRI: ${s.pinned.snippet}`);
  if (!given) out.line(`  (URLs for ${url}/ served at that path; --url <where the folder is served> writes yours)`);
}

/** Builds the container for every environment into `tmp/<env>/` with one build date. Problems: the validation's lines. */
async function buildAll(container: string, tmp: string): Promise<{ problems: string[]; loaded?: Awaited<ReturnType<typeof import('../build/build.ts')['loadContainer']>> }> {
  const { buildLibrary, loadContainer } = await import('../build/build.ts');
  const loaded = await loadContainer(container);
  const buildDate = (loaded as { buildDate?: string }).buildDate ?? new Date().toISOString();
  for (const env of ENVIRONMENTS) {
    const r = await buildLibrary({ container, env, out: join(tmp, env), demo: false, buildDate });
    if (r.problems.length) return { problems: r.problems };
  }
  return { problems: [], loaded };
}

async function publish(argv: string[]): Promise<number> {
  const a = parseArgs('publish', argv, ['container', 'env', 'to', 'note', 'url']);
  if (typeof a === 'string') return (console.error(`${a}\n${PUBLISH_USAGE}`), 2);
  const { flags } = a;
  if (!flags.container) return (console.error(`offtag publish: --container <file> is required.\n${PUBLISH_USAGE}`), 2);
  if (!flags.env) return (console.error(`offtag publish: --env <development|staging|production> is required.\n${PUBLISH_USAGE}`), 2);
  const env = flags.env as Environment;
  const dir = flags.to!;
  const out = new Out(a.json);
  const kind = await folderKind(dir);
  if (kind === 'other') return say('publish', `${dir} has files but no ${STATE_FILE}: not a publish folder (give an empty or new folder).`);
  if (kind === 'store') {
    const { store, damage } = await readStore(dir);
    const all = damage.length ? damage : await check(store);
    if (all.length) return damaged('publish', dir, all);
  }
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, `${TMP_PREFIX}${process.pid}-${randomBytes(4).toString('hex')}`);
  try {
    let built;
    try {
      built = await buildAll(flags.container, tmp);
    } catch (err) {
      return say('publish', `${err instanceof Error ? err.message : String(err)}; nothing was published.`);
    }
    if (built.problems.length) {
      for (const p of built.problems) console.error(p);
      console.error(`offtag publish: ${flags.container} is not valid; nothing was published, ${env} is unchanged.`);
      return 1;
    }
    const c = built.loaded!;
    const builds = {} as Record<Environment, BuildRecord>;
    for (const e of ENVIRONMENTS) builds[e] = await installBuild(dir, join(tmp, e));
    const recorded: Omit<VersionRecord, 'id'> = {
      time: new Date().toISOString(),
      env,
      container: { name: c.name, version: c.version ?? '', file: relative(process.cwd(), resolve(flags.container)) || flags.container },
      sourceHash: await sourceHash(flags.container, join(root, 'src')),
      note: flags.note ?? '',
      builds,
      description: describeContainer(c as unknown as Parameters<typeof describeContainer>[0], await sourceOfItems(flags.container).catch(() => ({}))),
    };
    // Only now, with every build of the version in place, is it recorded and does the environment move.
    const moved = await withLock(dir, async () => {
      const kindNow = await folderKind(dir);
      const { store, damage } = kindNow === 'store' ? await readStore(dir) : { store: { dir, state: emptyState(), versions: new Map() }, damage: [] };
      const all = damage.length ? damage : await check(store);
      if (all.length) return all;
      const record = await writeRecord(dir, recorded, versionIdOf(builds));
      store.versions.set(record.id, record);
      const previous = store.state.environments[env]?.version ?? null;
      await pointEnvironment(store, env, record, { action: 'publish', ...(flags.note ? { note: flags.note } : {}) });
      return { previous, record };
    });
    if (Array.isArray(moved)) return damaged('publish', dir, moved);
    const { record } = moved;
    const url = urlOf(flags, dir);
    const gzip = gzipSize(join(dir, env, 'offtag.js'));
    const build = record.builds[env];
    out.result({
      version: record.id,
      env,
      previous: moved.previous,
      build: build.id,
      time: record.time,
      container: { name: record.container.name, version: record.container.version },
      sourceHash: record.sourceHash,
      note: flags.note ?? '',
      gzip,
      ...snippets(url, env, build),
    });
    out.line(`Published version ${record.id} to ${env} (${record.container.name}${record.container.version ? ' ' + record.container.version : ''}${flags.note ? `: ${flags.note}` : ''})${moved.previous && moved.previous !== record.id ? `; it replaces ${moved.previous}` : ''}.`);
    printSnippets(out, url, env, build, 'url' in flags);
    const own = gzipSize(join(dir, build.id, 'offtag.js'));
    out.line(`  ${env}/offtag.js: ${gzip} bytes gzip, the build's ${own} and ${gzip - own} for its folder's name (offtag.js's budget: ${BUDGET}, for the bridge; offtag build says what a container's page code adds).`);
    out.line(`  ${build.id}/ is immutable (cache it for a year), ${env}/offtag.js is not (a minute): docs/publishing.md, "Hosting and cache headers".`);
    return 0;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

async function versions(argv: string[]): Promise<number> {
  const a = parseArgs('versions', argv, ['to']);
  if (typeof a === 'string') return (console.error(`${a}\n${PUBLISH_USAGE}`), 2);
  const dir = a.flags.to!;
  const opened = await openStore('versions', dir);
  if (typeof opened === 'number') return opened;
  const { store, damage } = opened;
  if (damage.length) {
    console.error(`offtag versions: ${dir} is damaged. Restore it from where it is served, or publish into a new folder:`);
    for (const d of damage) console.error(`  ${d.message}`);
    return 1;
  }
  const versions = newestFirst(store.versions.values());
  const out = new Out(a.json);
  out.result({
    environments: Object.fromEntries(ENVIRONMENTS.filter((e) => store.state.environments[e]).map((e) => [e, store.state.environments[e]!.version])),
    versions: versions.map((v) => ({
      id: v.id,
      time: v.time,
      env: v.env,
      container: { name: v.container.name, version: v.container.version },
      sourceHash: v.sourceHash,
      note: v.note,
      builds: Object.fromEntries(ENVIRONMENTS.map((e) => [e, v.builds[e].id])),
      live: liveIn(store, v.id),
    })),
  });
  for (const v of versions) {
    const live = liveIn(store, v.id);
    out.line(
      `${v.id}  ${v.time.replace('T', ' ').slice(0, 19)}  ${v.container.name}${v.container.version ? ' ' + v.container.version : ''}  ${live.length ? `live in ${live.join(', ')}` : '-'}${v.note ? `  ${JSON.stringify(v.note)}` : ''}`,
    );
  }
  if (!versions.length) out.line('No version published yet.');
  return 0;
}

/** promote and rollback: point `env` at a version under the lock, after checking the folder (its own embed may be the one to repair). */
async function move(command: 'promote' | 'rollback', a: Args, pick: (store: Store) => VersionRecord | string, from?: Environment): Promise<number> {
  const dir = a.flags.to!;
  const env = a.flags.env as Environment;
  const out = new Out(a.json);
  const kind = await folderKind(dir);
  if (kind !== 'store') return (await openStore(command, dir)) as number;
  const result = await withLock(dir, async () => {
    const { store, damage } = await readStore(dir);
    const found = damage.length ? damage : await check(store);
    // This environment's own offtag.js, changed or half-moved, is what a promote or rollback rewrites; anything else damaged stops here.
    const own = (d: Damage) => !!d.pointer && d.env === env;
    if (found.some((d) => !own(d))) return { damage: found.filter((d) => !own(d)) };
    const target = pick(store);
    if (typeof target === 'string') return { problem: target };
    const previous = store.state.environments[env]?.version ?? null;
    if (previous === target.id && !found.length) return { same: target, previous };
    await pointEnvironment(store, env, target, { action: command, ...(from ? { from } : {}) });
    return { moved: target, previous };
  });
  if ('damage' in result) return damaged(command, dir, result.damage!);
  if ('problem' in result) return say(command, result.problem!);
  const v = (result.moved ?? result.same)!;
  out.result({ version: v.id, env, previous: result.previous, changed: !!result.moved, ...(from ? { from } : {}), build: v.builds[env].id });
  if (result.same) out.line(`${env} already runs version ${v.id}; nothing changed.`);
  else out.line(`${env} now runs version ${v.id}${from ? ` (promoted from ${from})` : ''}${result.previous ? `; it was ${result.previous}` : ''}.`);
  return 0;
}

async function promote(argv: string[]): Promise<number> {
  const a = parseArgs('promote', argv, ['to', 'from', 'env']);
  if (typeof a === 'string') return (console.error(`${a}\n${PUBLISH_USAGE}`), 2);
  if (!a.flags.from || !a.flags.env) return (console.error(`offtag promote: --from <env> and --env <env> are required.\n${PUBLISH_USAGE}`), 2);
  const from = a.flags.from as Environment;
  if (from === a.flags.env) return (console.error(`offtag promote: --from and --env are both ${from}.`), 2);
  return move(
    'promote',
    a,
    (store) => {
      const at = store.state.environments[from];
      if (!at) return `${from} runs no version yet (offtag publish --env ${from} publishes one).`;
      return store.versions.get(at.version)!;
    },
    from,
  );
}

async function rollback(argv: string[]): Promise<number> {
  const a = parseArgs('rollback', argv, ['to', 'env', 'version']);
  if (typeof a === 'string') return (console.error(`${a}\n${PUBLISH_USAGE}`), 2);
  if (!a.flags.env) return (console.error(`offtag rollback: --env <env> is required.\n${PUBLISH_USAGE}`), 2);
  const env = a.flags.env as Environment;
  return move('rollback', a, (store) => {
    if (a.flags.version) return findVersion(store, a.flags.version);
    const stack = historyOf(store.state, env);
    const before = stack[stack.length - 2];
    if (!before) return stack.length ? `${env} has no version live before ${stack[stack.length - 1]} to roll back to (--version <id> picks any).` : `${env} runs no version yet.`;
    return store.versions.get(before) ?? `version ${before}, live in ${env} before, has no record.`;
  });
}

async function diff(argv: string[]): Promise<number> {
  const a = parseArgs('diff', argv, ['to'], 2);
  if (typeof a === 'string') return (console.error(`${a}\n${PUBLISH_USAGE}`), 2);
  const opened = await openStore('diff', a.flags.to!);
  if (typeof opened === 'number') return opened;
  const { store } = opened;
  const [x, y] = a.positional.map((id) => findVersion(store, id));
  for (const v of [x, y]) if (typeof v === 'string') return say('diff', v);
  const [va, vb] = [x as VersionRecord, y as VersionRecord];
  const changes = diffDescriptions(va.description, vb.description);
  const sourceChanged = va.sourceHash !== vb.sourceHash;
  const out = new Out(a.json);
  out.result({ from: va.id, to: vb.id, changes, sourceChanged });
  out.line(`${va.id} (${va.time.slice(0, 16).replace('T', ' ')}) → ${vb.id} (${vb.time.slice(0, 16).replace('T', ' ')})`);
  for (const l of diffLines(changes)) out.line(l);
  if (!changes.length)
    out.line(sourceChanged ? 'No data element, rule or setting changed; the container\'s source did (code its rules call from other files).' : 'No change: the same container.');
  return 0;
}

/**
 * An error no check foresaw (a folder that cannot be written, a lock held too long) is one line,
 * not a stack; a missing package goes up to the CLI, which names it (tools/cli.ts `main`).
 */
function guarded(command: string, run: (argv: string[]) => Promise<number>) {
  return async (argv: string[]): Promise<number> => {
    try {
      return await run(argv);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException | null)?.code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') throw err;
      return say(command, err instanceof Error ? err.message : String(err));
    }
  };
}

export const publishCommand = guarded('publish', publish);
export const versionsCommand = guarded('versions', versions);
export const promoteCommand = guarded('promote', promote);
export const rollbackCommand = guarded('rollback', rollback);
export const diffCommand = guarded('diff', diff);

/**
 * The publish folder (tools/publish/store.ts) with hand-made builds: content-addressed builds and
 * records, the environment's offtag.js, the rollback history, the lock, and every kind of damage
 * `check` names. The real builds and the browser: tests/e2e/publish.spec.ts.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  check,
  digest36,
  emptyState,
  folderKind,
  historyOf,
  installBuild,
  LOCK_FILE,
  manifestOf,
  pointerText,
  readStore,
  STATE_FILE,
  withLock,
  type LogEntry,
  type PublishState,
  type VersionRecord,
} from '../../../tools/publish/store.ts';
import type { Environment } from '../../../src/worker-engine/core/settings.ts';
import { folder } from './folder.ts';

let dir: string;
let built: (tag: string, env: string) => string;
let version: (tag: string, note?: string) => Promise<VersionRecord>;
let point: (env: Environment, v: VersionRecord, action?: LogEntry['action']) => Promise<LogEntry>;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'offtag-store-'));
  ({ built, version, point } = folder(dir));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the environment’s offtag.js', () => {
  it('is the build’s, its folder named: the one `new URL(".", …)` becomes the build’s folder', () => {
    expect(pointerText('a;m=new URL(".",document.currentScript?.src||location.href).href;b', 'k3j9a0x')).toBe(
      'a;m=new URL("../k3j9a0x/",document.currentScript?.src||location.href).href;b',
    );
  });

  it('is made from the bridge `offtag build` writes: dist/offtag.js computes its folder once, as publish expects (node tools/build.mjs first)', () => {
    const bridge = readFileSync(new URL('../../../dist/offtag.js', import.meta.url), 'utf8');
    expect(pointerText(bridge, 'k3j9a0x')).toContain('new URL("../k3j9a0x/",');
  });

  it('refuses a bridge that computes its folder other than once', () => {
    expect(() => pointerText('no base here', 'k3j9a0x')).toThrow('computes its folder 0 times where offtag publish expects once');
    expect(() => pointerText('new URL(".",a);new URL(".",b)', 'k3j9a0x')).toThrow('2 times');
  });

  it('is written for the environment, and the state says what runs where', async () => {
    const v = await version('a');
    await point('production', v);
    const text = readFileSync(join(dir, 'production/offtag.js'), 'utf8');
    expect(text).toBe(pointerText(readFileSync(join(dir, v.builds.production.id, 'offtag.js'), 'utf8'), v.builds.production.id));
    const state = JSON.parse(readFileSync(join(dir, STATE_FILE), 'utf8')) as PublishState;
    expect(state.environments).toEqual({ production: { version: v.id, build: v.builds.production.id } });
    expect(state.log).toMatchObject([{ action: 'publish', env: 'production', version: v.id }]);
    expect(await check((await readStore(dir)).store)).toEqual([]);
  });
});

describe('builds and records are content-addressed', () => {
  it('names a build by its files: the same files are the same build, installed once', async () => {
    const a = await installBuild(dir, built('a', 'production'));
    const again = await installBuild(dir, built('a', 'production'));
    const b = await installBuild(dir, built('b', 'production'));
    expect(a.id).toMatch(/^[0-9a-z]{7}$/);
    expect(again).toEqual(a);
    expect(b.id).not.toBe(a.id);
    expect(a.files).toEqual(await manifestOf(join(dir, a.id)));
    expect(Object.keys(a.files)).toEqual(['offtag-worker.js', 'offtag.js', '~partytown/partytown.js']);
    expect(a.integrity).toMatch(/^sha384-[A-Za-z0-9+/]{64}$/);
    // No temporary folder is left behind.
    expect(readdirSync(dir).filter((n) => n.startsWith('.offtag-tmp-'))).toEqual([]);
  });

  it('takes a longer name when another build holds the short one', async () => {
    const src = built('a', 'production');
    const full = digest36(Object.entries(await manifestOf(src)).map(([f, h]) => `${f}\0${h}\n`).join(''));
    mkdirSync(join(dir, full.slice(0, 7)));
    writeFileSync(join(dir, full.slice(0, 7), 'offtag.js'), 'another build');
    expect((await installBuild(dir, src)).id).toBe(full.slice(0, 8));
  });

  it('keeps a version’s first record when the same builds are published again', async () => {
    const first = await version('a', 'first');
    const second = await version('a', 'second');
    expect(second).toEqual(first);
    expect(second.note).toBe('first');
    expect((await version('b')).id).not.toBe(first.id);
  });
});

describe('rollback goes to the version live before', () => {
  const log = (...steps: Array<[LogEntry['action'], string]>): PublishState => ({
    ...emptyState(),
    log: steps.map(([action, version]) => ({ time: '', action, env: 'production', version })),
  });

  it('steps back one version at a time after several publishes', () => {
    expect(historyOf(log(['publish', 'v1'], ['publish', 'v2'], ['publish', 'v3']), 'production')).toEqual(['v1', 'v2', 'v3']);
    expect(historyOf(log(['publish', 'v1'], ['publish', 'v2'], ['publish', 'v3'], ['rollback', 'v2']), 'production')).toEqual(['v1', 'v2']);
    expect(historyOf(log(['publish', 'v1'], ['publish', 'v2'], ['publish', 'v3'], ['rollback', 'v2'], ['rollback', 'v1']), 'production')).toEqual(['v1']);
  });

  it('counts a promote like a publish, and a rollback to another version as a new one on top', () => {
    expect(historyOf(log(['publish', 'v1'], ['promote', 'v2'], ['rollback', 'v3']), 'production')).toEqual(['v1', 'v2', 'v3']);
    // Publishing the version that runs again changes nothing.
    expect(historyOf(log(['publish', 'v1'], ['publish', 'v1']), 'production')).toEqual(['v1']);
  });

  it('reads only the environment’s own entries', () => {
    const s = log(['publish', 'v1']);
    s.log.push({ time: '', action: 'publish', env: 'staging', version: 'v2' });
    expect(historyOf(s, 'production')).toEqual(['v1']);
    expect(historyOf(s, 'staging')).toEqual(['v2']);
  });
});

describe('one command at a time', () => {
  it('serialises concurrent switches under the lock: every change is logged, none lost', async () => {
    const [a, b, c] = [await version('a'), await version('b'), await version('c')];
    await point('production', a);
    await Promise.all([point('staging', b), point('development', c), point('production', b)]);
    const { store } = await readStore(dir);
    expect(store.state.log.map((e) => `${e.env} ${e.version}`).sort()).toEqual([`development ${c.id}`, `production ${a.id}`, `production ${b.id}`, `staging ${b.id}`].sort());
    expect(store.state.environments).toMatchObject({ staging: { version: b.id }, development: { version: c.id }, production: { version: b.id } });
    expect(await check(store)).toEqual([]);
  });

  it('takes over a lock whose process is gone, and names the holder of one that is not', async () => {
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 2 ** 22 + 7, host: (await import('node:os')).hostname(), time: 'then' }));
    expect(await withLock(dir, async () => 'ran')).toBe('ran');
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, host: (await import('node:os')).hostname(), time: 'now' }));
    await expect(withLock(dir, async () => 'ran', 100)).rejects.toThrow(`another offtag command holds ${join(dir, LOCK_FILE)} (process ${process.pid}`);
  });
});

describe('a damaged folder is reported, not guessed', () => {
  async function published() {
    const v = await version('a');
    await point('production', v);
    return v;
  }
  const damage = async () => {
    const { store, damage } = await readStore(dir);
    return [...damage, ...(damage.length ? [] : await check(store))].map((d) => d.message);
  };

  it('a build file changed or missing', async () => {
    const v = await published();
    writeFileSync(join(dir, v.builds.production.id, 'offtag-worker.js'), 'changed');
    expect(await damage()).toEqual([`production runs version ${v.id}, whose build ${v.builds.production.id}/offtag-worker.js is not the file that was published (its hash differs)`]);
    rmSync(join(dir, v.builds.production.id, 'offtag-worker.js'));
    expect(await damage()).toEqual([`production runs version ${v.id}, whose build ${v.builds.production.id}/ lacks offtag-worker.js`]);
    rmSync(join(dir, v.builds.production.id), { recursive: true });
    expect(await damage()).toEqual([`production runs version ${v.id}, whose build ${v.builds.production.id}/ is missing`]);
  });

  it('the environment’s offtag.js changed or missing', async () => {
    const v = await published();
    writeFileSync(join(dir, 'production/offtag.js'), 'console.log("hand-made")');
    const found = (await check((await readStore(dir)).store))[0];
    expect(found).toEqual({
      env: 'production',
      pointer: true,
      message: `production/offtag.js is not version ${v.id}'s (offtag-publish.json says production runs it): changed by hand, or a command was interrupted`,
    });
    rmSync(join(dir, 'production/offtag.js'));
    expect(await damage()).toEqual([`production/offtag.js is missing (offtag-publish.json says production runs version ${v.id})`]);
  });

  it('the state unreadable, of another format, or naming a version without a record', async () => {
    const v = await published();
    const good = readFileSync(join(dir, STATE_FILE), 'utf8');
    writeFileSync(join(dir, STATE_FILE), good.slice(0, 40));
    expect((await damage())[0]).toMatch(/^offtag-publish\.json cannot be read \(/);
    writeFileSync(join(dir, STATE_FILE), JSON.stringify({ ...JSON.parse(good), format: 'offtag-publish/9' }));
    expect(await damage()).toEqual(['offtag-publish.json has format "offtag-publish/9"; this offtag reads offtag-publish/1']);
    writeFileSync(join(dir, STATE_FILE), good);
    rmSync(join(dir, 'versions', `${v.id}.json`));
    expect(await damage()).toEqual([
      `offtag-publish.json says production runs version ${v.id}, which has no record (versions/${v.id}.json)`,
      `offtag-publish.json's log names version ${v.id}, which has no record`,
    ]);
  });

  it('a record that is not one', async () => {
    await published();
    writeFileSync(join(dir, 'versions', 'zzzzzzz.json'), '{"id":"other"}');
    expect(await damage()).toEqual(['versions/zzzzzzz.json names another id ("other")']);
  });

  it('tells a publish folder from an empty or foreign one', async () => {
    expect(await folderKind(join(dir, 'nowhere'))).toBe('missing');
    expect(await folderKind(dir)).toBe('empty');
    writeFileSync(join(dir, 'index.html'), '');
    expect(await folderKind(dir)).toBe('other');
    rmSync(join(dir, 'index.html'));
    await published();
    expect(await folderKind(dir)).toBe('store');
  });
});

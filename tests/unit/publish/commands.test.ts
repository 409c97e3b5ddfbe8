/**
 * The commands' answers (tools/publish/command.ts) on folders made by hand: what each prints and
 * returns for good input, and the one line for bad input; a damaged folder stops every change.
 * Publishing itself (it builds) is tested end to end: tests/e2e/publish.spec.ts.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { diffCommand, promoteCommand, publishCommand, rollbackCommand, versionsCommand } from '../../../tools/publish/command.ts';
import type { VersionRecord } from '../../../tools/publish/store.ts';
import { folder } from './folder.ts';

let dir: string;
let f: ReturnType<typeof folder>;
let out: string[];
let err: string[];

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'offtag-cmd-'));
  f = folder(dir);
  out = [];
  err = [];
  vi.spyOn(console, 'log').mockImplementation((...a) => void out.push(a.join(' ')));
  vi.spyOn(console, 'error').mockImplementation((...a) => void err.push(a.join(' ')));
});
afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

/** v1 then v2 published to production, v2 to staging. */
async function twoVersions(): Promise<[VersionRecord, VersionRecord]> {
  const v1 = await f.version('a', 'first');
  const v2 = await f.version('b', 'second');
  await f.point('production', v1);
  await f.point('production', v2);
  await f.point('staging', v2);
  return [v1, v2];
}

describe('offtag versions', () => {
  it('lists every version, newest first, with where it is live (--json: environments and versions)', async () => {
    const [v1, v2] = await twoVersions();
    expect(await versionsCommand(['--to', dir, '--json'])).toBe(0);
    const j = JSON.parse(out[0]!);
    expect(j.environments).toEqual({ staging: v2.id, production: v2.id });
    expect(j.versions.map((v: { id: string; live: string[]; note: string }) => [v.id, v.live, v.note])).toEqual([
      [v2.id, ['staging', 'production'], 'second'],
      [v1.id, [], 'first'],
    ]);
    expect(j.versions[0].builds).toEqual({ development: v2.builds.development.id, staging: v2.builds.staging.id, production: v2.builds.production.id });
    out.length = 0;
    expect(await versionsCommand(['--to', dir])).toBe(0);
    expect(out[0]).toMatch(new RegExp(`^${v2.id}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d  shop b  live in staging, production  "second"$`));
    expect(out[1]).toMatch(new RegExp(`^${v1.id} .* shop a  -  "first"$`));
  });

  it('says so for a missing, empty or foreign folder', async () => {
    expect(await versionsCommand(['--to', join(dir, 'none')])).toBe(1);
    expect(await versionsCommand(['--to', dir])).toBe(1);
    writeFileSync(join(dir, 'index.html'), '');
    expect(await versionsCommand(['--to', dir])).toBe(1);
    expect(err).toEqual([
      `offtag versions: ${join(dir, 'none')} has no published version (offtag publish --to ${join(dir, 'none')} publishes the first).`,
      `offtag versions: ${dir} has no published version (offtag publish --to ${dir} publishes the first).`,
      `offtag versions: ${dir} is not a publish folder (it has no offtag-publish.json).`,
    ]);
  });

  it('reports a damaged folder, one line per problem', async () => {
    const [, v2] = await twoVersions();
    writeFileSync(join(dir, v2.builds.staging.id, 'offtag-worker.js'), 'changed');
    expect(await versionsCommand(['--to', dir])).toBe(1);
    expect(err).toEqual([
      `offtag versions: ${dir} is damaged. Restore it from where it is served, or publish into a new folder:`,
      `  staging runs version ${v2.id}, whose build ${v2.builds.staging.id}/offtag-worker.js is not the file that was published (its hash differs)`,
    ]);
  });
});

describe('offtag promote and rollback', () => {
  it('promote: the target runs the source’s version, its build for the target', async () => {
    const [v1] = await twoVersions();
    await f.point('staging', v1, 'rollback');
    expect(await promoteCommand(['--to', dir, '--from', 'staging', '--env', 'production', '--json'])).toBe(0);
    expect(JSON.parse(out[0]!)).toEqual({ version: v1.id, env: 'production', previous: expect.any(String), changed: true, from: 'staging', build: v1.builds.production.id });
    expect(readFileSync(join(dir, 'production/offtag.js'), 'utf8')).toContain(`new URL("../${v1.builds.production.id}/",`);
    out.length = 0;
    expect(await promoteCommand(['--to', dir, '--from', 'staging', '--env', 'production'])).toBe(0);
    expect(out).toEqual([`production already runs version ${v1.id}; nothing changed.`]);
  });

  it('promote from an environment that runs nothing is one line', async () => {
    await twoVersions();
    expect(await promoteCommand(['--to', dir, '--from', 'development', '--env', 'staging'])).toBe(1);
    expect(err).toEqual(['offtag promote: development runs no version yet (offtag publish --env development publishes one).']);
  });

  it('rollback: the version live before, then one before that; none left is one line', async () => {
    const [v1, v2] = await twoVersions();
    const v3 = await f.version('c');
    await f.point('production', v3);
    expect(await rollbackCommand(['--to', dir, '--env', 'production'])).toBe(0);
    expect(await rollbackCommand(['--to', dir, '--env', 'production'])).toBe(0);
    expect(out).toEqual([`production now runs version ${v2.id}; it was ${v3.id}.`, `production now runs version ${v1.id}; it was ${v2.id}.`]);
    expect(await rollbackCommand(['--to', dir, '--env', 'production'])).toBe(1);
    expect(err).toEqual([`offtag rollback: production has no version live before ${v1.id} to roll back to (--version <id> picks any).`]);
  });

  it('rollback --version: any version, by its id or a start of it; an unknown one is one line', async () => {
    const [v1] = await twoVersions();
    expect(await rollbackCommand(['--to', dir, '--env', 'production', '--version', v1.id.slice(0, 5)])).toBe(0);
    expect(out.at(-1)).toMatch(`production now runs version ${v1.id}`);
    expect(await rollbackCommand(['--to', dir, '--env', 'production', '--version', 'nope'])).toBe(1);
    expect(err).toEqual([`offtag rollback: no version "nope" in ${dir} (offtag versions --to ${dir} lists them).`]);
  });

  it('a damaged folder stops them, but an environment’s own changed offtag.js is what a rollback to a named version repairs', async () => {
    const [v1, v2] = await twoVersions();
    writeFileSync(join(dir, 'staging/offtag.js'), 'hand-made');
    expect(await rollbackCommand(['--to', dir, '--env', 'production', '--version', v1.id])).toBe(1);
    expect(err[0]).toBe(`offtag rollback: ${dir} is damaged; nothing was changed. Restore it from where it is served, or publish into a new folder:`);
    expect(err[1]).toBe(`  staging/offtag.js is not version ${v2.id}'s (offtag-publish.json says staging runs it): changed by hand, or a command was interrupted`);
    expect(readFileSync(join(dir, 'production/offtag.js'), 'utf8')).toContain(v2.builds.production.id);
    expect(await rollbackCommand(['--to', dir, '--env', 'staging', '--version', v2.id])).toBe(0);
    expect(readFileSync(join(dir, 'staging/offtag.js'), 'utf8')).toContain(`new URL("../${v2.builds.staging.id}/",`);
    expect(await versionsCommand(['--to', dir])).toBe(0);
  });
});

describe('offtag diff and the commands’ arguments', () => {
  it('diff: the two versions’ changes; an unknown id is one line', async () => {
    const [v1, v2] = await twoVersions();
    expect(await diffCommand(['--to', dir, v1.id, v2.id, '--json'])).toBe(0);
    expect(JSON.parse(out[0]!)).toEqual({ from: v1.id, to: v2.id, changes: [{ kind: 'container', name: 'shop', change: 'changed', fields: ['version: "a" → "b"'] }], sourceChanged: true });
    expect(await diffCommand(['--to', dir, v1.id, 'zzzzzzz'])).toBe(1);
    expect(err).toEqual([`offtag diff: no version "zzzzzzz" in ${dir} (offtag versions --to ${dir} lists them).`]);
  });

  it('bad arguments are one line and exit code 2', async () => {
    expect(await versionsCommand([])).toBe(2);
    expect(await rollbackCommand(['--to', dir, '--env', 'prod'])).toBe(2);
    expect(await promoteCommand(['--to', dir, '--from', 'staging', '--env', 'staging'])).toBe(2);
    expect(await diffCommand(['--to', dir, 'a'])).toBe(2);
    expect(await publishCommand(['--to', dir, '--env', 'production', '--bogus', 'x'])).toBe(2);
    expect(err.map((l) => l.split('\n')[0])).toEqual([
      'offtag versions: --to <dir> is required (the publish folder).',
      'offtag rollback: --env must be one of development, staging, production; got "prod".',
      'offtag promote: --from and --env are both staging.',
      'offtag diff: give 2 version ids.',
      'offtag publish: unknown option --bogus.',
    ]);
  });

  it('an error no check foresaw is one line, not a stack', async () => {
    writeFileSync(join(dir, 'file'), '');
    expect(await publishCommand(['--container', 'x.ts', '--env', 'production', '--to', join(dir, 'file', 'sub')])).toBe(1);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatch(/^offtag publish: ENOTDIR: not a directory, mkdir '.*\/file\/sub'$/);
  });

  it('publish refuses a foreign or damaged folder before building anything', async () => {
    writeFileSync(join(dir, 'index.html'), '');
    expect(await publishCommand(['--container', 'x.ts', '--env', 'production', '--to', dir])).toBe(1);
    rmSync(join(dir, 'index.html'));
    const [, v2] = await twoVersions();
    rmSync(join(dir, v2.builds.production.id, 'offtag.js'));
    expect(await publishCommand(['--container', 'x.ts', '--env', 'staging', '--to', dir])).toBe(1);
    expect(err[0]).toBe(`offtag publish: ${dir} has files but no offtag-publish.json: not a publish folder (give an empty or new folder).`);
    expect(err[1]).toBe(`offtag publish: ${dir} is damaged; nothing was changed. Restore it from where it is served, or publish into a new folder:`);
    expect(err[2]).toBe(`  production runs version ${v2.id}, whose build ${v2.builds.production.id}/ lacks offtag.js`);
  });
});

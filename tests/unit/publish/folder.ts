/** Publish folders made by hand for the unit tests: builds as `offtag build` leaves them, published as `offtag publish` does. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Environment } from '../../../src/worker-engine/core/settings.ts';
import {
  emptyState,
  ENVIRONMENTS,
  folderKind,
  installBuild,
  pointEnvironment,
  readStore,
  versionIdOf,
  withLock,
  writeRecord,
  type BuildRecord,
  type LogEntry,
  type VersionRecord,
} from '../../../tools/publish/store.ts';

export function folder(dir: string) {
  /** A build folder as `offtag build` leaves one: an offtag.js that computes its folder once, a worker, Partytown's files. */
  function built(tag: string, env: string): string {
    const d = join(dir, `.offtag-tmp-${tag}-${env}`);
    mkdirSync(join(d, '~partytown'), { recursive: true });
    writeFileSync(join(d, 'offtag.js'), `(()=>{m=new URL(".",document.currentScript?.src||location.href).href;/*${tag} ${env}*/})();`);
    writeFileSync(join(d, 'offtag-worker.js'), `/* worker ${tag} ${env} */`);
    writeFileSync(join(d, '~partytown', 'partytown.js'), '/* partytown */');
    return d;
  }

  /** A version of `tag`, its builds installed and its record written. */
  async function version(tag: string, note = ''): Promise<VersionRecord> {
    const builds = {} as Record<Environment, BuildRecord>;
    for (const env of ENVIRONMENTS) builds[env] = await installBuild(dir, built(tag, env));
    const description = { name: 'shop', version: tag, sessionKeys: [], settings: {}, dataElements: {}, rules: [] };
    return writeRecord(dir, { time: new Date().toISOString(), env: 'production', container: { name: 'shop', version: tag, file: 'shop.ts' }, sourceHash: tag, note, builds, description }, versionIdOf(builds));
  }

  /** Points `env` at `v` under the lock, as the commands do. */
  function point(env: Environment, v: VersionRecord, action: LogEntry['action'] = 'publish'): Promise<LogEntry> {
    return withLock(dir, async () => {
      const store = (await folderKind(dir)) === 'store' ? (await readStore(dir)).store : { dir, state: emptyState(), versions: new Map() };
      return pointEnvironment(store, env, v, { action });
    });
  }

  return { built, version, point };
}

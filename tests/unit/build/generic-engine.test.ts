import { readdirSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** The seam between Offtag and a container: the engine, the bridge, protocol.ts and page-settings.ts name no container (docs/containers.md). */
const root = fileURLToPath(new URL('../../../', import.meta.url));

function files(path: string): string[] {
  const full = `${root}${path}`;
  if (!statSync(full).isDirectory()) return [path];
  return readdirSync(full).flatMap((f) => files(`${path}/${f}`));
}

const engine = ['src/worker-engine', 'src/main-bridge', 'src/protocol.ts', 'src/page-settings.ts'].flatMap(files);

describe('a generic engine', () => {
  it('no storefront name or value in the engine, the bridge, protocol.ts or page-settings.ts (comments included)', () => {
    const hits = engine.flatMap((f) =>
      readFileSync(`${root}${f}`, 'utf8')
        .split('\n')
        .flatMap((line, i) => (/acme|storefront|acmeprod|keepstock/i.test(line) ? [`${f}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it('nothing in src/ imports a container', () => {
    const hits = files('src').flatMap((f) => (/from ['"][^'"]*containers\//.test(readFileSync(`${root}${f}`, 'utf8')) ? [f] : []));
    expect(hits).toEqual([]);
  });
});

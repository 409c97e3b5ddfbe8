/**
 * `npm run goldens`: writes each storefront fixture's golden (`<name>.golden.jsonl`) from a
 * Node replay. The tests only read goldens; after an intended change, run this, then read the
 * diff line by line before committing it.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replay, type Fixture } from './replay.ts';

export const FIXTURE_DIR = fileURLToPath(new URL('../../tests/fixtures/storefront/', import.meta.url));

/** The golden lines of a fixture: every effect but the devtools feed, one JSON line each. */
export async function goldenLines(fixture: Fixture): Promise<string[]> {
  const result = await replay(fixture);
  return result.effects.filter((e) => e.type !== 'monitor').map((e) => JSON.stringify(e));
}

export const goldenPath = (fixtureFile: string) => join(FIXTURE_DIR, fixtureFile.replace(/\.json$/, '.golden.jsonl'));

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const file of readdirSync(FIXTURE_DIR).filter((f) => f.endsWith('.json'))) {
    const lines = await goldenLines(JSON.parse(readFileSync(join(FIXTURE_DIR, file), 'utf8')) as Fixture);
    writeFileSync(goldenPath(file), `${lines.join('\n')}\n`);
    console.log(`${goldenPath(file)}: ${lines.length} lines`);
  }
}

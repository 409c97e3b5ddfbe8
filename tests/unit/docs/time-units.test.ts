import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/** docs/runtime.md, "Time in the code": one spelling of time units across src/. */
const root = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * Names that spell a unit another way: `_S`, `_SEC`, `_MIN` suffixes, `Sec`/`Secs`/`Mins`/`Millis`,
 * `MS_PER_…` (for `…_MS`) and a `SECONDS` table. Seconds, minutes and days are spelled out in full.
 */
const OTHER_SPELLING = /\b(?:[A-Za-z][A-Za-z0-9_]*(?:_S|_SEC|_SECS|_MIN|_MINS|Sec|Secs|Mins|Millis)|MS_PER_[A-Z]+|SECONDS)\b/g;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = join(dir, d.name);
    if (d.isDirectory()) return sources(p);
    return /\.tsx?$/.test(d.name) ? [relative(root, p)] : [];
  });
}

describe('time units in src/', () => {
  it('are spelled one way: Ms / _MS for milliseconds, the unit in full for any other', () => {
    const found: string[] = [];
    for (const file of sources(join(root, 'src'))) {
      for (const m of readFileSync(join(root, file), 'utf8').matchAll(OTHER_SPELLING)) found.push(`${file}: ${m[0]}`);
    }
    expect(found).toEqual([]);
  });
});

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { gzipSize } from '../../../tools/build/gzip-size.ts';

/**
 * The project rule (README.md): dist/offtag.js, the script every page pays for, is at most 3072
 * bytes gzip, as `gzip -c dist/offtag.js | wc -c` counts them (tools/build/gzip-size.ts; docs/runtime.md,
 * "Bridge size"). This test fails over it.
 * `npm test` builds first (tools/test.mjs); run `node tools/build.mjs` before running this file alone.
 */
const BUDGET = 3072;
const dist = new URL('../../../dist/', import.meta.url);

describe('dist/offtag.js size', () => {
  it(`dist/offtag.js is at most ${BUDGET} bytes gzip, as dist/size.json says`, () => {
    const file = readFileSync(new URL('offtag.js', dist));
    const gzip = gzipSize(fileURLToPath(new URL('offtag.js', dist)));
    const size = JSON.parse(readFileSync(new URL('size.json', dist), 'utf8'))['offtag.js'];
    expect(size).toEqual({ raw: file.length, gzip });
    expect(gzip, `dist/offtag.js is ${gzip} bytes gzip (budget ${BUDGET}): node tools/build.mjs prints it`).toBeLessThanOrEqual(BUDGET);
  });
});

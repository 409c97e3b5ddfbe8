/**
 * How offtag.js's size is measured against its budget: the bytes `gzip -c dist/offtag.js` writes
 * (GNU gzip at its default level, the file's name in the header), the figure a reader checking the
 * budget by hand gets, and a few bytes more than Node's zlib at level 9 (which gives no name and
 * packs slightly tighter). Where no gzip program is installed, zlib at level 9 plus the header's
 * name, which stays within a few bytes of it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gzipSync } from 'node:zlib';

export function gzipSize(file: string): number {
  const r = spawnSync('gzip', ['-c', file], { maxBuffer: 1 << 26 });
  if (r.status === 0 && r.stdout?.length) return r.stdout.length;
  return gzipSync(readFileSync(file), { level: 9 }).length + basename(file).length + 1;
}

/**
 * README.md and docs/ are written for a reader who has only the repository: a user who wants to
 * know what to do and what happens, a maintainer who wants the design that is still true. So they
 * carry no issue numbers (there is no tracker to follow them to), no dated runs (measured figures
 * live in bench/results/, which the bench writes), no "the spec" or "the issue" cited as a document,
 * and the README stays short enough to read in one sitting. The code, its comments and test
 * titles carry no issue numbers either: they say the reason itself. Links that leave the repository or
 * point at missing files are checked for every markdown file by standalone.test.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const README_MAX_LINES = 220;

/**
 * Dates that are the product's data, not the date of a run: the storefront container's build date
 * is an input of the beacon's version code (`JS-2.27.0-LF8J`), so the docs that explain that code
 * must name it.
 */
const DATA_DATES = new Set(['2025-08-19']);

/** The lines of a markdown text with fenced code blocks blanked (example output and fixtures are data). */
function proseLines(md: string): string[] {
  let fenced = false;
  return md.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** "issue 9", "issues 10 and 12", "Issue #26": what code and docs alike never carry. */
const ISSUE_NUMBER = /\bissues?\s+#?\d+/i;

const CHECKS: Array<[string, (prose: string) => boolean]> = [
  ['an issue number', (l) => ISSUE_NUMBER.test(l) || /(^|[^\w&/])#\d+\b/.test(l.replace(/`[^`]*`/g, ''))],
  ['a dated run', (l) => [...l.matchAll(/\b\d{4}-\d{2}-\d{2}\b/g)].some((m) => !DATA_DATES.has(m[0]))],
  ['"the spec" or "the issue" cited as a document', (l) => /\b(the|this|that|its|our) (spec|specification|issue)\b|\bspec §/i.test(l)],
];

/** What a reader would trip on, as `file:line: what: text`. */
export function readerProblems(file: string, md: string): string[] {
  const out: string[] = [];
  proseLines(md).forEach((line, i) => {
    for (const [what, found] of CHECKS) if (found(line)) out.push(`${file}:${i + 1}: ${what}: ${line.trim().slice(0, 100)}`);
  });
  return out;
}

const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

describe('README and docs are written for readers of the repository', () => {
  it(`README.md is at most ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(ROOT, 'README.md'), 'utf8').replace(/\n$/, '').split('\n').length;
    expect(lines).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('no issue numbers in the code either: src, tests, tools, containers, demo, bench (its results too)', () => {
    const walk = (dir: string): string[] =>
      readdirSync(join(ROOT, dir)).flatMap((name) => {
        const rel = `${dir}/${name}`;
        return name === 'node_modules' || rel === 'bench/results/raw' || rel === 'bench/.build' ? [] : statSync(join(ROOT, rel)).isDirectory() ? walk(rel) : [rel];
      });
    // This file's own examples of what the checks catch are the one exception.
    const code = ['src', 'tests', 'tools', 'containers', 'demo', 'bench'].flatMap(walk).filter((f) => /\.(m?[jt]sx?|md)$/.test(f) && !f.endsWith('docs/for-readers.test.ts'));
    const found = code.flatMap((f) =>
      readFileSync(join(ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (ISSUE_NUMBER.test(line) ? [`${f}:${i + 1}: ${line.trim().slice(0, 100)}`] : [])),
    );
    expect(code.length).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });

  it('no issue numbers, dated runs, or "the spec" / "the issue" as documents', () => {
    const found = DOCS.flatMap((f) => readerProblems(f, readFileSync(join(ROOT, f), 'utf8')));
    expect(found).toEqual([]);
  });

  it('the checks catch what they are for and let data through', () => {
    const bad = [
      'As issue 26 asked, the bridge …',
      'see issues 10 and 12',
      'fixed in #412.',
      'Measured 2026-11-25 20:16 UTC on 2 cores.',
      'What the spec says about consent.',
      'The issue asked for 25×.',
      '(spec §6)',
    ];
    for (const line of bad) expect(readerProblems('x.md', line), line).toHaveLength(1);
    const good = [
      'The build date 2025-08-19 gives `JS-2.27.0-LF8J`.',
      'The replay prints `#1 direct-call "Page Vew"`.',
      'A colour like &#39; or a link to [the guide](docs/x.md#3-steps).',
      '```\nb689ie9  2026-11-27 12:24:04  shop 2.0.0\n```',
      'What is at issue here is the cost.',
    ];
    for (const text of good) expect(readerProblems('x.md', text), text).toEqual([]);
  });
});

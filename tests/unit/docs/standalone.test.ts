/**
 * The documentation stands alone in a fresh clone: every markdown file of the repository (README,
 * docs/, bench/results/) links only to files that exist, names only repository files that exist,
 * and points at nothing outside the repository (no `../shared/…`, no absolute path of a developer's
 * machine, no specification files that only its authors had). Rules, wire formats and constants are
 * stated in the docs themselves (docs/spec-coverage.md is the container's rules); outside sources
 * are cited by their public names (e.g. github.com/adobe/appmeasurement).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The repository's files as git knows them (tracked and new, not ignored). */
const FILES: string[] = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => f && existsSync(join(ROOT, f)));
const DOCS = FILES.filter((f) => f.endsWith('.md'));

/** What points outside the repository: the session's shared folder, absolute machine paths, the authors' spec files. */
const OUTSIDE: Array<[RegExp, string]> = [
  [/\.\.\/shared\b|\bshared\/(reference|spec)\b/, 'a path to ../shared'],
  [/(^|[\s`'"(])\/(work|home|root|Users|tmp)\/[\w.-]/, 'an absolute path of a machine'],
  [/\bSPEC\.md\b|\bSPEC §/, 'SPEC.md (not in the repository: state the rule, cite docs/spec-coverage.md)'],
  [/\bDECISIONS\.md\b/, 'DECISIONS.md (not in the repository: cite docs/spec-coverage.md D1–D7)'],
  [/\b(ecid|appmeasurement|toolchain|anchors|real-library-examples)\.md\b/, 'a reference note that is not in the repository (cite the public source by name)'],
];

/** Lines of a text matching one of OUTSIDE, as `file:line: what`. */
export function outsideReferences(file: string, text: string): string[] {
  const out: string[] = [];
  text.split('\n').forEach((line, i) => {
    for (const [re, what] of OUTSIDE) if (re.test(line)) out.push(`${file}:${i + 1}: ${what}: ${line.trim().slice(0, 120)}`);
  });
  return out;
}

/** The relative targets of markdown links and images (`[x](path)`, `![x](path)`), without anchors. */
export function linkTargets(md: string): string[] {
  const out: string[] = [];
  for (const m of md.matchAll(/!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1]!;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('#')) continue;
    out.push(target.replace(/#.*$/, ''));
  }
  return out;
}

const TOP = ['src', 'tests', 'tools', 'bench', 'docs', 'demo', 'containers'];

/** Repository paths named in code spans (`src/…`, `tests/…`, `docs/x.md`…); globs, placeholders and elisions are left out. */
export function citedPaths(md: string): string[] {
  const out: string[] = [];
  for (const m of md.matchAll(/`([^`\n]+)`/g)) {
    for (const token of m[1]!.split(/[\s,;()]+/)) {
      const path = token.replace(/[.:]+$/, '').replace(/[:#].*$/, '');
      if (!new RegExp(`^(${TOP.join('|')})/[\\w./-]*$`).test(path)) continue;
      if (/[*<>…]|\.\.\./.test(token)) continue;
      out.push(path.replace(/\/$/, ''));
    }
  }
  return out;
}

/** A file of the checkout, or a generated folder git ignores (`bench/.build`, `bench/results/raw`). */
const exists = (rel: string) => {
  if (existsSync(join(ROOT, rel))) return true;
  try {
    execFileSync('git', ['check-ignore', '--no-index', rel, `${rel}/`], { cwd: ROOT, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

describe('the documentation stands alone', () => {
  it('has markdown files to check', () => {
    expect(DOCS).toContain('README.md');
    expect(DOCS.filter((d) => d.startsWith('docs/')).length).toBeGreaterThan(8);
  });

  it('points at nothing outside the repository (../shared, /work/…, SPEC.md, DECISIONS.md, reference notes)', () => {
    const found = DOCS.flatMap((d) => outsideReferences(d, readFileSync(join(ROOT, d), 'utf8')));
    expect(found).toEqual([]);
  });

  it('links only to files that exist', () => {
    const broken: string[] = [];
    for (const d of DOCS) {
      for (const target of linkTargets(readFileSync(join(ROOT, d), 'utf8'))) {
        const rel = normalize(join(dirname(d), decodeURIComponent(target)));
        if (rel.startsWith('..') || !exists(rel)) broken.push(`${d}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  }, 30_000);

  it('names only repository files and folders that exist', () => {
    const missing: string[] = [];
    for (const d of DOCS) {
      for (const path of citedPaths(readFileSync(join(ROOT, d), 'utf8'))) if (!exists(path)) missing.push(`${d}: ${path}`);
    }
    expect([...new Set(missing)]).toEqual([]);
  }, 30_000);

  it('the checks catch what they are for', () => {
    expect(outsideReferences('x.md', 'see `/work/shared/reference/appmeasurement.md`').length).toBeGreaterThan(0);
    expect(outsideReferences('x.md', '(SPEC.md §6, DECISIONS.md §7)')).toHaveLength(2);
    expect(outsideReferences('x.md', '## Methods (see `../shared/reference/toolchain.md` §7)').length).toBeGreaterThan(0);
    expect(outsideReferences('x.md', 'spec-coverage.md §6, D7; github.com/adobe/appmeasurement; a /b/ss/ path')).toEqual([]);
    expect(linkTargets('[a](docs/x.md#y) [b](https://e.com) ![c](bench/results/chart.svg) [d](#top)')).toEqual(['docs/x.md', 'bench/results/chart.svg']);
    expect(citedPaths('`src/a.ts` `tests/unit/*.test.ts` `docs/x.md:12` `core/settings.ts` `tests/e2e/<name>.spec.ts`')).toEqual(['src/a.ts', 'docs/x.md']);
  });
});

/** Source, tests and tools: comments and test titles cite in-repo docs (docs/spec-coverage.md §n, Dn) and public sources by name. */
const CODE = FILES.filter(
  (f) => /\.(ts|tsx|mjs|js|html|css|json)$/.test(f) && /^(src|tools|tests|bench|demo|containers)\//.test(f) && f !== 'tests/unit/docs/standalone.test.ts',
);

describe('the code stands alone too', () => {
  it('no comment, test title or path in src/, containers/, tools/, tests/, bench/, demo/ points outside the repository', () => {
    expect(CODE.length).toBeGreaterThan(100);
    // Code may name /tmp and the like at run time; only the session's own folders are outside references there.
    const found = CODE.flatMap((f) => outsideReferences(f, readFileSync(join(ROOT, f), 'utf8'))).filter((l) => !/an absolute path of a machine/.test(l) || /\/work\//.test(l));
    expect(found).toEqual([]);
  }, 30_000);
});

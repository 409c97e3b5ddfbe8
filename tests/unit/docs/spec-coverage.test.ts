/**
 * docs/spec-coverage.md cannot drift from the code: every file it names exists, every test title
 * it quotes is the title (or the start of the title) of a test in the test files, and a row
 * that names no test says why (it does not apply, or it is not implemented).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const DOC = readFileSync(join(ROOT, 'docs/spec-coverage.md'), 'utf8');

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(join(ROOT, dir))) {
    if (name === 'node_modules' || name.startsWith('.')) continue;
    const rel = dir ? `${dir}/${name}` : name;
    if (statSync(join(ROOT, rel)).isDirectory()) walk(rel, out);
    else out.push(rel);
  }
  return out;
}
const FILES = [...walk('src'), ...walk('tests'), ...walk('tools'), ...walk('bench'), ...walk('docs'), ...walk('demo')];
const TEST_FILES = FILES.filter((f) => /\.(test|spec)\.tsx?$/.test(f));

/** Test titles of one file; `${…}`, `%s` and `$name` placeholders become wildcards. */
function titlesOf(file: string): RegExp[] {
  const src = readFileSync(join(ROOT, file), 'utf8');
  const re = /\b(?:it|test|describe)(?:\.(?:each|for)\((?:[^()]|\([^()]*\))*\))?(?:\.(?:skip|only|concurrent))*\(\s*(['"`])((?:\\.|(?!\1)[^\\])*)\1/g;
  const out: RegExp[] = [];
  for (const m of src.matchAll(re)) {
    const raw = m[2].replace(/\\(['"`\\])/g, '$1');
    const parts = raw.split(/\$\{[^}]*\}|%[sdifjo#]|\$[a-zA-Z_]\w*/);
    out.push(new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')));
  }
  return out;
}
const TITLES = new Map(TEST_FILES.map((f) => [f, titlesOf(f)]));

/** The abbreviations the document defines: **SF** = `containers/storefront/`. */
const ABBREV = new Map<string, string[]>();
for (const m of DOC.matchAll(/\*\*([A-Z][A-Z-]*)\*\* = ((?:`[^`]+`(?: \([^)]*\))?(?:,? (?:and )?)?)+)/g)) {
  ABBREV.set(m[1], [...m[2].matchAll(/`([^`]+)`/g)].map((x) => x[1]));
}

interface Row {
  line: number;
  cells: string[];
}
const ROWS: Row[] = DOC.split('\n')
  .map((text, i) => ({ text, line: i + 1 }))
  .filter(({ text }) => text.startsWith('|') && !/^\|\s*-/.test(text))
  .map(({ text, line }) => ({ line, cells: text.slice(1, -1).split(/(?<!\\)\|/).map((c) => c.trim()) }))
  .filter((r) => r.cells.length >= 3 && !/^(Sentence|Row|Setting|Decision)\b/.test(r.cells[0]) && r.cells[2] !== 'Proven by');

/** A path named in the document, abbreviations expanded; bare file names are looked up. */
function resolve(token: string): string[] | undefined {
  const t = token.replace(/[:#].*$/, '').replace(/\s*\(.*$/, '');
  const abbrev = /^([A-Z][A-Z-]*)\/(.*)$/.exec(t);
  if (abbrev && ABBREV.has(abbrev[1])) return ABBREV.get(abbrev[1])!.map((d) => d + abbrev[2]);
  if (t.includes('*')) {
    const re = new RegExp(`^${t.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);
    return FILES.filter((f) => re.test(f));
  }
  if (t.includes('/')) {
    const path = t.replace(/\/$/, '');
    if (existsSync(join(ROOT, path))) return [path];
    // A path relative to its area (`core/settings.ts`): the one file that ends so.
    return FILES.filter((f) => f.endsWith(`/${path}`)).concat(FILES.some((f) => f.startsWith(`src/${path}/`) || f.includes(`/${path}/`)) ? [path] : []);
  }
  return FILES.filter((f) => basename(f) === t);
}
const looksLikeFile = (t: string) => /^[\w.*/-]+\.(ts|tsx|mjs|js|json|jsonl|md|html|css)$/.test(t) || /^[A-Z][A-Z-]*\/[\w.*/-]+$/.test(t) || /^(src|tests|tools|bench|docs|demo)\/[\w./*-]*$/.test(t);

/** Files of the tests a cell names (abbreviations and paths). */
function testFilesOf(cell: string): string[] {
  const out: string[] = [];
  for (const [k, v] of ABBREV) if (new RegExp(`(^|[^\\w-])${k}(?![\\w-])`).test(cell)) out.push(...v.filter((f) => TITLES.has(f) || f.includes('*')));
  for (const m of cell.matchAll(/`([^`]+)`/g)) if (looksLikeFile(m[1])) out.push(...(resolve(m[1]) ?? []));
  return out.flatMap((f) => (f.includes('*') ? (resolve(f) ?? []) : [f])).filter((f) => TITLES.has(f));
}

/** Quoted titles in a cell: "…" outside code spans, and `…"…"…` code spans that name a describe block. */
function quotedTitles(cell: string): string[] {
  const noCode = cell.replace(/`[^`]*`/g, '');
  const plain = [...noCode.matchAll(/"((?:\\"|[^"])+)"/g)].map((m) => m[1].replace(/\\"/g, '"'));
  const code = [...cell.matchAll(/`([^`]*)`/g)].map((m) => m[1]).filter((c) => /^[a-z ]+"/.test(c));
  return [...plain, ...code];
}

function titleExists(title: string, files: string[]): boolean {
  const wanted = title.replace(/…|<[^>]+>/g, '\u0000').split('\u0000');
  const pattern = new RegExp(wanted.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*'));
  const where = files.length ? files : TEST_FILES;
  if (where.some((f) => TITLES.get(f)!.some((t) => pattern.test(t.source.replace(/\\(.)/g, '$1')) || t.test(title.replace(/…$/, ''))))) return true;
  // Titles a file builds from a table (`for (const [name, run] of …) test(name, …)`): the name is a literal key there.
  return files.some((f) => /\b(?:it|test)\(\s*[a-zA-Z_]/.test(readFileSync(join(ROOT, f), 'utf8')) && ['\'', '"'].some((q) => readFileSync(join(ROOT, f), 'utf8').includes(`${q}${title}${q}`)));
}

describe('docs/spec-coverage.md', () => {
  it('has rows to check and the abbreviations it uses', () => {
    expect(ROWS.length).toBeGreaterThan(100);
    expect([...ABBREV.keys()]).toEqual(expect.arrayContaining(['SF', 'PL', 'T-DE', 'T-R', 'T-V', 'T-FX', 'T-PL']));
  });

  it('names only files that exist', () => {
    const missing: string[] = [];
    for (const r of ROWS) {
      for (const cell of r.cells.slice(1)) {
        for (const m of cell.matchAll(/`([^`]+)`/g)) {
          if (!looksLikeFile(m[1])) continue;
          const found = resolve(m[1]);
          if (!found?.length) missing.push(`line ${r.line}: ${m[1]}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('quotes only test titles that exist in the test files it names', () => {
    const missing: string[] = [];
    for (const r of ROWS) {
      const files = testFilesOf(r.cells[2]);
      for (const title of quotedTitles(r.cells[2])) if (!titleExists(title, files)) missing.push(`line ${r.line}: "${title}"`);
    }
    expect(missing).toEqual([]);
  });

  it('gives every row a test, or says that it does not apply or is not implemented', () => {
    const bare: string[] = [];
    for (const r of ROWS) {
      if (testFilesOf(r.cells[2]).length) continue;
      if (/^(Does not apply|Not implemented|Not read|Not a product rule|This file)/i.test(r.cells[1])) continue;
      bare.push(`line ${r.line}: ${r.cells[0].slice(0, 60)}`);
    }
    expect(bare).toEqual([]);
  });
});

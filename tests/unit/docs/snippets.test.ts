/**
 * Every TypeScript and JavaScript snippet of README.md and docs/configuration.md compiles against
 * the package's own types, as a site gets them: a folder whose node_modules/offtag is this
 * checkout (package.json `types`, `exports`), each snippet a file of its own, compiled as written.
 *
 * - ```ts blocks: type-checked, strict and not strict (`/// <reference types="offtag" />` or
 *   `import type … from 'offtag'` in the snippet is what brings the types in).
 * - ```js blocks: type-checked as `// @ts-check` does (checkJs, not strict).
 * - the inline `<script>` bodies of ```html blocks: compiled as JavaScript (syntax), since a
 *   script in an HTML page is not type-checked by any editor or build.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const DOCS = ['README.md', 'docs/configuration.md'];

export interface Snippet {
  doc: string;
  line: number;
  kind: 'ts' | 'js' | 'html-script';
  code: string;
}

/** The fenced ts/js blocks of a markdown text, and the inline scripts of its html blocks. */
export function snippetsOf(doc: string, md: string): Snippet[] {
  const out: Snippet[] = [];
  for (const m of md.matchAll(/^```(\w*)\n([\s\S]*?)^```/gm)) {
    const line = md.slice(0, m.index).split('\n').length;
    const lang = m[1].toLowerCase();
    if (lang === 'ts' || lang === 'typescript') out.push({ doc, line, kind: 'ts', code: m[2] });
    else if (lang === 'js' || lang === 'javascript') out.push({ doc, line, kind: 'js', code: m[2] });
    else if (lang === 'html')
      for (const s of m[2].matchAll(/<script>([\s\S]*?)<\/script>/g)) out.push({ doc, line, kind: 'html-script', code: s[1] });
  }
  return out;
}

const SNIPPETS = DOCS.flatMap((d) => snippetsOf(d, readFileSync(join(root, d), 'utf8')));

const dir = mkdtempSync(join(tmpdir(), 'offtag-snippets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Compiles the snippets in a site-like folder; '' when tsc reports nothing. */
function compile(snippets: Snippet[], options: Record<string, unknown>): string {
  if (snippets.length === 0) return '';
  const project = mkdtempSync(join(dir, 'p-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(root, join(project, 'node_modules/offtag'));
  const files = snippets.map((s, i) => {
    const name = `${s.doc.replace(/\W/g, '_')}_line${s.line}_${i}.${s.kind === 'ts' ? 'ts' : 'js'}`;
    writeFileSync(join(project, name), s.code);
    return name;
  });
  const compilerOptions = {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'bundler',
    moduleDetection: 'force',
    lib: ['ES2022', 'DOM'],
    types: [],
    noEmit: true,
    allowJs: true,
    skipLibCheck: false,
    ...options,
  };
  writeFileSync(join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files }));
  try {
    execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', project], { encoding: 'utf8' });
    return '';
  } catch (err) {
    return String((err as { stdout?: string }).stdout || err);
  }
}

describe('the snippets of README.md and docs/configuration.md', () => {
  it("include the README's typed usage, `window._satellite.track('Page View')` after `/// <reference types=\"offtag\" />`", () => {
    const ts = SNIPPETS.filter((s) => s.kind === 'ts' && s.doc === 'README.md');
    expect(ts.some((s) => s.code.includes('/// <reference types="offtag" />') && s.code.includes("window._satellite.track('Page View')"))).toBe(true);
    expect(SNIPPETS.filter((s) => s.kind === 'html-script').length).toBeGreaterThanOrEqual(2);
  });

  it.for([
    ['strict', { strict: true }],
    ['not strict', { strict: false }],
  ] as const)('TypeScript snippets compile against offtag.d.ts (%s)', { timeout: 60_000 }, ([, options]) => {
    const ts = SNIPPETS.filter((s) => s.kind === 'ts');
    expect(ts.length).toBeGreaterThan(0);
    expect(compile(ts, options)).toBe('');
  });

  it('JavaScript snippets compile (```js type-checked as @ts-check does; inline html scripts as JavaScript)', () => {
    const js = SNIPPETS.filter((s) => s.kind === 'js');
    const scripts = SNIPPETS.filter((s) => s.kind === 'html-script');
    expect(compile(js, { checkJs: true }) + compile(scripts, { checkJs: false })).toBe('');
  }, 60_000);
});

/**
 * `offtag import <library.js> [--assets <dir>] [--out containers/<name>] [--data-layer <global>]`:
 * reads a Launch library, validates it, and writes the container (container.ts), the report
 * (report.txt, also printed). What runs on the page is in container.ts too: offtag build writes it
 * into offtag.js. A library a site's bundle carries inside one of its functions also gives
 * site-bundle.js: that bundle without the library, which the site ships in place of its bundle.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWithoutLibrary, LibraryReadError, readLibrary } from './read.ts';
import { reportText, translate } from './translate.ts';
import { checkContainer } from './validate.ts';

export const IMPORT_USAGE = 'usage: offtag import <library.js> [--assets <dir>] [--out containers/<name>] [--data-layer <global>]';

export interface ImportArgs {
  library: string;
  assets?: string;
  out: string;
  dataLayer?: string;
}

export function parseImportArgs(argv: string[]): ImportArgs | string {
  const flags: Record<string, string> = {};
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--assets' || a === '--out' || a === '--data-layer') {
      const v = argv[++i];
      if (!v || v.startsWith('--')) return `offtag import: ${a} needs a value.`;
      flags[a.slice(2)] = v;
    } else if (a.startsWith('--')) return `offtag import: unknown option ${a}.`;
    else files.push(a);
  }
  if (files.length !== 1) return `offtag import: give one library file.\n${IMPORT_USAGE}`;
  const library = files[0]!;
  return {
    library,
    out: flags.out ?? join('containers', basename(library).replace(/\.min\.js$|\.js$/, '')),
    ...(flags.assets ? { assets: flags.assets } : {}),
    ...(flags['data-layer'] ? { dataLayer: flags['data-layer'] } : {}),
  };
}

/** The site's bundle without the library it carried (bundleWithoutLibrary), beside container.ts. */
export const SITE_BUNDLE = 'site-bundle.js';

export interface ImportResult {
  lines: string[];
  files: string[];
}

/** The import itself: throws LibraryReadError (one line) when the file is not a readable, valid library. */
export function runImport(a: ImportArgs): ImportResult {
  let text: string;
  try {
    text = readFileSync(a.library, 'utf8');
  } catch (err) {
    throw new LibraryReadError(`${a.library}: cannot read: ${(err as Error).message}`);
  }
  const checked = checkContainer(readLibrary(text, a.library));
  if (checked.error) throw new LibraryReadError(`${a.library}: ${checked.error}`);
  const container = checked.container;
  const out = resolve(a.out);
  const packageRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  let root = relative(out, packageRoot).split('\\').join('/') || '.';
  if (!root.startsWith('.')) root = './' + root;
  // An installed package has no sources: the container imports the package's own exports.
  if (!existsSync(join(packageRoot, 'src/container/index.ts'))) root = '';
  const tr = translate(container, { warnings: checked.warnings, name: basename(out), root, ...(a.assets ? { assets: a.assets } : {}), ...(a.dataLayer ? { dataLayer: a.dataLayer } : {}) });
  const lines = reportText(tr);
  const bundle = bundleWithoutLibrary(text);
  if (bundle)
    lines.splice(-1, 0, `note: the library is inside a function of a site bundle (${bundle.functionName ? `function ${bundle.functionName}` : 'a function without a name'}); ${SITE_BUNDLE} is that bundle with the function left empty, so its own code runs as before and its call of that function does nothing: ship it in place of the bundle, with offtag.js's script tag right after it`);
  mkdirSync(out, { recursive: true });
  const files = [join(out, 'container.ts'), join(out, 'report.txt')];
  writeFileSync(files[0]!, tr.source);
  writeFileSync(files[1]!, lines.join('\n') + '\n');
  if (bundle) {
    files.push(join(out, SITE_BUNDLE));
    writeFileSync(files[2]!, bundle.text);
  }
  return { lines, files };
}

export function importCommand(argv: string[]): number {
  const args = parseImportArgs(argv);
  if (typeof args === 'string') {
    console.error(args);
    return 2;
  }
  try {
    const { lines, files } = runImport(args);
    process.stdout.write(lines.map((l) => l + '\n').join(''));
    process.stdout.write(`wrote ${files.map((f) => relative(process.cwd(), f)).join(', ')}\n`);
    return 0;
  } catch (err) {
    if (err instanceof LibraryReadError) {
      console.error(`offtag import: ${err.message}`);
      return 1;
    }
    throw err;
  }
}

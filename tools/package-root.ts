/**
 * The package's root folder (normalized, with a trailing slash), from a tool's own URL: `tools/x.ts`
 * in the checkout, or the prebuilt CLI `dist/cli/*.mjs` an installed package runs (tools/build.mjs
 * writes it; `npm pack` builds first).
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export function packageRoot(moduleUrl: string): string {
  const up = existsSync(fileURLToPath(new URL('../package.json', moduleUrl))) ? '../' : '../../';
  return fileURLToPath(new URL(up, moduleUrl));
}

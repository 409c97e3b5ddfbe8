#!/usr/bin/env node
// The `offtag` command: replay, decode, serve. In the checkout (its TypeScript sources and tsx are
// there) it runs tools/cli.ts through tsx; an installed package runs the prebuilt dist/cli/offtag-cli.mjs
// (tools/build.mjs writes it; `npm pack` builds first), which needs no dependency.
import { existsSync } from 'node:fs';

const checkout = existsSync(new URL('./cli.ts', import.meta.url)) && existsSync(new URL('../node_modules/tsx/package.json', import.meta.url));
const { main } = checkout
  ? await (await import('tsx/esm/api')).tsImport('./cli.ts', import.meta.url)
  : await import('../dist/cli/offtag-cli.mjs');
process.exitCode = await main(process.argv.slice(2));

// `npm run build` / `node tools/build.mjs [--container <file>] [--env <env>] [--out <dir>]`: builds
// one container's library (default: containers/storefront for production into dist/, with the demo
// app). The work is tools/build/build.ts, run through tsx like the other tools; `offtag build` is the same.
import { tsImport } from 'tsx/esm/api';

const { buildCommand } = await tsImport('./build/build.ts', import.meta.url);
process.exitCode = await buildCommand(process.argv.slice(2));

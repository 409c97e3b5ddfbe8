// `npm run build` / `node tools/build.mjs [--container <file>] [--env <env>] [--out <dir>]`: builds
// one container's library (default: containers/storefront for production into dist/, with the demo
// app). The work is tools/build/build.ts, run through tsx like the other tools; `offtag build` is the same.
import { tsImport } from 'tsx/esm/api';

const argv = process.argv.slice(2);
const { buildCommand } = await tsImport('./build/build.ts', import.meta.url);
process.exitCode = await buildCommand(argv);
// The default build is also the package's (`npm pack`): the prebuilt CLI, the modules a site's
// project imports (dist/lib), the files no container changes (dist/runtime) and the demo's SDK
// scripts (README "As a package").
if (process.exitCode === 0 && argv.length === 0) await (await tsImport('./build/package-extras.ts', import.meta.url)).buildPackageExtras();

#!/usr/bin/env node
// The `offtag` command: replay, decode, serve. The tools are TypeScript, run through tsx.
import { tsImport } from 'tsx/esm/api';

const { main } = await tsImport('./cli.ts', import.meta.url);
process.exitCode = await main(process.argv.slice(2));

/** `npx offtag <command>`: replay a fixture, decode a beacon, serve the demo. */
import { readFile } from 'node:fs/promises';

const USAGE = `usage:
  offtag replay [--json] [--container <file>] <fixture.json>
                                         run the engine on a fixture (default container: the storefront): one summary line per event
                                         (--json: one JSON line per effect, byte for byte the same each run)
  offtag decode [--json] '<beacon url>'  decode an analytics beacon: a table of named fields (--json: all of it)
  offtag build [--container <file>] [--env development|staging|production] [--out <dir>]
                                         build one container's library (default: the storefront, production, dist/)
  offtag dev --container <file> [--page <file.html>] [--port <n>]
                                         build for development, serve a page with the local collector, print each
                                         beacon decoded, rebuild and reload on each save
  offtag serve [--port <n>] [--host <h>] the demo page and the local collector, ID service and RUM intake
                                         (offtag serve --help for every option)
  offtag import <library.js> [--assets <dir>] [--out containers/<name>]
                                         an Adobe Launch library as an Offtag container, with a report
  offtag publish --container <file> --env <env> --to <dir> [--note <text>] [--url <url>] [--json]
  offtag versions --to <dir> [--json]    | offtag promote --to <dir> --from <env> --env <env>
  offtag rollback --to <dir> --env <env> [--version <id>] | offtag diff --to <dir> <id> <id>
                                         versions of a container in a folder of static files, environments pointed at them
                                         (docs/publishing.md)`;

/**
 * The package a missing-module error names (`Cannot find package 'vite'`, `Cannot find module
 * '@adobe/reactor-turbine-schemas/schemas/container.json'`), or undefined for any other error.
 */
export function missingPackage(err: unknown): string | undefined {
  const code = (err as { code?: string } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return undefined;
  const name = /Cannot find (?:package|module) '([^']+)'/.exec(String((err as Error).message))?.[1];
  if (!name || name.startsWith('.') || name.startsWith('/')) return undefined;
  return name.split('/').slice(0, name.startsWith('@') ? 2 : 1).join('/');
}

/**
 * Runs a command. The installed package's CLI is prebuilt with what its commands use; its
 * dependencies (esbuild, terser…) come with it. Should a module still be missing (a damaged
 * install), the command says which, in one line, instead of a stack.
 */
export async function main(argv: string[]): Promise<number> {
  try {
    return await run(argv);
  } catch (err) {
    const name = missingPackage(err);
    if (!name) throw err;
    console.error(`offtag ${argv[0]}: cannot find the package ${name}, which offtag installs with itself: run npm install again (npm ls ${name} says what is wrong)`);
    return 1;
  }
}

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'replay': {
      const json = rest.includes('--json');
      // `--container <file>`: replay against another container than the storefront.
      const at = rest.indexOf('--container');
      const containerFile = at >= 0 ? rest[at + 1] : undefined;
      const files = rest.filter((a, i) => a !== '--json' && (at < 0 || (i !== at && i !== at + 1)));
      if (!files[0]) {
        console.error('offtag replay: give a fixture file.');
        return 2;
      }
      let fixture: unknown;
      try {
        fixture = JSON.parse(await readFile(files[0], 'utf8'));
      } catch (err) {
        console.error(`offtag replay: cannot read ${files[0]}: ${(err as Error).message}`);
        return 2;
      }
      const { fixtureProblem } = await import('./replay/validate.ts');
      const problem = fixtureProblem(fixture);
      if (problem) {
        console.error(`offtag replay: ${files[0]}: ${problem}`);
        return 2;
      }
      const { replay } = await import('./replay/replay.ts');
      let container;
      if (containerFile) {
        const { ContainerLoadError, loadContainer } = await import('./build/build.ts');
        try {
          container = await loadContainer(containerFile);
        } catch (err) {
          if (!(err instanceof ContainerLoadError)) throw err;
          for (const line of err.lines) console.error(`offtag replay: ${line}`);
          return 2;
        }
      }
      const result = await replay(fixture as Parameters<typeof replay>[0], { container });
      if (json) process.stdout.write(result.lines.map((l) => l + '\n').join(''));
      else {
        const { summarizeReplay } = await import('./replay/summary.ts');
        process.stdout.write(summarizeReplay(result.steps).map((l) => l + '\n').join(''));
      }
      return 0;
    }
    case 'decode': {
      const { decodeCommand } = await import('./collector/decode.ts');
      return (await decodeCommand(rest)) ?? 0;
    }
    case 'build': {
      const { buildCommand } = await import('./build/build.ts');
      return buildCommand(rest);
    }
    case 'dev': {
      const { devCommand } = await import('./dev/dev.ts');
      return devCommand(rest);
    }
    case 'import': {
      const { importCommand } = await import('./import/command.ts');
      return importCommand(rest);
    }
    case 'publish':
    case 'versions':
    case 'promote':
    case 'rollback':
    case 'diff': {
      const publish = await import('./publish/command.ts');
      return publish[`${command}Command`](rest);
    }
    case 'serve': {
      const { serve } = await import('./dev-server.ts');
      return serve(rest);
    }
    default:
      console.error(USAGE);
      return command ? 2 : 0;
  }
}

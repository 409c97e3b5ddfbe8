/** `npx offtag <command>`: replay a fixture, decode a beacon, serve the demo. */
import { readFile } from 'node:fs/promises';

const USAGE = `usage:
  offtag replay [--json] <fixture.json>   run the engine on a fixture: one summary line per event
                                         (--json: one JSON line per effect, byte for byte the same each run)
  offtag decode [--json] '<beacon url>'  decode an analytics beacon: a table of named fields (--json: all of it)
  offtag build [--container <file>] [--env development|staging|production] [--out <dir>]
                                         build one container's library (default: the storefront, production, dist/)
  offtag serve [--port <n>] [--host <h>] the demo page and the local collector, ID service and RUM intake
                                         (offtag serve --help for every option)
  offtag import <library.js> [--assets <dir>] [--out containers/<name>]
                                         an Adobe Launch library as an Offtag container, with a report`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'replay': {
      const json = rest.includes('--json');
      const files = rest.filter((a) => a !== '--json');
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
      const result = await replay(fixture as Parameters<typeof replay>[0]);
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
    case 'import': {
      const { importCommand } = await import('./import/command.ts');
      return importCommand(rest);
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

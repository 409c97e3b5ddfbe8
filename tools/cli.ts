/** `npx offtag <command>`: replay a fixture, decode a beacon, serve the demo. */
import { readFile } from 'node:fs/promises';

const USAGE = `usage:
  offtag replay <fixture.json>   run the engine on a fixture; one JSON line per effect
  offtag decode '<beacon url>'   decode an analytics beacon (from a production page or the collector)
  offtag serve                   the demo page and the local collector, ID service and RUM intake`;

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'replay': {
      if (!rest[0]) {
        console.error('offtag replay: give a fixture file.');
        return 2;
      }
      let fixture: unknown;
      try {
        fixture = JSON.parse(await readFile(rest[0], 'utf8'));
      } catch (err) {
        console.error(`offtag replay: cannot read ${rest[0]}: ${(err as Error).message}`);
        return 2;
      }
      const { replay } = await import('./replay/replay.ts');
      const result = await replay(fixture as Parameters<typeof replay>[0]);
      process.stdout.write(result.lines.map((l) => l + '\n').join(''));
      return 0;
    }
    case 'decode': {
      const { decodeCommand } = await import('./collector/decode.ts');
      return (await decodeCommand(rest)) ?? 0;
    }
    case 'serve': {
      const { serve } = await import('./dev-server.ts');
      await serve(rest);
      return 0;
    }
    default:
      console.error(USAGE);
      return command ? 2 : 0;
  }
}

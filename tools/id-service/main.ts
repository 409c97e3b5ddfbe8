/** Runs the local ID service alone: `tsx tools/id-service/main.ts --port 4176 [--host 127.0.0.1]`. */
import { startIdService } from './server.ts';

const DEFAULT_PORT = 4176;

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const port = Number(arg('port') ?? DEFAULT_PORT);
const host = arg('host') ?? '127.0.0.1';
const service = await startIdService({ port, host });
console.log(`ID service listening on ${service.url}`);
const stop = () => void service.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

/** `tsx tools/collector/main.ts [--port 4175] [--host 127.0.0.1] [--quiet]`: the collector alone. */
import { startCollector } from './server.ts';

const DEFAULT_PORT = 4175;

function option(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

const argv = process.argv.slice(2);
const port = Number(option(argv, '--port') ?? DEFAULT_PORT);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`--port must be a port number; got ${option(argv, '--port')}`);
  process.exit(2);
}
const collector = await startCollector({ port, host: option(argv, '--host') ?? '127.0.0.1', quiet: argv.includes('--quiet') });
const stop = () => void collector.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

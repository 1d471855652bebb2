// CLI: serve the built player. Used by scripts/start.mjs.
//   tsx serve/serve-player.ts --port 8000 --origin-http http://127.0.0.1:8080 [--host 127.0.0.1]
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPlayerServer } from './player-server.ts';

const args = new Map<string, string>();
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const key = argv[i];
  const value = argv[i + 1];
  if (!key?.startsWith('--') || value === undefined) {
    console.error('usage: serve-player.ts --port N --origin-http URL [--host H] [--dist DIR]');
    process.exit(2);
  }
  args.set(key.slice(2), value);
}
const port = Number(args.get('port') ?? '8000');
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`bad --port ${args.get('port')}`);
  process.exit(2);
}
const server = await startPlayerServer({
  distDir: args.get('dist') ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist'),
  host: args.get('host') ?? '127.0.0.1',
  port,
  originHttpBase: args.get('origin-http') ?? 'http://127.0.0.1:8080',
});
process.stderr.write(`${JSON.stringify({ t: new Date().toISOString(), component: 'player-server', event: 'listening', url: server.url })}\n`);
const stop = (): void => { void server.close().then(() => process.exit(0)); };
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

#!/usr/bin/env node
// `npm start` (after scripts/bootstrap.mjs has built everything): hands over to scripts/demo/main.ts (TypeScript, run
// with tsx), which makes the media, starts the origin (or, with --network, emulated links with an origin behind each),
// prints the URLs and stops everything on Ctrl-C. http://127.0.0.1 is a secure context, so the page may use WebTransport.
//   npm start -- [--network loopback|lte|lte-driving|changing-rtt|shared|FILE|list] [--http-port 8080] [--wt-port 4433]
//                [--tcp-port 8081] [--https-port 8443] [--cc vivace] [--host 127.0.0.1] [--links 3] [--competing 2]
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
// Same process group: a terminal's Ctrl-C reaches the demo, which stops what it started; this process only waits.
const demo = spawn(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts', 'demo', 'main.ts'), ...process.argv.slice(2)], {
  cwd: repoRoot, stdio: 'inherit',
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    // The terminal already signalled the whole group on Ctrl-C; a signal sent to this process alone is passed on.
    if (demo.exitCode === null && demo.signalCode === null) demo.kill(signal);
  });
}
demo.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

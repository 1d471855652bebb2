#!/usr/bin/env node
// `npm start` (after scripts/bootstrap.mjs has built everything): generates the sample media if absent, starts the
// origin (server/, `npm run origin`) serving the built player on its HTTP port, prints the URLs, and stops it on
// Ctrl-C. http://127.0.0.1 is a secure context, so the page may use WebTransport.
//   npm start -- [--http-port 8080] [--wt-port 4433] [--https-port 8443] [--cc vivace] [--host 127.0.0.1]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (event, detail = {}) => console.error(JSON.stringify({ t: new Date().toISOString(), component: 'start', event, ...detail }));

const defaults = { 'http-port': '8080', 'wt-port': '4433', 'https-port': '8443', cc: 'vivace', host: '127.0.0.1' };
const options = { ...defaults };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  if (argv[i] === '--help' || argv[i] === '-h') {
    console.log(`usage: npm start -- ${Object.entries(defaults).map(([k, v]) => `[--${k} ${v}]`).join(' ')}`);
    process.exit(0);
  }
  const key = argv[i]?.replace(/^--/, '');
  if (!key || !(key in defaults) || argv[i + 1] === undefined) {
    console.error(`unknown or incomplete option ${argv[i]}; see: npm start -- --help`);
    process.exit(2);
  }
  options[key] = argv[i + 1];
}
for (const k of ['http-port', 'wt-port', 'https-port']) {
  const n = Number(options[k]);
  if (!Number.isInteger(n) || n < 1 || n > 65535) {
    console.error(`--${k} ${options[k]} is not a port number`);
    process.exit(2);
  }
}

const playerDist = join(repoRoot, 'player', 'dist');
if (!existsSync(join(playerDist, 'index.html'))) {
  console.error(`The player is not built (${playerDist}); run \`npm run build\` first.`);
  process.exit(1);
}

// 1. Media: idempotent, skips sets that are already complete.
const media = spawnSync('npm', ['run', '-s', 'media'], { cwd: repoRoot, stdio: 'inherit' });
if (media.status !== 0) {
  log('media-failed', { status: media.status });
  process.exit(1);
}

// 2. Origin, in its own process group so stopping reaches npm's grandchildren too.
const originHttp = `http://${options.host}:${options['http-port']}`;
const origin = spawn('npm', ['run', '-s', 'origin', '--',
  '--media', join(repoRoot, '.cache', 'media'), '--static', playerDist, '--host', options.host,
  '--port', options['wt-port'], '--http-port', options['http-port'], '--https-port', options['https-port'], '--cc', options.cc,
], { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'], detached: true });

let stopping = false;
const running = () => origin.exitCode === null && origin.signalCode === null;
async function stop(exitCode) {
  if (stopping) return;
  stopping = true;
  log('stopping');
  if (running()) {
    try { process.kill(-origin.pid, 'SIGINT'); } catch { /* already gone */ }
    const deadline = Date.now() + 5000;
    while (running() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    if (running()) {
      try { process.kill(-origin.pid, 'SIGKILL'); } catch { /* already gone */ }
    }
  }
  process.exit(exitCode);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
origin.on('exit', (code, signal) => {
  if (stopping) return;
  log('origin-exited', { code, signal });
  process.exit(code === 0 ? 1 : code ?? 1);
});

async function waitForOrigin(timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stopping) {
    try {
      const r = await fetch(`${originHttp}/cert-hash`, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return true;
    } catch { /* not up yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  return false;
}
if (!(await waitForOrigin(60_000))) {
  log('origin-not-ready', { url: `${originHttp}/cert-hash`, waitedS: 60 });
  await stop(1);
}

const page = `${originHttp}/`;
const q = options['wt-port'] === '4433' && options['https-port'] === '8443' ? '' : `&port=${options['wt-port']}&httpsPort=${options['https-port']}`;
const links = [
  ['PCC Vivace over WebTransport datagrams', `?cc=vivace${q}`],
  ['Vivace beside kernel CUBIC over TCP', `?compare=vivace,cubic@tcp${q}`],
  ["quinn's BBR on a WebTransport stream", `?transport=quic-stream&cc=bbr${q}`],
  [`dash.js over HTTPS/TCP (accept the self-signed certificate at https://${options.host}:${options['https-port']}/ first)`, `?transport=tcp&cc=cubic${q}`],
];
console.log(`\npcc-stream is running. Open in Chromium (WebTransport needs it):\n${links.map(([what, query]) => `  ${what}\n    ${page}${query}`).join('\n')}\nMetrics: window.pccPlayer.metrics() in the page's console. Ctrl-C stops everything.\n`);

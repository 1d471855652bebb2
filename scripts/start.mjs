#!/usr/bin/env node
// `npm start` (after scripts/bootstrap.mjs has built everything): generates the sample media if absent, starts the
// origin (server/, `npm run origin`) and the player's static server, prints the URLs, and on Ctrl-C stops both.
//   npm start -- [--player-port 8000] [--wt-port 4433] [--http-port 8080] [--https-port 8443] [--cc vivace] [--host 127.0.0.1]
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (event, detail = {}) => console.error(JSON.stringify({ t: new Date().toISOString(), component: 'start', event, ...detail }));

const defaults = { 'player-port': '8000', 'wt-port': '4433', 'http-port': '8080', 'https-port': '8443', cc: 'vivace', host: '127.0.0.1' };
const options = { ...defaults };
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 2) {
  const key = argv[i]?.replace(/^--/, '');
  if (argv[i] === '--help' || argv[i] === '-h') {
    console.log(`usage: npm start -- ${Object.entries(defaults).map(([k, v]) => `[--${k} ${v}]`).join(' ')}`);
    process.exit(0);
  }
  if (!key || !(key in defaults) || argv[i + 1] === undefined) {
    console.error(`unknown or incomplete option ${argv[i]}; see npm start -- --help`);
    process.exit(2);
  }
  options[key] = argv[i + 1];
}
for (const k of ['player-port', 'wt-port', 'http-port', 'https-port']) {
  const n = Number(options[k]);
  if (!Number.isInteger(n) || n < 1 || n > 65535) {
    console.error(`--${k} ${options[k]} is not a port number`);
    process.exit(2);
  }
}

// 1. Media: idempotent, skips sets that are already complete.
const media = spawnSync('npm', ['run', '-s', 'media'], { cwd: repoRoot, stdio: 'inherit' });
if (media.status !== 0) {
  log('media-failed', { status: media.status });
  process.exit(1);
}

const children = [];
let stopping = false;

function startChild(name, command, args) {
  // Own process group, so stopping kills npm's grandchildren too.
  const child = spawn(command, args, { cwd: repoRoot, stdio: ['ignore', 'inherit', 'inherit'], detached: true });
  children.push({ name, child });
  child.on('exit', (code, signal) => {
    if (stopping) return;
    log('child-exited', { name, code, signal });
    void stop(1);
  });
  return child;
}

async function stop(exitCode) {
  if (stopping) return;
  stopping = true;
  log('stopping');
  for (const { child } of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try { process.kill(-child.pid, 'SIGINT'); } catch { /* already gone */ }
    }
  }
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && children.some(({ child }) => child.exitCode === null && child.signalCode === null)) {
    await new Promise((r) => setTimeout(r, 100));
  }
  for (const { child } of children) {
    if (child.exitCode === null && child.signalCode === null) {
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
    }
  }
  process.exit(exitCode);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));

// 2. Origin.
const originHttp = `http://${options.host}:${options['http-port']}`;
startChild('origin', 'npm', ['run', '-s', 'origin', '--',
  '--media', join(repoRoot, '.cache', 'media'), '--port', options['wt-port'], '--http-port', options['http-port'],
  '--https-port', options['https-port'], '--cc', options.cc]);

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

// 3. Player.
startChild('player', process.execPath, ['--import', 'tsx', join(repoRoot, 'player', 'serve', 'serve-player.ts'),
  '--port', options['player-port'], '--host', options.host, '--origin-http', originHttp]);

const page = `http://${options.host}:${options['player-port']}/`;
const q = options['wt-port'] === '4433' && options['https-port'] === '8443' ? '' : `&port=${options['wt-port']}&httpsPort=${options['https-port']}`;
console.log(`
pcc-stream is running. Open in Chromium (WebTransport needs it):
  ${page}?cc=vivace${q}                       PCC Vivace over WebTransport datagrams
  ${page}?compare=vivace,cubic@tcp${q}        Vivace beside kernel CUBIC over TCP
  ${page}?transport=quic-stream&cc=bbr${q}    quinn's BBR on a WebTransport stream
  ${page}?transport=tcp&cc=cubic${q}          dash.js over HTTPS/TCP (accept the self-signed certificate at https://${options.host}:${options['https-port']}/ once)
Metrics: window.pccPlayer.metrics() in the page's console. Ctrl-C stops everything.
`);

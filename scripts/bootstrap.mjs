#!/usr/bin/env node
// One idempotent setup used by `npm start` and `npm test`: system packages, npm dependencies, builds.
// Fast when nothing changed: every step checks before it acts. Plain JS: it runs before `npm ci`.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const log = (step, detail = {}) => console.error(JSON.stringify({ t: new Date().toISOString(), component: 'bootstrap', step, ...detail }));

// Debian packages the project needs, with the command each one provides (checked first: cheap).
const debianPackages = [
  { pkg: 'emscripten', command: 'emcc', why: 'builds the controller library to WebAssembly' },
  { pkg: 'chromium', command: 'chromium', why: 'real browser for e2e tests and the benchmark' },
  { pkg: 'ffmpeg', command: 'ffmpeg', why: 'generates the sample DASH media' },
  { pkg: 'iproute2', command: 'ip', why: 'network namespaces for the link emulator' },
  { pkg: 'cmake', command: 'cmake', why: 'native build of the controller library' },
  { pkg: 'build-essential', command: 'gcc', why: 'C compiler' },
];

function hasCommand(name) {
  return spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
}

function ensureNode() {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) {
    console.error(`pcc-stream needs Node.js 20 or newer; this is ${process.version}.`);
    process.exit(1);
  }
}

function ensureDebianPackages() {
  const missing = debianPackages.filter((p) => !hasCommand(p.command));
  if (missing.length === 0) return;
  const names = missing.map((p) => p.pkg);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  if (!isRoot) {
    console.error(`Missing system packages: ${missing.map((p) => `${p.pkg} (${p.why})`).join(', ')}.`);
    console.error(`Run as root:\n  sudo apt-get update && sudo apt-get install -y ${names.join(' ')}\nthen run this command again.`);
    process.exit(1);
  }
  log('apt-install', { packages: names });
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...names], { stdio: 'inherit', env });
}

function ensureRust() {
  if (hasCommand('cargo')) return;
  const home = process.env.HOME ?? '/root';
  if (existsSync(join(home, '.cargo', 'bin', 'cargo'))) {
    process.env.PATH = `${join(home, '.cargo', 'bin')}:${process.env.PATH}`;
    return;
  }
  console.error('Rust (cargo) is needed to build the QUIC addon. Install it with rustup (https://rustup.rs) and run again.');
  process.exit(1);
}

function ensureNpmDependencies() {
  const lock = join(repoRoot, 'package-lock.json');
  const stampFile = join(repoRoot, 'node_modules', '.bootstrap-stamp');
  const manifests = [lock, join(repoRoot, 'package.json')];
  const hash = createHash('sha256');
  for (const f of manifests) if (existsSync(f)) hash.update(readFileSync(f));
  const digest = hash.digest('hex');
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === digest) return;
  log('npm-ci');
  execFileSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: repoRoot, stdio: 'inherit' });
  mkdirSync(dirname(stampFile), { recursive: true });
  writeFileSync(stampFile, digest);
}

function buildWorkspaces() {
  // Each workspace's `build` is incremental (scripts/if-stale.mjs or make), so this is quick when up to date.
  const started = Date.now();
  execFileSync('npm', ['run', '-s', 'build', '--workspaces', '--if-present'], { cwd: repoRoot, stdio: 'inherit' });
  log('built', { seconds: (Date.now() - started) / 1000 });
}

ensureNode();
ensureDebianPackages();
ensureRust();
ensureNpmDependencies();
buildWorkspaces();

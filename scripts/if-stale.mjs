#!/usr/bin/env node
// Runs a build command only when an output is missing or older than any input.
//   node scripts/if-stale.mjs --out FILE [--out FILE...] --in PATH [--in PATH...] -- COMMAND ARGS...
// Inputs may be files or directories (walked recursively, skipping node_modules, dist, target, build).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const split = args.indexOf('--');
if (split < 0) {
  console.error('usage: if-stale.mjs --out FILE --in PATH -- COMMAND ARGS...');
  process.exit(2);
}
const outputs = [];
const inputs = [];
for (let i = 0; i < split; i += 2) {
  const flag = args[i];
  const value = args[i + 1];
  if (value === undefined || (flag !== '--out' && flag !== '--in')) {
    console.error(`if-stale.mjs: bad argument ${flag}`);
    process.exit(2);
  }
  (flag === '--out' ? outputs : inputs).push(value);
}
const command = args.slice(split + 1);
const skipped = new Set(['node_modules', 'dist', 'target', 'build', '.cache', 'wasm-dist']);

function newestMtimeMs(path) {
  if (!existsSync(path)) return Infinity; // a missing input forces a rebuild so the command can report it
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) {
    if (skipped.has(entry)) continue;
    newest = Math.max(newest, newestMtimeMs(join(path, entry)));
  }
  return newest;
}

const oldestOutput = Math.min(...outputs.map((o) => (existsSync(o) ? statSync(o).mtimeMs : -Infinity)));
const newestInput = Math.max(0, ...inputs.map(newestMtimeMs));
if (outputs.length > 0 && oldestOutput >= newestInput) process.exit(0);
const result = spawnSync(command[0], command.slice(1), { stdio: 'inherit' });
process.exit(result.status ?? 1);

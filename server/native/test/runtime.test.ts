import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';

// Loads the addon in a fresh process (its runtime starts with the module, once per process) and prints how many
// runtime workers ("pcc-quic" threads) it has once their count has held still for a while.
const COUNT_WORKERS = `
import { readdirSync, readFileSync } from 'node:fs';
await import(process.argv[1]);
const count = () => readdirSync('/proc/self/task').filter((t) => {
  try { return readFileSync('/proc/self/task/' + t + '/comm', 'utf8').trim() === 'pcc-quic'; } catch { return false; }
}).length;
let last = -1;
for (let still = 0; still < 5;) {
  const now = count();
  still = now === last && now > 0 ? still + 1 : 0;
  last = now;
  await new Promise((r) => setTimeout(r, 20));
}
console.log(last);
`;

function workersWith(env: NodeJS.ProcessEnv): number {
  const addon = new URL('../index.js', import.meta.url).href;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', COUNT_WORKERS, addon], { env, encoding: 'utf8' });
  return Number(out.trim());
}

test('the runtime leaves a core to the JavaScript thread: one worker per core but one, at least one', () => {
  const env = { ...process.env };
  delete env.PCC_QUIC_WORKER_THREADS;
  assert.equal(workersWith(env), Math.max(1, availableParallelism() - 1));
});

test('PCC_QUIC_WORKER_THREADS sets the worker count; a value out of range is ignored', () => {
  assert.equal(workersWith({ ...process.env, PCC_QUIC_WORKER_THREADS: '3' }), 3);
  assert.equal(workersWith({ ...process.env, PCC_QUIC_WORKER_THREADS: '0' }), Math.max(1, availableParallelism() - 1));
});

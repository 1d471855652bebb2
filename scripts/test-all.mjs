#!/usr/bin/env node
// Runs every workspace's test script in dependency order and closes with one line:
// "tests: N passed, N failed" (counts parsed from node:test, ctest and cargo test summaries).
import { spawn } from 'node:child_process';
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');
const rootManifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
const only = process.argv.slice(2);

// By package name: `-w server` as a path would also select the nested server/native workspace.
function runWorkspaceTests(workspace, packageName, command = ['npm', 'run', '-s', 'test', '-w', packageName]) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd: repoRoot, stdio: ['ignore', 'pipe', 'pipe'] });
    let passed = 0;
    let failed = 0;
    const scan = (chunk, sink) => {
      sink.write(chunk);
      for (const line of chunk.toString().split('\n')) {
        let m;
        if ((m = /^# pass (\d+)/.exec(line))) passed += Number(m[1]);
        else if ((m = /^# fail (\d+)/.exec(line))) failed += Number(m[1]);
        else if ((m = /^test result: \w+\. (\d+) passed; (\d+) failed/.exec(line))) { // cargo test
          passed += Number(m[1]);
          failed += Number(m[2]);
        } else if ((m = /tests passed, (\d+) tests failed out of (\d+)/.exec(line))) {
          failed += Number(m[1]);
          passed += Number(m[2]) - Number(m[1]);
        }
      }
    };
    child.stdout.on('data', (c) => scan(c, process.stdout));
    child.stderr.on('data', (c) => scan(c, process.stderr));
    child.on('close', (code) => resolve({ workspace, code: code ?? 1, passed, failed }));
  });
}

const results = [];
for (const workspace of rootManifest.workspaces) {
  if (only.length > 0 && !only.includes(workspace)) continue;
  const manifestPath = join(repoRoot, workspace, 'package.json');
  if (!existsSync(manifestPath)) continue;
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  if (!manifest.scripts?.test) continue;
  console.log(`\n=== ${workspace}: npm test`);
  const r = await runWorkspaceTests(workspace, manifest.name);
  // A non-zero exit with no parsed failure still counts as one failure: never report green on a crash.
  if (r.code !== 0 && r.failed === 0) r.failed = 1;
  results.push(r);
}
// The libFuzzer targets over the C (fuzz/), a short fixed number of runs each; not a workspace.
if (only.length === 0 || only.includes('fuzz')) {
  console.log('\n=== fuzz: npm run -s fuzz -- --ci');
  const r = await runWorkspaceTests('fuzz', null, ['node', 'scripts/fuzz.mjs', '--ci']);
  if (r.code !== 0 && r.failed === 0) r.failed = 1;
  results.push(r);
}
console.log('\n=== summary');
for (const r of results) console.log(`${r.workspace}: ${r.passed} passed, ${r.failed} failed (exit ${r.code})`);
const passed = results.reduce((s, r) => s + r.passed, 0);
const failed = results.reduce((s, r) => s + r.failed, 0);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed > 0 || results.some((r) => r.code !== 0) ? 1 : 0);

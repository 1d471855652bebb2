// A test process that starts commands with spawnGroup (src/process-groups.ts; the README-commands test's servers)
// leaves none of them behind however it ends: exit, SIGTERM, SIGINT, or SIGKILL (no handler runs: the watcher).
// Each case runs a real runner process that starts a group holding a process that ignores SIGTERM (as an origin
// busy in a graceful stop may not end at once) and one that does not, kills the runner, and waits for the group
// to be gone. Without the handlers or the watcher the `sleep`s would outlive the runner by minutes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../src/repo-root.ts';

const RUNNER = `
import { spawnGroup } from ${JSON.stringify(join(repoRoot, 'e2e/src/process-groups.ts'))};
const child = spawnGroup('sh', ['-c', "sleep 300 & (trap '' TERM; exec sleep 301) & wait"], { stdio: 'ignore' });
console.log(child.pid);
process.stdin.once('data', () => process.exit(0)); // 'exit' mode: a normal exit when the test says so
`;

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function runnerGroup(): Promise<{ runner: ReturnType<typeof spawn>; pgid: number }> {
  const runner = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', RUNNER], { cwd: join(repoRoot, 'e2e'), stdio: ['pipe', 'pipe', 'inherit'] });
  const pgid = await new Promise<number>((resolve, reject) => {
    let out = '';
    runner.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(Number(out.trim()));
    });
    runner.once('exit', (code) => reject(new Error(`runner exited ${code} before starting its group`)));
  });
  assert.ok(Number.isInteger(pgid) && pgid > 1, `group id ${pgid}`);
  return { runner, pgid };
}

for (const mode of ['SIGKILL', 'SIGTERM', 'SIGINT', 'exit'] as const) {
  test(`a group started with spawnGroup dies with its runner (${mode})`, { timeout: 60_000 }, async () => {
    const { runner, pgid } = await runnerGroup();
    // Both sleeps are running (and stay so while the runner lives): the group is real before the runner ends.
    await new Promise((r) => setTimeout(r, 500));
    assert.ok(groupAlive(pgid), 'the group is running');
    const exited = new Promise((resolve) => runner.once('exit', resolve));
    if (mode === 'exit') runner.stdin!.write('exit\n');
    else runner.kill(mode);
    await exited;
    // The SIGTERM-ignoring sleep goes at the watcher's SIGKILL, 5 s after the SIGTERM: wait for an event-free
    // absence with a generous bound rather than a tight time.
    const deadline = Date.now() + 30_000;
    while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const alive = groupAlive(pgid);
    if (alive) process.kill(-pgid, 'SIGKILL'); // leave nothing behind even when failing
    assert.equal(alive, false, `process group ${pgid} outlived its runner (${mode})`);
  });
}

// --list and --shard i/N through the real CLI (no root, no browser, nothing runs): every built-in suite's shards
// together list exactly the unsharded run ids, disjoint, whole (scenario, repetition) groups, in plan order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { plan } from '../harness/runner.ts';
import { parseShard, shardPlan } from '../harness/shard.ts';
import { SUITES, suiteScenarios } from '../harness/suites.ts';
import { isExternalScheme } from '../harness/external-schemes.ts';

const benchDir = join(import.meta.dirname, '..');
const run = promisify(execFile);

async function listIds(args: string[]): Promise<string[]> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'harness/cli.ts', ...args, '--list'], { cwd: benchDir, maxBuffer: 16 << 20 });
  return stdout.split('\n').filter((line) => line !== '');
}

/** scenario/repetition of a run id scenario/scheme/repetition. */
function groupOf(id: string): string {
  const [scenario, , repetition] = id.split('/');
  return `${scenario}/${repetition}`;
}

for (const suite of Object.keys(SUITES)) {
  test(`--list --shard: suite ${suite}, N = 2 and 3, shards are disjoint and together the unsharded list`, { timeout: 120_000 }, async () => {
    const whole = await listIds(['--suite', suite]);
    assert.ok(whole.length > 0);
    assert.equal(new Set(whole).size, whole.length, 'run ids are unique');
    // Without --uspace the CLI leaves out the external schemes a suite lists (harness-uspace.test.ts).
    const planned = plan(suiteScenarios(suite)).filter((i) => !isExternalScheme(i.scheme));
    assert.deepEqual(whole, planned.map((i) => `${i.scenario.name}/${i.scheme}/${i.repetition}`));
    for (const total of [2, 3]) {
      const shards = await Promise.all(Array.from({ length: total }, (_, i) => listIds(['--suite', suite, '--shard', `${i + 1}/${total}`])));
      const seen = new Map<string, number>();
      shards.forEach((ids, shard) => {
        for (const id of ids) {
          assert.ok(!seen.has(id), `${id} is in shard ${seen.get(id)! + 1} and shard ${shard + 1} of ${total}`);
          seen.set(id, shard);
        }
        // Plan order kept: the shard's ids are a subsequence of the unsharded list.
        const positions = ids.map((id) => whole.indexOf(id));
        assert.deepEqual(positions, [...positions].sort((a, b) => a - b), `shard ${shard + 1}/${total} out of plan order`);
      });
      assert.deepEqual([...seen.keys()].sort(), [...whole].sort(), `${total} shards together`);
      // Whole pairs: every run of a (scenario, repetition) is on the shard that has any of them.
      for (const id of whole) {
        const peers = whole.filter((other) => groupOf(other) === groupOf(id));
        for (const peer of peers) assert.equal(seen.get(peer), seen.get(id), `${peer} and ${id} split across shards`);
      }
      // Balanced: shard sizes differ by at most one group.
      const groupSize = Math.max(...whole.map((id) => whole.filter((o) => groupOf(o) === groupOf(id)).length));
      const sizes = shards.map((s) => s.length);
      if (new Set(whole.map(groupOf)).size >= total) assert.ok(Math.max(...sizes) - Math.min(...sizes) <= groupSize, `sizes ${sizes.join(', ')}`);
    }
  });
}

test('--shard balances by estimated time: a long repetition gets a shard of its own, not a short one on top (round-robin would)', () => {
  const base = suiteScenarios('smoke')[0]!;
  const items = plan([{ ...base, name: 'long', durationS: 600, repetitions: 1 }, { ...base, name: 'short', durationS: 10, repetitions: 3 }]);
  const groups = (index: number) => [...new Set(shardPlan(items, { index, total: 2 }).map((i) => `${i.scenario.name}/${i.repetition}`))];
  assert.deepEqual(groups(1), ['long/1']);
  assert.deepEqual(groups(2), ['short/1', 'short/2', 'short/3']);
});

test('invalid --shard specs are rejected with a usage error', async () => {
  for (const spec of ['0/2', '3/2', 'a/b', '1/0', '2', '1/2/3', '-1/2', '1.5/2', '']) {
    assert.throws(() => parseShard(spec), /--shard .*: (expected i\/N|i must be in|N must be)/, spec);
  }
  assert.deepEqual(parseShard('2/3'), { index: 2, total: 3 });
  assert.deepEqual(parseShard('1/1'), { index: 1, total: 1 });
  for (const spec of ['0/2', '3/2', 'a/b']) {
    await assert.rejects(listIds(['--suite', 'smoke', '--shard', spec]), (error: { code?: number; stderr?: string }) => {
      assert.equal(error.code, 2, spec);
      assert.match(error.stderr ?? '', new RegExp(`bench: --shard ${spec.replace('/', '\\/')}: .*\\n[^]*usage:`));
      return true;
    });
  }
});

test('the Kubernetes example is an Indexed Job whose completions, parallelism and --shard N agree, index + 1 as i', async () => {
  const { readFileSync } = await import('node:fs');
  const yaml = readFileSync(join(benchDir, 'deploy', 'bench-indexed-job.yaml'), 'utf8');
  assert.match(yaml, /^\s+completionMode: Indexed/m);
  const completions = Number(/^\s+completions: (\d+)/m.exec(yaml)?.[1]);
  assert.equal(Number(/^\s+parallelism: (\d+)/m.exec(yaml)?.[1]), completions);
  assert.equal(Number(/--shard \$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/(\d+)/.exec(yaml)?.[1]), completions);
  assert.match(yaml, /privileged: true/);
  // The shell arithmetic the manifest uses gives 1..N for indexes 0..N-1, each a valid spec.
  for (let index = 0; index < completions; index += 1) {
    const { stdout } = await run('/bin/sh', ['-c', 'echo $((JOB_COMPLETION_INDEX + 1))/' + completions], { env: { JOB_COMPLETION_INDEX: String(index) } });
    assert.deepEqual(parseShard(stdout.trim()), { index: index + 1, total: completions });
  }
});

test('--schemes with a suite: a name the suite does not list is run beside the ones it does, not dropped', { timeout: 120_000 }, async () => {
  const ids = await listIds(['--suite', 'lte', '--schemes', 'vivace+prefetch,vivace']);
  const schemes = new Set(ids.map((id) => id.split('/')[1]));
  assert.deepEqual([...schemes].sort(), ['vivace', 'vivace+prefetch']);
  // Only the suite's own names: only those, as before.
  const own = await listIds(['--suite', 'lte', '--schemes', 'vivace']);
  assert.deepEqual([...new Set(own.map((id) => id.split('/')[1]))], ['vivace']);
});

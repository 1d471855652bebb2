// merge: shard outputs become one result set whose summary files are byte for byte those of one machine holding the
// same results; conflicts are refused with the directories named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { mergeDirs, MergeError } from '../harness/merge.ts';
import type { Provenance } from '../harness/provenance.ts';
import { writeReport } from '../harness/report.ts';
import { appendResult, readResults, runDirPath, runId, type RunResult } from '../harness/results.ts';
import { plan } from '../harness/runner.ts';
import { parseScenario } from '../harness/scenario.ts';
import { shardPlan } from '../harness/shard.ts';
import { scratchDir } from './scratch-dir.ts';

const benchDir = join(import.meta.dirname, '..');
const run = promisify(execFile);

const provenance: Provenance = {
  commit: '0123456789abcdef0123456789abcdef01234567', dirty: false, chromium: 'Chromium 156.0.8078.108', dashjs: '5.2.1',
  kernel: '6.1.0', cpu_model: 'Test CPU', cpu_count: 2, node: 'v20.20.2',
};

const scenarios = ['alpha', 'beta'].map((name) => parseScenario({
  name, duration_s: 60, repetitions: 3, link: { down: { rate_mbps: 8.8 }, up: { rate_mbps: 8.8 } },
  schemes: ['tcp-cubic', 'vivace', 'pcp', 'cubic', 'tcp-bbr'], // not in scheme-list order: the plan's order is not the tables'
}, '/'));

/** A synthetic run with values that vary by scenario, scheme and repetition (so sums depend on order if anything does). */
function syntheticRun(scenario: string, scheme: string, repetition: number, status: 'ok' | 'failed' = 'ok'): RunResult {
  const x = (scenario.length * 7 + scheme.length * 13 + repetition * 31) % 17;
  const ok = status === 'ok';
  const value = (v: number) => (ok ? v : null);
  return {
    run_id: runId(scenario, scheme, repetition), scenario, scheme: scheme as RunResult['scheme'], repetition, seed: repetition, status,
    ...(ok ? {} : { error: 'browser did not start' }),
    started_at: `2026-11-25T0${repetition}:00:00.000Z`, wall_s: 70 + x, duration_s: 60, players: [],
    buffering_ratio: value(x / 1000 + 0.1 / 3), stall_count: value(x % 3), stall_time_s: value(x / 7), startup_delay_s: value(1 + x / 10),
    avg_bitrate_mbps: value(4 + x / 100), switch_count: value(0), goodput_mbps: value(4.1 + x / 70), link_utilization: value(0.8 + x / 300),
    queue_delay_p95_ms: value(10 + x * 3.3), capacity_mbps: value(8.8), artifacts: ok ? { series: `runs/${scenario}/${scheme}/${repetition}/series.json` } : {},
    controller_params: {}, provenance,
  };
}

function writeRun(dir: string, result: RunResult): void {
  mkdirSync(dir, { recursive: true });
  if (result.status === 'ok') {
    const runDir = runDirPath(dir, result.scenario, result.scheme, result.repetition);
    mkdirSync(runDir, { recursive: true });
    writeFileSync(join(runDir, 'series.json'), JSON.stringify([{ t_s: 0, capacity_mbps: 8.8, bitrate_mbps: 4, buffer_s: result.repetition }, { t_s: 1, capacity_mbps: 8.8, bitrate_mbps: 4, buffer_s: 2 }]));
  }
  appendResult(join(dir, 'results.jsonl'), result);
}

test('two shards merged give the same summary.md, summary.csv, comparison.csv and report.html as one machine', async (t) => {
  const root = scratchDir(t, 'pcc-merge');
  const whole = join(root, 'whole');
  const shardDirs = [join(root, 'shard-1'), join(root, 'shard-2')];
  const items = plan(scenarios);
  // One machine: every run in plan order; tcp-bbr of beta/2 fails first and succeeds when resumed.
  for (const item of items) {
    if (item.scenario.name === 'beta' && item.scheme === 'tcp-bbr' && item.repetition === 2) writeRun(whole, syntheticRun('beta', 'tcp-bbr', 2, 'failed'));
    writeRun(whole, syntheticRun(item.scenario.name, item.scheme, item.repetition, item.scenario.name === 'alpha' && item.scheme === 'pcp' && item.repetition === 3 ? 'failed' : 'ok'));
  }
  // Two machines: the same results, each shard holding what --shard i/2 would have run, shard 2 in reverse order.
  for (const [i, dir] of shardDirs.entries()) {
    const mine = shardPlan(items, { index: i + 1, total: 2 });
    assert.ok(mine.length > 0);
    for (const item of i === 1 ? [...mine].reverse() : mine) {
      if (item.scenario.name === 'beta' && item.scheme === 'tcp-bbr' && item.repetition === 2) writeRun(dir, syntheticRun('beta', 'tcp-bbr', 2, 'failed'));
      writeRun(dir, syntheticRun(item.scenario.name, item.scheme, item.repetition, item.scenario.name === 'alpha' && item.scheme === 'pcp' && item.repetition === 3 ? 'failed' : 'ok'));
    }
  }
  writeReport(whole);
  const merged = join(root, 'merged');
  const { stdout } = await run(process.execPath, ['--import', 'tsx', 'harness/cli.ts', 'merge', ...shardDirs, '--out', merged], { cwd: benchDir });
  assert.match(stdout, /wrote .*merged\/results\.jsonl/);
  for (const file of ['summary.md', 'summary.csv', 'comparison.csv', 'report.html']) {
    assert.equal(readFileSync(join(merged, file), 'utf8'), readFileSync(join(whole, file), 'utf8'), `${file} differs`);
  }
  const md = readFileSync(join(merged, 'summary.md'), 'utf8');
  assert.match(md, /\| pcp \| 2 \(1\) \|/);
  assert.match(md, /\| vivace \| tcp-cubic \| buffering ratio \(pp\) \| 3 \(of 3\) \|/);
  assert.match(md, /- 30 runs: commit 0123456789ab; Chromium 156/);
  assert.deepEqual(readResults(join(merged, 'results.jsonl')).map((r) => r.run_id).sort(), readResults(join(whole, 'results.jsonl')).map((r) => r.run_id).sort());
  // Artefacts came along: every successful run's series is where its line says.
  for (const r of readResults(join(merged, 'results.jsonl'))) if (r.status === 'ok') assert.ok(existsSync(join(merged, r.artifacts.series!)), r.run_id);
  assert.ok(existsSync(join(merged, 'plots', 'alpha-vivace-timeseries.svg')));
});

test('merge conflicts: other controller parameters, other commits, two different completions; bad directories', (t) => {
  const root = scratchDir(t, 'pcc-merge-conflict');
  const dir = (name: string, ...results: RunResult[]) => {
    const d = join(root, name);
    for (const r of results) writeRun(d, r);
    return d;
  };
  const base = syntheticRun('alpha', 'vivace', 1);
  const a = dir('a', base);
  const tuned = dir('tuned', { ...base, controller_params: { epsilon_min: 0.02 } });
  assert.throws(() => mergeDirs([a, tuned], join(root, 'o1')), (e: unknown) => e instanceof MergeError && /run alpha\/vivace\/1 is in .*\/a and in .*\/tuned with different controller parameters \("" vs "epsilon_min=0\.02"\)/.test(e.message));
  // The same scheme with other parameters in another repetition: one DIR holds one parameter set per scheme.
  const tunedRep2 = dir('tuned2', { ...syntheticRun('alpha', 'vivace', 2), controller_params: { epsilon_min: 0.02 } });
  assert.throws(() => mergeDirs([a, tunedRep2], join(root, 'o2')), /alpha\/vivace ran with controller parameters "" in .* and "epsilon_min=0\.02" in /);
  const otherCommit = { ...provenance, commit: 'fedcba9876543210fedcba9876543210fedcba98' };
  const b = dir('b', { ...base, provenance: otherCommit });
  assert.throws(() => mergeDirs([a, b], join(root, 'o3')), /from different commits \(0123456789abcdef0123456789abcdef01234567 vs fedcba98/);
  const c = dir('c', { ...syntheticRun('alpha', 'tcp-cubic', 1), provenance: otherCommit });
  assert.throws(() => mergeDirs([a, c], join(root, 'o4')), /different commits: .*pass --allow-mixed-commits/);
  mergeDirs([a, c], join(root, 'o5'), { allowMixedCommits: true });
  writeReport(join(root, 'o5'));
  const md = readFileSync(join(root, 'o5', 'summary.md'), 'utf8');
  assert.match(md, /- 1 run: commit 0123456789ab/);
  assert.match(md, /- 1 run: commit fedcba987654/);
  const twice = dir('twice', { ...base, wall_s: 99 });
  assert.throws(() => mergeDirs([a, twice], join(root, 'o6')), /completed in both with different outcomes/);
  // A failure in one directory and a success in another: the success is kept; the same line twice is one run.
  const failed = dir('failed', syntheticRun('alpha', 'vivace', 1, 'failed'));
  const outcome = mergeDirs([failed, a, a], join(root, 'o7'));
  assert.equal(outcome.results.length, 1);
  assert.equal(outcome.results[0]!.status, 'ok');
  assert.deepEqual(outcome.replacedFailures, ['alpha/vivace/1']);
  // A failure at one commit and its rerun at another: the rerun is kept, and the set is of one commit.
  const failedElsewhere = dir('failed-b', { ...syntheticRun('alpha', 'vivace', 1, 'failed'), provenance: otherCommit });
  const rerun = mergeDirs([failedElsewhere, a], join(root, 'o9'));
  assert.deepEqual(rerun.replacedFailures, ['alpha/vivace/1']);
  assert.equal(rerun.results[0]!.provenance?.commit, provenance.commit);
  assert.throws(() => mergeDirs([a], a), /is also an input/);
  assert.throws(() => mergeDirs([join(root, 'none')], join(root, 'o8')), /holds no results\.jsonl/);
  assert.throws(() => mergeDirs([a], join(root, 'o7')), /exists: merge into a new or empty directory/);
});

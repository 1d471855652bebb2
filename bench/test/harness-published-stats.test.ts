// The published analyses' Python (bench/published/student_t.py, one t quantile for every folder's script) and the
// harness's meanCi95 (stats.ts) must give the same 95 % intervals; the Python unit tests run here so npm test fails
// with them.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { repoRoot } from '../harness/repo-root.ts';
import { meanCi95, studentTTwoSidedP, t95 } from '../harness/stats.ts';

const published = join(repoRoot, 'bench', 'published');

function python(args: string[], input = ''): string {
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1' };
  const r = spawnSync('python3', args, { cwd: published, encoding: 'utf8', input, env });
  assert.equal(r.status, 0, `python3 ${args.join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

test('student_t.py unit tests pass', () => {
  python(['-m', 'unittest', '-q', 'test_student_t']);
});

test('student_t.py mean_ci95 equals stats.ts meanCi95 for 2..31 values (df 1..30, the table stats.ts holds)', () => {
  const samples = Array.from({ length: 30 }, (_, i) => Array.from({ length: i + 2 }, (_, k) => ((k * 7919) % 13) + 0.35 * k));
  const script = 'import json, sys; from student_t import mean_ci95; print(json.dumps([[mean_ci95(s, as_stats_ts=True), mean_ci95(s)] for s in json.load(sys.stdin)]))';
  const py = JSON.parse(python(['-c', script], JSON.stringify(samples))) as [[number, number], [number, number]][];
  samples.forEach((s, i) => {
    const ts = meanCi95(s);
    const [[tsMean, tsHalf], [mean, half]] = py[i] as [[number, number], [number, number]];
    // as_stats_ts: the same float arithmetic, bit for bit; the default: statistics.mean/stdev, to the last bits
    assert.deepEqual([tsMean, tsHalf], [ts.mean, ts.ci95], `n ${s.length}`);
    assert.ok(Math.abs(mean - ts.mean) <= 1e-12 * Math.max(1, Math.abs(ts.mean)), `n ${s.length}: mean ${mean} vs ${ts.mean}`);
    assert.ok(Math.abs(half - ts.ci95) <= 1e-12 * Math.max(1, ts.ci95), `n ${s.length}: half-width ${half} vs ${ts.ci95}`);
  });
});

test("student_t.py's quantiles solve stats.ts studentTTwoSidedP = 0.05 (to their 3 decimals) for df 1..120", () => {
  const t = JSON.parse(python(['-c', 'import json; from student_t import t95; print(json.dumps([t95(d) for d in range(1, 121)]))'])) as number[];
  t.forEach((q, i) => {
    const df = i + 1;
    assert.ok(studentTTwoSidedP(q - 0.0005, df) > 0.05 && studentTTwoSidedP(q + 0.0005, df) < 0.05, `df ${df}: t95 ${q}`);
  });
});

test("stats.ts t95 equals student_t.py's for df 1..120, so an interval over more than 31 runs is not the normal one", () => {
  const py = JSON.parse(python(['-c', 'import json; from student_t import t95; print(json.dumps([t95(d) for d in range(1, 121)]))'])) as number[];
  py.forEach((q, i) => assert.equal(t95(i + 1), q, `df ${i + 1}`));
  assert.equal(t95(30), 2.042);
  assert.ok(t95(31) > 2.03, `t95(31) = ${t95(31)}`);
});

// The paired statistics: PCC schemes against kernel TCP per repetition, the named tests, and what results record.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { release } from 'node:os';
import { join } from 'node:path';
import { compareToTcp, comparisonMarkdown, isPccScheme } from '../harness/comparison.ts';
import { collectProvenance, provenanceMarkdown } from '../harness/provenance.ts';
import { repoRoot } from '../harness/repo-root.ts';
import { appendResult, readResults, runId, type RunResult } from '../harness/results.ts';
import { writeReport } from '../harness/report.ts';
import { pairedTTestP, signFlipTest, studentTTwoSidedP } from '../harness/stats.ts';
import { scratchDir } from './scratch-dir.ts';

function result(scheme: string, repetition: number, values: Partial<RunResult>, status: 'ok' | 'failed' = 'ok'): RunResult {
  return {
    run_id: runId('s', scheme, repetition), scenario: 's', scheme: scheme as RunResult['scheme'], repetition, seed: repetition, status,
    started_at: '2026-11-25T00:00:00Z', wall_s: 70, duration_s: 60, players: [],
    buffering_ratio: 0, stall_count: 0, stall_time_s: 0, startup_delay_s: 1, avg_bitrate_mbps: 4, played_bitrate_mbps: 4, switch_count: 0, goodput_mbps: 4,
    link_utilization: 0.9, queue_delay_p95_ms: 10, capacity_mbps: 4.4, artifacts: {}, ...values,
  };
}

test('Student t p-values match the tables; paired t-test and sign-flip test on hand-checked cases', () => {
  // Two-sided 95% critical values: p = 0.05 at t(1) = 12.706, t(2) = 4.303, t(5) = 2.571, t(10) = 2.228, t(30) = 2.042.
  for (const [t, df] of [[12.706, 1], [4.303, 2], [2.571, 5], [2.228, 10], [2.042, 30]] as const) {
    assert.ok(Math.abs(studentTTwoSidedP(t, df) - 0.05) < 2e-4, `t=${t} df=${df}: ${studentTTwoSidedP(t, df)}`);
  }
  assert.ok(Math.abs(studentTTwoSidedP(1, 1) - 0.5) < 1e-12); // Cauchy: P(|T| > 1) = 1/2
  assert.equal(studentTTwoSidedP(0, 7), 1);
  // d = 1, 2, 3: mean 2, sd 1, t = 2√3 with 2 df.
  assert.ok(Math.abs(pairedTTestP([1, 2, 3]) - studentTTwoSidedP(2 * Math.sqrt(3), 2)) < 1e-12);
  // Sign flips: 3 positive differences reach |Σ| = 6 only with all + or all −: 2 of 8.
  assert.deepEqual(signFlipTest([1, 2, 3]), { p: 0.25, exact: true });
  assert.deepEqual(signFlipTest([1, 2, 3, 4, 5, 6]), { p: 2 / 64, exact: true });
  assert.deepEqual(signFlipTest([1, -1, 2, -2]), { p: 1, exact: true });
  // Above 16 pairs: Monte Carlo with a fixed seed, reproducible and close to the full enumeration.
  const d = Array.from({ length: 18 }, (_, i) => ((i * 7) % 5) - 1.5 + (i % 3) * 0.1);
  const mc = signFlipTest(d);
  assert.equal(mc.exact, false);
  assert.deepEqual(signFlipTest(d), mc);
  const observed = Math.abs(d.reduce((s, v) => s + v, 0));
  let atLeast = 0;
  for (let mask = 0; mask < 2 ** d.length; mask += 1) {
    let sum = 0;
    for (let i = 0; i < d.length; i += 1) sum += mask & (1 << i) ? -d[i]! : d[i]!;
    if (Math.abs(sum) >= observed - 1e-9) atLeast += 1;
  }
  assert.ok(Math.abs(mc.p - atLeast / 2 ** d.length) < 0.01, `Monte Carlo ${mc.p} vs exact ${atLeast / 2 ** d.length}`);
});

test('PCC schemes are derived from the scheme list: datagram schemes that are not copies of a kernel baseline', () => {
  for (const s of ['vivace', 'vivace-loss', 'allegro', 'pcp']) assert.ok(isPccScheme(s), s);
  for (const s of ['cubic', 'bbr', 'quic-cubic', 'quic-bbr', 'tcp-cubic', 'tcp-bbr', 'reno']) assert.ok(!isPccScheme(s), s);
});

test('comparison table: a clear difference is significant, noise is not, fewer than 3 complete pairs give no verdict', (t) => {
  const results: RunResult[] = [];
  for (let rep = 1; rep <= 8; rep += 1) {
    const wobble = rep % 2 === 0 ? 1 : -1;
    // vivace buffers 4-5 points less than tcp-cubic in every repetition; bitrates differ by ±0.05 noise.
    results.push(result('vivace', rep, { buffering_ratio: 0.01 + rep * 0.001, played_bitrate_mbps: 4 + wobble * 0.05, queue_delay_p95_ms: 20 + rep }));
    results.push(result('tcp-cubic', rep, { buffering_ratio: 0.06 - rep * 0.001, played_bitrate_mbps: 4, queue_delay_p95_ms: 150 + rep }));
    results.push(result('cubic', rep, { buffering_ratio: 0.5 })); // a datagram baseline: not a PCC row
    // tcp-bbr: only repetitions 1 and 2 succeed (and repetition 3 of vivace's pair fails).
    results.push(result('tcp-bbr', rep, rep <= 2 ? { buffering_ratio: 0.02 } : { buffering_ratio: null }, rep <= 2 ? 'ok' : 'failed'));
  }
  const rows = compareToTcp(results);
  assert.deepEqual([...new Set(rows.map((r) => `${r.pcc} vs ${r.tcp}`))], ['vivace vs tcp-cubic', 'vivace vs tcp-bbr']);
  assert.deepEqual([...new Set(rows.map((r) => r.metric))], ['buffering_ratio', 'played_bitrate_mbps', 'queue_delay_p95_ms']); // no goodput: not bulk
  const row = (tcp: string, metric: string) => rows.find((r) => r.tcp === tcp && r.metric === metric)!;
  const buffering = row('tcp-cubic', 'buffering_ratio');
  assert.equal(buffering.pairs, 8);
  assert.equal(buffering.signFlipP, 2 / 256);
  assert.equal(buffering.verdict, 'significant: vivace better');
  assert.ok(Math.abs(buffering.meanDifference - -0.041) < 1e-12);
  assert.equal(row('tcp-cubic', 'queue_delay_p95_ms').verdict, 'significant: vivace better');
  const bitrate = row('tcp-cubic', 'played_bitrate_mbps');
  assert.equal(bitrate.signFlipP, 1);
  assert.equal(bitrate.verdict, 'not significant');
  const few = row('tcp-bbr', 'buffering_ratio');
  assert.equal(few.repetitions, 8);
  assert.equal(few.pairs, 2);
  assert.equal(few.verdict, 'too few pairs');

  const md = comparisonMarkdown(rows, 's').join('\n');
  assert.match(md, /\| PCC \| TCP \| metric \| pairs used \(of repetitions\) \| PCC − TCP: mean ± 95% CI \| paired t-test p \| sign-flip p \| verdict \(exact sign-flip permutation test, α = 0\.05\) \|/);
  assert.match(md, /\| vivace \| tcp-cubic \| buffering ratio \(pp\) \| 8 \(of 8\) \| -4\.10 ± [0-9.]+ \| < 0\.0001 \| 0\.0078 \| significant: vivace better \|/);
  assert.match(md, /\| vivace \| tcp-cubic \| avg bitrate on screen \(Mbit\/s\) \| 8 \(of 8\) \| 0\.00 ± 0\.04 \| 1\.0000 \| 1\.0000 \| not significant \|/);
  assert.match(md, /\| vivace \| tcp-bbr \| buffering ratio \(pp\) \| 2 \(of 8\) \| [^|]+ \| [^|]+ \| 0\.5000 \| too few pairs \|/);

  // Only 3 repetitions: never significant by the exact test (smallest p = 2/8), and the table says so plainly.
  const three = compareToTcp(results.filter((r) => r.repetition <= 3));
  assert.equal(three.find((r) => r.tcp === 'tcp-cubic' && r.metric === 'buffering_ratio')!.verdict, 'not significant');

  // Through the report: summary.md and comparison.csv carry it, with the test named.
  const dir = scratchDir(t, 'pcc-comparison');
  for (const r of results) appendResult(join(dir, 'results.jsonl'), r);
  writeReport(dir);
  const summary = readFileSync(join(dir, 'summary.md'), 'utf8');
  assert.match(summary, /PCC vs kernel TCP, paired by repetition \(s\):/);
  assert.match(summary, /Verdict: the two-sided exact sign-flip permutation test/);
  const csv = readFileSync(join(dir, 'comparison.csv'), 'utf8').split('\n');
  assert.equal(csv[0], 'scenario,pcc_scheme,tcp_scheme,metric,repetitions,pairs,mean_difference,ci95,t_test_p,sign_flip_p,sign_flip_exact,verdict');
  assert.ok(csv.includes('s,vivace,tcp-bbr,buffering_ratio,8,2,-0.0085,0.006353,0.03740511848,0.5,true,too few pairs'), csv.join('\n'));
});

test('bulk scenarios compare goodput; schemes without a TCP partner give no table', () => {
  const bulk = [1, 2, 3].flatMap((rep) => [
    result('pcp', rep, { buffering_ratio: null, avg_bitrate_mbps: null, played_bitrate_mbps: null, goodput_mbps: 10 + rep }),
    result('tcp-bbr', rep, { buffering_ratio: null, avg_bitrate_mbps: null, played_bitrate_mbps: null, goodput_mbps: 8 }),
  ]);
  assert.deepEqual(compareToTcp(bulk).map((r) => r.metric), ['queue_delay_p95_ms', 'goodput_mbps']);
  assert.deepEqual(compareToTcp(bulk.filter((r) => r.scheme === 'pcp')), []);
});

test('provenance: commit, Chromium, dash.js, kernel, CPU and Node as the machine reports them; old lines still read', (t) => {
  const p = collectProvenance();
  assert.equal(p.commit, execFileSync('git', ['-C', repoRoot, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).trim());
  assert.equal(typeof p.dirty, 'boolean');
  assert.equal(p.kernel, release());
  assert.equal(p.node, process.version);
  assert.ok(p.cpu_count >= 1 && p.cpu_model.length > 0);
  const dashjs = JSON.parse(readFileSync(join(repoRoot, 'node_modules', 'dashjs', 'package.json'), 'utf8')) as { version: string };
  assert.equal(p.dashjs, dashjs.version);
  assert.match(p.chromium ?? '', /^Chromium \d+\./);
  // A line written before provenance existed still reads, summarizes and is reported as such.
  const dir = scratchDir(t, 'pcc-provenance');
  const file = join(dir, 'results.jsonl');
  appendResult(file, result('vivace', 1, {}));
  appendResult(file, { ...result('tcp-cubic', 1, {}), provenance: p });
  const read = readResults(file);
  assert.equal(read.length, 2);
  const lines = provenanceMarkdown(read).join('\n');
  assert.match(lines, new RegExp(`- 1 run: commit ${p.commit!.slice(0, 12)}`));
  assert.match(lines, /- 1 run without provenance/);
  writeReport(dir);
  assert.match(readFileSync(join(dir, 'summary.md'), 'utf8'), /Produced by:/);
});

test('aided schemes are compared like for like: vivace+prefetch with tcp-cubic+prefetch, plain with plain', () => {
  const results: RunResult[] = [];
  for (let rep = 1; rep <= 3; rep += 1) {
    for (const scheme of ['vivace', 'vivace+prefetch', 'tcp-cubic', 'tcp-cubic+prefetch']) results.push(result(scheme, rep, { buffering_ratio: 0.01 }));
  }
  assert.ok(isPccScheme('vivace+prefetch') && !isPccScheme('tcp-cubic+prefetch') && !isPccScheme('cubic+prefetch'));
  const pairs = [...new Set(compareToTcp(results).map((r) => `${r.pcc} vs ${r.tcp}`))];
  assert.deepEqual(pairs, ['vivace vs tcp-cubic', 'vivace+prefetch vs tcp-cubic+prefetch']);
});

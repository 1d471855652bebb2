import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync, appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { meanCi95, percentile } from '../harness/stats.ts';
import { appendResult, completedRunIds, readResults, runId, type RunResult } from '../harness/results.ts';
import { summarize } from '../harness/summary.ts';
import { writeReport } from '../harness/report.ts';
import { scratchDir } from './scratch-dir.ts';

function run(scheme: 'vivace' | 'tcp-cubic', repetition: number, bufferingRatio: number | null, status: 'ok' | 'failed' = 'ok'): RunResult {
  return {
    run_id: runId('s', scheme, repetition), scenario: 's', scheme, repetition, seed: repetition, status,
    ...(status === 'failed' ? { error: 'origin did not start' } : {}),
    started_at: '2026-11-21T00:00:00Z', wall_s: 10, duration_s: 10, players: [],
    buffering_ratio: bufferingRatio, stall_count: 1, stall_time_s: 0.5, startup_delay_s: 1, avg_bitrate_mbps: 4,
    switch_count: 2, goodput_mbps: 5, link_utilization: 0.9, queue_delay_p95_ms: 20, capacity_mbps: 6, artifacts: {},
  };
}

test('mean and 95% CI match hand-computed values', () => {
  const m = meanCi95([1, 2, 3]);
  assert.equal(m.mean, 2);
  // s = 1, t(2 df) = 4.303, half-width = 4.303 / sqrt(3)
  assert.ok(Math.abs(m.ci95 - 4.303 / Math.sqrt(3)) < 1e-9);
  assert.deepEqual(meanCi95([5]), { mean: 5, ci95: 0, n: 1 });
  assert.equal(meanCi95([]).n, 0);
  assert.equal(meanCi95([Number.NaN, 4]).mean, 4);
  assert.equal(percentile([1, 2, 3, 4, 5], 50), 3);
  assert.equal(percentile([10, 20], 95), 19.5);
});

test('resume: torn lines are ignored, later outcomes replace earlier ones, failed runs are retried', (t) => {
  const dir = scratchDir(t, 'pcc-results');
  const file = join(dir, 'results.jsonl');
  appendResult(file, run('vivace', 1, null, 'failed'));
  appendResult(file, run('vivace', 2, 0.01));
  appendResult(file, run('vivace', 1, 0.02));
  appendFileSync(file, '{"run_id": "s/vivace/3", "stat');
  const results = readResults(file);
  assert.equal(results.length, 2);
  assert.deepEqual([...completedRunIds(results)].sort(), ['s/vivace/1', 's/vivace/2']);
  appendResult(file, run('tcp-cubic', 1, null, 'failed'));
  assert.ok(!completedRunIds(readResults(file)).has('s/tcp-cubic/1'));
});

test('summary counts failures without averaging them in; report writes csv, md, svg, png and html', (t) => {
  const dir = scratchDir(t, 'pcc-report');
  const file = join(dir, 'results.jsonl');
  appendResult(file, run('vivace', 1, 0.01));
  appendResult(file, run('vivace', 2, 0.03));
  appendResult(file, run('tcp-cubic', 1, 0.2));
  appendResult(file, run('tcp-cubic', 2, null, 'failed'));
  const rows = summarize(readResults(file));
  const vivace = rows.find((r) => r.scheme === 'vivace');
  const cubic = rows.find((r) => r.scheme === 'tcp-cubic');
  assert.ok(vivace && cubic);
  assert.equal(vivace.buffering_ratio.mean, 0.02);
  assert.equal(cubic.runs_failed, 1);
  assert.equal(cubic.buffering_ratio.n, 1);
  assert.equal(cubic.buffering_ratio.mean, 0.2);

  writeFileSync(join(dir, 'series.json'), JSON.stringify([{ t_s: 0, capacity_mbps: 6, sending_rate_mbps: 5, bitrate_mbps: 4, buffer_s: 2 }, { t_s: 1, capacity_mbps: 6, sending_rate_mbps: 5.5, bitrate_mbps: 4, buffer_s: 3 }]));
  appendResult(file, { ...run('vivace', 1, 0.01), artifacts: { series: 'series.json' } });
  const report = writeReport(dir);
  assert.ok(report.plots.includes('s-buffering-ratio'));
  assert.ok(report.plots.includes('s-vivace-timeseries'));
  for (const f of ['summary.csv', 'summary.md', 'report.html', 'plots/s-buffering-ratio.svg', 'plots/s-buffering-ratio.png', 'plots/s-throughput-delay.png']) {
    assert.ok(existsSync(join(dir, f)), f);
  }
  const csv = readFileSync(join(dir, 'summary.csv'), 'utf8').trim().split('\n');
  assert.equal(csv.length, 3);
  assert.match(csv[0] ?? '', /^scenario,scheme,runs_ok,runs_failed,buffering_ratio_mean,buffering_ratio_ci95/);
  const png = readFileSync(join(dir, 'plots/s-buffering-ratio.png'));
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  const html = readFileSync(join(dir, 'report.html'), 'utf8');
  assert.match(html, /s\/tcp-cubic\/2<\/code>: origin did not start/);
  assert.match(html, /<td>tcp-cubic<\/td><td>1 \(1\)<\/td><td>20\.00<\/td>/);
});

test('controller parameters: shown beside the scheme in summary.md; resuming a DIR with other parameters is refused', async (t) => {
  const { summaryMarkdown } = await import('../harness/summary.ts');
  const { plan, runPlan } = await import('../harness/runner.ts');
  const { parseScenario } = await import('../harness/scenario.ts');
  const tuned: RunResult = { ...run('vivace', 1, 0.01), controller_params: { epsilon_min: 0.02 } };
  assert.match(summaryMarkdown(summarize([tuned, run('tcp-cubic', 1, 0)])), /\| vivace \(epsilon_min=0\.02\) \| 1 \(0\)/);
  const dir = scratchDir(t, 'pcc-params');
  appendResult(join(dir, 'results.jsonl'), run('vivace', 1, 0.01)); // library defaults
  const scenario = parseScenario({ name: 's', duration_s: 1, repetitions: 1, link: { down: { rate_mbps: 1 }, up: { rate_mbps: 1 } },
    schemes: ['vivace'], controller_params: { vivace: { epsilon_min: 0.02 } } }, '/');
  await assert.rejects(runPlan(plan([scenario]), { outDir: dir, mediaDir: '/nonexistent', playerDir: '', shouldStop: () => true }),
    /s\/vivace\/1 run with controller parameters "", this run asks for "epsilon_min=0.02": use another --out/);
});

test('aid waste: averaged per scheme, in summary.csv always and in summary.md only where an aided scheme ran', async () => {
  const { summaryCsv, summaryMarkdown } = await import('../harness/summary.ts');
  const aided = (repetition: number, waste: number): RunResult => ({
    ...run('vivace', repetition, 0), run_id: runId('s', 'vivace+prefetch', repetition), scheme: 'vivace+prefetch', prefetch_waste_ratio: waste,
  });
  const rows = summarize([aided(1, 0.02), aided(2, 0.04), { ...run('vivace', 1, 0), prefetch_waste_ratio: 0 }, run('vivace', 2, 0)]);
  const prefetch = rows.find((r) => r.scheme === 'vivace+prefetch');
  const plain = rows.find((r) => r.scheme === 'vivace');
  assert.ok(prefetch && plain);
  assert.ok(Math.abs(prefetch.prefetch_waste_ratio.mean - 0.03) < 1e-12);
  assert.equal(plain.prefetch_waste_ratio.n, 1, 'a line without the field (older lines) is left out, not counted as 0');
  const markdown = summaryMarkdown(rows);
  assert.match(markdown, /\| wire B per media B \| aid waste % \(prefetch: origin \+ players, of bytes sent, upper bound; stream: players, of bytes received\) \|\n(\| --- ){13}\|/);
  assert.match(markdown, /\| vivace\+prefetch \| 2 \(0\) \|[^\n]* \| 3\.00 ± \d+\.\d\d \|\n/);
  assert.match(markdown, /\| vivace \| 2 \(0\) \|[^\n]* \| 0\.00 \|\n/);
  assert.doesNotMatch(summaryMarkdown(summarize([run('vivace', 1, 0), run('tcp-cubic', 1, 0)])), /aid waste/, 'no aided scheme: no column');
  assert.match(summaryCsv(rows).split('\n')[0] ?? '', /,prefetch_waste_ratio_mean,prefetch_waste_ratio_ci95$/);
});

test('aid waste: early requests by the origin\'s bytes sent for those cancelled plus the players\' unused bytes, of bytes sent; streams and older lines by the players\' count', async () => {
  const { aidWasteRatio, summaryMarkdown } = await import('../harness/summary.ts');
  const { originPrefetchFigures } = await import('../harness/runner.ts');
  // 90 kB sent for cancelled early requests and 30 kB the players received and never used, of 1 MB sent toward them
  const figures = originPrefetchFigures({ cancelled: 3, cancelledBytesSent: 90_000 }, 1_000_000, 30_000);
  assert.deepEqual(figures, { origin_prefetch_cancelled: 3, origin_prefetch_cancelled_bytes_sent: 90_000, origin_prefetch_waste_ratio: 0.09, prefetch_waste_of_sent_upper_ratio: 0.12 });
  assert.equal(originPrefetchFigures({ cancelled: 0, cancelledBytesSent: 0 }, 0, 0).prefetch_waste_of_sent_upper_ratio, null);
  const aided = (scheme: string, repetition: number, extra: Partial<RunResult>): RunResult => ({
    ...run('vivace', repetition, 0), run_id: runId('s', scheme, repetition), scheme: scheme as RunResult['scheme'], prefetch_waste_ratio: 0.05, ...extra,
  });
  assert.equal(aidWasteRatio(aided('vivace+prefetch', 1, figures)), 0.12, 'early requests: origin + players, of bytes sent');
  assert.equal(aidWasteRatio(aided('vivace+prefetch', 1, {})), 0.05, 'a line without the origin\'s count: the players\'');
  assert.equal(aidWasteRatio(aided('vivace+stream', 1, { ...figures, prefetch_waste_of_sent_upper_ratio: 0.01 })), 0.05, 'streams: the players\' (the origin counts none)');
  const rows = summarize([aided('vivace+prefetch', 1, figures), aided('vivace+prefetch', 2, { ...figures, prefetch_waste_of_sent_upper_ratio: 0.08 }), run('vivace', 1, 0)]);
  const prefetch = rows.find((r) => r.scheme === 'vivace+prefetch');
  assert.ok(prefetch && Math.abs(prefetch.prefetch_waste_ratio.mean - 0.1) < 1e-12, `mean ${prefetch?.prefetch_waste_ratio.mean}`);
  assert.match(summaryMarkdown(rows), /\| vivace\+prefetch \| 2 \(0\) \|[^\n]* \| 10\.00 ± \d+\.\d\d \|\n/);
});

test('the origin\'s count of cancelled early requests is read from its /status totals', async (t) => {
  const { readOriginPrefetch } = await import('../harness/runner.ts');
  const { startOriginProcess } = await import('@pcc-stream/server/process');
  const mediaDir = scratchDir(t, 'pcc-origin-prefetch');
  writeFileSync(join(mediaDir, 'seg.m4s'), 'x');
  const origin = await startOriginProcess({ mediaDir, webTransportPort: 0, httpPort: 0, httpsPort: 0, extraArgs: ['--log-level', 'warn'] });
  try {
    assert.deepEqual(await readOriginPrefetch(origin.httpBase), { cancelled: 0, cancelledBytesSent: 0 });
  } finally {
    await origin.stop();
  }
});

// The `smoke` suite end to end (issue 6): linkem, the origin on the host side, Debian's Chromium inside the
// namespace playing over vivace datagrams and over kernel TCP CUBIC; then resume and the report.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../harness/repo-root.ts';
import { writeReport } from '../harness/report.ts';
import { readResults } from '../harness/results.ts';
import { plan, runPlan } from '../harness/runner.ts';
import { suiteScenarios } from '../harness/suites.ts';

const mediaDir = join(repoRoot, '.cache', 'media');
const playerDir = join(repoRoot, 'player', 'dist');

test('smoke suite: vivace and tcp-cubic play through linkem in Chromium, results resume and report', { timeout: 300_000 }, async () => {
  assert.ok(existsSync(join(playerDir, 'index.html')), 'player not built');
  const outDir = mkdtempSync(join(tmpdir(), 'pcc-bench-smoke-'));
  try {
    const scenarios = suiteScenarios('smoke');
    const items = plan(scenarios);
    assert.deepEqual(items.map((i) => i.scheme), ['vivace', 'tcp-cubic']);
    const performed = await runPlan(items, { outDir, mediaDir, playerDir, shouldStop: () => false });
    assert.equal(performed.length, 2);
    for (const run of performed) {
      assert.equal(run.status, 'ok', `${run.run_id} failed: ${run.error ?? ''}`);
      assert.equal(run.players.length, 1);
      // The plan generated (or found cached) the ladder its 20 s scenario needs: 20 s + 10 s margin.
      assert.deepEqual(run.media, { set: 'abr-cbr-30s-2s', kind: 'cbr', abr: true, duration_s: 30, segment_s: 2 });
      const player = run.players[0]!;
      assert.ok(player.playing_time_s > 10, `${run.run_id}: played only ${player.playing_time_s} s`);
      assert.ok(Number.isFinite(player.startup_delay_s) && player.startup_delay_s < 10, `${run.run_id}: startup ${player.startup_delay_s}`);
      assert.ok(run.buffering_ratio !== null && run.buffering_ratio >= 0 && run.buffering_ratio <= 1);
      assert.ok(player.bytes_received > 1e6, `${run.run_id}: received ${player.bytes_received} bytes`);
      // The link carried the video: utilization and queueing delay come from linkem's own accounting.
      assert.ok(run.link_utilization !== null && run.link_utilization > 0.05 && run.link_utilization <= 1.01, `${run.run_id}: utilization ${run.link_utilization}`);
      assert.ok(run.queue_delay_p95_ms !== null && run.queue_delay_p95_ms >= 0);
      assert.ok(existsSync(join(outDir, run.artifacts.series ?? 'missing')), `${run.run_id}: no series`);
    }
    // Everything is done: running the same plan again performs nothing (resume).
    assert.equal((await runPlan(items, { outDir, mediaDir, playerDir, shouldStop: () => false })).length, 0);
    assert.equal(readResults(join(outDir, 'results.jsonl')).length, 2);
    const report = writeReport(outDir);
    assert.ok(report.plots.includes('smoke-buffering-ratio'));
    const md = readFileSync(join(outDir, 'summary.md'), 'utf8');
    assert.match(md, /\| vivace \| 1 \(0\) \|/);
    assert.match(md, /\| tcp-cubic \| 1 \(0\) \|/);
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
});

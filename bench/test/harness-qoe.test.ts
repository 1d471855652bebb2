// The bench's QoE figures come from the definitions it shares with the page's summary card (@pcc-stream/protocol
// qoe.ts). Moving them there must not change a figure: the published results are recomputed from their parts, and the
// formulas the runner used inline before the move are checked against the shared ones bit for bit.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { bufferingRatio, bufferingRatioWithStartup, kbpsToMbps, linkUtilization, meanCapacityMbps, meanOverPlayers } from '@pcc-stream/protocol';
import { playedBitrateMbps, readResults, type RunResult } from '../harness/results.ts';
import { repoRoot } from '../harness/repo-root.ts';

const publishedRoot = join(repoRoot, 'bench', 'published');

function publishedRuns(): RunResult[] {
  const runs: RunResult[] = [];
  for (const day of readdirSync(publishedRoot, { withFileTypes: true }).filter((d) => d.isDirectory())) {
    for (const topic of readdirSync(join(publishedRoot, day.name), { withFileTypes: true }).filter((d) => d.isDirectory())) {
      runs.push(...readResults(join(publishedRoot, day.name, topic.name, 'results.jsonl')));
    }
  }
  return runs;
}

/** Relative closeness: the players' ratios were computed in ms, their parts stored in s. */
function near(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b));
}

test('published browser runs: every run figure is the shared mean over its players, every player ratio the shared definition', () => {
  const runs = publishedRuns().filter((r) => r.status === 'ok' && r.players.length > 0);
  assert.ok(runs.length >= 20, `expected the published browser runs, found ${runs.length}`);
  for (const r of runs) {
    assert.equal(r.buffering_ratio, meanOverPlayers(r.players.map((p) => p.buffering_ratio)), r.run_id);
    assert.equal(r.stall_count, meanOverPlayers(r.players.map((p) => p.stall_count)), r.run_id);
    assert.equal(r.stall_time_s, meanOverPlayers(r.players.map((p) => p.stall_time_s)), r.run_id);
    assert.equal(r.avg_bitrate_mbps, meanOverPlayers(r.players.map((p) => p.avg_bitrate_mbps)), r.run_id);
    // The tables' avg bitrate: stored in newer lines, derived from the players in older ones; the same mean either way.
    const onScreen = meanOverPlayers(r.players.map((p) => p.time_weighted_bitrate_mbps));
    if (r.played_bitrate_mbps !== undefined) assert.equal(r.played_bitrate_mbps, onScreen, r.run_id);
    assert.ok(playedBitrateMbps(r) === onScreen && onScreen !== null, `${r.run_id}: played bitrate ${playedBitrateMbps(r)}`);
    for (const p of r.players) {
      const stallMs = p.stall_time_s * 1000;
      const playingMs = p.playing_time_s * 1000;
      assert.ok(near(p.buffering_ratio, bufferingRatio(stallMs, playingMs)), `${r.run_id}: ${p.buffering_ratio} vs ${bufferingRatio(stallMs, playingMs)}`);
      if (Number.isFinite(p.startup_delay_s)) {
        const withStartup = bufferingRatioWithStartup(p.startup_delay_s * 1000, stallMs, playingMs);
        assert.ok(near(p.buffering_ratio_with_startup, withStartup), `${r.run_id}: with startup ${p.buffering_ratio_with_startup} vs ${withStartup}`);
      }
    }
  }
});

test('link utilization, capacity mean, run means and kbit/s → Mbit/s equal the runner\'s former inline formulas bit for bit', () => {
  // The runner before the shared module (bench/harness/runner.ts at 0421cd7), kept here as the reference.
  const formerMean = (values: number[]): number | null => {
    const finite = values.filter(Number.isFinite);
    return finite.length === 0 ? null : finite.reduce((s, v) => s + v, 0) / finite.length;
  };
  const formerUtilization = (departedBytes: number, perSecond: number[], durationS: number): { capacityMbps: number; utilization: number | null } => {
    const capacityMbps = perSecond.reduce((s, v) => s + v, 0) / Math.max(1, perSecond.length);
    const capacityBytes = (capacityMbps * 1e6 * durationS) / 8;
    return { capacityMbps, utilization: capacityBytes > 0 ? departedBytes / capacityBytes : null };
  };
  let seed = 12345;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  for (let i = 0; i < 2000; i += 1) {
    const seconds = Math.floor(random() * 90);
    const perSecond = Array.from({ length: seconds }, () => (random() < 0.1 ? 0 : random() * 120));
    const durationS = seconds + random() * 3;
    const departed = Math.floor(random() * 2e9);
    const former = formerUtilization(departed, perSecond, durationS);
    assert.equal(meanCapacityMbps(perSecond), former.capacityMbps);
    assert.equal(linkUtilization(departed, meanCapacityMbps(perSecond), durationS), former.utilization);
    const players = Array.from({ length: 1 + Math.floor(random() * 3) }, () => (random() < 0.1 ? Number.NaN : random()));
    assert.equal(meanOverPlayers(players), formerMean(players));
    const kbps = Math.round(random() * 20000);
    assert.equal(kbpsToMbps(kbps), kbps / 1000);
  }
});

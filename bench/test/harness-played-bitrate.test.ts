// The tables' "avg bitrate" is what the viewer saw (played_bitrate_mbps: the players' on-screen bitrate), not the mean of
// every video segment downloaded (avg_bitrate_mbps), which credits copies dash.js fetched again or abandoned and never
// showed (bench/published/2026-11-25/fast-switch). Lines written before played_bitrate_mbps existed read it from their
// players.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareToTcp } from '../harness/comparison.ts';
import { appendResult, playedBitrateMbps, playerMeans, runId, type PlayerResult, type RunResult } from '../harness/results.ts';
import { redownloadedShare, redownloads, type SegmentDownload } from '../harness/redownloads.ts';
import { summarize, summaryCsv } from '../harness/summary.ts';
import { writeReport } from '../harness/report.ts';
import { scratchDir } from './scratch-dir.ts';

function player(downloadedMbps: number, onScreenMbps: number): PlayerResult {
  return {
    startup_delay_s: 1, stall_count: 0, stall_time_s: 0, playing_time_s: 30, buffering_ratio: 0, buffering_ratio_with_startup: 0.03,
    avg_bitrate_mbps: downloadedMbps, time_weighted_bitrate_mbps: onScreenMbps, switch_count: 1, bytes_received: 1e7,
    datagrams_received: 0, datagrams_dropped: 0,
  };
}

/** A run as the runner writes it (old: as written before played_bitrate_mbps, without it). */
function run(scheme: 'vivace' | 'tcp-cubic', repetition: number, players: PlayerResult[], old = false): RunResult {
  const means = playerMeans(players);
  if (old) delete (means as Partial<typeof means>).played_bitrate_mbps;
  return {
    run_id: runId('s', scheme, repetition), scenario: 's', scheme, repetition, seed: repetition, status: 'ok',
    started_at: '2026-11-27T00:00:00Z', wall_s: 40, duration_s: 30, players, ...means,
    goodput_mbps: 5, link_utilization: 0.8, queue_delay_p95_ms: 50, capacity_mbps: 6, artifacts: {},
  };
}

// Per repetition, one player each. vivace: every segment fetched at 0.3 Mbit/s was fetched again at 4 before it was
// shown (fast switch), so half its downloads are 0.3 and all it showed was 4. tcp-cubic: a 4 Mbit/s copy was
// downloaded, abandoned, and the 0.3 copy played for most of the time.
const VIVACE = (rep: number) => player((0.3 + 4) / 2, 4 - rep * 0.01);
const CUBIC = (rep: number) => player(3, 0.8 + rep * 0.01);

test('a run\'s played bitrate is the mean of its players\' on-screen bitrate, not of the segments downloaded', () => {
  const r = run('vivace', 1, [player(2.15, 4), player(3, 1)]);
  assert.equal(r.played_bitrate_mbps, 2.5);
  assert.equal(r.avg_bitrate_mbps, 2.575);
  assert.equal(playedBitrateMbps(r), 2.5);
  // A line written before the field: derived from the players, the same figure.
  assert.equal(playedBitrateMbps(run('vivace', 1, [player(2.15, 4), player(3, 1)], true)), 2.5);
  // Failed and bulk runs have none.
  assert.equal(playedBitrateMbps({ ...run('vivace', 1, [], true), status: 'failed' }), null);
  assert.equal(playedBitrateMbps(run('vivace', 1, [], true)), null);
});

test('summary, CSV and comparison rank by what played; the downloaded mean stays as its own column', (t) => {
  for (const old of [false, true]) {
    const results = [1, 2, 3, 4, 5, 6].flatMap((rep) => [run('vivace', rep, [VIVACE(rep)], old), run('tcp-cubic', rep, [CUBIC(rep)], old)]);
    const rows = summarize(results);
    const vivace = rows.find((r) => r.scheme === 'vivace')!;
    const cubic = rows.find((r) => r.scheme === 'tcp-cubic')!;
    assert.ok(Math.abs(vivace.played_bitrate_mbps.mean - 3.965) < 1e-12, `old=${old}: ${vivace.played_bitrate_mbps.mean}`);
    assert.ok(Math.abs(cubic.played_bitrate_mbps.mean - 0.835) < 1e-12);
    assert.ok(Math.abs(vivace.downloaded_bitrate_mbps.mean - 2.15) < 1e-12);
    assert.equal(cubic.downloaded_bitrate_mbps.mean, 3);
    const bitrate = compareToTcp(results).find((c) => c.metric === 'played_bitrate_mbps')!;
    assert.ok(bitrate.meanDifference > 3, `old=${old}: vivace played more: ${bitrate.meanDifference}`);
    assert.equal(bitrate.verdict, 'significant: vivace better');
    assert.ok(!compareToTcp(results).some((c) => (c.metric as string) === 'avg_bitrate_mbps'));
    const csv = summaryCsv(rows).split('\n');
    assert.match(csv[0]!, /,played_bitrate_mbps_mean,played_bitrate_mbps_ci95,downloaded_bitrate_mbps_mean,downloaded_bitrate_mbps_ci95,/);
  }
  const dir = scratchDir(t, 'pcc-played-bitrate');
  for (const rep of [1, 2, 3, 4, 5, 6]) {
    appendResult(join(dir, 'results.jsonl'), run('vivace', rep, [VIVACE(rep)], true));
    appendResult(join(dir, 'results.jsonl'), run('tcp-cubic', rep, [CUBIC(rep)], true));
  }
  writeReport(dir);
  const md = readFileSync(join(dir, 'summary.md'), 'utf8');
  assert.match(md, /\| avg bitrate Mbit\/s \(on screen\) \| downloaded segments' mean bitrate Mbit\/s \|/);
  assert.match(md, /\| vivace \| 6 \(0\) \| [^|]+ \| [^|]+ \| [^|]+ \| [^|]+ \| 3\.9[67] ± [0-9.]+ \| 2\.15 ± 0\.00 \| n\/a \|/); // old lines: no re-download count
  assert.match(md, /\| tcp-cubic \| 6 \(0\) \| [^|]+ \| [^|]+ \| [^|]+ \| [^|]+ \| 0\.8[34] ± [0-9.]+ \| 3\.00 ± 0\.00 \|/);
  assert.match(md, /\| vivace \| tcp-cubic \| avg bitrate on screen \(Mbit\/s\) \| 6 \(of 6\) \| \+3\.13 ± [0-9.]+ \|/);
});

test('re-downloaded bytes: a copy a later download of the same segment replaced, and abandoned downloads', () => {
  const seg = (index: number, atMs: number, kbps: number, abandoned = false) =>
    ({ kind: 'segment', index, dashRequestMs: atMs, abandoned, renditionKbps: kbps, transfer: { bytes: (kbps * 2000) / 8 } });
  // Segment 2 fetched at 300, then again at 4000 before it was shown (fast switch): the 300 copy is re-downloaded.
  const fastSwitch = [seg(1, 0, 300), seg(2, 900, 300), { kind: 'switch', atMs: 1000 }, seg(2, 1500, 4000), seg(3, 2500, 4000)];
  assert.deepEqual(redownloads(fastSwitch), { redownloadedBytes: 75_000, videoSegmentBytes: 75_000 * 2 + 1_000_000 * 2 });
  // Segment 2's 4000 copy abandoned, then fetched at 300, which played: the abandoned bytes count, the shown copy not.
  const abandoned = [seg(1, 0, 300), { ...seg(2, 900, 4000, true), transfer: { bytes: 400_000 } }, seg(2, 3000, 300)];
  assert.deepEqual(redownloads(abandoned), { redownloadedBytes: 400_000, videoSegmentBytes: 550_000 });
  // The order is dash.js's request time, not the log's.
  assert.deepEqual(redownloads([...fastSwitch].reverse()), redownloads(fastSwitch));
  const withCounts = (records: readonly SegmentDownload[]) => {
    const r = redownloads(records);
    return { ...player(1, 1), redownloaded_bytes: r.redownloadedBytes, video_segment_bytes: r.videoSegmentBytes };
  };
  assert.equal(redownloadedShare([withCounts(fastSwitch), withCounts(abandoned)]), (75_000 + 400_000) / (2_150_000 + 550_000));
  assert.equal(redownloadedShare([player(1, 1)]), null, 'lines written before the count have none');
  assert.equal(redownloadedShare([]), null);
});

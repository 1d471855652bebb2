import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PlaybackMetrics } from '../src/metrics/playback-metrics.ts';
import { runSummary } from '../src/metrics/run-summary.ts';

test('startup delay is measured to the first playing event and excluded from the buffering ratio', () => {
  const m = new PlaybackMetrics(1000);
  m.onWaiting(1500); // before playback began: part of startup, not a stall
  m.onPlaying(3000);
  const s = m.snapshot(13_000);
  assert.equal(s.startupDelayS, 2);
  assert.equal(s.stallCount, 0);
  assert.equal(s.totalStallS, 0);
  assert.equal(s.playingS, 10);
  assert.equal(s.bufferingRatio, 0);
  assert.ok(Math.abs(s.bufferingRatioWithStartup - 2 / 12) < 1e-9);
});

test('a stall runs from waiting to playing; repeated waiting does not double count', () => {
  const m = new PlaybackMetrics(0);
  m.onPlaying(1000);
  m.onWaiting(5000);
  m.onWaiting(5500);
  m.onPlaying(7000);
  m.onWaiting(9000);
  const open = m.snapshot(10_000); // a stall still in progress counts up to now
  assert.equal(open.stallCount, 2);
  assert.equal(open.totalStallS, 3);
  assert.equal(open.playingS, 6);
  assert.ok(Math.abs(open.bufferingRatio - 3 / 9) < 1e-9);
  assert.equal(m.isStalled, true);
});

test('time-weighted bitrate weights renditions by playing time, skipping stalls; switches are counted', () => {
  const m = new PlaybackMetrics(0);
  m.onRenditionRendered(0, 300);
  m.onPlaying(0);
  m.onRenditionRendered(2000, 8000); // 2 s at 300
  m.onWaiting(4000); // 2 s at 8000
  m.onPlaying(10_000); // 6 s stalled
  const s = m.snapshot(12_000); // 2 s more at 8000
  assert.equal(s.switchCount, 1);
  assert.equal(s.maxBitrateKbpsReached, 8000);
  assert.ok(Math.abs(s.timeWeightedBitrateKbps - (2 * 300 + 4 * 8000) / 6) < 1e-9);
  m.onSegmentLoaded(300);
  m.onSegmentLoaded(8000);
  assert.equal(m.snapshot(12_000).averageBitrateKbps, 4150);
});

test('ended stops the clocks', () => {
  const m = new PlaybackMetrics(0);
  m.onPlaying(500);
  m.onEnded(10_500);
  const s = m.snapshot(99_000);
  assert.equal(s.playingS, 10);
  m.onWaiting(20_000); // waiting after the end is not a stall
  assert.equal(m.snapshot(99_000).stallCount, 0);
});

// The played (on-screen) bitrate follows dash.js's rendered-quality events, whatever was downloaded
// (bench/published/2026-11-25/fast-switch): the mean of the segments downloaded counts copies never shown.
test('a segment downloaded at 300 and replaced at 4000 before it was shown counts as 4000 played', () => {
  const m = new PlaybackMetrics(0);
  for (let i = 0; i < 3; i += 1) m.onSegmentLoaded(300); // segments 1-3 at 300
  m.onRenditionRendered(1000, 300);
  m.onPlaying(1000);
  m.onSegmentLoaded(4000); // fast switch: segments 2 and 3 fetched again at 4000, before the playhead reached them
  m.onSegmentLoaded(4000);
  m.onRenditionRendered(3000, 4000); // segment 2 on screen: the 4000 copy
  const s = m.snapshot(7000); // 2 s at 300, 4 s at 4000
  assert.ok(Math.abs(s.timeWeightedBitrateKbps - (2 * 300 + 4 * 4000) / 6) < 1e-9, `${s.timeWeightedBitrateKbps}`);
  assert.equal(s.averageBitrateKbps, (3 * 300 + 2 * 4000) / 5); // the downloaded mean, superseded 300s included
  const card = runSummary(s, null, 0, 7);
  assert.equal(card.playedBitrateMbps, s.timeWeightedBitrateKbps / 1000, 'the card\'s average bitrate is what played');
  assert.equal(card.downloadedBitrateMbps, 1.78);
});

test('a 4000 copy downloaded but never shown while the 300 copy played counts as 300 played', () => {
  const m = new PlaybackMetrics(0);
  m.onSegmentLoaded(300);
  m.onRenditionRendered(500, 300);
  m.onPlaying(500);
  m.onSegmentLoaded(4000); // completed but never rendered (dash.js replaced it with a 300 copy of the same segment)
  m.onSegmentLoaded(300);
  m.onWaiting(4500);
  m.onPlaying(6500);
  m.onEnded(8500);
  const s = m.snapshot(30_000);
  assert.equal(s.timeWeightedBitrateKbps, 300);
  assert.equal(s.playingS, 6);
  assert.ok(s.averageBitrateKbps > 1500);
  assert.equal(runSummary(s, null, 0, 8.5).playedBitrateMbps, 0.3);
});

test('played bitrate: 0 before any playing time, even with a rendition chosen; a switch at a stall counts from playing', () => {
  const m = new PlaybackMetrics(0);
  m.onRenditionRendered(100, 4000); // a quality rendered before the first frame played
  assert.equal(m.snapshot(2000).timeWeightedBitrateKbps, 0, 'nothing played, nothing credited');
  m.onPlaying(2000);
  assert.equal(m.snapshot(2000).timeWeightedBitrateKbps, 0, 'no playing time yet');
  m.onWaiting(4000); // 2 s at 4000
  m.onRenditionRendered(5000, 1000); // switched while stalled: the stall's time counts for neither
  m.onPlaying(8000);
  const s = m.snapshot(10_000); // 2 s at 1000
  assert.equal(s.timeWeightedBitrateKbps, (2 * 4000 + 2 * 1000) / 4);
});

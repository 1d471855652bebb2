import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PlaybackMetrics } from '../src/metrics/playback-metrics.ts';

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

// A path that gets longer is no congestion (src/algorithms/vivace_timeout.c, the path-step undo), seen through the
// WASM simulator; test/test_vivace.c (test_path_step_undo) is the native side. The thesis's changing-RTT setting
// (Fig 5.1, §5.2: 16.5 Mbit/s, 300 KB, RTT drawn from 10-100 ms every 5 s, 0.01% loss, one 15 Mbit/s stream) with
// seed 11 steps from 14 to 92 ms at 20 s: five MIs time out (5 min RTTs = 70 ms < 78 ms of extra delay).
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { runSimulation } from '../index.ts';
import { assertBuildsFresh, LIBRARY_SOURCES, SIMULATOR_SOURCES } from './support/build-freshness.ts';

before(() => {
  assertBuildsFresh(['wasm-dist/pcc_cc.wasm'], [...LIBRARY_SOURCES, ...SIMULATOR_SOURCES]);
});

const STEP_AT_US = 20_000_000;
const LINK_MBPS = 16.5;

test('vivace keeps its rate when the path gets longer: the MI-timeout halving is undone', async () => {
  const outcome = await runSimulation({
    cc: 'vivace', rateMbps: LINK_MBPS, rttSchedule: { minMs: 10, maxMs: 100, periodS: 5 }, bufferKb: 300, loss: 0.0001,
    durationS: 22, seed: 11, samples: true, sampleMs: 100, extraArgs: ['--video-mbps', '15', '--video-continuous'],
  });
  const samples = outcome.samples ?? [];
  const before = samples.filter((s) => s.timeUs >= STEP_AT_US - 1_000_000 && s.timeUs < STEP_AT_US);
  const after = samples.filter((s) => s.timeUs >= STEP_AT_US + 200_000 && s.timeUs <= STEP_AT_US + 1_000_000);
  assert.ok(before.length > 0 && after.length > 0, 'samples around the step');
  // The step is there: the RTT rose by more than 5 min RTTs.
  assert.ok(Math.max(...before.map((s) => s.rttUs)) < 20_000 && Math.min(...after.map((s) => s.rttUs)) > 85_000);
  // Kept, the halving left 7.9-10 Mbit/s for the next second (measured with the undo off); undone, the probes go on
  // around the rate before the step.
  const lowestMbps = Math.min(...after.map((s) => s.pacingRateBps / 1e6));
  assert.ok(lowestMbps > 0.85 * LINK_MBPS, `lowest pacing rate after the step ${lowestMbps.toFixed(2)} Mbit/s`);
  const video = outcome.report.flows[0]?.video;
  assert.ok(video !== undefined && video.play_s > 15, 'the stream played');
  assert.equal(video.stall_count, 0);
});

// vivace-video in WASM (src/algorithms/vivace_video.c; test/test_vivace_video.c is the native side): its utility
// at a healthy and at a low buffer, seen in the rate it settles at, and plain Vivace when no player state comes.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { loadControllerModule, type AlgorithmName, type ControllerModule } from '../index.ts';
import { assertBuildsFresh, LIBRARY_SOURCES } from './support/build-freshness.ts';
import { generateScenario, type ScenarioOptions } from './support/closed-loop.ts';
import { replayInWasm, type ScriptLine } from './support/replay-script.ts';

let mod: ControllerModule;
before(async () => {
  assertBuildsFresh(['wasm-dist/pcc_cc.wasm'], LIBRARY_SOURCES);
  mod = await loadControllerModule();
});

const LINK_BPS = 40e6;
const BITRATE_BPS = 3e6;
const DURATION_US = 8_000_000;
const MEASURED_FROM_US = 5_000_000;

const path: Omit<ScenarioOptions, 'algorithm'> = {
  seed: 5, durationUs: DURATION_US, linkRateBps: LINK_BPS, baseRttUs: 30_000, bufferBytes: 300_000, lossRate: 0, packetBytes: 1200, odd: false,
};

/** Mean pacing rate (bit/s) at the ticks of the measured part, and the pacing rate after every line. */
function run(algorithm: AlgorithmName, player?: { bufferMs: number; bitrateBps: number }, params?: Record<string, number>): { meanBps: number; rates: number[] } {
  const script = generateScenario(mod, { ...path, algorithm, ...(player === undefined ? {} : { player }), ...(params === undefined ? {} : { params }) });
  const measured = (l: ScriptLine | undefined): boolean => l?.kind === 'tick' && l.nowUs >= MEASURED_FROM_US;
  const outputs = replayInWasm(mod, script, (i) => measured(script[i]) || player === undefined);
  let sum = 0;
  let count = 0;
  const rates: number[] = [];
  for (const [line, out] of outputs) {
    rates.push(out.pacingRateBytesPerSec);
    if (measured(script[line - 1])) {
      sum += out.pacingRateBytesPerSec * 8;
      count++;
    }
  }
  return { meanBps: sum / count, rates };
}

test('vivace-video at a healthy buffer paces near Sammy\'s 2.8-3.2x the bitrate; at a low buffer it takes the link', () => {
  const healthy = run('vivace-video', { bufferMs: 20_000, bitrateBps: BITRATE_BPS });
  const low = run('vivace-video', { bufferMs: 2_000, bitrateBps: BITRATE_BPS });
  // 20 s of buffer: 3.2 - 0.4 x 8/12 = 2.93 x 3 Mbit/s
  assert.ok(healthy.meanBps > 2.2 * BITRATE_BPS && healthy.meanBps < 3.6 * BITRATE_BPS, `healthy buffer: ${(healthy.meanBps / 1e6).toFixed(1)} Mbit/s`);
  assert.ok(low.meanBps > 0.6 * LINK_BPS, `low buffer: ${(low.meanBps / 1e6).toFixed(1)} Mbit/s`);
});

test('vivace-video without player state is vivace, output for output', () => {
  // with vivace-video's one default that differs from Vivace's (slow_start_persistent_queue, vivace_slow_start.c)
  const vivace = run('vivace', undefined, { slow_start_persistent_queue: 1 });
  const video = run('vivace-video', undefined, { slow_start_persistent_queue: 1 }); // its default: the same script lines
  assert.equal(video.rates.length, vivace.rates.length);
  assert.deepEqual(video.rates, vivace.rates);
});

// A fade under the bitrate (as on ATT-LTE-driving) and the capacity's return: with a low buffer the first clean MI
// below the bitrate the player fetches re-enters the starting phase; at a healthy buffer the rule stays out.
const FADE = { startUs: 3_000_000, endUs: 15_000_000, rateBps: 0.5e6 };
const FADE_BITRATE_BPS = 3e6;

/** Microseconds from the fade's end until the pacing rate reaches the bitrate (Infinity: never), and every rate. */
function recovery(bufferMs: number, restart: number): { afterUs: number; rates: number[] } {
  const script = generateScenario(mod, {
    ...path, algorithm: 'vivace-video', durationUs: 22_000_000, linkRateBps: 8e6, baseRttUs: 40_000, bufferBytes: 80_000,
    // the restart alone is compared, from the first slow start's exit as when written (test_vivace_video.c does the same)
    player: { bufferMs, bitrateBps: FADE_BITRATE_BPS }, fade: FADE, params: { video_starved_restart: restart, slow_start_persistent_queue: 0 },
  });
  const outputs = replayInWasm(mod, script, (i) => script[i]?.kind === 'tick');
  let afterUs = Infinity;
  const rates: number[] = [];
  for (const [line, out] of outputs) {
    const l = script[line - 1];
    rates.push(out.pacingRateBytesPerSec);
    if (l?.kind === 'tick' && l.nowUs >= FADE.endUs && afterUs === Infinity && out.pacingRateBytesPerSec * 8 >= FADE_BITRATE_BPS) {
      afterUs = l.nowUs - FADE.endUs;
    }
  }
  return { afterUs, rates };
}

test('vivace-video restarts a starving player\'s climb after a fade, and leaves a healthy buffer\'s to Vivace', () => {
  const lowOn = recovery(500, 1);
  const lowOff = recovery(500, 0);
  assert.ok(Number.isFinite(lowOn.afterUs), 'the rate never got back to the bitrate');
  assert.ok(lowOn.afterUs < lowOff.afterUs, `low buffer: ${lowOn.afterUs} us with the restart, ${lowOff.afterUs} us without`);
  assert.deepEqual(recovery(30_000, 1).rates, recovery(30_000, 0).rates);
});

// The queue bound (test/test_video_queue_bound.c is the native side): at a low buffer, a dip from 6 to 4 Mbit/s into a
// 300 kB buffer; with the bound the pacing rate comes down to the dip's capacity, without it only loss holds it.
const DIP = { startUs: 10_000_000, endUs: 16_000_000, rateBps: 4e6 };

/** Mean pacing rate over the dip's capacity (bit/s, 0 where below) at the ticks inside the dip. */
function excessInDip(queueShare: number): number {
  const script = generateScenario(mod, {
    ...path, algorithm: 'vivace-video', durationUs: 20_000_000, linkRateBps: 6e6, baseRttUs: 40_000, bufferBytes: 300_000,
    // the bound alone is compared, from the first slow start's exit as when written (with slow_start_persistent_queue on:
    // 0.23 Mbit/s over the dip's capacity with the bound, 0.38 without)
    player: { bufferMs: 2_000, bitrateBps: 4e6 }, fade: DIP, params: { video_queue_spare_share: queueShare, slow_start_persistent_queue: 0 },
  });
  const inDip = (l: ScriptLine | undefined): boolean => l?.kind === 'tick' && l.nowUs >= DIP.startUs && l.nowUs < DIP.endUs;
  const outputs = replayInWasm(mod, script, (i) => inDip(script[i]));
  let sum = 0;
  let count = 0;
  for (const [line, out] of outputs) {
    if (!inDip(script[line - 1])) continue;
    sum += Math.max(0, out.pacingRateBytesPerSec * 8 - DIP.rateBps);
    count++;
  }
  return sum / count;
}

test('vivace-video at a low buffer brings its rate down to a dip\'s capacity once its queue outgrows 1/20 of the buffer', () => {
  const on = excessInDip(0.05);
  const off = excessInDip(0);
  assert.ok(on < 0.5 * off, `mean rate over the dip's capacity: ${(on / 1e6).toFixed(2)} Mbit/s with the bound, ${(off / 1e6).toFixed(2)} without`);
});

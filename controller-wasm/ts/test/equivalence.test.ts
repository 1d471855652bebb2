// The same event scripts through the native library (build/pcc-replay) and through the WASM Controller
// must give bit-identical outputs after every event, for every algorithm.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { WASM_CONTROLLERS } from '@pcc-stream/protocol';
import { loadControllerModule, type AlgorithmName, type ControllerModule } from '../index.ts';
import { generateScenario, type ScenarioOptions } from './support/closed-loop.ts';
import { assertBuildsFresh, LIBRARY_SOURCES } from './support/build-freshness.ts';
import { firstDifference, replayInWasm, replayNatively } from './support/replay-script.ts';

let mod: ControllerModule;
before(async () => {
  assertBuildsFresh(['build/pcc-replay', 'wasm-dist/pcc_cc.wasm'], LIBRARY_SOURCES);
  mod = await loadControllerModule();
});

const scenarios: Omit<ScenarioOptions, 'algorithm'>[] = [
  // A clean bottleneck: slow start, probing and steady state.
  { seed: 11, durationUs: 2_500_000, linkRateBps: 8e6, baseRttUs: 30_000, bufferBytes: 30_000, lossRate: 0, packetBytes: 1200, odd: false },
  // Random loss, a shallow buffer and hostile input sprinkled in.
  { seed: 23, durationUs: 1_500_000, linkRateBps: 12e6, baseRttUs: 20_000, bufferBytes: 8_000, lossRate: 0.02, packetBytes: 1000, odd: true,
    params: { max_rate_bps: 50e6 } },
  // A player telling its buffer, bitrate and deadline (vivace-video's utility moves with them; the rest ignore them).
  { seed: 31, durationUs: 3_000_000, linkRateBps: 40e6, baseRttUs: 30_000, bufferBytes: 150_000, lossRate: 0.001, packetBytes: 1200, odd: false,
    video: true },
];

describe('native and WASM give identical outputs after every event', () => {
  const contractAlgorithms: readonly AlgorithmName[] = WASM_CONTROLLERS;
  for (const algorithm of contractAlgorithms) {
    scenarios.forEach((scenario, index) => {
      test(`${algorithm}, scenario ${index + 1}`, (t) => {
        if (!mod.algorithms().includes(algorithm)) {
          assert.fail(`algorithm ${algorithm} is not compiled into the WASM module (have ${mod.algorithms().join(', ')})`);
        }
        const script = generateScenario(mod, { ...scenario, algorithm });
        const native = replayNatively(script);
        const wasm = replayInWasm(mod, script);
        assert.equal(native.length, script.length, 'one native output per script line');
        assert.equal(wasm.size, script.length, 'one WASM output per script line');
        for (const expected of native) {
          const difference = firstDifference(expected, wasm.get(expected.line)!);
          if (difference !== null) assert.fail(`${algorithm}: ${difference}`);
        }
        const last = native[native.length - 1]!;
        // A scenario that never moved traffic would compare nothing interesting.
        assert.ok(last.telemetry.packetsAcked > 100, `only ${last.telemetry.packetsAcked} packets acked`);
        if (scenario.odd) assert.ok(last.telemetry.eventsRefused > 0, 'hostile input reached the boundary checks');
        t.diagnostic(`${script.length} events, ${last.telemetry.packetsAcked} acked, final rate ${(last.telemetry.pacingRateBps / 1e6).toFixed(2)} Mbit/s, state ${last.telemetry.state}`);
      });
    });
  }
});

describe('batching', () => {
  test('flushing rarely gives the same outputs as flushing after every event', () => {
    for (const algorithm of mod.algorithms() as AlgorithmName[]) {
      const script = generateScenario(mod, { ...scenarios[1]!, algorithm, seed: 5 });
      const everyEvent = replayInWasm(mod, script);
      // Observe only at irregular points: events in between stay queued and go in one call.
      const observed = new Set<number>();
      for (let i = 0; i < script.length; i += 1 + ((i * 7919) % 97)) observed.add(i);
      observed.add(script.length - 1);
      const batched = replayInWasm(mod, script, (i) => observed.has(i));
      assert.equal(batched.size, observed.size);
      for (const [line, output] of batched) {
        const difference = firstDifference(everyEvent.get(line)!, output);
        if (difference !== null) assert.fail(`${algorithm}: ${difference}`);
      }
    }
  });
});

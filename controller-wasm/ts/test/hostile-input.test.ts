// Random, mostly hostile event streams: nothing throws or traps, every output stays finite and within
// the configured rate bounds, and native and WASM still agree exactly after every event.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { WASM_CONTROLLERS } from '@pcc-stream/protocol';
import { loadControllerModule, type AlgorithmName, type ControllerModule } from '../index.ts';
import { assertBuildsFresh, LIBRARY_SOURCES } from './support/build-freshness.ts';
import { firstDifference, replayInWasm, replayNatively, type ScriptLine } from './support/replay-script.ts';
import { seededRandom } from './support/seeded-random.ts';

let mod: ControllerModule;
before(async () => {
  assertBuildsFresh(['build/pcc-replay', 'wasm-dist/pcc_cc.wasm'], LIBRARY_SOURCES);
  mod = await loadControllerModule();
});

function hostileScript(algorithm: AlgorithmName, seed: number, length: number): ScriptLine[] {
  const random = seededRandom(seed);
  const pick = <T>(items: T[]): T => items[Math.floor(random() * items.length)]!;
  let nowUs = 0;
  let nextPn = 0;
  const time = (): number =>
    pick([nowUs, nowUs, nowUs, nowUs - 50_000, nowUs + 0.5, 0, -1e9, 2 ** 53, 2 ** 60, Number.NaN, 1e300]);
  const pn = (): number => pick([nextPn - 1, nextPn - 2, Math.max(0, nextPn - 30), nextPn + 3, 0, -1, 2 ** 53, 2 ** 64, 1.5, Number.NaN]);
  const rtt = (): number => pick([20_000, 30_000 + random() * 1000, 0, -5, 1, 1e12, Number.NaN, Number.NEGATIVE_INFINITY]);
  const lines: ScriptLine[] = [{ kind: 'create', algorithm, seed, nowUs: 0 }];
  for (let i = 0; i < length; i++) {
    nowUs += Math.floor(random() * 3000);
    const r = random();
    if (r < 0.35) lines.push({ kind: 'sent', pn: random() < 0.8 ? nextPn++ : pn(), bytes: pick([1200, 1200, 1, 0, 65_535, 2 ** 32, -1, 1.5]), nowUs: time() });
    else if (r < 0.7) lines.push({ kind: 'ack', pn: pn(), rttUs: rtt(), recvTimeUs: pick([0, nowUs, -nowUs, Number.NaN]), nowUs: time() });
    else if (r < 0.85) lines.push({ kind: 'loss', pn: pn(), nowUs: time() });
    else if (r < 0.97) lines.push({ kind: 'tick', nowUs: time() });
    else {
      const video = (): number => pick([-1, 0, 2500, 1e6, -0.5, 1e300, Number.NaN, Number.POSITIVE_INFINITY]);
      lines.push({ kind: 'app_state', appLimited: random() < 0.5, bufferMs: video(), bitrateBps: video(), deadlineUs: pick([-1, 0, 2e6, 1.5, 2 ** 60, Number.NaN]), nowUs: time() });
    }
  }
  return lines;
}

for (const algorithm of WASM_CONTROLLERS) {
  test(`hostile input: ${algorithm} stays finite, bounded and identical to native`, () => {
    assert.ok(mod.algorithms().includes(algorithm), `${algorithm} is compiled in`);
    for (const seed of [1, 2]) {
      const script = hostileScript(algorithm, seed, 1500);
      const native = replayNatively(script);
      const wasm = replayInWasm(mod, script);
      const probe = mod.create(algorithm, { nowUs: 0 });
      const minBytesPerSec = probe.getParam('min_rate_bps') / 8;
      const maxBytesPerSec = probe.getParam('max_rate_bps') / 8;
      probe.destroy();
      for (const expected of native) {
        const actual = wasm.get(expected.line)!;
        const difference = firstDifference(expected, actual);
        if (difference !== null) assert.fail(`${algorithm} seed ${seed}: ${difference}`);
        for (const [key, value] of Object.entries({ ...actual.telemetry, pacing: actual.pacingRateBytesPerSec, cwnd: actual.cwndBytes })) {
          if (typeof value === 'number') assert.ok(Number.isFinite(value), `line ${expected.line}: ${key} = ${value}`);
        }
        assert.ok(actual.pacingRateBytesPerSec >= minBytesPerSec && actual.pacingRateBytesPerSec <= maxBytesPerSec,
          `line ${expected.line}: pacing ${actual.pacingRateBytesPerSec} B/s outside [${minBytesPerSec}, ${maxBytesPerSec}]`);
      }
      const last = native[native.length - 1]!.telemetry;
      assert.ok(last.eventsRefused > 50 && last.eventsIgnored > last.eventsRefused, `refused ${last.eventsRefused}, ignored ${last.eventsIgnored}`);
    }
  });
}

// The simulator compiled to WASM gives byte-identical JSON to the same C code built natively, and its
// report is exactly what the pcc-sim CLI prints for the same arguments.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, test } from 'node:test';
import { assertBuildsFresh, LIBRARY_SOURCES, SIMULATOR_SOURCES } from './support/build-freshness.ts';
import { loadControllerModule, runSimulation, simulationArgs, type ControllerModule, type SimulationConfig } from '../index.ts';

const BUILD_DIR = fileURLToPath(new URL('../../build/', import.meta.url));
const SIM_JSON_BINARY = join(BUILD_DIR, 'pcc-sim-json');
const SIM_CLI_BINARY = join(BUILD_DIR, 'sim', 'pcc-sim');

let mod: ControllerModule;
before(async () => {
  assertBuildsFresh(['build/pcc-sim-json', 'build/sim/pcc-sim', 'wasm-dist/pcc_cc.wasm'], [...LIBRARY_SOURCES, ...SIMULATOR_SOURCES]);
  mod = await loadControllerModule();
});

function runNative(binary: string, args: string[]): string {
  const r = spawnSync(binary, args, { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (r.error) throw r.error;
  if (r.status !== 0) throw new Error(`${binary} exited with ${r.status}: ${r.stderr}${r.stdout}`);
  return r.stdout.trim();
}

/** A synthetic mahimahi trace: 12 ms of 1-2 opportunities per millisecond (≈ 12 Mbit/s average), looped. */
function syntheticTraceMs(): number[] {
  const trace: number[] = [];
  for (let ms = 1; ms <= 120; ms++) {
    trace.push(ms);
    if (ms % 3 !== 0) trace.push(ms);
  }
  return trace;
}

const runs: { name: string; config: SimulationConfig }[] = [
  { name: 'vivace, random loss', config: { cc: 'vivace', rateMbps: 20, rttMs: 30, bufferKb: 75, loss: 0.01, durationS: 3, seed: 7 } },
  { name: 'vivace vs cubic, staggered', config: { cc: ['vivace', 'cubic'], flows: 2, rateMbps: 30, rttMs: 20, bufferKb: 50, durationS: 3, startGapS: 1, seed: 3 } },
  { name: 'bbr and pcp under an RTT schedule', config: { cc: ['bbr', 'pcp'], flows: 2, rateMbps: 15, rttMs: 40, bufferKb: 100, durationS: 2, seed: 5, rttSchedule: { minMs: 10, maxMs: 60, periodS: 0.5 } } },
  { name: 'vivace-loss on a trace, with samples', config: { cc: 'vivace-loss', rttMs: 25, bufferKb: 40, durationS: 2, seed: 9, traceMs: syntheticTraceMs(), samples: true, sampleMs: 50 } },
  { name: 'allegro, loss schedule', config: { cc: 'allegro', rateMbps: 10, rttMs: 30, bufferKb: 30, durationS: 2, seed: 2, lossSchedule: { min: 0, max: 0.02, periodS: 0.5 } } },
  { name: 'a VBR video player beside a bulk flow', config: { cc: ['vivace', 'cubic'], flows: 2, rateMbps: 12, rttMs: 40, bufferKb: 100, loss: 0.001, durationS: 4, seed: 4, extraArgs: ['--video-mbps', '6,0', '--video-vbr', '0.3', '--segment-s', '1'] } },
  { name: 'continuous ABR players, samples', config: { cc: 'bbr', flows: 2, rateMbps: 8, rttMs: 30, bufferKb: 60, durationS: 4, seed: 6, samples: true, extraArgs: ['--video-abr', '0.5,1,2,4', '--video-continuous', '--segment-s', '1'] } },
];

for (const { name, config } of runs) {
  test(`native and WASM simulations print identical JSON: ${name}`, async (t) => {
    const ccs = Array.isArray(config.cc) ? config.cc : [config.cc];
    for (const cc of ccs) assert.ok(mod.algorithms().includes(cc), `algorithm ${cc} is compiled into the WASM module`);
    const dir = mkdtempSync(join(tmpdir(), 'pcc-sim-eq-'));
    try {
      const wrapperArgs = config.samples ? ['--samples'] : [];
      const cliArgs = simulationArgs(config);
      if (config.traceMs) {
        const tracePath = join(dir, 'trace.ms');
        writeFileSync(tracePath, config.traceMs.join('\n') + '\n');
        wrapperArgs.push('--trace-ms-file', tracePath);
        cliArgs.push('--trace', tracePath);
      }
      const wasm = await runSimulation(config);
      const native = runNative(SIM_JSON_BINARY, [...wrapperArgs, '--', ...simulationArgs(config)]);
      assert.equal(wasm.json, native, 'WASM and native sim_runner output differ');
      assert.deepEqual(wasm.report, JSON.parse(runNative(SIM_CLI_BINARY, cliArgs)), 'report differs from `pcc-sim --json`');
      assert.equal(wasm.result.flows.length, ccs.length === 1 ? (config.flows ?? 1) : ccs.length);
      assert.ok(wasm.result.packetsSimulated > 500, `only ${wasm.result.packetsSimulated} packets simulated`);
      if (config.extraArgs?.some((arg) => arg.startsWith('--video'))) {
        assert.ok(wasm.report.flows.some((f) => (f.video?.segments ?? 0) > 0 && (f.video?.buffer_level_s.length ?? 0) === config.durationS), 'a video flow reports its player');
        if (config.samples) assert.ok(wasm.samples?.some((sample) => sample.videoBufferS > 0 && sample.videoBitrateBps > 0), 'samples carry the player\'s buffer');
      }
      if (config.samples) assert.ok((wasm.samples?.length ?? 0) >= 30, 'samples recorded');
      t.diagnostic(`${wasm.result.packetsSimulated} packets, ${wasm.result.eventsProcessed} events, utilization ${wasm.result.linkUtilization.toFixed(3)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}

test('a bad simulation config is refused with the simulator message', async () => {
  await assert.rejects(runSimulation({ cc: 'reno' as never, durationS: 1 }), /simulation: .*unknown congestion controller "reno"/);
  await assert.rejects(runSimulation({ cc: 'vivace', loss: 2 }), /simulation: .*--loss/);
  await assert.rejects(runSimulation({ cc: 'vivace', traceMs: [1, 2.5] }), /traceMs must hold whole/);
  await assert.rejects(runSimulation({ cc: 'vivace', extraArgs: ['--trace', '/etc/hostname'] }), /--trace reads a file/);
});

test('simulations do not leak WASM memory', async () => {
  const config: SimulationConfig = { cc: ['vivace', 'cubic'], flows: 2, rateMbps: 10, durationS: 0.5, samples: true };
  await runSimulation(config);
  const before = mod.heapBytesInUse();
  for (let i = 0; i < 5; i++) await runSimulation({ ...config, seed: i + 1 });
  await runSimulation({ cc: 'nope' as never }).catch(() => undefined);
  assert.equal(mod.heapBytesInUse(), before);
});

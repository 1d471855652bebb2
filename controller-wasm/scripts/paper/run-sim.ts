// Runs the native pcc-sim binary and parses its JSON (and optional CSV time series).
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SimulationReport } from '../../ts/simulation.ts';

export const controllerDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
// PCC_SIM_BIN overrides the binary (e.g. a build in another directory).
export const simBinary = process.env.PCC_SIM_BIN ?? join(controllerDir, 'build', 'sim', 'pcc-sim');

/** pcc-sim's --json output: the one definition lives next to the WASM runner, which prints the same JSON. */
export type SimResult = SimulationReport;
export type SimFlowResult = SimulationReport['flows'][number];

/** One row of the --csv time series. */
export interface SimSample {
  timeS: number;
  flow: number;
  pacingRateMbps: number;
  throughputMbps: number;
  rttMs: number;
  queueBytes: number;
}

export interface SimRun {
  result: SimResult;
  samples: SimSample[];
  wallMs: number;
  /** pcc-sim's stderr (structured log lines, e.g. the --timing record) */
  stderr: string;
}

let runnableBinary = simBinary;

/**
 * Checks the binary exists and runs a private copy of it from then on: a long benchmark must not fail or
 * change results halfway because a build in the shared build directory relinked pcc-sim. The copy is
 * removed when the process exits.
 */
export function assertSimBuilt(): void {
  if (!existsSync(simBinary)) {
    throw new Error(`${simBinary} is missing: run "npm run build -w controller-wasm" first`);
  }
  const scratch = mkdtempSync(join(tmpdir(), 'pcc-sim-bin-'));
  runnableBinary = join(scratch, 'pcc-sim');
  copyFileSync(simBinary, runnableBinary);
  process.on('exit', () => rmSync(scratch, { recursive: true, force: true }));
}

function parseCsv(text: string): SimSample[] {
  const lines = text.trim().split('\n');
  const header = (lines.shift() ?? '').split(',');
  const column = (name: string): number => {
    const index = header.indexOf(name);
    if (index < 0) throw new Error(`pcc-sim CSV has no column ${name}`);
    return index;
  };
  const t = column('time_s');
  const f = column('flow');
  const pacing = column('pacing_rate_mbps');
  const thr = column('throughput_mbps');
  const rtt = column('rtt_ms');
  const queue = column('queue_bytes');
  return lines.map((line) => {
    const cells = line.split(',');
    const num = (i: number): number => Number(cells[i]);
    return { timeS: num(t), flow: num(f), pacingRateMbps: num(pacing), throughputMbps: num(thr), rttMs: num(rtt), queueBytes: num(queue) };
  });
}

/** Runs pcc-sim with args (plus --json); with wantSamples, also collects its CSV time series. */
export function runSim(args: string[], wantSamples = false): Promise<SimRun> {
  const scratch = wantSamples ? mkdtempSync(join(tmpdir(), 'pcc-paper-')) : null;
  const csvPath = scratch ? join(scratch, 'series.csv') : null;
  const fullArgs = [...args, '--json', ...(csvPath ? ['--csv', csvPath] : [])];
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(runnableBinary, fullArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      const wallMs = performance.now() - started;
      try {
        if (code !== 0) throw new Error(`pcc-sim ${fullArgs.join(' ')} exited ${code}: ${stderr.trim()}`);
        const result = JSON.parse(stdout) as SimResult;
        const samples = csvPath ? parseCsv(readFileSync(csvPath, 'utf8')) : [];
        resolve({ result, samples, wallMs, stderr });
      } catch (error) {
        reject(error);
      } finally {
        if (scratch) rmSync(scratch, { recursive: true, force: true });
      }
    });
  });
}

/**
 * Those of `candidates` this pcc-sim build can run (a 10 ms run of each), in the given order; each one it
 * cannot run is reported to `onUnavailable` and left out.
 */
export async function simControllers(candidates: readonly string[], onUnavailable: (cc: string) => void): Promise<string[]> {
  const available: string[] = [];
  for (const cc of candidates) {
    try {
      await runSim(['--cc', cc, '--duration-s', '0.01']);
      available.push(cc);
    } catch {
      onUnavailable(cc);
    }
  }
  return available;
}


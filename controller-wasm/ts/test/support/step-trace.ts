// A mahimahi trace (ms of 1504-byte packet opportunities, one a line) of piecewise-constant rates, written to a
// temporary file for one pcc-sim test and removed after it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PACKET_BYTES = 1504;

/** A step of the trace: from and to (ms), at bps. */
export type TraceStep = [fromMs: number, toMs: number, bps: number];

export function stepTraceText(steps: TraceStep[]): string {
  const lines: number[] = [];
  for (const [fromMs, toMs, bps] of steps) {
    for (let t = fromMs; t < toMs; t += (PACKET_BYTES * 8 * 1000) / bps) lines.push(Math.max(1, Math.floor(t)));
  }
  return `${lines.join('\n')}\n`;
}

/** Calls fn with the path of the steps' trace in a fresh temporary directory, which is removed afterwards. */
export function withStepTrace<T>(steps: TraceStep[], fn: (tracePath: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'pcc-step-trace-'));
  try {
    const trace = join(dir, 'step.trace');
    writeFileSync(trace, stepTraceText(steps));
    return fn(trace);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

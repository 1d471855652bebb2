// Event scripts in the text format of wasm/native/replay_main.c, and running them through either side.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Controller, ControllerModule, ControllerTelemetry, AlgorithmName } from '../../types.ts';

export const REPLAY_BINARY = fileURLToPath(new URL('../../../build/pcc-replay', import.meta.url));

export type ScriptLine =
  | { kind: 'create'; algorithm: AlgorithmName; seed: number; nowUs: number }
  | { kind: 'param'; name: string; value: number }
  | { kind: 'sent'; pn: number; bytes: number; nowUs: number }
  | { kind: 'ack'; pn: number; rttUs: number; recvTimeUs: number; nowUs: number }
  | { kind: 'loss'; pn: number; nowUs: number }
  | { kind: 'tick'; nowUs: number }
  | { kind: 'app_state'; appLimited: boolean; bufferMs: number; bitrateBps: number; deadlineUs: number; nowUs: number };

/** What both sides print/return after a script line. */
export interface ReplayOutput {
  line: number;
  pacingRateBytesPerSec: number;
  cwndBytes: number;
  bytesInFlight: number;
  telemetry: ControllerTelemetry;
}

export function formatScript(lines: ScriptLine[]): string {
  return lines
    .map((l) => {
      switch (l.kind) {
        case 'create': return `create ${l.algorithm} ${l.seed} ${l.nowUs}`;
        case 'param': return `param ${l.name} ${l.value}`;
        case 'sent': return `sent ${l.pn} ${l.bytes} ${l.nowUs}`;
        case 'ack': return `ack ${l.pn} ${l.rttUs} ${l.recvTimeUs} ${l.nowUs}`;
        case 'loss': return `loss ${l.pn} ${l.nowUs}`;
        case 'tick': return `tick ${l.nowUs}`;
        case 'app_state': return `app_state ${l.appLimited ? 1 : 0} ${l.bufferMs} ${l.bitrateBps} ${l.deadlineUs} ${l.nowUs}`;
      }
    })
    .join('\n') + '\n';
}

/** Runs a script through the native library (build/pcc-replay); one output per script line. */
export function replayNatively(lines: ScriptLine[]): ReplayOutput[] {
  if (!existsSync(REPLAY_BINARY)) throw new Error(`${REPLAY_BINARY} is missing: run \`npm run build -w controller-wasm\``);
  const result = spawnSync(REPLAY_BINARY, [], { input: formatScript(lines), maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`pcc-replay exited with ${result.status}: ${result.stderr}`);
  return result.stdout.trim().split('\n').map((l) => JSON.parse(l) as ReplayOutput);
}

/** Applies one non-create line to a WASM controller (queued: nothing is flushed here). */
export function applyLine(controller: Controller, l: ScriptLine): void {
  switch (l.kind) {
    case 'create': throw new Error('create is handled by the caller');
    case 'param': controller.setParam(l.name, l.value); break;
    case 'sent': controller.packetSent(l.pn, l.bytes, l.nowUs); break;
    case 'ack': controller.ack(l.pn, l.rttUs, l.recvTimeUs, l.nowUs); break;
    case 'loss': controller.loss(l.pn, l.nowUs); break;
    case 'tick': controller.tick(l.nowUs); break;
    case 'app_state':
      controller.appState({ appLimited: l.appLimited, bufferMs: l.bufferMs, bitrateBps: l.bitrateBps, deadlineUs: l.deadlineUs }, l.nowUs);
      break;
  }
}

export function outputOf(controller: Controller, line: number): ReplayOutput {
  return {
    line,
    pacingRateBytesPerSec: controller.pacingRateBytesPerSec(),
    cwndBytes: controller.cwndBytes(),
    bytesInFlight: controller.bytesInFlight(),
    telemetry: controller.telemetry(),
  };
}

/** Runs a script through WASM, reading outputs after the lines `observe` selects (all by default). */
export function replayInWasm(
  mod: ControllerModule,
  lines: ScriptLine[],
  observe: (lineIndex: number) => boolean = () => true,
): Map<number, ReplayOutput> {
  const first = lines[0];
  if (first?.kind !== 'create') throw new Error('a script starts with create');
  const controller = mod.create(first.algorithm, { nowUs: first.nowUs, seed: first.seed });
  const outputs = new Map<number, ReplayOutput>();
  try {
    for (let i = 0; i < lines.length; i++) {
      if (i > 0) applyLine(controller, lines[i]!);
      if (observe(i)) outputs.set(i + 1, outputOf(controller, i + 1));
    }
  } finally {
    controller.destroy();
  }
  return outputs;
}

/** Field-by-field comparison; returns a description of the first difference, or null. Exact: Object.is. */
export function firstDifference(expected: ReplayOutput, actual: ReplayOutput): string | null {
  const flat = (o: ReplayOutput): [string, unknown][] => [
    ['line', o.line],
    ['pacingRateBytesPerSec', o.pacingRateBytesPerSec],
    ['cwndBytes', o.cwndBytes],
    ['bytesInFlight', o.bytesInFlight],
    ...Object.entries(o.telemetry).map(([k, v]): [string, unknown] => [`telemetry.${k}`, v]),
  ];
  const actualFields = new Map(flat(actual));
  for (const [key, value] of flat(expected)) {
    if (!actualFields.has(key)) return `line ${expected.line}: ${key} missing on the WASM side`;
    if (!Object.is(actualFields.get(key), value)) {
      return `line ${expected.line}: ${key} native=${String(value)} wasm=${String(actualFields.get(key))}`;
    }
  }
  if (actualFields.size !== flat(expected).length) return `line ${expected.line}: field sets differ`;
  return null;
}

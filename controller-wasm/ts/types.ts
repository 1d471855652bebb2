// The public TypeScript contract of @pcc-stream/controller. Other workspaces code against these shapes:
// add fields or methods, never change or remove them.

import type { WasmControllerName } from '@pcc-stream/protocol';

/** The WASM controllers, as the scheme registry (@pcc-stream/protocol's SCHEMES, transport datagram) lists them;
 *  ts/test/registry.test.ts checks that the module's registry.c registers exactly these. */
export type AlgorithmName = WasmControllerName;

export interface ParamDesc {
  name: string;
  defaultValue: number;
  minValue: number;
  maxValue: number;
  doc: string;
}

/** Statistics of one completed monitor interval: the input of a custom utility function. */
export interface MiStats {
  targetRateBps: number;
  sendRateBps: number;
  throughputBps: number;
  lossRate: number;
  rttGradient: number;
  avgRttUs: number;
  minRttUs: number;
  durationUs: number;
  packetsSent: number;
  packetsAcked: number;
  packetsLost: number;
  rttSamples: number;
}

/** The application's state, one event (cc_on_app_state in include/pcc/cc.h). An omitted or negative video field
 *  is unknown, and every event replaces the whole state. */
export interface AppState {
  /** The sender has just run out of data: the delivery samples until what is in flight is acknowledged, and the
   *  monitor interval being sent, are app-limited. false: no such news. */
  appLimited: boolean;
  /** The player's buffer level, ms (CMCD `bl`). */
  bufferMs?: number;
  /** Encoded bitrate of the object being delivered, bits/s (CMCD `br` is kbit/s: times 1000). */
  bitrateBps?: number;
  /** Time from nowUs until the object must have arrived, µs (CMCD `dl` is ms: times 1000); 0 when already due. */
  deadlineUs?: number;
}

export interface ControllerTelemetry {
  algorithm: string;
  state: string;
  pacingRateBps: number;
  cwndBytes: number;
  miRateBps: number;
  lastMiRateBps: number;
  lastMiUtility: number;
  lastMiLossRate: number;
  lastMiRttGradient: number;
  lastMiThroughputBps: number;
  gradient: number;
  srttUs: number;
  minRttUs: number;
  latestRttUs: number;
  bytesInFlight: number;
  miCompleted: number;
  packetsSent: number;
  packetsAcked: number;
  packetsLost: number;
  /** Events the library ignored (unknown/duplicate/invalid) plus events refused at the JS/WASM boundary. */
  eventsIgnored: number;
  /** Calls of the custom utility that threw or returned a non-finite value (the algorithm then treats that MI as invalid). */
  utilityErrors: number;
  /** Events refused at the boundary because a field was not an exact integer in range (NaN, 1.5, -1 bytes, ...). */
  eventsRefused: number;
}

export interface CreateOptions {
  nowUs: number;
  /** Drives all of the controller's randomness; integer in [0, 2^53]. Default 1. */
  seed?: number;
  /** Parameter values applied right after creation (see Controller.params()). */
  params?: Record<string, number>;
  /** Events held before an automatic flush; default 256. */
  batchCapacity?: number;
}

export interface ControllerModule {
  algorithms(): string[];
  /** Throws an Error with a clear message on an unknown algorithm, a bad option or a bad parameter. */
  create(algorithm: AlgorithmName, options: CreateOptions): Controller;
  /** Bytes malloc'd inside the WASM module right now (for leak checks). */
  heapBytesInUse(): number;
  /** Size of the module's linear memory: it grows to the heap's peak and never shrinks (for leak checks). */
  memoryBytes(): number;
  /** Controllers created and not yet destroyed (dropped ones count until their finalizer runs). */
  liveControllers(): number;
}

export interface Controller {
  readonly algorithm: AlgorithmName;
  /** Queued in the batch, like every event method; applied by flush() or any getter. */
  packetSent(pn: number, bytes: number, nowUs: number): void;
  /** rttUs <= 0 lets the library use nowUs - sent time; recvTimeUs 0 when unknown. */
  ack(pn: number, rttUs: number, recvTimeUs: number, nowUs: number): void;
  loss(pn: number, nowUs: number): void;
  tick(nowUs: number): void;
  /** What the application tells the controller (cc_on_app_state): whether the sender just ran out of data, and
   *  the player's state where known. Refused at the boundary (eventsRefused) when a field is not a finite number. */
  appState(state: AppState, nowUs: number): void;
  /** Applies queued events (one WASM call). The getters below flush first. */
  flush(): void;
  pacingRateBytesPerSec(): number;
  cwndBytes(): number;
  bytesInFlight(): number;
  params(): ParamDesc[];
  /** Throws on an unknown name. */
  getParam(name: string): number;
  /** Throws on an unknown name or an invalid value (NaN, out of range). */
  setParam(name: string, value: number): void;
  telemetry(): ControllerTelemetry;
  /** Custom utility, called once per monitor interval (PCC algorithms; throws for others). null restores the built-in one. */
  setUtility(fn: ((mi: MiStats) => number) | null): void;
  /** The message of the last error thrown by the custom utility, or null. */
  lastUtilityError(): string | null;
  /** Frees the controller; any later call throws. Calling destroy() twice is allowed. */
  destroy(): void;
}

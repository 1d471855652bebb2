// The packet-level simulator (sim/pcc_sim.h) run inside the WASM module. The configuration maps onto the
// pcc-sim command line, parsed by the CLI's own C parser, so a run here and `npm run sim` with
// simulationArgs(config) are the same run (the tests check they print identical JSON).
import type { AlgorithmName } from './types.ts';
import { allocCString, readCString, type PccRawModule, type Pointer } from './raw-module.ts';
import { loadRuntime, type ModuleSource } from './load.ts';

export interface SimulationConfig {
  /** One controller for every flow, or one per flow. */
  cc: AlgorithmName | AlgorithmName[];
  flows?: number;
  rateMbps?: number;
  /** One RTT for every flow, or one per flow. */
  rttMs?: number | number[];
  bufferKb?: number;
  /** Random loss rate in [0, 1). */
  loss?: number;
  durationS?: number;
  startGapS?: number;
  seed?: number;
  packetBytes?: number;
  rttSchedule?: { minMs: number; maxMs: number; periodS: number };
  rateSchedule?: { minMbps: number; maxMbps: number; periodS: number };
  lossSchedule?: { min: number; max: number; periodS: number };
  /** Parameters set on every flow's controller (--cc-param NAME=VALUE). */
  ccParams?: Record<string, number>;
  sampleMs?: number;
  /** A mahimahi trace as millisecond timestamps (one 1504-byte delivery opportunity each); replaces rateMbps. */
  traceMs?: number[];
  /** Include the per-interval time series in the outcome. */
  samples?: boolean;
  /** Further pcc-sim flags, appended as given. */
  extraArgs?: string[];
}

/** `pcc-sim --json` output, as the CLI prints it (rounded to 6 significant digits). */
export interface SimulationReport {
  seed: number;
  duration_s: number;
  capacity_mbps: number;
  flows: {
    cc: string;
    start_s: number;
    throughput_mbps: number;
    throughput_last_half_mbps: number;
    p95_rtt_ms: number;
    mean_rtt_ms: number;
    min_rtt_ms: number;
    base_rtt_ms: number;
    loss_rate: number;
    detected_loss_rate: number;
    packets_sent: number;
    packets_received: number;
    packets_dropped_queue: number;
    packets_dropped_random: number;
    spurious_losses: number;
    /** Video flows only (--video-mbps / --video-abr): the player's metrics, as the bench defines them. */
    video?: SimulationVideoReport;
  }[];
  jain_index: number;
  link_utilization: number;
  packets_simulated: number;
  events_processed: number;
}

/** A video flow's player in `pcc-sim --json` (sim/video_player.h). */
export interface SimulationVideoReport {
  /** The one rendition, or the ABR ladder. */
  bitrate_mbps?: number;
  ladder_mbps?: number[];
  continuous: boolean;
  /** stall / (stall + playing), startup excluded (bench/harness/README.md). */
  buffering_ratio: number;
  buffering_ratio_with_startup: number;
  /** null when playback never started. */
  startup_delay_s: number | null;
  stall_count: number;
  stall_s: number;
  play_s: number;
  segments: number;
  switches: number;
  average_bitrate_mbps: number;
  sender_idle_s: number;
  /** cc_on_app_state calls: with the player's state (one per request), with app_limited = 1 (one per idle spell). */
  player_state_reports: number;
  app_limited_reports: number;
  /** The buffer level at every whole second of the run. */
  buffer_level_s: number[];
}

/** The same run at full precision (pcc_sim_result). */
export interface SimulationResult {
  flows: {
    cc: string;
    startUs: number;
    throughputBps: number;
    throughputLastHalfBps: number;
    p95RttUs: number;
    meanRttUs: number;
    minRttUs: number;
    baseRttUs: number;
    lossRate: number;
    detectedLossRate: number;
    packetsSent: number;
    packetsReceived: number;
    packetsDroppedQueue: number;
    packetsDroppedRandom: number;
    packetsDeclaredLost: number;
    spuriousLosses: number;
  }[];
  jainIndex: number;
  linkUtilization: number;
  capacityBps: number;
  eventsProcessed: number;
  packetsSimulated: number;
}

export interface SimulationSample {
  timeUs: number;
  flow: number;
  pacingRateBps: number;
  cwndBytes: number;
  sendRateBps: number;
  throughputBps: number;
  rttUs: number;
  packetsLost: number;
  queueBytes: number;
  queueDelayUs: number;
  capacityBps: number;
  /** The controller's telemetry at timeUs. */
  ccState: string;
  lastMiUtility: number;
  lastMiLossRate: number;
  gradient: number;
  miCompleted: number;
  /** Video flows: the player's buffer (s), the bitrate of its last request, 1 while stalled (0 for bulk flows). */
  videoBufferS: number;
  videoBitrateBps: number;
  videoStalled: number;
}

export interface SimulationOutcome {
  report: SimulationReport;
  result: SimulationResult;
  samples?: SimulationSample[];
  /** The JSON document exactly as the C side produced it. */
  json: string;
}

/** The pcc-sim command-line arguments (without the program name) equivalent to `config`, minus the trace. */
export function simulationArgs(config: SimulationConfig): string[] {
  const args: string[] = ['--json'];
  const add = (flag: string, value: string | number | undefined): void => {
    if (value !== undefined) args.push(flag, String(value));
  };
  add('--cc', Array.isArray(config.cc) ? config.cc.join(',') : config.cc);
  add('--flows', config.flows);
  add('--rate-mbps', config.rateMbps);
  add('--rtt-ms', Array.isArray(config.rttMs) ? config.rttMs.join(',') : config.rttMs);
  add('--buffer-kb', config.bufferKb);
  add('--loss', config.loss);
  add('--duration-s', config.durationS);
  add('--start-gap-s', config.startGapS);
  add('--seed', config.seed);
  add('--packet-bytes', config.packetBytes);
  if (config.rttSchedule) add('--rtt-schedule', `${config.rttSchedule.minMs}:${config.rttSchedule.maxMs}:${config.rttSchedule.periodS}`);
  if (config.rateSchedule) add('--rate-schedule', `${config.rateSchedule.minMbps}:${config.rateSchedule.maxMbps}:${config.rateSchedule.periodS}`);
  if (config.lossSchedule) add('--loss-schedule', `${config.lossSchedule.min}:${config.lossSchedule.max}:${config.lossSchedule.periodS}`);
  for (const [name, value] of Object.entries(config.ccParams ?? {})) add('--cc-param', `${name}=${value}`);
  add('--sample-ms', config.sampleMs);
  args.push(...(config.extraArgs ?? []));
  return args;
}

/** Runs one simulation in WASM. Throws with the simulator's own message on a bad configuration. */
export async function runSimulation(config: SimulationConfig, source?: ModuleSource): Promise<SimulationOutcome> {
  const runtime = await loadRuntime(source);
  return runSimulationIn(runtime.mod, config);
}

export function runSimulationIn(mod: PccRawModule, config: SimulationConfig): SimulationOutcome {
  const trace = config.traceMs ?? [];
  if (!trace.every((t) => Number.isInteger(t) && t >= 0 && t <= 0xffffffff)) {
    throw new Error('simulation: traceMs must hold whole, non-negative millisecond timestamps');
  }
  const argv = ['pcc-sim', ...simulationArgs(config)];
  const allocations: Pointer[] = [];
  const alloc = (bytes: number): Pointer => {
    const ptr = mod._malloc(bytes);
    if (ptr === 0) throw new Error('simulation: out of WASM memory');
    allocations.push(ptr);
    return ptr;
  };
  try {
    const argvPtr = alloc(4 * argv.length);
    const stringPtrs = argv.map((a) => {
      const p = allocCString(mod, a);
      allocations.push(p);
      return p;
    });
    mod.HEAPU32.set(stringPtrs, argvPtr / 4);
    let tracePtr = 0;
    if (trace.length > 0) {
      tracePtr = alloc(4 * trace.length);
      mod.HEAPU32.set(trace, tracePtr / 4);
    }
    const docPtr = mod._pccw_sim_run(argv.length, argvPtr, tracePtr, trace.length, config.samples ? 1 : 0);
    if (docPtr === 0) throw new Error('simulation: out of WASM memory');
    const json = readCString(mod, docPtr);
    mod._pccw_sim_free(docPtr);
    const doc = JSON.parse(json) as { ok: boolean; error?: string } & Omit<SimulationOutcome, 'json'>;
    if (!doc.ok) throw new Error(`simulation: ${doc.error ?? 'failed'}`);
    const outcome: SimulationOutcome = { report: doc.report, result: doc.result, json };
    if (doc.samples) outcome.samples = doc.samples;
    return outcome;
  } finally {
    for (const p of allocations) mod._free(p);
  }
}

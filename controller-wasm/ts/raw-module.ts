// The Emscripten module as seen from TypeScript: pointers are numbers, every export is a direct WASM call.
// Mirrors wasm/exports/*.c and wasm/event_batch.h; keep them in step (PCCW_ABI_VERSION guards the layouts).

export type Pointer = number;

export interface PccRawModule {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  HEAPF64: Float64Array;
  _malloc(bytes: number): Pointer;
  _free(ptr: Pointer): void;

  _pccw_abi_version(): number;
  _pccw_event_fields(): number;
  _pccw_telemetry_fields(): number;
  _pccw_algorithm_count(): number;
  _pccw_algorithm_name(index: number): Pointer;
  _pccw_create(algorithmIndex: number, seed: number, nowUs: number, eventCapacity: number): Pointer;
  _pccw_destroy(handle: Pointer): void;
  _pccw_event_buffer(handle: Pointer): Pointer;
  _pccw_apply(handle: Pointer, count: number): number;
  _pccw_on_packet_sent(handle: Pointer, pn: number, bytes: number, nowUs: number): number;
  _pccw_on_ack(handle: Pointer, pn: number, rttUs: number, recvTimeUs: number, nowUs: number): number;
  _pccw_pacing_rate_bytes_per_s(handle: Pointer): number;
  _pccw_cwnd_bytes(handle: Pointer): number;
  _pccw_bytes_in_flight(handle: Pointer): number;
  _pccw_telemetry(handle: Pointer): Pointer;
  _pccw_param_count(handle: Pointer): number;
  _pccw_param_name(handle: Pointer, index: number): Pointer;
  _pccw_param_doc(handle: Pointer, index: number): Pointer;
  _pccw_param_default(handle: Pointer, index: number): number;
  _pccw_param_min(handle: Pointer, index: number): number;
  _pccw_param_max(handle: Pointer, index: number): number;
  _pccw_param_get(handle: Pointer, index: number): number;
  _pccw_param_set(handle: Pointer, index: number, value: number): number;
  _pccw_set_js_utility(handle: Pointer, enabled: number): number;
  _pccw_heap_bytes_in_use(): number;

  _pccw_sim_run(argc: number, argv: Pointer, traceMs: Pointer, traceCount: number, withSamples: number): Pointer;
  _pccw_sim_free(json: Pointer): void;
}

/** Options the wrapper passes to the factory; `pccwUtility` is the import behind pccw_js_utility. */
export interface PccModuleOptions {
  wasmBinary?: Uint8Array;
  locateFile?: (path: string, prefix: string) => string;
  pccwUtility?: (handle: Pointer, miStatsPtr: Pointer) => number;
  print?: (text: string) => void;
  printErr?: (text: string) => void;
}

export type PccModuleFactory = (options?: PccModuleOptions) => Promise<PccRawModule>;

/** Must equal PCCW_ABI_VERSION in wasm/event_batch.h. */
export const ABI_VERSION = 2;

/** One event = 6 doubles: [type, pn, bytes, rtt_us, recv_time_us, now_us]; an app-state event
 *  [type, app_limited, buffer_ms, bitrate_bps, deadline_us, now_us] (wasm/event_batch.h). */
export const EVENT_FIELDS = 6;
export const EventType = { sent: 1, ack: 2, loss: 3, tick: 4, appState: 5 } as const;

/** Index of each telemetry double (enum pccw_telemetry_field in controller_exports.c). */
export const TelemetryField = {
  algorithmPtr: 0, statePtr: 1, pacingRateBps: 2, cwndBytes: 3, miRateBps: 4, lastMiRateBps: 5, lastMiUtility: 6,
  lastMiLossRate: 7, lastMiRttGradient: 8, lastMiThroughputBps: 9, gradient: 10, srttUs: 11, minRttUs: 12,
  latestRttUs: 13, bytesInFlight: 14, miCompleted: 15, packetsSent: 16, packetsAcked: 17, packetsLost: 18,
  eventsIgnored: 19, utilityErrors: 20, eventsRefused: 21,
} as const;
export const TELEMETRY_FIELDS = 22;

/** cc_status codes (include/pcc/cc.h). */
export const CcStatus = { ok: 0, invalid: -1, noMemory: -2, unknown: -3 } as const;

const utf8Decoder = new TextDecoder('utf-8');
const utf8Encoder = new TextEncoder();

/** Reads a NUL-terminated UTF-8 string from WASM memory ('' for NULL). */
export function readCString(mod: PccRawModule, ptr: Pointer): string {
  if (ptr === 0) return '';
  const heap = mod.HEAPU8;
  let end = ptr;
  while (heap[end] !== 0) end++;
  return utf8Decoder.decode(heap.subarray(ptr, end));
}

/** Copies a string into freshly malloc'd WASM memory, NUL-terminated; the caller frees it. */
export function allocCString(mod: PccRawModule, text: string): Pointer {
  const bytes = utf8Encoder.encode(text);
  const ptr = mod._malloc(bytes.length + 1);
  if (ptr === 0) throw new Error('pcc controller module: out of WASM memory');
  mod.HEAPU8.set(bytes, ptr);
  mod.HEAPU8[ptr + bytes.length] = 0;
  return ptr;
}

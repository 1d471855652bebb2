// A controller living in WASM memory. Events are written straight into its event buffer (6 doubles each)
// and applied by one WASM call per batch: flush(), any getter, or a full buffer. See wasm/event_batch.h.
import type { AlgorithmName, AppState, Controller, ControllerTelemetry, MiStats, ParamDesc } from './types.ts';
import { CcStatus, EVENT_FIELDS, EventType, TelemetryField as T, type Pointer, type PccRawModule } from './raw-module.ts';
import type { ModuleRuntime, ParamTable } from './module-runtime.ts';

/** CC_APP_UNKNOWN: a video field the application did not give. */
const UNKNOWN = -1;

export class WasmController implements Controller {
  readonly algorithm: AlgorithmName;
  readonly #mod: PccRawModule;
  readonly #runtime: ModuleRuntime;
  readonly #paramTable: ParamTable;
  readonly #capacity: number;
  #handle: Pointer;
  #eventBase: number; // index of the event buffer in HEAPF64
  #queued = 0;
  // Events that fit before push() must take the slow path: the capacity normally, 0 when destroyed or
  // inside the utility callback, so the hot path needs a single comparison.
  #limit: number;
  // Cached HEAPF64 view. WASM memory growth detaches it (length becomes 0), which push() detects.
  #heap: Float64Array;
  readonly #applyExport: (handle: Pointer, count: number) => number;
  #utility: ((mi: MiStats) => number) | null = null;
  #inUtility = false;
  #lastUtilityError: string | null = null;

  constructor(runtime: ModuleRuntime, algorithm: AlgorithmName, handle: Pointer, capacity: number, paramTable: ParamTable) {
    this.algorithm = algorithm;
    this.#runtime = runtime;
    this.#mod = runtime.mod;
    this.#handle = handle;
    this.#capacity = capacity;
    this.#limit = capacity;
    this.#paramTable = paramTable;
    this.#eventBase = this.#mod._pccw_event_buffer(handle) / 8;
    this.#heap = this.#mod.HEAPF64;
    this.#applyExport = runtime.applyExport;
  }

  // Each event writes only the fields its type uses (wasm/event_batch.h); the C side ignores the rest.
  packetSent(pn: number, bytes: number, nowUs: number): void {
    const heap = this.#slot();
    const i = this.#eventBase + this.#queued++ * EVENT_FIELDS;
    heap[i] = EventType.sent;
    heap[i + 1] = pn;
    heap[i + 2] = bytes;
    heap[i + 5] = nowUs;
  }

  ack(pn: number, rttUs: number, recvTimeUs: number, nowUs: number): void {
    const heap = this.#slot();
    const i = this.#eventBase + this.#queued++ * EVENT_FIELDS;
    heap[i] = EventType.ack;
    heap[i + 1] = pn;
    heap[i + 3] = rttUs;
    heap[i + 4] = recvTimeUs;
    heap[i + 5] = nowUs;
  }

  loss(pn: number, nowUs: number): void {
    const heap = this.#slot();
    const i = this.#eventBase + this.#queued++ * EVENT_FIELDS;
    heap[i] = EventType.loss;
    heap[i + 1] = pn;
    heap[i + 5] = nowUs;
  }

  tick(nowUs: number): void {
    const heap = this.#slot();
    const i = this.#eventBase + this.#queued++ * EVENT_FIELDS;
    heap[i] = EventType.tick;
    heap[i + 5] = nowUs;
  }

  appState(state: AppState, nowUs: number): void {
    const heap = this.#slot();
    const i = this.#eventBase + this.#queued++ * EVENT_FIELDS;
    heap[i] = EventType.appState;
    heap[i + 1] = state.appLimited ? 1 : 0;
    heap[i + 2] = state.bufferMs ?? UNKNOWN;
    heap[i + 3] = state.bitrateBps ?? UNKNOWN;
    heap[i + 4] = state.deadlineUs ?? UNKNOWN;
    heap[i + 5] = nowUs;
  }

  /** Makes room for one event and returns the current HEAPF64 view. */
  #slot(): Float64Array {
    if (this.#queued >= this.#limit) this.flush(); // full, destroyed or re-entered: flush() sorts it out
    let heap = this.#heap;
    // WASM memory growth detaches the old view (its length becomes 0): pick up the new one.
    if (heap.length === 0) heap = this.#heap = this.#mod.HEAPF64;
    return heap;
  }

  flush(): void {
    this.#checkUsable();
    const count = this.#queued;
    if (count === 0) return;
    this.#queued = 0;
    this.#applyExport(this.#handle, count);
  }

  pacingRateBytesPerSec(): number {
    this.flush();
    return this.#mod._pccw_pacing_rate_bytes_per_s(this.#handle);
  }

  cwndBytes(): number {
    this.flush();
    return this.#mod._pccw_cwnd_bytes(this.#handle);
  }

  bytesInFlight(): number {
    this.flush();
    return this.#mod._pccw_bytes_in_flight(this.#handle);
  }

  params(): ParamDesc[] {
    this.#checkUsable();
    return this.#paramTable.descs.map((d) => ({ ...d }));
  }

  getParam(name: string): number {
    this.flush();
    const value = this.#mod._pccw_param_get(this.#handle, this.#paramIndex(name));
    if (Number.isNaN(value)) throw new Error(`${this.algorithm}: cannot read parameter "${name}"`);
    return value;
  }

  setParam(name: string, value: number): void {
    this.flush();
    const index = this.#paramIndex(name);
    const desc = this.#paramTable.descs[index]!;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new Error(`${this.algorithm}: invalid value ${String(value)} for parameter "${name}": must be a finite number in [${desc.minValue}, ${desc.maxValue}]`);
    }
    const status = this.#mod._pccw_param_set(this.#handle, index, value);
    if (status === CcStatus.ok) return;
    if (status === CcStatus.invalid) {
      if (value >= desc.minValue && value <= desc.maxValue) {
        throw new Error(`${this.algorithm}: value ${value} for parameter "${name}" conflicts with the others (min_rate_bps must not exceed max_rate_bps)`);
      }
      throw new Error(`${this.algorithm}: invalid value ${value} for parameter "${name}": must be in [${desc.minValue}, ${desc.maxValue}]`);
    }
    throw new Error(`${this.algorithm}: setting parameter "${name}" failed with status ${status}`);
  }

  telemetry(): ControllerTelemetry {
    this.flush();
    const heap = this.#mod.HEAPF64;
    const base = this.#mod._pccw_telemetry(this.#handle) / 8;
    const f = (field: number): number => heap[base + field]!;
    return {
      algorithm: this.#runtime.staticString(f(T.algorithmPtr)),
      state: this.#runtime.staticString(f(T.statePtr)),
      pacingRateBps: f(T.pacingRateBps),
      cwndBytes: f(T.cwndBytes),
      miRateBps: f(T.miRateBps),
      lastMiRateBps: f(T.lastMiRateBps),
      lastMiUtility: f(T.lastMiUtility),
      lastMiLossRate: f(T.lastMiLossRate),
      lastMiRttGradient: f(T.lastMiRttGradient),
      lastMiThroughputBps: f(T.lastMiThroughputBps),
      gradient: f(T.gradient),
      srttUs: f(T.srttUs),
      minRttUs: f(T.minRttUs),
      latestRttUs: f(T.latestRttUs),
      bytesInFlight: f(T.bytesInFlight),
      miCompleted: f(T.miCompleted),
      packetsSent: f(T.packetsSent),
      packetsAcked: f(T.packetsAcked),
      packetsLost: f(T.packetsLost),
      eventsIgnored: f(T.eventsIgnored),
      utilityErrors: f(T.utilityErrors),
      eventsRefused: f(T.eventsRefused),
    };
  }

  setUtility(fn: ((mi: MiStats) => number) | null): void {
    this.flush();
    if (fn !== null && typeof fn !== 'function') throw new Error(`${this.algorithm}: setUtility expects a function or null`);
    const status = this.#mod._pccw_set_js_utility(this.#handle, fn === null ? 0 : 1);
    if (status !== CcStatus.ok) {
      throw new Error(`${this.algorithm} does not use a utility function, so it cannot take a custom one (PCC algorithms such as vivace and allegro do)`);
    }
    this.#utility = fn;
    this.#lastUtilityError = null;
    if (fn === null) this.#runtime.unregisterUtility(this.#handle);
    else this.#runtime.registerUtility(this.#handle, this);
  }

  lastUtilityError(): string | null {
    return this.#lastUtilityError;
  }

  /** Called by the module runtime while the library evaluates an MI (inside flush()). NaN = failed. */
  runUtility(miStatsPtr: Pointer): number {
    const fn = this.#utility;
    if (fn === null) return Number.NaN;
    const heap = this.#mod.HEAPF64;
    const b = miStatsPtr / 8;
    const mi: MiStats = {
      targetRateBps: heap[b]!, sendRateBps: heap[b + 1]!, throughputBps: heap[b + 2]!, lossRate: heap[b + 3]!,
      rttGradient: heap[b + 4]!, avgRttUs: heap[b + 5]!, minRttUs: heap[b + 6]!, durationUs: heap[b + 7]!,
      packetsSent: heap[b + 8]!, packetsAcked: heap[b + 9]!, packetsLost: heap[b + 10]!, rttSamples: heap[b + 11]!,
    };
    this.#inUtility = true;
    this.#limit = 0;
    try {
      const utility: unknown = fn(mi);
      if (typeof utility === 'number' && Number.isFinite(utility)) return utility;
      this.#lastUtilityError = `utility returned ${String(utility)}, not a finite number`;
    } catch (err) {
      this.#lastUtilityError = `utility threw: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      this.#inUtility = false;
      this.#limit = this.#handle === 0 ? 0 : this.#capacity;
    }
    return Number.NaN;
  }

  destroy(): void {
    if (this.#inUtility) throw new Error(`${this.algorithm}: a controller cannot be destroyed from inside its own utility function`);
    if (this.#handle === 0) return;
    this.#runtime.unregisterUtility(this.#handle);
    this.#runtime.forget(this);
    this.#mod._pccw_destroy(this.#handle);
    this.#handle = 0;
    this.#queued = 0;
    this.#limit = 0;
  }

  /** The WASM handle, for the module runtime's bookkeeping only. */
  get handle(): Pointer {
    return this.#handle;
  }

  #checkUsable(): void {
    if (this.#handle === 0) throw new Error(`${this.algorithm}: controller used after destroy()`);
    // The library is in the middle of applying this controller's batch: touching it now would re-enter it.
    if (this.#inUtility) throw new Error(`${this.algorithm}: the controller cannot be used from inside its own utility function`);
  }

  #paramIndex(name: string): number {
    const index = this.#paramTable.indexByName.get(name);
    if (index === undefined) {
      const known = this.#paramTable.descs.map((d) => d.name).join(', ');
      throw new Error(`${this.algorithm}: unknown parameter "${String(name)}" (known: ${known})`);
    }
    return index;
  }
}

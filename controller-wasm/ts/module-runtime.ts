// One loaded WASM module and what all its controllers share: the algorithm list, parameter tables,
// decoded static strings, and the routing of custom-utility calls from C back to the right controller.
import type { AlgorithmName, Controller, ControllerModule, CreateOptions, ParamDesc } from './types.ts';
import { readCString, type Pointer, type PccRawModule } from './raw-module.ts';
import { WasmController } from './controller.ts';

export interface ParamTable {
  descs: ParamDesc[];
  indexByName: Map<string, number>;
}

const DEFAULT_BATCH_CAPACITY = 256;
const MAX_BATCH_CAPACITY = 65536;
const MAX_SEED = 2 ** 53;

/** Applies params in any order the library accepts: a value refused now (e.g. min_rate_bps above the
 * current max_rate_bps) is retried after the others, so { min_rate_bps, max_rate_bps } both raised works. */
function applyParams(controller: Controller, params: Record<string, number>): void {
  let pending = Object.entries(params);
  while (pending.length > 0) {
    const refused: [string, number][] = [];
    let lastError: unknown;
    for (const [name, value] of pending) {
      try {
        controller.setParam(name, value);
      } catch (err) {
        refused.push([name, value]);
        lastError = err;
      }
    }
    if (refused.length === pending.length) throw lastError;
    pending = refused;
  }
}

export class ModuleRuntime implements ControllerModule {
  readonly mod: PccRawModule;
  /** pccw_apply as the raw WebAssembly export (see the constructor). */
  readonly applyExport: (handle: Pointer, count: number) => number;
  readonly #algorithms: string[];
  readonly #paramTables = new Map<string, ParamTable>();
  readonly #strings = new Map<number, string>();
  readonly #utilityOwners = new Map<Pointer, WasmController>();
  #liveControllers = 0;
  // Frees the WASM side of controllers that were dropped without destroy().
  readonly #finalizer = new FinalizationRegistry<Pointer>((handle) => {
    this.#liveControllers--;
    this.mod._pccw_destroy(handle);
  });

  constructor(mod: PccRawModule) {
    this.mod = mod;
    const count = mod._pccw_algorithm_count();
    this.#algorithms = Array.from({ length: count }, (_, i) => readCString(mod, mod._pccw_algorithm_name(i)));
    // Emscripten's Module._f starts as a stub that replaces itself with the raw export on its first call;
    // a zero-length apply (which touches nothing) makes that happen, then the raw function is kept.
    mod._pccw_apply(0, 0);
    this.applyExport = mod._pccw_apply;
  }

  algorithms(): string[] {
    return [...this.#algorithms];
  }

  heapBytesInUse(): number {
    return this.mod._pccw_heap_bytes_in_use();
  }

  memoryBytes(): number {
    return this.mod.HEAPU8.buffer.byteLength;
  }

  liveControllers(): number {
    return this.#liveControllers;
  }

  create(algorithm: AlgorithmName, options: CreateOptions): Controller {
    const index = this.#algorithms.indexOf(algorithm);
    if (typeof algorithm !== 'string' || index < 0) {
      throw new Error(`unknown congestion-control algorithm "${String(algorithm)}" (available: ${this.#algorithms.join(', ')})`);
    }
    if (options === null || typeof options !== 'object') throw new Error(`${algorithm}: create() needs options with nowUs`);
    const { nowUs, seed = 1, params = {}, batchCapacity = DEFAULT_BATCH_CAPACITY } = options;
    if (typeof nowUs !== 'number' || !Number.isFinite(nowUs) || Math.abs(nowUs) > Number.MAX_SAFE_INTEGER) {
      throw new Error(`${algorithm}: nowUs must be a finite number of microseconds, got ${String(nowUs)}`);
    }
    if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
      throw new Error(`${algorithm}: seed must be an integer in [0, 2^53], got ${String(seed)}`);
    }
    if (!Number.isInteger(batchCapacity) || batchCapacity < 1 || batchCapacity > MAX_BATCH_CAPACITY) {
      throw new Error(`${algorithm}: batchCapacity must be an integer in [1, ${MAX_BATCH_CAPACITY}], got ${String(batchCapacity)}`);
    }
    const handle = this.mod._pccw_create(index, seed, nowUs, batchCapacity);
    if (handle === 0) throw new Error(`${algorithm}: the library could not create the controller (out of WASM memory?)`);
    const controller = new WasmController(this, algorithm, handle, batchCapacity, this.#paramTable(algorithm, handle));
    this.#finalizer.register(controller, handle, controller);
    this.#liveControllers++;
    try {
      applyParams(controller, params);
    } catch (err) {
      controller.destroy();
      throw err;
    }
    return controller;
  }

  /** Decodes a pointer to a static C string (algorithm and state names), once per pointer. */
  staticString(ptr: number): string {
    let text = this.#strings.get(ptr);
    if (text === undefined) {
      text = readCString(this.mod, ptr);
      this.#strings.set(ptr, text);
    }
    return text;
  }

  registerUtility(handle: Pointer, controller: WasmController): void {
    this.#utilityOwners.set(handle, controller);
  }

  unregisterUtility(handle: Pointer): void {
    this.#utilityOwners.delete(handle);
  }

  /** The import behind pccw_js_utility: C calls it once per monitor interval of a controller with a custom utility. */
  dispatchUtility(handle: Pointer, miStatsPtr: Pointer): number {
    const owner = this.#utilityOwners.get(handle);
    return owner === undefined ? Number.NaN : owner.runUtility(miStatsPtr);
  }

  forget(controller: WasmController): void {
    this.#finalizer.unregister(controller);
    this.#liveControllers--;
  }

  #paramTable(algorithm: string, handle: Pointer): ParamTable {
    let table = this.#paramTables.get(algorithm);
    if (table === undefined) {
      const m = this.mod;
      const descs: ParamDesc[] = [];
      const count = m._pccw_param_count(handle);
      for (let i = 0; i < count; i++) {
        descs.push({
          name: readCString(m, m._pccw_param_name(handle, i)),
          defaultValue: m._pccw_param_default(handle, i),
          minValue: m._pccw_param_min(handle, i),
          maxValue: m._pccw_param_max(handle, i),
          doc: readCString(m, m._pccw_param_doc(handle, i)),
        });
      }
      table = { descs, indexByName: new Map(descs.map((d, i) => [d.name, i])) };
      this.#paramTables.set(algorithm, table);
    }
    return table;
  }
}

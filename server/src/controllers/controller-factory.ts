// Creates the per-session rate controller chosen by the client (cc=...) with its parameter overrides,
// from the WASM controller library.
import { loadControllerModule, type AlgorithmName, type Controller, type ControllerModule } from '@pcc-stream/controller';
import { WASM_CONTROLLERS } from '@pcc-stream/protocol';
import { errorMessage } from '../log.ts';

export class ControllerFactory {
  private constructor(private readonly module: ControllerModule, readonly defaultAlgorithm: AlgorithmName) {}

  static async load(defaultAlgorithm: string): Promise<ControllerFactory> {
    const module = await loadControllerModule();
    const factory = new ControllerFactory(module, defaultAlgorithm as AlgorithmName);
    const problem = factory.checkAlgorithm(defaultAlgorithm);
    if (problem) throw new Error(`--cc ${defaultAlgorithm}: ${problem}`);
    return factory;
  }

  algorithms(): string[] {
    return this.module.algorithms().filter((a) => (WASM_CONTROLLERS as readonly string[]).includes(a));
  }

  /** The WASM library's memory, for /status: what sessions' controllers hold, and what the module reserved. */
  memoryFields(): { wasm_memory_bytes: number; wasm_heap_in_use_bytes: number; live_controllers: number } {
    return {
      wasm_memory_bytes: this.module.memoryBytes(), wasm_heap_in_use_bytes: this.module.heapBytesInUse(),
      live_controllers: this.module.liveControllers(),
    };
  }

  checkAlgorithm(name: string): string | null {
    if (!(WASM_CONTROLLERS as readonly string[]).includes(name)) return `unknown controller (use one of ${WASM_CONTROLLERS.join(', ')})`;
    if (!this.module.algorithms().includes(name)) return `controller not built into the library (available: ${this.module.algorithms().join(', ')})`;
    return null;
  }

  /** Returns the controller, or an error message for the client (unknown name, bad parameter). */
  create(algorithm: string | undefined, params: Record<string, number>, nowUs: number, seed: number): { ok: true; controller: Controller } | { ok: false; error: string } {
    const name = algorithm ?? this.defaultAlgorithm;
    const problem = this.checkAlgorithm(name);
    if (problem) return { ok: false, error: `cc=${name}: ${problem}` };
    try {
      return { ok: true, controller: this.module.create(name as AlgorithmName, { nowUs, seed, params }) };
    } catch (err) {
      return { ok: false, error: errorMessage(err) };
    }
  }
}

// Loads the WASM module once per process or page.
//  - Node: reads wasm-dist/pcc_cc.wasm with fs and hands the bytes to the module (FIELD-NOTES: the web
//    build works in Node when given wasmBinary).
//  - Browser: fetches the .wasm next to this file; `new URL(..., import.meta.url)` is the pattern Vite
//    rewrites to the emitted asset's URL.
import type { ControllerModule } from './types.ts';
import { ABI_VERSION, EVENT_FIELDS, TELEMETRY_FIELDS, type PccModuleFactory, type PccModuleOptions } from './raw-module.ts';
import { ModuleRuntime } from './module-runtime.ts';

export interface ModuleSource {
  wasmBinary?: Uint8Array;
  wasmUrl?: string;
}

/** The generated module, imported lazily so a missing build is reported clearly instead of at import time. */
async function importFactory(): Promise<PccModuleFactory> {
  try {
    // TypeScript resolves the generated .mjs as untyped JavaScript when it exists (wasm-module.d.ts covers
    // the case where it does not yet); either way this is its real shape.
    const generated = (await import('../wasm-dist/pcc_cc.mjs')) as { default: unknown };
    return generated.default as PccModuleFactory;
  } catch (err) {
    throw new Error(
      `cannot load the controller WASM module wasm-dist/pcc_cc.mjs (${err instanceof Error ? err.message : String(err)}); ` +
        'build it with `npm run build -w controller-wasm`',
    );
  }
}

let loading: Promise<ModuleRuntime> | null = null;

/** The first call decides the source; later calls return the same module. */
export function loadControllerModule(source?: ModuleSource): Promise<ControllerModule> {
  return loadRuntime(source);
}

export function loadRuntime(source?: ModuleSource): Promise<ModuleRuntime> {
  if (loading === null) {
    loading = instantiate(source);
    loading.catch(() => {
      loading = null; // let a later call retry (e.g. after the build finished)
    });
  }
  return loading;
}

function isNode(): boolean {
  const proc = (globalThis as { process?: { versions?: { node?: string } } }).process;
  return typeof proc?.versions?.node === 'string';
}

async function instantiate(source?: ModuleSource): Promise<ModuleRuntime> {
  const defaultWasmUrl = new URL('../wasm-dist/pcc_cc.wasm', import.meta.url);
  let runtime: ModuleRuntime | null = null;
  const options: PccModuleOptions = {
    pccwUtility: (handle, miStatsPtr) => (runtime === null ? Number.NaN : runtime.dispatchUtility(handle, miStatsPtr)),
  };
  if (source?.wasmBinary !== undefined) {
    options.wasmBinary = source.wasmBinary;
  } else if (source?.wasmUrl !== undefined) {
    const url = source.wasmUrl;
    options.locateFile = () => url;
  } else if (isNode() && defaultWasmUrl.protocol === 'file:') {
    // A variable specifier keeps bundlers from trying to resolve a Node built-in for the browser.
    const fsModule = 'node:fs/promises';
    const fs = (await import(/* @vite-ignore */ fsModule)) as typeof import('node:fs/promises');
    try {
      options.wasmBinary = new Uint8Array(await fs.readFile(defaultWasmUrl));
    } catch (err) {
      throw new Error(
        `cannot read the controller WASM module at ${defaultWasmUrl.pathname} (${err instanceof Error ? err.message : String(err)}); ` +
          'build it with `npm run build -w controller-wasm`',
      );
    }
  } else {
    options.locateFile = () => defaultWasmUrl.href;
  }
  const createPccModule = await importFactory();
  const raw = await createPccModule(options);
  const abi = raw._pccw_abi_version();
  if (abi !== ABI_VERSION || raw._pccw_event_fields() !== EVENT_FIELDS || raw._pccw_telemetry_fields() !== TELEMETRY_FIELDS) {
    throw new Error(`controller WASM module has ABI version ${abi}, this wrapper expects ${ABI_VERSION}: rebuild with \`npm run build -w controller-wasm\``);
  }
  runtime = new ModuleRuntime(raw);
  return runtime;
}

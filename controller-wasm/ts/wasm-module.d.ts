// Types of the Emscripten ES module produced by scripts/build-wasm.mjs (wasm-dist/pcc_cc.mjs).
// Only the exports this package uses are listed; their C definitions are in wasm/exports/*.c.
declare module '*/pcc_cc.mjs' {
  import type { PccModuleFactory } from './raw-module.ts';
  const createPccModule: PccModuleFactory;
  export default createPccModule;
}

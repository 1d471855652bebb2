// @pcc-stream/controller: the rate-controller library compiled to WebAssembly, for Node and the browser.
export type {
  AlgorithmName,
  AppState,
  Controller,
  ControllerModule,
  ControllerTelemetry,
  CreateOptions,
  MiStats,
  ParamDesc,
} from './types.ts';
export { loadControllerModule, type ModuleSource } from './load.ts';
export {
  runSimulation,
  simulationArgs,
  type SimulationConfig,
  type SimulationOutcome,
  type SimulationReport,
  type SimulationResult,
  type SimulationSample,
} from './simulation.ts';

// window.pccPlayground: what the playground page offers scripts and tests (e2e/test/playground.test.ts,
// scripts/screenshots.mjs).
import type { SimulationReport } from '@pcc-stream/controller';
import type { PlaygroundConfig } from './url-config.ts';

export type { PlaygroundConfig };

export interface PccPlaygroundApi {
  /** Runs `config` (a trace by name, as in bench/traces) and resolves to pcc-sim's --json report. */
  run: (config: PlaygroundConfig) => Promise<SimulationReport>;
  /** The configuration the page's controls show. */
  config: () => PlaygroundConfig;
  /** The last run's report, or null. */
  lastReport: () => SimulationReport | null;
}

declare global {
  interface Window {
    pccPlayground: PccPlaygroundApi;
  }
}

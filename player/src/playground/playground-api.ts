// window.pccPlayground: what the playground page offers scripts and tests (e2e/test/playground.test.ts,
// scripts/screenshots.mjs).
import type { SimulationReport } from '@pcc-stream/controller';
import type { PlaygroundConfig } from './url-config.ts';

export type { PlaygroundConfig };

/** A seed-paper figure run in the page: its verdicts, ours beside the paper's, as sim:paper prints them after "ours: ". */
export interface FigureResult {
  id: string;
  verdicts: string[];
}

export interface PccPlaygroundApi {
  /** Runs `config` (a trace by name, as in bench/traces) and resolves to pcc-sim's --json report. */
  run: (config: PlaygroundConfig) => Promise<SimulationReport>;
  /** The configuration the page's controls show. */
  config: () => PlaygroundConfig;
  /** The last run's report, or null. */
  lastReport: () => SimulationReport | null;
  /** Runs a seed-paper figure (as its button does) and resolves to its verdicts, ours beside the paper's. */
  runFigure: (id: string) => Promise<FigureResult>;
}

declare global {
  interface Window {
    pccPlayground: PccPlaygroundApi;
  }
}

// What `npm start -- --network NAME` puts between the browser and the origin: a preset (one of the bench's suite
// scenarios, so the demo and `npm run bench` mean the same link by a name) or a bench scenario file.
import { existsSync } from 'node:fs';
import { loadScenarioFile, type Scenario } from '@pcc-stream/bench/harness/scenario';
import { suiteScenarios } from '@pcc-stream/bench/harness/suites';

export const LOOPBACK = 'loopback';

interface Preset {
  name: string;
  /** The bench suite and scenario it is. */
  suite: string;
  scenario: string;
  description: string;
}

export const PRESETS: readonly Preset[] = [
  { name: LOOPBACK, suite: '', scenario: '', description: 'no emulated link: the origin on 127.0.0.1 (today\'s npm start)' },
  { name: 'lte', suite: 'lte', scenario: 'lte-tmobile-lte-short', description: 'TMobile-LTE-short trace both ways (looped), 20 ms each way, 300 KB droptail, ABR ladder' },
  { name: 'lte-driving', suite: 'lte', scenario: 'lte-att-lte-driving-2016', description: 'ATT-LTE-driving-2016 trace both ways (looped), 20 ms each way, 300 KB droptail, ABR ladder' },
  {
    name: 'changing-rtt', suite: 'seed-changing-rtt', scenario: 'changing-rtt-8mbps',
    description: 'thesis §5.2: RTT redrawn in 10-100 ms every 5 s, 8.8 Mbit/s (10% above the 8 Mbit/s stream), 300 KB droptail, 0.01% loss',
  },
  {
    name: 'shared', suite: 'seed-multiflow', scenario: 'multiflow-3x8mbps',
    description: 'thesis §5.2 Fig. 5.2: 30 Mbit/s, 100 ms RTT, 75 KB droptail, 0.01% loss, 8 Mbit/s stream: for three players at once',
  },
];

export class NetworkChoiceError extends Error {}

export interface NetworkChoice {
  /** Preset name, or the scenario's own name for a file. */
  name: string;
  description: string;
  /** null: loopback. */
  scenario: Scenario | null;
  /** How to run the same link in the bench. */
  benchCommand: string | null;
}

/** `--network` as typed: a preset name or a scenario file (relative to `cwd`, the directory npm start ran in). */
export function resolveNetwork(value: string, resolvePath: (p: string) => string): NetworkChoice {
  const preset = PRESETS.find((p) => p.name === value);
  if (preset) {
    if (preset.name === LOOPBACK) return { name: LOOPBACK, description: preset.description, scenario: null, benchCommand: null };
    const scenario = suiteScenarios(preset.suite).find((s) => s.name === preset.scenario);
    if (!scenario) throw new Error(`preset ${preset.name}: suite ${preset.suite} has no scenario ${preset.scenario}`);
    return {
      name: preset.name, description: preset.description, scenario,
      benchCommand: `npm run -s bench -- --suite ${preset.suite} --list --out results/bench  (scenario ${preset.scenario})`,
    };
  }
  const path = resolvePath(value);
  if (value.endsWith('.json') || existsSync(path)) {
    const scenario = loadScenarioFile(path);
    return {
      name: scenario.name, description: `scenario file ${value}`, scenario,
      benchCommand: `npm run -s bench -- --scenario ${value} --list --out results/bench`,
    };
  }
  throw new NetworkChoiceError(`--network ${value}: not a preset (${PRESETS.map((p) => p.name).join(', ')}) nor a scenario file; see npm start -- --network list`);
}

export function presetList(): string {
  const width = Math.max(...PRESETS.map((p) => p.name.length));
  return [
    'Networks for npm start -- --network NAME (each is a bench suite scenario; --network FILE takes a bench scenario file):',
    ...PRESETS.map((p) => `  ${p.name.padEnd(width)}  ${p.description}${p.suite ? ` [bench --suite ${p.suite}: ${p.scenario}]` : ''}`),
  ].join('\n');
}

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

/** Players the competing link is sized for unless `--competing N` says otherwise: the printed competing page's panes. */
export const DEFAULT_COMPETING_PLAYERS = 2;

const roundedMbps = (mbps: number): number => Number(mbps.toFixed(6));

/**
 * The link a compare view's competing panes share. A scenario's link is made for its `players` (the bench runs that
 * many on it). Where its capacity is a chosen rate, that rate is per player: thesis §5.2 (Fig. 5.1) sets the link 10%
 * above the one stream's bitrate, and Fig. 5.2 gives three players 30 Mbit/s. So `players` competing players get the
 * rate times players / scenario.players, each still with its own share as defined (2 × 8 Mbit/s + 10% = 17.6 on
 * changing-rtt); queue, delay and loss stay as defined. A trace is a recorded cell's capacity, which whoever uses the
 * cell shares as recorded: kept, as is a link already made for at least that many players. null: the competing panes
 * share copy 1 unchanged.
 */
export function competingScenario(scenario: Scenario, players: number): Scenario | null {
  const { down, up } = scenario.link;
  const scale = players / scenario.players;
  if (scale <= 1 || !('rateMbps' in down)) return null;
  return {
    ...scenario,
    name: `${scenario.name}-competing-${players}`,
    players,
    link: {
      ...scenario.link,
      down: { rateMbps: roundedMbps(down.rateMbps * scale) },
      up: 'rateMbps' in up ? { rateMbps: roundedMbps(up.rateMbps * scale) } : up,
    },
  };
}

/** One line on what competing panes share, for --network list, the start message and the page's network line. */
export function competingNote(scenario: Scenario, players: number): string {
  const sized = competingScenario(scenario, players);
  const down = sized?.link.down;
  if (!sized || !down || !('rateMbps' in down) || !('rateMbps' in scenario.link.down)) {
    return `competing panes share the link as defined${'rateMbps' in scenario.link.down ? ` (made for ${scenario.players} player${scenario.players === 1 ? '' : 's'})` : ' (a recorded trace)'}`;
  }
  const perPlayerMbps = roundedMbps(scenario.link.down.rateMbps / scenario.players);
  return `competing panes share one link sized for ${players} players: ${down.rateMbps} Mbit/s (${players} × ${perPlayerMbps} Mbit/s, the preset's rate per player)`;
}

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
  const competing = (p: Preset): string => {
    const scenario = resolveNetwork(p.name, (path) => path).scenario;
    return scenario ? `\n  ${''.padEnd(width)}  ${competingNote(scenario, DEFAULT_COMPETING_PLAYERS)}` : '';
  };
  return [
    'Networks for npm start -- --network NAME (each is a bench suite scenario; --network FILE takes a bench scenario file):',
    ...PRESETS.map((p) => `  ${p.name.padEnd(width)}  ${p.description}${p.suite ? ` [bench --suite ${p.suite}: ${p.scenario}]` : ''}${competing(p)}`),
    `A compare view's competing panes (mode=competing) share one link; --competing N sizes it for N players (default ${DEFAULT_COMPETING_PLAYERS}).`,
  ].join('\n');
}

// One case of the `faults` suite (issue 20): a real run on its own terms (a link that blacks out, an origin that is
// killed, hostile clients...) that returns figures and pass/fail checks. The runner (run-fault.ts) gives each case a
// context, records what it returns in results.jsonl (RunResult.fault) and cleans up whatever the case registered,
// however the case ended. A new case is one file here plus one entry in cases.ts.
import type { PlayerResult } from '../results.ts';
import type { Scenario, Scheme } from '../scenario.ts';

export interface FaultContext {
  scenario: Scenario;
  scheme: Scheme;
  repetition: number;
  /** The run's seed (its repetition): link loss, RTT patterns, any randomness of the case. */
  seed: number;
  /** This run's own directory (artefacts: logs, traces, screenshots); paths in artifacts are relative to outDir. */
  runDir: string;
  outDir: string;
  mediaDir: string;
  /** The built player (player/dist), served by the origin at /. */
  playerDir: string;
  /** Record each datagram session's controller inputs and decisions (--record). */
  record: boolean;
  /** Runs `cleanup` when the run ends, in reverse order of registration, even when the case throws. */
  onCleanup(cleanup: () => Promise<unknown> | unknown): void;
  /** A structured progress line (JSON on stderr) tagged with the run. */
  log(event: string, detail?: Record<string, unknown>): void;
}

export type FigureValue = number | string | boolean | null;

/** One of the targets, measured: `pass` is false when the run showed the target missed. */
export interface FaultCheck {
  name: string;
  target: string;
  measured: string;
  pass: boolean;
}

export interface FaultOutcome {
  /** The case's own numbers, with units in their names (stall_beyond_blackout_s, rss_growth_ratio...). */
  figures: Record<string, FigureValue>;
  checks: FaultCheck[];
  /** Final metrics of each browser player of the run (empty for cases without a browser). */
  players: PlayerResult[];
  /** Mean downlink capacity (Mbit/s) of the emulated link, and what the players received; null without a link. */
  capacityMbps: number | null;
  goodputMbps: number | null;
  queueDelayP95Ms: number | null;
  /** Files of the run, relative to outDir. */
  artifacts: Record<string, string>;
}

/** What results.jsonl keeps of a fault run (RunResult.fault). */
export interface FaultRecord {
  case: string;
  figures: Record<string, FigureValue>;
  checks: FaultCheck[];
  /** Every check passed. */
  pass: boolean;
}

export interface FaultCase {
  name: string;
  /** One line for --list readers and the report: what the case does to the run. */
  summary: string;
  /** The scenario the case runs on, as in a scenario file (link, delay, media, players, schemes, duration_s,
   *  repetitions); `name` comes from the case. */
  scenario: Record<string, unknown>;
  run(ctx: FaultContext): Promise<FaultOutcome>;
}

/** The common set-up for a fault case: one ABR player for 45 s (a fault at t = 20 s, 25 s to recover) on a
 *  10 Mbit/s link each way, 20 ms one way, a 150 kB drop-tail queue, no loss. A case passes what it changes. */
const FAULT_SCENARIO = {
  duration_s: 45,
  repetitions: 1,
  link: { down: { rate_mbps: 10 }, up: { rate_mbps: 10 }, queue: { type: 'droptail', bytes: 150_000 } },
  delay: { one_way_ms: 20 },
  loss: { down: 0, up: 0 },
  media: { abr: true },
  players: 1,
  schemes: ['vivace'],
};

/** A case's scenario (FaultCase.scenario): the common set-up with `changes` over it (top-level keys replaced whole). */
export function faultScenario(changes: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...FAULT_SCENARIO, ...changes };
}

export function check(name: string, target: string, measured: string, pass: boolean): FaultCheck {
  return { name, target, measured, pass };
}

/** When the faults strike: t = 20 s of the link's clock. A run shorter than FULL_TIMELINE_S (the short
 *  version `npm test` runs, --duration-s) scales the instant to 40 % of its duration, so it still falls mid-play. */
export const FAULT_AT_S = 20;
export const FULL_TIMELINE_S = 40;

export function faultAtS(durationS: number): number {
  return durationS >= FULL_TIMELINE_S ? FAULT_AT_S : 0.4 * durationS;
}

/** A fault that lasts `fullS` in a full run lasts proportionally less in a short one. */
export function faultLengthS(fullS: number, durationS: number): number {
  return durationS >= FULL_TIMELINE_S ? fullS : (fullS * durationS) / FULL_TIMELINE_S;
}

// One line of results.jsonl per run, plus the resume logic that reads them back.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FaultRecord } from './faults/fault-case.ts';
import type { FidelityRecord } from './fidelity.ts';
import type { MediaRecord } from './media.ts';
import type { Provenance } from './provenance.ts';
import { ALL_SCHEMES, type Scenario, type Scheme } from './scenario.ts';
import { meanOverPlayers } from '@pcc-stream/protocol';

/** What one player reported at the end of a run (a subset of window.pccPlayer.metrics(), in SI units). */
export interface PlayerResult {
  startup_delay_s: number;
  stall_count: number;
  stall_time_s: number;
  playing_time_s: number;
  buffering_ratio: number;
  buffering_ratio_with_startup: number;
  /** Mean nominal bitrate of the video segments downloaded, superseded and never-shown copies included
   *  (averageSegmentBitrateKbps): not what the viewer saw. */
  avg_bitrate_mbps: number;
  /** The rendition on screen weighted by playing time (playedBitrateKbps): the bitrate the viewer saw. */
  time_weighted_bitrate_mbps: number;
  switch_count: number;
  bytes_received: number;
  datagrams_received: number;
  datagrams_dropped: number;
  /** Client-side early requests (aided schemes `+prefetch`; 0 otherwise): bytes received for them, those never used. */
  prefetch_bytes?: number;
  prefetch_waste_bytes?: number;
  prefetch_hits?: number;
  prefetch_cancelled?: number;
  /** Video segment bytes downloaded and never shown (superseded by a later download of the segment, or abandoned), and
   *  all video segment bytes downloaded (redownloads.ts, from the player's ABR record); absent in older lines. */
  redownloaded_bytes?: number;
  video_segment_bytes?: number;
  /** Receiver idle time between back-to-back video segments (ms; null with fewer than one gap); absent in older lines. */
  segment_gap_count?: number;
  segment_gap_mean_ms?: number | null;
  segment_gap_p50_ms?: number | null;
  segment_gap_p95_ms?: number | null;
}

export interface RunResult {
  run_id: string;            // scenario/scheme/repetition: the resume key
  scenario: string;
  scheme: Scheme;
  repetition: number;
  seed: number;
  status: 'ok' | 'failed';
  error?: string;
  started_at: string;
  wall_s: number;
  duration_s: number;
  players: PlayerResult[];
  // Aggregates over players (means), null when the run failed.
  buffering_ratio: number | null;
  stall_count: number | null;
  stall_time_s: number | null;
  startup_delay_s: number | null;
  /** Mean over players of their downloaded segments' mean bitrate (PlayerResult.avg_bitrate_mbps); the name predates
   *  played_bitrate_mbps and is kept so every line reads alike. Not the tables' "avg bitrate": read playedBitrateMbps. */
  avg_bitrate_mbps: number | null;
  /** Mean over players of their on-screen bitrate (time_weighted_bitrate_mbps): the tables' "avg bitrate". Absent in
   *  lines written before it existed; playedBitrateMbps derives it for them. */
  played_bitrate_mbps?: number | null;
  switch_count: number | null;
  /** The players' redownloaded_bytes over their video_segment_bytes (redownloads.ts); absent in older lines. */
  redownloaded_share?: number | null;
  goodput_mbps: number | null;
  link_utilization: number | null;
  queue_delay_p95_ms: number | null;
  capacity_mbps: number | null;
  /** IP bytes the bottleneck delivered per application byte received (wire-overhead.ts); absent in older lines. */
  wire_bytes_per_media_byte?: number | null;
  /** Early-request bytes never used, over all players, and their share of the bytes the players received. */
  prefetch_waste_bytes?: number;
  prefetch_waste_ratio?: number | null;
  /** The origin's own count over the run (its /status `prefetch_totals`): early requests the players cancelled, the
   *  bytes it sent for them (datagram origin: body bytes, retransmissions included; kernel-TCP origin: TCP_INFO
   *  bytes_sent while the response was open), and those bytes over the IP bytes sent toward the players (linkem's
   *  downlink ingress). Browser runs with an origin; absent in older lines. */
  origin_prefetch_cancelled?: number;
  origin_prefetch_cancelled_bytes_sent?: number;
  origin_prefetch_waste_ratio?: number | null;
  /** (origin_prefetch_cancelled_bytes_sent + prefetch_waste_bytes) over the same IP bytes: an upper bound of the
   *  aid's waste of bytes sent. The origin's count alone misses an early response received whole and never used; the
   *  players' alone misses bytes sent and never received; a cancelled request's bytes the players received are in
   *  both. */
  prefetch_waste_of_sent_upper_ratio?: number | null;
  /** Mean over players of their mean idle time between back-to-back video segments (ms). */
  segment_gap_mean_ms?: number | null;
  /** The fidelity suite's real-vs-simulator figures of this run (fidelity.ts); absent in other runs. */
  fidelity?: FidelityRecord;
  /** The faults suite's case, figures and checks of this run (faults/fault-case.ts); absent in other runs. */
  fault?: FaultRecord;
  /** Files of this run (relative to the output dir): per-second series, server telemetry, link log. */
  artifacts: Record<string, string>;
  /** What carried a kernel-TCP scheme's HTTP: plain HTTP/1.1 (the browser runs' default: no certificate step, no TLS
   *  cost) or HTTPS (the bulk runs' Node client); absent for other schemes and in older lines. */
  tcp_http?: 'http/1.1' | 'https';
  /** Controller parameter overrides sent with the scheme's sessions ({}: the library's defaults). */
  controller_params?: Record<string, number>;
  /** Extra player page parameters (`--player-param`), every scheme alike; absent when none were. */
  player_params?: Record<string, string>;
  /** Arguments passed verbatim to the run's origin (`--origin-arg`); absent when none were. */
  origin_args?: string[];
  /** Arguments passed verbatim to the bulk runs' fetch client (`--client-arg`); absent when none were. */
  client_args?: string[];
  /** Code, browser, player library and machine that produced the run (absent in lines written before it existed). */
  provenance?: Provenance;
  /** The scenario exactly as run: suite or file plus every command-line override (absent in older lines). */
  resolved_scenario?: Scenario;
  /** The media set played (its name and parameters); absent for bulk runs and in older lines. */
  media?: MediaRecord;
}

/** The run figures that are means over its players (the definitions the page's summary card shares). */
export type PlayerMeans = Pick<RunResult, 'buffering_ratio' | 'stall_count' | 'stall_time_s' | 'startup_delay_s' | 'avg_bitrate_mbps' | 'played_bitrate_mbps' | 'switch_count'>;

export function playerMeans(players: readonly PlayerResult[]): Required<PlayerMeans> {
  const pick = (key: 'buffering_ratio' | 'stall_count' | 'stall_time_s' | 'startup_delay_s' | 'avg_bitrate_mbps' | 'time_weighted_bitrate_mbps' | 'switch_count') =>
    meanOverPlayers(players.map((p) => p[key]));
  return {
    buffering_ratio: pick('buffering_ratio'), stall_count: pick('stall_count'), stall_time_s: pick('stall_time_s'),
    startup_delay_s: pick('startup_delay_s'), avg_bitrate_mbps: pick('avg_bitrate_mbps'),
    played_bitrate_mbps: pick('time_weighted_bitrate_mbps'), switch_count: pick('switch_count'),
  };
}

/** A failed run's: no player figures. */
export const NO_PLAYER_MEANS: Required<PlayerMeans> = {
  buffering_ratio: null, stall_count: null, stall_time_s: null, startup_delay_s: null, avg_bitrate_mbps: null, played_bitrate_mbps: null, switch_count: null,
};

/**
 * The run's average bitrate as the tables report it: what was on screen (played_bitrate_mbps). A line written before
 * that field existed gets it from its players' time_weighted_bitrate_mbps, the same mean the runner now stores; a
 * failed run or one without players (bulk) has none.
 */
export function playedBitrateMbps(r: RunResult): number | null {
  if (r.played_bitrate_mbps !== undefined) return r.played_bitrate_mbps;
  return r.status === 'ok' && r.players.length > 0 ? meanOverPlayers(r.players.map((p) => p.time_weighted_bitrate_mbps)) : null;
}

/** Parameters as one comparable string: "" for none, else "a=1,b=2" by name. */
export function paramsKey(params: Record<string, number> | undefined): string {
  return Object.entries(params ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`).join(',');
}

export function runId(scenario: string, scheme: string, repetition: number): string {
  return `${scenario}/${scheme}/${repetition}`;
}

/** Where a run's artefacts live inside a results directory (artifacts paths point below it). */
export function runDirPath(outDir: string, scenario: string, scheme: string, repetition: number): string {
  return join(outDir, 'runs', scenario, scheme, String(repetition));
}

function schemeRank(scheme: string): number {
  const i = (ALL_SCHEMES as readonly string[]).indexOf(scheme);
  return i < 0 ? ALL_SCHEMES.length : i;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Orders schemes as the scheme list does (unknown names after it, by name). */
export function compareSchemes(a: string, b: string): number {
  return schemeRank(a) - schemeRank(b) || compareText(a, b);
}

/**
 * The canonical order of results: scenario name, scheme (in scheme-list order), repetition. Summaries read results in
 * this order, so their rows and even their floating-point sums do not depend on which machine or shard ran what.
 */
export function compareRuns(a: RunResult, b: RunResult): number {
  return compareText(a.scenario, b.scenario) || compareSchemes(a.scheme, b.scheme) || a.repetition - b.repetition || compareText(a.run_id, b.run_id);
}

export function appendResult(path: string, result: RunResult): void {
  appendFileSync(path, `${JSON.stringify(result)}\n`);
}

/**
 * Reads results.jsonl, tolerating a torn last line from an interrupted run. Later lines for the same run
 * replace earlier ones (a failed run retried on resume keeps only its newest outcome).
 */
export function readResults(path: string): RunResult[] {
  if (!existsSync(path)) return [];
  const byId = new Map<string, RunResult>();
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    try {
      const parsed = JSON.parse(line) as RunResult;
      if (typeof parsed.run_id === 'string') byId.set(parsed.run_id, parsed);
    } catch {
      // A torn line from a killed run: that run simply counts as not done.
    }
  }
  return [...byId.values()];
}

/** Runs already completed successfully: skipped on resume. Failed runs are tried again. */
export function completedRunIds(results: readonly RunResult[]): Set<string> {
  return new Set(results.filter((r) => r.status === 'ok').map((r) => r.run_id));
}

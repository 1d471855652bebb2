// One line of results.jsonl per run, plus the resume logic that reads them back.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type { Scheme } from './scenario.ts';

/** What one player reported at the end of a run (a subset of window.pccPlayer.metrics(), in SI units). */
export interface PlayerResult {
  startup_delay_s: number;
  stall_count: number;
  stall_time_s: number;
  playing_time_s: number;
  buffering_ratio: number;
  buffering_ratio_with_startup: number;
  avg_bitrate_mbps: number;
  time_weighted_bitrate_mbps: number;
  switch_count: number;
  bytes_received: number;
  datagrams_received: number;
  datagrams_dropped: number;
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
  avg_bitrate_mbps: number | null;
  switch_count: number | null;
  goodput_mbps: number | null;
  link_utilization: number | null;
  queue_delay_p95_ms: number | null;
  capacity_mbps: number | null;
  /** Files of this run (relative to the output dir): per-second series, server telemetry, link log. */
  artifacts: Record<string, string>;
  /** Controller parameter overrides sent with the scheme's sessions ({}: the library's defaults). */
  controller_params?: Record<string, number>;
}

/** Parameters as one comparable string: "" for none, else "a=1,b=2" by name. */
export function paramsKey(params: Record<string, number> | undefined): string {
  return Object.entries(params ?? {}).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => `${k}=${v}`).join(',');
}

export function runId(scenario: string, scheme: string, repetition: number): string {
  return `${scenario}/${scheme}/${repetition}`;
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

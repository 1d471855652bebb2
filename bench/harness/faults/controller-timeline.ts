// The controller's rate over a run, on the link's clock: read back from the origin's per-session telemetry files
// (--log-dir, one JSONL line per monitor interval, server/src/telemetry/mi-telemetry.ts). A file is named by the
// wall-clock instant its session started and its lines carry microseconds since then, so each line's link time is
// that instant plus t_us minus the instant the link started.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface RatePoint {
  /** Seconds since the link started. */
  linkS: number;
  session: number;
  /** The controller's pacing rate, bit/s. */
  rateBps: number;
}

/** `2026-11-25T20-40-12-345Z-session-3-vivace.jsonl` → wall-clock ms of the session's start; null for other names. */
export function sessionStartWallMs(fileName: string): number | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z-session-/.exec(fileName);
  if (!m) return null;
  const ms = Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`);
  return Number.isFinite(ms) ? ms : null;
}

/** Every monitor interval's rate of every session in `logDir`, in link time order. */
export function controllerRates(logDir: string, linkStartWallMs: number): RatePoint[] {
  if (!existsSync(logDir)) return [];
  const points: RatePoint[] = [];
  for (const name of readdirSync(logDir)) {
    const startMs = sessionStartWallMs(name);
    if (startMs === null || !name.endsWith('.jsonl')) continue;
    for (const line of readFileSync(join(logDir, name), 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      let record: { t_us?: unknown; rate_bps?: unknown; session?: unknown };
      try {
        record = JSON.parse(line) as typeof record;
      } catch {
        continue; // a torn last line of a killed origin
      }
      if (typeof record.t_us !== 'number' || typeof record.rate_bps !== 'number') continue;
      points.push({ linkS: (startMs + record.t_us / 1000 - linkStartWallMs) / 1000, session: typeof record.session === 'number' ? record.session : -1, rateBps: record.rate_bps });
    }
  }
  return points.sort((a, b) => a.linkS - b.linkS);
}

/**
 * Seconds from `fromLinkS` until the controller's rate is at or above `thresholdBps` (null when it never got there).
 * A rate holds from its line until the next one, so a rate set just before `fromLinkS` (the controller acting on the
 * first ACKs after an outage a few ms before the link's own clock says it ended; the file-name clock has ms
 * precision) and kept is a recovery at 0 s, not a miss.
 */
export function secondsUntilRate(points: readonly RatePoint[], fromLinkS: number, thresholdBps: number): number | null {
  const first = points.findIndex((p) => p.linkS >= fromLinkS);
  if (first === -1) return null; // nothing after it: the run ended, or the session did
  if ((points[first - 1]?.rateBps ?? 0) >= thresholdBps) return 0;
  const hit = points.slice(first).find((p) => p.rateBps >= thresholdBps);
  return hit ? hit.linkS - fromLinkS : null;
}

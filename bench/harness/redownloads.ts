// Video bytes a player downloaded and never showed, from its per-segment ABR record (abr-segments-player-N.jsonl,
// player/src/metrics/abr-segment-log.ts): a copy of a segment that a later download of the same segment index replaced
// (dash.js fast switch, or a fetch again after abandonment) and every abandoned download. The same count as
// bench/published/2026-11-25/lte-abr-fix/why_gap.py's `redownloads` over the whole run.

/** The fields of an ABR-log record this reads (AbrSegmentRecord's; switch records are skipped). */
export interface SegmentDownload {
  kind: string;
  index?: number | null;
  dashRequestMs?: number | null;
  abandoned?: boolean;
  transfer?: { bytes: number } | null;
}

export interface Redownloads {
  /** Bytes of superseded and abandoned video segment downloads. */
  redownloadedBytes: number;
  /** Bytes of every video segment download (the transfer dash.js's request started; an early request's prefix not). */
  videoSegmentBytes: number;
}

export function redownloads(records: readonly SegmentDownload[]): Redownloads {
  const segments = records
    .filter((s) => s.kind === 'segment' && typeof s.dashRequestMs === 'number')
    .sort((a, b) => a.dashRequestMs! - b.dashRequestMs!);
  // The download of each index that counts as shown: its last one not abandoned.
  const last = new Map<number | null, number>();
  for (const s of segments) if (!s.abandoned) last.set(s.index ?? null, s.dashRequestMs!);
  let redownloadedBytes = 0;
  let videoSegmentBytes = 0;
  for (const s of segments) {
    const bytes = s.transfer?.bytes ?? 0;
    videoSegmentBytes += bytes;
    if (s.abandoned || last.get(s.index ?? null) !== s.dashRequestMs) redownloadedBytes += bytes;
  }
  return { redownloadedBytes, videoSegmentBytes };
}

/** A run's share: superseded and abandoned bytes over all video segment bytes, every player pooled; null without any
 *  (bulk runs, lines written before the players recorded it). */
export function redownloadedShare(players: ReadonlyArray<{ redownloaded_bytes?: number; video_segment_bytes?: number }>): number | null {
  if (players.length === 0 || players.some((p) => p.video_segment_bytes === undefined)) return null;
  const total = players.reduce((s, p) => s + (p.video_segment_bytes ?? 0), 0);
  return total > 0 ? players.reduce((s, p) => s + (p.redownloaded_bytes ?? 0), 0) / total : null;
}

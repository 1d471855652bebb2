// Quality-of-experience figures of a streaming run, defined once: the benchmark's results (bench/harness/runner.ts,
// run-browser.ts), the player's metrics (player/src/metrics/playback-metrics.ts) and the page's summary card
// (player/src/ui/summary-card.ts) all compute them here, so a card and a bench table mean the same by a name.
// Browser-safe: plain arithmetic.

/**
 * Buffering ratio (thesis §5.2): time stalled over time stalled or playing. Startup is excluded (reported on its own
 * as the startup delay). Both durations in the same unit; 0 before playback began.
 */
export function bufferingRatio(stallMs: number, playingMs: number): number {
  return stallMs + playingMs > 0 ? stallMs / (stallMs + playingMs) : 0;
}

/** The buffering ratio if the startup delay counted as buffering: (startup + stall) / (startup + stall + playing). */
export function bufferingRatioWithStartup(startupMs: number, stallMs: number, playingMs: number): number {
  const total = startupMs + stallMs + playingMs;
  return total > 0 ? (startupMs + stallMs) / total : 0;
}

/**
 * Mean nominal bitrate of the video segments downloaded (not weighted by time); 0 before any. Every completed download
 * counts, so a segment dash.js fetched again at another rendition (fast switch) counts twice, and the copy never shown
 * counts as much as the one shown: not the viewer's bitrate (that is playedBitrateKbps). The bench's
 * `avg_bitrate_mbps` / "downloaded segments' mean bitrate".
 */
export function averageSegmentBitrateKbps(segmentKbpsSum: number, segmentCount: number): number {
  return segmentCount > 0 ? segmentKbpsSum / segmentCount : 0;
}

/**
 * Played (on-screen) bitrate, the "avg bitrate" of the bench's tables and the summary card: the nominal bitrate of the
 * rendition on screen (dash.js's rendered-quality events), weighted by playing time, i.e. ∫ rendition dt / playing
 * time, with startup, stalls and the time after the end left out of both. `kbpsMsPlayed` is that integral in kbit/s ×
 * ms; 0 before any playing time (nothing shown, nothing credited).
 */
export function playedBitrateKbps(kbpsMsPlayed: number, playingMs: number): number {
  return playingMs > 0 ? kbpsMsPlayed / playingMs : 0;
}

export function kbpsToMbps(kbps: number): number {
  return kbps / 1000;
}

/** Mean link capacity (Mbit/s) over equal intervals (the bench: whole seconds); an empty list counts as one of nothing. */
export function meanCapacityMbps(capacityMbpsPerInterval: readonly number[]): number {
  return capacityMbpsPerInterval.reduce((s, v) => s + v, 0) / Math.max(1, capacityMbpsPerInterval.length);
}

/**
 * Link utilization: the IP bytes the bottleneck's downlink delivered (every flow on it, headers included) over the bytes
 * its capacity could have carried in the same time, i.e. mean capacity × duration. Null when the link had no capacity.
 */
export function linkUtilization(departedBytes: number, meanCapacityMbpsValue: number, durationS: number): number | null {
  const capacityBytes = (meanCapacityMbpsValue * 1e6 * durationS) / 8;
  return capacityBytes > 0 ? departedBytes / capacityBytes : null;
}

/** The queueing-delay percentile the tables and the card report. */
export const QUEUE_DELAY_PERCENTILE = 95;

/** One value of a queueing-delay distribution and how many packets (or equal-weight samples) had it. */
export interface DelayCount {
  delayMs: number;
  count: number;
}

/**
 * p-th percentile of the time packets spent in the bottleneck queue, by nearest rank: sort the delays, take the one at
 * 0-based rank ⌊p/100 · n⌋ (the last when that runs past the end). linkem's forwarder applies the same rule to every
 * departed packet in its summary (bench/linkem/src/fwd/stats.c, on 10 µs bins), which is where the benchmark's figure
 * comes from; the page applies it to the link's queue series. Null when there is nothing to rank.
 */
export function queueDelayPercentileMs(values: readonly DelayCount[], percentile = QUEUE_DELAY_PERCENTILE): number | null {
  const kept = values.filter((v) => Number.isFinite(v.delayMs) && v.count > 0).sort((a, b) => a.delayMs - b.delayMs);
  const n = kept.reduce((s, v) => s + v.count, 0);
  if (n === 0) return null;
  const rank = Math.min(n - 1, Math.floor((percentile / 100) * n));
  let seen = 0;
  for (const v of kept) {
    seen += v.count;
    if (seen > rank) return v.delayMs;
  }
  return kept[kept.length - 1]!.delayMs;
}

/** A run's figure from its players' own: the mean over the players with a finite value, null when none has one. */
export function meanOverPlayers(values: readonly number[]): number | null {
  const finite = values.filter(Number.isFinite);
  return finite.length === 0 ? null : finite.reduce((s, v) => s + v, 0) / finite.length;
}

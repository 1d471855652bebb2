// The summary card's figures for one pane: the bench's columns (bench/harness/summary.ts), computed with the same
// definitions (@pcc-stream/protocol's qoe.ts) from the pane's metrics and the bins of the link its media crossed.
import {
  QUEUE_DELAY_PERCENTILE, kbpsToMbps, linkUtilization, meanCapacityMbps, queueDelayPercentileMs,
  type NetworkLink,
} from '@pcc-stream/protocol';
import type { MetricsSnapshot } from './playback-metrics.ts';

export interface RunSummary {
  /** stall / (stall + playing), startup excluded: the same value as window.pccPlayer.metrics().bufferingRatio. */
  bufferingRatio: number;
  stallCount: number;
  stallTimeS: number;
  startupDelayS: number | null;
  /** Average bitrate on screen: the rendition shown, weighted by playing time (playedBitrateKbps; the bench's
   *  played_bitrate_mbps, its tables' "avg bitrate"). */
  playedBitrateMbps: number;
  /** Mean nominal bitrate of the video segments downloaded, superseded copies included (averageSegmentBitrateKbps; the
   *  bench's avg_bitrate_mbps, "downloaded segments' mean bitrate"). */
  downloadedBitrateMbps: number;
  /** Nearest-rank p95 of the queueing delay of every packet that left the link during the session, as the bench ranks
   *  a run's packets (null on loopback or before any packet left). */
  queueDelayP95Ms: number | null;
  /** Bytes the link delivered (every flow on it) over what its capacity could carry, over the session (null on loopback). */
  linkUtilization: number | null;
  /** The link the figures come from, and the span of the session they cover (session clock, s). */
  linkId: string | null;
  fromS: number;
  toS: number;
}

/** The link's bins on the session's clock: paneS = demoS − offset. */
export interface PaneLinkBins {
  link: NetworkLink;
  binS: number;
  demoToPaneOffsetS: number;
}

/** The figures of the link's bins lying within [fromS, toS) of the session's clock. */
export function linkFigures(bins: PaneLinkBins, fromS: number, toS: number): { queueDelayP95Ms: number | null; linkUtilization: number | null } {
  const inSpan = (demoS: number): boolean => {
    const paneS = demoS - bins.demoToPaneOffsetS;
    return paneS >= fromS && paneS + bins.binS <= toS + 1e-9;
  };
  const queue = bins.link.queue.filter((b) => inSpan(b[0]));
  const capacity = bins.link.capacity.filter((b) => inSpan(b[0]));
  const deliveredBytes = queue.map((b) => (b[3] * 1e6 * bins.binS) / 8);
  // The packets of every bin in the span, ranked together: a p95 of packets, not of the bins' p95s.
  const queueDelayP95Ms = queueDelayPercentileMs(
    queue.flatMap((b) => b[4].map(([delayMs, count]) => ({ delayMs, count }))), QUEUE_DELAY_PERCENTILE);
  const linkUtilizationValue = capacity.length === 0 ? null
    : linkUtilization(deliveredBytes.reduce((s, v) => s + v, 0), meanCapacityMbps(capacity.map((b) => b[1])), capacity.length * bins.binS);
  return { queueDelayP95Ms, linkUtilization: linkUtilizationValue };
}

export function runSummary(m: Pick<MetricsSnapshot, 'stallCount' | 'totalStallS' | 'playingS' | 'bufferingRatio' | 'startupDelayS' | 'averageBitrateKbps' | 'timeWeightedBitrateKbps'>,
  bins: PaneLinkBins | null, fromS: number, toS: number): RunSummary {
  const link = bins ? linkFigures(bins, fromS, toS) : { queueDelayP95Ms: null, linkUtilization: null };
  return {
    bufferingRatio: m.bufferingRatio,
    stallCount: m.stallCount,
    stallTimeS: m.totalStallS,
    startupDelayS: m.startupDelayS,
    playedBitrateMbps: kbpsToMbps(m.timeWeightedBitrateKbps),
    downloadedBitrateMbps: kbpsToMbps(m.averageBitrateKbps),
    ...link,
    linkId: bins?.link.id ?? null,
    fromS,
    toS,
  };
}

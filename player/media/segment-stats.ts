// Sizes of a rendition's media segments: the spread a VBR set is made for, and the honest DASH @bandwidth.

export interface SegmentSpread {
  count: number;
  minBytes: number;
  p50Bytes: number;
  p95Bytes: number;
  maxBytes: number;
  /** Coefficient of variation: population standard deviation / mean. */
  cv: number;
  /** Mean bitrate over the segments (container overhead included). */
  meanKbps: number;
}

/** Nearest-rank quantile of sorted values. */
function quantile(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export function segmentSpread(sizesBytes: readonly number[], segmentDurationS: number): SegmentSpread {
  if (sizesBytes.length === 0) throw new Error('no segments to measure');
  const sorted = [...sizesBytes].sort((a, b) => a - b);
  const mean = sorted.reduce((s, v) => s + v, 0) / sorted.length;
  const variance = sorted.reduce((s, v) => s + (v - mean) ** 2, 0) / sorted.length;
  return {
    count: sorted.length,
    minBytes: sorted[0]!,
    p50Bytes: quantile(sorted, 0.5),
    p95Bytes: quantile(sorted, 0.95),
    maxBytes: sorted[sorted.length - 1]!,
    cv: Number((Math.sqrt(variance) / mean).toFixed(4)),
    meanKbps: Number(((mean * 8) / segmentDurationS / 1000).toFixed(1)),
  };
}

/**
 * The smallest @bandwidth that is true in DASH's sense (ISO/IEC 23009-1 §5.3.5.2): over a constant-rate channel of
 * that many bit/s, after minBufferTime of buffering, every segment has arrived before its playback starts.
 * Segment k (0-based) starts playing at k * T, so bits of segments 0..k must fit in rate * (k * T + minBuffer).
 */
export function dashBandwidthBps(sizesBytes: readonly number[], segmentDurationS: number, minBufferTimeS: number): number {
  let cumulativeBits = 0;
  let needed = 0;
  sizesBytes.forEach((bytes, k) => {
    cumulativeBits += bytes * 8;
    needed = Math.max(needed, cumulativeBits / (k * segmentDurationS + minBufferTimeS));
  });
  return Math.ceil(needed);
}

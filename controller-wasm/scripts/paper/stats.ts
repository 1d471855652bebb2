// Small statistics over simulator results and time series.
import type { SimSample } from './run-sim.ts';

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function mean(values: number[]): number {
  return values.length ? values.reduce((s, v) => s + v, 0) / values.length : NaN;
}

export function standardDeviation(values: number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return Math.sqrt(values.reduce((s, v) => s + (v - m) * (v - m), 0) / (values.length - 1));
}

/** One flow's throughput averaged over windows of windowS seconds: [{timeS (window end), mbps}]. */
export function throughputSeries(samples: SimSample[], flow: number, windowS: number): Array<{ timeS: number; mbps: number }> {
  const own = samples.filter((s) => s.flow === flow);
  const out: Array<{ timeS: number; mbps: number }> = [];
  let sum = 0;
  let count = 0;
  let windowEnd = windowS;
  for (const s of own) {
    if (s.timeS > windowEnd + 1e-9) {
      if (count) out.push({ timeS: windowEnd, mbps: sum / count });
      sum = 0;
      count = 0;
      while (s.timeS > windowEnd + 1e-9) windowEnd += windowS;
    }
    sum += s.throughputMbps;
    count++;
  }
  if (count) out.push({ timeS: windowEnd, mbps: sum / count });
  return out;
}

/**
 * Thesis §4.5.2 (after [32]): convergence time is the earliest time after which the flow's rate stays within
 * ±25% of its fair share for at least holdS seconds, measured from the flow's start; stability is the
 * standard deviation of its throughput after that point. Uses 1 s throughput windows.
 */
export function convergence(samples: SimSample[], flow: number, startS: number, fairMbps: number, holdS = 5, endS = Infinity):
  { timeS: number | null; stddevMbps: number | null } {
  const series = throughputSeries(samples, flow, 1).filter((p) => p.timeS > startS && p.timeS <= endS);
  const inBand = (p: { mbps: number }): boolean => Math.abs(p.mbps - fairMbps) <= 0.25 * fairMbps;
  for (let i = 0; i < series.length; i++) {
    let j = i;
    while (j < series.length && inBand(series[j] as { mbps: number })) j++;
    const first = series[i] as { timeS: number };
    const heldS = j > i ? (series[j - 1] as { timeS: number }).timeS - first.timeS + 1 : 0;
    if (heldS >= holdS) {
      const after = series.slice(i).map((p) => p.mbps);
      return { timeS: first.timeS - 1 - startS, stddevMbps: standardDeviation(after) };
    }
  }
  return { timeS: null, stddevMbps: null };
}

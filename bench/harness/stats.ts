// Summary statistics for repeated runs: mean with a Student-t 95% confidence interval.

// Two-sided 95% critical values of Student's t for 1..30 degrees of freedom; beyond 30 the normal 1.96.
const T_95 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];

export interface MeanCi {
  mean: number;
  /** Half-width of the 95% confidence interval; 0 with a single sample. */
  ci95: number;
  n: number;
}

export function meanCi95(values: readonly number[]): MeanCi {
  const finite = values.filter((v) => Number.isFinite(v));
  const n = finite.length;
  if (n === 0) return { mean: Number.NaN, ci95: Number.NaN, n: 0 };
  const mean = finite.reduce((s, v) => s + v, 0) / n;
  if (n === 1) return { mean, ci95: 0, n };
  const variance = finite.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1);
  const t = T_95[n - 2] ?? 1.96;
  return { mean, ci95: (t * Math.sqrt(variance)) / Math.sqrt(n), n };
}

/** Linear-interpolated percentile (p in [0, 100]) of unsorted values; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const rank = (p / 100) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (rank - lo);
}

// Summary statistics for repeated runs: mean with a Student-t 95% confidence interval.

// Two-sided 95% critical values of Student's t for 1..30 degrees of freedom; beyond, t95 solves studentTTwoSidedP.
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
  const t = t95(n - 1);
  return { mean, ci95: (t * Math.sqrt(variance)) / Math.sqrt(n), n };
}

/**
 * Two-sided 95% critical value of Student's t with `df` degrees of freedom, to 3 decimals (the table's precision).
 * Beyond the table it bisects studentTTwoSidedP: the normal 1.96 would understate an interval of 31 runs by 4%.
 */
export function t95(df: number): number {
  const tabled = T_95[df - 1];
  if (tabled !== undefined) return tabled;
  let lo = 1.96;
  let hi = T_95[T_95.length - 1] as number;
  while (hi - lo > 1e-7) {
    const mid = (lo + hi) / 2;
    if (studentTTwoSidedP(mid, df) > 0.05) lo = mid;
    else hi = mid;
  }
  return Math.round(hi * 1000) / 1000;
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

/**
 * Two-sided p-value of Student's t statistic with integer `df` degrees of freedom, from the closed forms of the
 * t distribution for integer df (Abramowitz & Stegun 26.7.3, 26.7.4): with θ = atan(|t|/√df), A(t|df) is a finite
 * series in sin θ and cos θ, and p = 1 − A.
 */
export function studentTTwoSidedP(t: number, df: number): number {
  if (!Number.isFinite(t)) return Number.isNaN(t) ? Number.NaN : 0;
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`df must be a positive integer, got ${df}`);
  const theta = Math.atan(Math.abs(t) / Math.sqrt(df));
  const s = Math.sin(theta);
  const c2 = Math.cos(theta) ** 2;
  let a: number;
  if (df % 2 === 1) {
    // A = (2/π)(θ + sin θ cos θ (1 + 2/3 cos²θ + 2·4/(3·5) cos⁴θ + … + 2·4…(df−3)/(3·5…(df−2)) cos^(df−3)θ))
    let term = 1;
    let sum = df > 1 ? 1 : 0;
    for (let k = 2; k <= df - 3; k += 2) {
      term *= (k / (k + 1)) * c2;
      sum += term;
    }
    a = (2 / Math.PI) * (theta + s * Math.cos(theta) * sum);
  } else {
    // A = sin θ (1 + 1/2 cos²θ + 1·3/(2·4) cos⁴θ + … + 1·3…(df−3)/(2·4…(df−2)) cos^(df−2)θ)
    let term = 1;
    let sum = 1;
    for (let k = 1; k <= df - 3; k += 2) {
      term *= (k / (k + 1)) * c2;
      sum += term;
    }
    a = s * sum;
  }
  return Math.min(1, Math.max(0, 1 - a));
}

/** The paired t-test on differences d_i: t = mean / (sd/√n), n−1 degrees of freedom; NaN when n < 2 or sd = 0. */
export function pairedTTestP(differences: readonly number[]): number {
  const n = differences.length;
  if (n < 2) return Number.NaN;
  const mean = differences.reduce((s, v) => s + v, 0) / n;
  const variance = differences.reduce((s, v) => s + (v - mean) ** 2, 0) / (n - 1);
  if (variance === 0) return mean === 0 ? 1 : 0;
  return studentTTwoSidedP(mean / Math.sqrt(variance / n), n - 1);
}

/** Up to this many pairs the sign-flip test enumerates all 2^n sign assignments; above it samples them. */
export const SIGN_FLIP_EXACT_MAX_PAIRS = 16;
/** Monte Carlo draws of the sign-flip test above SIGN_FLIP_EXACT_MAX_PAIRS pairs, and the generator's fixed seed
 *  (the same data always gives the same p). */
export const SIGN_FLIP_DRAWS = 100_000;
const SIGN_FLIP_SEED = 0x5eed_f11b;

/** A small deterministic generator (mulberry32) for the Monte Carlo sign flips. */
function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 15), z | 1);
    z ^= z + Math.imul(z ^ (z >>> 7), z | 61);
    return ((z ^ (z >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SignFlipResult {
  p: number;
  /** true: all 2^n assignments enumerated; false: SIGN_FLIP_DRAWS random ones. */
  exact: boolean;
}

/**
 * Two-sided sign-flip permutation test of "the paired differences are symmetric about 0": under that hypothesis
 * every assignment of signs to |d_i| is equally likely, so p is the share of assignments whose |Σ ±d_i| reaches the
 * observed |Σ d_i|. Exact (no distributional assumption) for n ≤ SIGN_FLIP_EXACT_MAX_PAIRS; its smallest possible p is
 * 2/2^n, so n ≤ 5 pairs can never reach p < 0.05.
 */
export function signFlipTest(differences: readonly number[]): SignFlipResult {
  const d = differences.filter(Number.isFinite);
  const n = d.length;
  if (n === 0) return { p: Number.NaN, exact: true };
  const observed = Math.abs(d.reduce((s, v) => s + v, 0));
  // Sums that differ from the observed one only by rounding count as reaching it.
  const scale = d.reduce((s, v) => s + Math.abs(v), 0);
  const threshold = observed - 1e-12 * Math.max(1, scale);
  if (n <= SIGN_FLIP_EXACT_MAX_PAIRS) {
    let atLeast = 0;
    const total = 2 ** n;
    for (let mask = 0; mask < total; mask += 1) {
      let sum = 0;
      for (let i = 0; i < n; i += 1) sum += mask & (1 << i) ? -(d[i] as number) : (d[i] as number);
      if (Math.abs(sum) >= threshold) atLeast += 1;
    }
    return { p: atLeast / total, exact: true };
  }
  const uniform = seededUniform(SIGN_FLIP_SEED);
  let atLeast = 0;
  for (let draw = 0; draw < SIGN_FLIP_DRAWS; draw += 1) {
    let sum = 0;
    for (const v of d) sum += uniform() < 0.5 ? -v : v;
    if (Math.abs(sum) >= threshold) atLeast += 1;
  }
  // The observed assignment counts as one of the draws, so p is never 0 (Phipson & Smyth's correction).
  return { p: (atLeast + 1) / (SIGN_FLIP_DRAWS + 1), exact: false };
}

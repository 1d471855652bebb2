"""Means with two-sided 95 % Student-t intervals for the published analyses: the one place for the t quantile.

A folder's script imports it with
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))
    from student_t import mean_ci95, t95
(bench/harness/stats.ts is the TypeScript side; bench/test/harness-published-stats.test.ts checks that both agree.)
Python standard library only."""
import functools
import math
import statistics


def t_two_sided_p(t, df):
    """Two-sided p-value of Student's t with integer df, from the closed forms for integer df (Abramowitz & Stegun
    26.7.3, 26.7.4), as bench/harness/stats.ts studentTTwoSidedP: with theta = atan(|t|/sqrt(df)), A(t|df) is a finite
    series in sin theta and cos theta, and p = 1 - A."""
    if not isinstance(df, int) or df < 1:
        raise ValueError(f'df must be a positive integer, got {df!r}')
    theta = math.atan(abs(t) / math.sqrt(df))
    s, c, c2 = math.sin(theta), math.cos(theta), math.cos(theta) ** 2
    term = 1.0
    if df % 2 == 1:
        total = 1.0 if df > 1 else 0.0
        for k in range(2, df - 2, 2):
            term *= k / (k + 1) * c2
            total += term
        a = 2 / math.pi * (theta + s * c * total)
    else:
        total = 1.0
        for k in range(1, df - 2, 2):
            term *= k / (k + 1) * c2
            total += term
        a = s * total
    return min(1.0, max(0.0, 1.0 - a))


@functools.lru_cache(maxsize=None)
def t95(df):
    """The two-sided 95 % quantile of Student's t with df degrees of freedom (t(1) = 12.706, t(4) = 2.776, t(7) =
    2.365), for any df >= 1: the p-value above solved by bisection, rounded to 3 decimals as the printed tables every
    published figure so far was computed with (the rounding moves an interval by < 0.03 %)."""
    lo, hi = 1.959, 13.0  # t(inf) = 1.95996..., t(1) = 12.706
    for _ in range(60):
        mid = (lo + hi) / 2
        if t_two_sided_p(mid, df) > 0.05:
            lo = mid
        else:
            hi = mid
    return round((lo + hi) / 2, 3)


def mean_ci95(xs, as_stats_ts=False):
    """(mean, half-width of its 95 % Student-t interval) of a sample; the half-width is NaN with a single value. For a
    paired comparison pass the per-pair differences (or per-pair ratios).
    The mean and sd come from statistics.mean / stdev (correctly rounded), or with as_stats_ts from the float sums of
    bench/harness/stats.ts meanCi95 (sum / n, then the sd from it), bit for bit as that function. The two differ in
    the last bit only, which shows when a mean lands on a printed x.x5; each published script keeps the one its
    published tables were printed with."""
    xs = list(xs)
    n = len(xs)
    if not n:
        raise ValueError('mean_ci95 of no values')
    if as_stats_ts:
        m = sum(xs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    else:
        m = statistics.mean(xs)
        sd = statistics.stdev(xs) if n > 1 else 0.0
    if n < 2:
        return m, float('nan')
    return m, t95(n - 1) * sd / math.sqrt(n)

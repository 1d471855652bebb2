// PCC against kernel TCP, paired by repetition: every run of a (scenario, repetition) sees the same emulated network
// (the link's seed is the repetition), so the difference of two schemes' runs of one repetition removes the network's
// share of the variance. Per scenario, every PCC scheme against every tcp-* scheme, per metric: the mean paired
// difference with its 95% interval, the paired t-test, and the exact sign-flip permutation test, which gives the verdict.
import { TCP_CONTROLLERS, isSchemeName, schemeInfo } from '@pcc-stream/protocol';
import { compareRuns, compareSchemes, playedBitrateMbps, type RunResult } from './results.ts';
import { ALL_SCHEMES } from './scenario.ts';
import { schemeTransport } from './schemes.ts';
import { splitAids } from './aids.ts';

function sameAids(a: string, b: string): boolean {
  return splitAids(a).aids.join('+') === splitAids(b).aids.join('+');
}
import { meanCi95, pairedTTestP, signFlipTest, SIGN_FLIP_DRAWS, SIGN_FLIP_EXACT_MAX_PAIRS } from './stats.ts';

/** Below this many complete pairs no verdict is given. */
export const MIN_PAIRS = 3;
/** Significance level of the verdict. */
export const ALPHA = 0.05;
export const VERDICT_TEST = 'exact sign-flip permutation test';

interface ComparedMetric {
  key: 'buffering_ratio' | 'played_bitrate_mbps' | 'queue_delay_p95_ms' | 'goodput_mbps';
  label: string;
  /** Shown value = value × scale (buffering ratio in percentage points). */
  scale: number;
  digits: number;
  better: 'lower' | 'higher';
  /** Compared only where the runs have no player metrics (bulk downloads). */
  bulkOnly?: boolean;
}

const METRICS: readonly ComparedMetric[] = [
  { key: 'buffering_ratio', label: 'buffering ratio (pp)', scale: 100, digits: 2, better: 'lower' },
  { key: 'played_bitrate_mbps', label: 'avg bitrate on screen (Mbit/s)', scale: 1, digits: 2, better: 'higher' },
  { key: 'queue_delay_p95_ms', label: 'p95 queueing delay (ms)', scale: 1, digits: 1, better: 'lower' },
  { key: 'goodput_mbps', label: 'goodput (Mbit/s)', scale: 1, digits: 2, better: 'higher', bulkOnly: true },
];

/**
 * The PCC schemes: the datagram (WASM-controller) schemes except our copies of kernel baselines, i.e. those whose
 * controller also runs as a tcp-<cc> scheme (cubic, bbr). Derived from the scheme list, so a PCC variant added there
 * is compared without further edits.
 */
export function isPccScheme(scheme: string): boolean {
  const base = splitAids(scheme).base; // an aided scheme (vivace+prefetch) is its plain scheme's kind
  if (!(ALL_SCHEMES as readonly string[]).includes(base)) return false;
  const { transport, cc } = schemeTransport(base as (typeof ALL_SCHEMES)[number]);
  return transport === 'datagram' && !(TCP_CONTROLLERS as readonly string[]).includes(cc);
}

export function isKernelTcpScheme(scheme: string): boolean {
  const base = splitAids(scheme).base;
  return isSchemeName(base) && schemeInfo(base).transport === 'tcp';
}

export interface ComparisonRow {
  scenario: string;
  pcc: string;
  tcp: string;
  metric: ComparedMetric['key'];
  /** Repetitions where both schemes ran (ok or not), and the pairs used: both ok with the metric measured. */
  repetitions: number;
  pairs: number;
  /** Mean of (PCC − TCP) over the pairs, in the metric's own unit, and the half-width of its 95% interval. */
  meanDifference: number;
  ci95: number;
  tTestP: number;
  signFlipP: number;
  signFlipExact: boolean;
  verdict: string;
}

function metricValue(run: RunResult, key: ComparedMetric['key']): number | null {
  const v = key === 'played_bitrate_mbps' ? playedBitrateMbps(run) : run[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

function verdictOf(pcc: string, metric: ComparedMetric, pairs: number, meanDifference: number, p: number): string {
  if (pairs < MIN_PAIRS) return 'too few pairs';
  if (!(p < ALPHA)) return 'not significant';
  const pccLower = meanDifference < 0;
  const better = metric.better === 'lower' ? pccLower : !pccLower;
  return `significant: ${pcc} ${better ? 'better' : 'worse'}`;
}

export function compareToTcp(results: readonly RunResult[]): ComparisonRow[] {
  const sorted = [...results].sort(compareRuns);
  const rows: ComparisonRow[] = [];
  for (const scenario of [...new Set(sorted.map((r) => r.scenario))]) {
    const runs = sorted.filter((r) => r.scenario === scenario);
    const schemes = [...new Set(runs.map((r) => r.scheme as string))].sort(compareSchemes);
    const byKey = new Map(runs.map((r) => [`${r.scheme}/${r.repetition}`, r]));
    const okRuns = runs.filter((r) => r.status === 'ok');
    const isBulk = !okRuns.some((r) => metricValue(r, 'buffering_ratio') !== null);
    const metrics = METRICS.filter((m) => (m.bulkOnly ? isBulk : true) && okRuns.some((r) => metricValue(r, m.key) !== null));
    for (const pcc of schemes.filter(isPccScheme)) {
      // Like for like: a scheme with an aid is compared with TCP given the same aid (aids.ts), a plain one with plain TCP.
      for (const tcp of schemes.filter((s) => isKernelTcpScheme(s) && sameAids(s, pcc))) {
        const repetitions = [...new Set(runs.map((r) => r.repetition))].sort((a, b) => a - b)
          .filter((rep) => byKey.has(`${pcc}/${rep}`) && byKey.has(`${tcp}/${rep}`));
        for (const metric of metrics) {
          const differences: number[] = [];
          for (const rep of repetitions) {
            const a = byKey.get(`${pcc}/${rep}`) as RunResult;
            const b = byKey.get(`${tcp}/${rep}`) as RunResult;
            if (a.status !== 'ok' || b.status !== 'ok') continue;
            const va = metricValue(a, metric.key);
            const vb = metricValue(b, metric.key);
            if (va !== null && vb !== null) differences.push(va - vb);
          }
          const ci = meanCi95(differences);
          const flip = signFlipTest(differences);
          rows.push({
            scenario, pcc, tcp, metric: metric.key, repetitions: repetitions.length, pairs: differences.length,
            meanDifference: ci.mean, ci95: ci.ci95, tTestP: pairedTTestP(differences), signFlipP: flip.p, signFlipExact: flip.exact,
            verdict: verdictOf(pcc, metric, differences.length, ci.mean, flip.p),
          });
        }
      }
    }
  }
  return rows;
}

function metricOf(key: ComparisonRow['metric']): ComparedMetric {
  return METRICS.find((m) => m.key === key) as ComparedMetric;
}

function formatP(p: number): string {
  if (!Number.isFinite(p)) return 'n/a';
  return p < 0.0001 ? '< 0.0001' : p.toFixed(4);
}

function formatDifference(row: ComparisonRow): string {
  const m = metricOf(row.metric);
  if (row.pairs === 0) return 'n/a';
  const sign = (v: number) => (v > 0 ? '+' : '');
  const mean = row.meanDifference * m.scale;
  return `${sign(mean)}${mean.toFixed(m.digits)}${row.pairs > 1 ? ` ± ${(row.ci95 * m.scale).toFixed(m.digits)}` : ''}`;
}

export const COMPARISON_HEADER = `| PCC | TCP | metric | pairs used (of repetitions) | PCC − TCP: mean ± 95% CI | paired t-test p | sign-flip p | verdict (${VERDICT_TEST}, α = ${ALPHA}) |`;

/** The comparison table of one scenario in markdown, or [] when it has no PCC/TCP pair of schemes. */
export function comparisonMarkdown(rows: readonly ComparisonRow[], scenario: string): string[] {
  const mine = rows.filter((r) => r.scenario === scenario);
  if (mine.length === 0) return [];
  const out = [`PCC vs kernel TCP, paired by repetition (${scenario}):`, '', COMPARISON_HEADER, '| --- | --- | --- | --- | --- | --- | --- | --- |'];
  for (const r of mine) {
    const p = `${formatP(r.signFlipP)}${r.signFlipExact || !Number.isFinite(r.signFlipP) ? '' : ' (Monte Carlo)'}`;
    out.push(`| ${r.pcc} | ${r.tcp} | ${metricOf(r.metric).label} | ${r.pairs} (of ${r.repetitions}) | ${formatDifference(r)} | ${formatP(r.tTestP)} | ${p} | ${r.verdict} |`);
  }
  out.push('');
  return out;
}

export const COMPARISON_NOTE = [
  `PCC vs kernel TCP: a pair is the two schemes' runs of one repetition (same seed: the same RTT draws and random losses);`,
  `only pairs where both runs succeeded count. Verdict: the two-sided ${VERDICT_TEST} on the paired differences`,
  `(all 2^n sign assignments for n ≤ ${SIGN_FLIP_EXACT_MAX_PAIRS} pairs, else ${SIGN_FLIP_DRAWS} Monte Carlo draws with a fixed seed), α = ${ALPHA};`,
  `fewer than ${MIN_PAIRS} pairs: "too few pairs". With n pairs the smallest p this test can give is 2/2^n (n = 3: 0.25, n = 5: 0.0625),`,
  `so fewer than 6 repetitions always read "not significant". The paired t-test p (Student t, n − 1 df) is shown for reference; it assumes`,
  `normally distributed differences, which buffering ratios (mostly 0, sometimes large) are not.`,
].join(' ');

export function comparisonCsv(rows: readonly ComparisonRow[]): string {
  const header = 'scenario,pcc_scheme,tcp_scheme,metric,repetitions,pairs,mean_difference,ci95,t_test_p,sign_flip_p,sign_flip_exact,verdict';
  const num = (v: number) => (Number.isFinite(v) ? String(Number(v.toPrecision(10))) : '');
  const lines = rows.map((r) => [r.scenario, r.pcc, r.tcp, r.metric, r.repetitions, r.pairs, num(r.meanDifference), num(r.ci95), num(r.tTestP), num(r.signFlipP), r.signFlipExact, r.verdict].join(','));
  return `${[header, ...lines].join('\n')}\n`;
}

// Per scenario and scheme: means with 95% confidence intervals over successful runs; failures counted, never averaged in.
import { compareRuns, compareSchemes, paramsKey, playedBitrateMbps, type RunResult } from './results.ts';
import { meanCi95, type MeanCi } from './stats.ts';
import { COMPARISON_NOTE, comparisonMarkdown, type ComparisonRow } from './comparison.ts';
import { isAidedScheme, originCountsAidWaste } from './aids.ts';

export interface SummaryRow {
  scenario: string;
  scheme: string;
  /** The scheme's controller parameter overrides, "name=value,..." ("" for the library's defaults). */
  controller_params: string;
  runs_ok: number;
  runs_failed: number;
  buffering_ratio: MeanCi;
  stall_count: MeanCi;
  stall_time_s: MeanCi;
  startup_delay_s: MeanCi;
  /** "avg bitrate": the bitrate on screen (playedBitrateMbps, results.ts). */
  played_bitrate_mbps: MeanCi;
  /** The downloaded segments' mean bitrate, superseded copies included (the lines' avg_bitrate_mbps). */
  downloaded_bitrate_mbps: MeanCi;
  /** Video bytes downloaded and never shown over all video bytes downloaded (redownloads.ts; n 0 for older lines). */
  redownloaded_share: MeanCi;
  switch_count: MeanCi;
  goodput_mbps: MeanCi;
  link_utilization: MeanCi;
  queue_delay_p95_ms: MeanCi;
  wire_bytes_per_media_byte: MeanCi;
  /** The aid's waste (aidWasteRatio; issue 18's target: at most 5% of bytes sent); 0 for plain schemes. */
  prefetch_waste_ratio: MeanCi;
}

const METRICS = ['buffering_ratio', 'stall_count', 'stall_time_s', 'startup_delay_s', 'played_bitrate_mbps', 'downloaded_bitrate_mbps', 'redownloaded_share', 'switch_count', 'goodput_mbps', 'link_utilization', 'queue_delay_p95_ms', 'wire_bytes_per_media_byte', 'prefetch_waste_ratio'] as const;
type Metric = (typeof METRICS)[number];

/** A run's aid waste in the summary tables. Early requests (`+prefetch`): the upper bound of bytes sent
 *  (prefetch_waste_of_sent_upper_ratio: the origin's bytes sent for those the players cancelled plus the players'
 *  unused bytes, over the bytes sent toward the players): issue 18's target is of bytes sent, the origin sees bytes
 *  the players never received (queued, lost or in flight at the cancel) and the players see an early response
 *  received whole and never used, which the origin counts as served; an upper bound, so a target it meets is met.
 *  Streams (`+stream`, not marked as early requests, so the origin counts none) and lines without the origin's count:
 *  the players' unused bytes over the bytes they received (prefetch_waste_ratio). Undefined: the line has neither. */
export function aidWasteRatio(r: RunResult): number | null | undefined {
  return originCountsAidWaste(r.scheme) && typeof r.prefetch_waste_of_sent_upper_ratio === 'number' ? r.prefetch_waste_of_sent_upper_ratio : r.prefetch_waste_ratio;
}

export function summarize(results: readonly RunResult[]): SummaryRow[] {
  const groups = new Map<string, RunResult[]>();
  for (const r of [...results].sort(compareRuns)) {
    const key = `${r.scenario}\u0000${r.scheme}\u0000${paramsKey(r.controller_params)}`;
    const list = groups.get(key) ?? [];
    list.push(r);
    groups.set(key, list);
  }
  const rows: SummaryRow[] = [];
  for (const runs of groups.values()) {
    const ok = runs.filter((r) => r.status === 'ok');
    const first = runs[0] as RunResult;
    const pickBy = (value: (r: RunResult) => unknown) => meanCi95(ok.map(value).filter((v): v is number => typeof v === 'number'));
    const pick = (metric: Exclude<Metric, 'played_bitrate_mbps' | 'downloaded_bitrate_mbps' | 'prefetch_waste_ratio'>) => pickBy((r) => r[metric]);
    rows.push({
      scenario: first.scenario,
      scheme: first.scheme,
      controller_params: paramsKey(first.controller_params),
      runs_ok: ok.length,
      runs_failed: runs.length - ok.length,
      buffering_ratio: pick('buffering_ratio'),
      stall_count: pick('stall_count'),
      stall_time_s: pick('stall_time_s'),
      startup_delay_s: pick('startup_delay_s'),
      played_bitrate_mbps: pickBy(playedBitrateMbps),
      downloaded_bitrate_mbps: pickBy((r) => r.avg_bitrate_mbps),
      redownloaded_share: pick('redownloaded_share'),
      switch_count: pick('switch_count'),
      goodput_mbps: pick('goodput_mbps'),
      link_utilization: pick('link_utilization'),
      queue_delay_p95_ms: pick('queue_delay_p95_ms'),
      wire_bytes_per_media_byte: pick('wire_bytes_per_media_byte'),
      prefetch_waste_ratio: pickBy(aidWasteRatio),
    });
  }
  return rows.sort((a, b) => (a.scenario < b.scenario ? -1 : a.scenario > b.scenario ? 1 : 0) || compareSchemes(a.scheme, b.scheme));
}

/** Why the table has two bitrates (bench/harness/README.md, "Average bitrate"). */
export const BITRATE_NOTE = 'Avg bitrate is what the viewer saw: the rendition on screen weighted by playing time, startup and stalls left out, '
  + 'mean over players. The downloaded segments\' mean counts every video segment fetched, including copies dash.js fetched again '
  + 'at another rendition (fast switch) and never showed, so it can sit above or below it; re-downloaded is the share of video bytes in such copies '
  + 'and in abandoned downloads (n/a for runs recorded before it was counted).';

function fmt(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '';
}

export function summaryCsv(rows: readonly SummaryRow[]): string {
  const header = ['scenario', 'scheme', 'runs_ok', 'runs_failed', ...METRICS.flatMap((m) => [`${m}_mean`, `${m}_ci95`])];
  const lines = rows.map((r) =>
    [r.scenario, r.scheme, r.runs_ok, r.runs_failed, ...METRICS.flatMap((m) => [fmt(r[m].mean, 6), fmt(r[m].ci95, 6)])].join(','),
  );
  return `${[header.join(','), ...lines].join('\n')}\n`;
}

function cell(m: MeanCi, digits: number, scale = 1, suffix = ''): string {
  if (m.n === 0 || !Number.isFinite(m.mean)) return 'n/a';
  const ci = m.n > 1 ? ` ± ${(m.ci95 * scale).toFixed(digits)}` : '';
  return `${(m.mean * scale).toFixed(digits)}${ci}${suffix}`;
}

/** The summary tables; with `comparisons`, each scenario's PCC vs kernel-TCP table follows its summary table. */
export function summaryMarkdown(rows: readonly SummaryRow[], comparisons: readonly ComparisonRow[] = []): string {
  const out: string[] = [];
  const scenarios = [...new Set(rows.map((r) => r.scenario))];
  for (const scenario of scenarios) {
    const scenarioRows = rows.filter((row) => row.scenario === scenario);
    // The aids' waste is a column only where an aided scheme ran: every other table would show a column of zeros.
    const aided = scenarioRows.some((row) => isAidedScheme(row.scheme));
    out.push(`### ${scenario}`, '');
    out.push(`| scheme | runs (failed) | buffering ratio % | stalls | stall time s | startup s | avg bitrate Mbit/s (on screen) | downloaded segments' mean bitrate Mbit/s | re-downloaded % of video bytes | switches | goodput Mbit/s | utilization % | p95 queueing delay ms | wire B per media B |${aided ? ' aid waste % (prefetch: origin + players, of bytes sent, upper bound; stream: players, of bytes received) |' : ''}`);
    out.push(`| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |${aided ? ' --- |' : ''}`);
    for (const r of scenarioRows) {
      out.push(
        `| ${r.scheme}${r.controller_params === '' ? '' : ` (${r.controller_params})`} | ${r.runs_ok} (${r.runs_failed}) | ${cell(r.buffering_ratio, 2, 100)} | ${cell(r.stall_count, 1)} | ${cell(r.stall_time_s, 2)} | ${cell(r.startup_delay_s, 2)} | ${cell(r.played_bitrate_mbps, 2)} | ${cell(r.downloaded_bitrate_mbps, 2)} | ${cell(r.redownloaded_share, 1, 100)} | ${cell(r.switch_count, 1)} | ${cell(r.goodput_mbps, 2)} | ${cell(r.link_utilization, 1, 100)} | ${cell(r.queue_delay_p95_ms, 1)} | ${cell(r.wire_bytes_per_media_byte, 3)} |${aided ? ` ${cell(r.prefetch_waste_ratio, 2, 100)} |` : ''}`,
      );
    }
    out.push('');
    out.push(...comparisonMarkdown(comparisons, scenario));
  }
  out.push('Values are means over successful runs ± the half-width of the 95% confidence interval (Student t). Failed runs are counted, not averaged in.', '');
  out.push(BITRATE_NOTE, '');
  if (comparisons.length > 0) out.push(COMPARISON_NOTE, '');
  return out.join('\n');
}

// Writes the human-facing outputs of a benchmark directory: summary.csv, summary.md, plots (SVG + PNG), report.html.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { compareToTcp, comparisonCsv } from './comparison.ts';
import { faultsMarkdown } from './faults/report.ts';
import { fidelityReport } from './fidelity.ts';
import { provenanceMarkdown } from './provenance.ts';
import { compareRuns, readResults, type RunResult } from './results.ts';
import { skippedSchemesMarkdown } from './external-schemes.ts';
import { summarize, summaryCsv, summaryMarkdown, type SummaryRow } from './summary.ts';
import { barChart, scatterChart, timeSeriesChart, type Series } from './svg-charts.ts';

/** Per-second series a run stores as artifacts.series (JSON array of these). */
export interface SeriesSample {
  t_s: number;
  capacity_mbps?: number;
  sending_rate_mbps?: number;
  goodput_mbps?: number;
  bitrate_mbps?: number;
  buffer_s?: number;
}

function writePlot(dir: string, name: string, svg: string): string {
  writeFileSync(join(dir, `${name}.svg`), svg);
  const png = new Resvg(svg, { fitTo: { mode: 'zoom', value: 2 }, font: { loadSystemFonts: true } }).render().asPng();
  writeFileSync(join(dir, `${name}.png`), png);
  return name;
}

function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '_');
}

function timeSeriesPlot(outDir: string, run: RunResult): string | null {
  const file = run.artifacts.series;
  if (!file || !existsSync(join(outDir, file))) return null;
  const samples = JSON.parse(readFileSync(join(outDir, file), 'utf8')) as SeriesSample[];
  const line = (key: keyof SeriesSample) =>
    samples.filter((s) => typeof s[key] === 'number').map((s) => [s.t_s, s[key] as number] as const);
  // Fixed colour per quantity: kernel-TCP runs have no sender rate, and the other lines keep their colours.
  const series: Series[] = [
    { name: 'capacity', points: line('capacity_mbps'), colorIndex: 0 },
    { name: 'sending rate', points: line('sending_rate_mbps'), colorIndex: 1 },
    { name: 'bitrate', points: line('bitrate_mbps'), colorIndex: 2 },
    { name: 'buffer (s)', points: line('buffer_s'), axis: 'right', colorIndex: 3 },
  ].filter((s) => s.points.length > 0) as Series[];
  if (series.length === 0) return null;
  return timeSeriesChart(`${run.scenario}: ${run.scheme}, run ${run.repetition}`, 'Mbit/s', 'buffer level (s)', series);
}

export interface ReportFiles {
  rows: SummaryRow[];
  plots: string[];
}

export function writeReport(outDir: string): ReportFiles {
  // Canonical order: the same results give the same files whichever machines or shards ran them.
  const results = readResults(join(outDir, 'results.jsonl')).sort(compareRuns);
  const rows = summarize(results);
  const comparisons = compareToTcp(results);
  writeFileSync(join(outDir, 'summary.csv'), summaryCsv(rows));
  writeFileSync(join(outDir, 'comparison.csv'), comparisonCsv(comparisons));
  const markdown = [summaryMarkdown(rows, comparisons), faultsMarkdown(results), ...skippedSchemesMarkdown(outDir), ...provenanceMarkdown(results)].join('\n');
  writeFileSync(join(outDir, 'summary.md'), `# Benchmark summary\n\n${markdown}`);
  const plotDir = join(outDir, 'plots');
  mkdirSync(plotDir, { recursive: true });
  const plots: string[] = [];
  for (const scenario of [...new Set(rows.map((r) => r.scenario))]) {
    const scenarioRows = rows.filter((r) => r.scenario === scenario);
    const isBrowser = scenarioRows.some((r) => r.buffering_ratio.n > 0);
    if (isBrowser) {
      plots.push(
        writePlot(plotDir, `${safeName(scenario)}-buffering-ratio`, barChart(
          `${scenario}: buffering ratio (mean ± 95% CI)`, 'buffering ratio (%)',
          scenarioRows.map((r) => ({ label: r.scheme, value: r.buffering_ratio.mean * 100, error: r.buffering_ratio.ci95 * 100 })),
        )),
      );
    }
    plots.push(
      writePlot(plotDir, `${safeName(scenario)}-throughput-delay`, scatterChart(
        `${scenario}: throughput vs p95 queueing delay`, 'p95 queueing delay (ms, better →)', 'goodput (Mbit/s)',
        scenarioRows.map((r) => ({ label: r.scheme, x: r.queue_delay_p95_ms.mean, y: r.goodput_mbps.mean, xError: r.queue_delay_p95_ms.ci95, yError: r.goodput_mbps.ci95 })),
        true,
      )),
    );
    // One time series per scheme: its first successful run.
    for (const row of scenarioRows) {
      const run = results.find((r) => r.scenario === scenario && r.scheme === row.scheme && r.status === 'ok');
      const svg = run ? timeSeriesPlot(outDir, run) : null;
      if (svg) plots.push(writePlot(plotDir, `${safeName(scenario)}-${safeName(row.scheme)}-timeseries`, svg));
    }
  }
  const fidelity = fidelityReport(outDir, results);
  for (const plot of fidelity.plots) plots.push(writePlot(plotDir, plot.name, plot.svg));
  if (fidelity.markdown) writeFileSync(join(outDir, 'summary.md'), `# Benchmark summary\n\n${markdown}\n${fidelity.markdown}`);
  const failures = results.filter((r) => r.status === 'failed');
  const html = [
    '<!doctype html><html><head><meta charset="utf-8"><title>pcc-stream benchmark report</title>',
    '<style>body{font-family:system-ui,sans-serif;margin:2rem auto;max-width:1100px;color:#111827}table{border-collapse:collapse;margin:1rem 0}td,th{border:1px solid #d1d5db;padding:4px 8px;font-size:13px}th{background:#f3f4f6}img{max-width:100%;border:1px solid #e5e7eb;margin:0.5rem 0}code{background:#f3f4f6;padding:1px 4px}</style>',
    '</head><body><h1>pcc-stream benchmark report</h1>',
    `<p>${results.length} runs, ${failures.length} failed. Files: <code>results.jsonl</code>, <code>summary.csv</code>, <code>comparison.csv</code>, <code>summary.md</code>, <code>plots/</code>.</p>`,
    markdownTablesToHtml(markdown),
    markdownTablesToHtml(fidelity.markdown),
    ...plots.map((p) => `<figure><img src="plots/${p}.svg" alt="${p}"><figcaption>${p}</figcaption></figure>`),
    failures.length > 0 ? `<h2>Failed runs</h2><ul>${failures.map((f) => `<li><code>${escapeHtml(f.run_id)}</code>: ${escapeHtml(f.error ?? 'unknown error')}</li>`).join('')}</ul>` : '',
    '</body></html>',
  ].join('\n');
  writeFileSync(join(outDir, 'report.html'), html);
  return { rows, plots };
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The summary's markdown (headings + pipe tables + paragraphs) as HTML. */
function markdownTablesToHtml(markdown: string): string {
  const html: string[] = [];
  let inTable = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('|')) {
      const cells = line.split('|').slice(1, -1).map((c) => c.trim());
      if (cells.every((c) => /^-+$/.test(c))) continue;
      if (!inTable) {
        html.push('<table>', `<tr>${cells.map((c) => `<th>${escapeHtml(c)}</th>`).join('')}</tr>`);
        inTable = true;
      } else {
        html.push(`<tr>${cells.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`);
      }
      continue;
    }
    if (inTable) {
      html.push('</table>');
      inTable = false;
    }
    if (line.startsWith('### ')) html.push(`<h2>${escapeHtml(line.slice(4))}</h2>`);
    else if (line.trim() !== '') html.push(`<p>${escapeHtml(line)}</p>`);
  }
  if (inTable) html.push('</table>');
  return html.join('\n');
}

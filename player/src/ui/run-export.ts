// "Download this run": the panes' series, the network's bins and the summaries as one JSON file, and every pane's
// charts drawn onto one PNG (uPlot draws on canvases; their legends are HTML, so the image gets its own).
import type { NetworkStatus } from '@pcc-stream/protocol';
import type { RunSummary } from '../metrics/run-summary.ts';
import type { SessionReport } from '../session/playback-session.ts';
import { CHART_PALETTE } from './live-charts.ts';

export const RUN_EXPORT_VERSION = 1;

export interface RunExportPane {
  index: number;
  /** The pane's metrics as window.pccPlayer.metrics(index) returns them, per-second series included. */
  metrics: SessionReport;
  /** The pane's summary card, or null while it still plays. */
  summary: RunSummary | null;
  /** The link its media crossed (an id of network.links), and demo clock − session clock for its bins. */
  linkId: string | null;
  demoToPaneOffsetS: number | null;
}

export interface RunExport {
  version: typeof RUN_EXPORT_VERSION;
  page: string;
  savedAt: string;
  /** GET /network as accumulated over the run (demo clock), or null without an emulated network. */
  network: NetworkStatus | null;
  panes: RunExportPane[];
}

export interface PaneCharts {
  title: string;
  charts: Array<{ title: string; canvas: HTMLCanvasElement; legend: Array<{ label: string; color: string }> }>;
}

export function runFileStem(now = new Date()): string {
  return `pcc-stream-run-${now.toISOString().replace(/[:.]/g, '-')}`;
}

/** Every pane's charts, one pane under the other, each chart with its title and a legend line. */
export function chartsCanvas(panes: readonly PaneCharts[]): HTMLCanvasElement {
  const scale = window.devicePixelRatio || 1;
  const pad = 12 * scale;
  const titleH = 22 * scale;
  const legendH = 18 * scale;
  const headH = 28 * scale;
  const headFont = `600 ${15 * scale}px system-ui, sans-serif`;
  const measure = document.createElement('canvas').getContext('2d');
  if (!measure) throw new Error('this browser cannot draw on a canvas');
  measure.font = headFont;
  const width = Math.max(...panes.flatMap((p) => [...p.charts.map((c) => c.canvas.width), measure.measureText(p.title).width]), 320 * scale) + 2 * pad;
  const height = panes.reduce((h, p) => h + headH + p.charts.reduce((s, c) => s + titleH + c.canvas.height + legendH, 0) + pad, pad);
  const out = document.createElement('canvas');
  out.width = Math.ceil(width);
  out.height = height;
  const ctx = out.getContext('2d');
  if (!ctx) throw new Error('this browser cannot draw on a canvas');
  ctx.fillStyle = CHART_PALETTE.background;
  ctx.fillRect(0, 0, width, height);
  let y = pad;
  for (const pane of panes) {
    ctx.fillStyle = '#e2e8f0';
    ctx.font = headFont;
    ctx.fillText(pane.title, pad, y + 18 * scale);
    y += headH;
    for (const chart of pane.charts) {
      ctx.fillStyle = CHART_PALETTE.axis;
      ctx.font = `600 ${12 * scale}px system-ui, sans-serif`;
      ctx.fillText(chart.title, pad, y + 15 * scale);
      y += titleH;
      ctx.drawImage(chart.canvas, pad, y);
      y += chart.canvas.height;
      let x = pad;
      ctx.font = `${11 * scale}px system-ui, sans-serif`;
      for (const entry of [...chart.legend, { label: 'stall', color: CHART_PALETTE.stall }]) {
        ctx.fillStyle = entry.color;
        ctx.fillRect(x, y + 6 * scale, 12 * scale, 4 * scale);
        x += 16 * scale;
        ctx.fillStyle = CHART_PALETTE.axis;
        ctx.fillText(entry.label, x, y + 12 * scale);
        x += ctx.measureText(entry.label).width + 14 * scale;
      }
      y += legendH;
    }
    y += pad;
  }
  return out;
}

function canvasPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise((resolve, reject) => canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the charts could not be encoded as PNG'))), 'image/png'));
}

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its bytes once the click is handled; keep the URL a little for slow disks.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** Saves <stem>.json and <stem>.png; resolves with the two file names. */
export async function downloadRun(run: RunExport, panes: readonly PaneCharts[]): Promise<string[]> {
  const stem = runFileStem();
  const json = new Blob([`${JSON.stringify(run, null, 1)}\n`], { type: 'application/json' });
  const png = await canvasPng(chartsCanvas(panes));
  save(json, `${stem}.json`);
  save(png, `${stem}.png`);
  return [`${stem}.json`, `${stem}.png`];
}

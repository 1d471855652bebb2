// Live time-series charts for one session (uPlot): rates, delay/loss, and the player's buffer.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartPoint {
  tS: number;
  sendRateMbps: number | null;
  goodputMbps: number | null;
  bitrateMbps: number | null;
  rttMs: number | null;
  lossPercent: number | null;
  bufferS: number | null;
}

const windowS = 90; // charts show the most recent 90 s so they stay readable in long runs

const palette = {
  send: '#f59e0b',
  goodput: '#22d3ee',
  bitrate: '#a78bfa',
  rtt: '#f472b6',
  loss: '#ef4444',
  buffer: '#34d399',
  grid: 'rgba(148,163,184,0.15)',
  axis: '#94a3b8',
};

function axis(label: string, scale: string, side?: number): uPlot.Axis {
  // Only set `side` when given: an explicit undefined would override uPlot's default placement.
  return {
    label, scale, ...(side !== undefined ? { side } : {}), stroke: palette.axis, labelSize: 18, size: 44,
    grid: { stroke: palette.grid, width: 1 }, ticks: { stroke: palette.grid, width: 1 },
    font: '11px system-ui, sans-serif', labelFont: '11px system-ui, sans-serif',
  };
}

function series(label: string, stroke: string, scale: string, fill?: string): uPlot.Series {
  return { label, stroke, width: 2, scale, spanGaps: true, ...(fill ? { fill } : {}), points: { show: false } };
}

export class LiveCharts {
  private readonly points: ChartPoint[] = [];
  private readonly plots: { plot: uPlot; columns: (p: ChartPoint) => (number | null)[] }[] = [];

  /** `telemetryNote` replaces the delay chart's title when the transport has no sender telemetry (TCP). */
  constructor(container: HTMLElement, telemetryNote: string | null = null) {
    const width = Math.max(280, container.clientWidth || 560);
    const make = (title: string, height: number, s: uPlot.Series[], axes: uPlot.Axis[], columns: (p: ChartPoint) => (number | null)[], scales: uPlot.Scales) => {
      const holder = document.createElement('div');
      holder.className = 'chart';
      container.append(holder);
      const opts: uPlot.Options = {
        title, width, height, series: [{ label: 't (s)' }, ...s], axes: [{ ...axis('', 'x'), size: 30, labelSize: 0 }, ...axes],
        scales: { x: { time: false }, ...scales }, legend: { live: false }, cursor: { show: false },
      };
      const plot = new uPlot(opts, [[], ...s.map(() => [])] as unknown as uPlot.AlignedData, holder);
      this.plots.push({ plot, columns });
    };
    make('Rates (Mbit/s)', 180,
      [series('sending rate (controller)', palette.send, 'mbps'), series('goodput', palette.goodput, 'mbps', 'rgba(34,211,238,0.08)'), series('selected bitrate', palette.bitrate, 'mbps')],
      [axis('Mbit/s', 'mbps')], (p) => [p.sendRateMbps, p.goodputMbps, p.bitrateMbps], { mbps: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } });
    make(telemetryNote ?? 'Delay and loss (sender)', 150,
      [series('RTT (ms)', palette.rtt, 'ms'), series('loss (%)', palette.loss, 'pct')],
      [axis('RTT ms', 'ms'), axis('loss %', 'pct', 1)], (p) => [p.rttMs, p.lossPercent],
      { ms: { range: (_u, _min, max) => [0, Math.max(1, max * 1.2)] }, pct: { range: (_u, _min, max) => [0, Math.max(1, max * 1.2)] } });
    make('Buffer level (s)', 130,
      [series('buffer', palette.buffer, 's', 'rgba(52,211,153,0.12)')],
      [axis('s', 's')], (p) => [p.bufferS], { s: { range: (_u, _min, max) => [0, Math.max(4, max * 1.1)] } });
    new ResizeObserver(() => this.resize(container)).observe(container);
  }

  push(point: ChartPoint): void {
    this.points.push(point);
    while (this.points.length > 0 && point.tS - (this.points[0]?.tS ?? point.tS) > windowS) this.points.shift();
    for (const { plot, columns } of this.plots) {
      const xs = this.points.map((p) => p.tS);
      const ys = this.points.map(columns);
      const data = [xs, ...ys[0] ? ys[0].map((_, i) => ys.map((row) => row[i] ?? null)) : []];
      plot.setData(data as unknown as uPlot.AlignedData);
    }
  }

  private resize(container: HTMLElement): void {
    const width = Math.max(280, container.clientWidth);
    for (const { plot } of this.plots) plot.setSize({ width, height: plot.height });
  }
}

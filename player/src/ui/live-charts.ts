// Live time-series charts for one session (uPlot): rates under the link's capacity, delay beside the link's queueing
// delay, and the player's buffer; stalls are shaded on every chart. The page's 1 s samples and the network's bins
// arrive on their own clocks, so each chart draws the union of their times with gaps spanned.
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

/** One bin of the emulated link the session's media crosses, on the session's clock (s since it started). */
export interface NetworkPoint {
  tS: number;
  capacityMbps: number | null;
  queueDelayMs: number | null;
}

export interface StallInterval {
  startS: number;
  /** null while the stall lasts. */
  endS: number | null;
}

/** Charts show the most recent 90 s so they stay readable in long runs (the downloaded JSON keeps everything). */
const WINDOW_S = 90;

export const CHART_PALETTE = {
  capacity: '#e2e8f0',
  send: '#f59e0b',
  goodput: '#22d3ee',
  bitrate: '#a78bfa',
  rtt: '#f472b6',
  queue: '#fb923c',
  loss: '#ef4444',
  buffer: '#34d399',
  stall: 'rgba(239,68,68,0.18)',
  grid: 'rgba(148,163,184,0.15)',
  axis: '#94a3b8',
  background: '#0f1527',
};

function axis(label: string, scale: string, side?: number): uPlot.Axis {
  // Only set `side` when given: an explicit undefined would override uPlot's default placement.
  return {
    label, scale, ...(side !== undefined ? { side } : {}), stroke: CHART_PALETTE.axis, labelSize: 18, size: 44,
    grid: { stroke: CHART_PALETTE.grid, width: 1 }, ticks: { stroke: CHART_PALETTE.grid, width: 1 },
    font: '11px system-ui, sans-serif', labelFont: '11px system-ui, sans-serif',
  };
}

function series(label: string, stroke: string, scale: string, extra: Partial<uPlot.Series> = {}): uPlot.Series {
  return { label, stroke, width: 2, scale, spanGaps: true, points: { show: false }, ...extra };
}

/** A row of one chart's columns, from whichever source has a value at that time. */
type Columns = (p: ChartPoint | null, n: NetworkPoint | null) => (number | null)[];

interface Chart {
  title: string;
  holder: HTMLElement;
  plot: uPlot;
  columns: Columns;
  /** Legend entries for the exported image (uPlot's legend is HTML, not on the canvas). */
  legend: Array<{ label: string; color: string; network: boolean }>;
}

/** Series drawn from the network's bins: left out (line and legend) until a link has bins for this pane. */
const NETWORK_SERIES = new Set(['link capacity', 'link queueing delay p95 (ms)']);

export class LiveCharts {
  private readonly points: ChartPoint[] = [];
  private readonly network: NetworkPoint[] = [];
  private stalls: StallInterval[] = [];
  private readonly charts: Chart[] = [];
  private networkShown = true;

  /** `telemetryNote` replaces the delay chart's title when the transport has no sender telemetry (TCP). */
  constructor(container: HTMLElement, telemetryNote: string | null = null) {
    const width = Math.max(280, container.clientWidth || 560);
    const shadeStalls = (u: uPlot): void => this.drawStalls(u);
    const make = (name: string, title: string, height: number, s: uPlot.Series[], axes: uPlot.Axis[], columns: Columns, scales: uPlot.Scales) => {
      const holder = document.createElement('div');
      holder.className = 'chart';
      holder.dataset.chart = name;
      container.append(holder);
      const opts: uPlot.Options = {
        title, width, height, series: [{ label: 't (s)' }, ...s], axes: [{ ...axis('', 'x'), size: 30, labelSize: 0 }, ...axes],
        scales: { x: { time: false }, ...scales }, legend: { live: false }, cursor: { show: false },
        hooks: { drawClear: [shadeStalls] },
      };
      const plot = new uPlot(opts, [[], ...s.map(() => [])] as unknown as uPlot.AlignedData, holder);
      const legend = s.map((x) => ({ label: String(x.label ?? ''), color: String(x.stroke ?? ''), network: NETWORK_SERIES.has(String(x.label)) }));
      this.charts.push({ title, holder, plot, columns, legend });
    };
    make('rates', 'Rates (Mbit/s)', 190,
      [
        series('link capacity', CHART_PALETTE.capacity, 'mbps', { width: 1.5, dash: [6, 4], fill: 'rgba(226,232,240,0.06)' }),
        series('sending rate (controller)', CHART_PALETTE.send, 'mbps'),
        series('goodput', CHART_PALETTE.goodput, 'mbps', { fill: 'rgba(34,211,238,0.08)' }),
        series('selected bitrate', CHART_PALETTE.bitrate, 'mbps'),
      ],
      [axis('Mbit/s', 'mbps')], (p, n) => [n?.capacityMbps ?? null, p?.sendRateMbps ?? null, p?.goodputMbps ?? null, p?.bitrateMbps ?? null],
      { mbps: { range: (_u, _min, max) => [0, Math.max(1, max * 1.1)] } });
    make('delay', telemetryNote ?? 'Delay and loss', 160,
      [series('RTT (ms)', CHART_PALETTE.rtt, 'ms'), series('link queueing delay p95 (ms)', CHART_PALETTE.queue, 'ms', { fill: 'rgba(251,146,60,0.10)' }), series('loss (%)', CHART_PALETTE.loss, 'pct')],
      [axis('ms', 'ms'), axis('loss %', 'pct', 1)], (p, n) => [p?.rttMs ?? null, n?.queueDelayMs ?? null, p?.lossPercent ?? null],
      { ms: { range: (_u, _min, max) => [0, Math.max(1, max * 1.2)] }, pct: { range: (_u, _min, max) => [0, Math.max(1, max * 1.2)] } });
    make('buffer', 'Buffer level (s)', 130,
      [series('buffer', CHART_PALETTE.buffer, 's', { fill: 'rgba(52,211,153,0.12)' })],
      [axis('s', 's')], (p) => [p?.bufferS ?? null], { s: { range: (_u, _min, max) => [0, Math.max(4, max * 1.1)] } });
    this.showNetwork(false);
    new ResizeObserver(() => this.resize(container)).observe(container);
  }

  /** Shows or leaves out the network's series: on loopback there is no link, and no empty legend entry for one. */
  private showNetwork(show: boolean): void {
    if (show === this.networkShown) return;
    this.networkShown = show;
    for (const { plot, legend } of this.charts) {
      const rows = [...plot.root.querySelectorAll<HTMLElement>('.u-legend .u-series')];
      legend.forEach((entry, i) => {
        if (!entry.network) return;
        plot.setSeries(i + 1, { show });
        const row = rows.find((r) => r.textContent?.trim() === entry.label);
        if (row) row.style.display = show ? '' : 'none';
      });
    }
  }

  push(point: ChartPoint): void {
    this.points.push(point);
    this.redraw();
  }

  /** Replaces the link's bins (session clock); called whenever the network feed has more. */
  setNetwork(points: readonly NetworkPoint[]): void {
    this.network.splice(0, this.network.length, ...points);
    this.showNetwork(points.length > 0);
    this.redraw();
  }

  setStalls(stalls: readonly StallInterval[]): void {
    this.stalls = stalls.slice();
    for (const c of this.charts) c.holder.dataset.stalls = String(stalls.length);
  }

  /** The charts as drawn, each with its title and legend, for the run's PNG (run-export.ts). */
  canvases(): Array<{ title: string; canvas: HTMLCanvasElement; legend: Array<{ label: string; color: string }> }> {
    return this.charts.map((c) => ({
      title: c.title, canvas: c.plot.ctx.canvas,
      legend: c.legend.filter((e) => this.networkShown || !e.network).map(({ label, color }) => ({ label, color })),
    }));
  }

  private redraw(): void {
    const latestS = Math.max(this.points.at(-1)?.tS ?? 0, this.network.at(-1)?.tS ?? 0);
    const fromS = latestS - WINDOW_S;
    const rows = new Map<number, { p: ChartPoint | null; n: NetworkPoint | null }>();
    for (const p of this.points) if (p.tS >= fromS) rows.set(p.tS, { p, n: null });
    for (const n of this.network) {
      if (n.tS < fromS || n.tS > latestS) continue;
      const row = rows.get(n.tS);
      if (row) row.n = n;
      else rows.set(n.tS, { p: null, n });
    }
    const xs = [...rows.keys()].sort((a, b) => a - b);
    for (const { plot, columns, holder } of this.charts) {
      const ys = xs.map((x) => { const r = rows.get(x)!; return columns(r.p, r.n); });
      // One column per series even before the first row (uPlot wants them all).
      const data = [xs, ...Array.from({ length: plot.series.length - 1 }, (_, i) => ys.map((row) => row[i] ?? null))];
      plot.setData(data as unknown as uPlot.AlignedData);
      // How many points each series drew, by legend label: lets a test see the network on the charts.
      holder.dataset.points = JSON.stringify(Object.fromEntries((plot.series.slice(1)).map((s, i) => [s.label, (data[i + 1] ?? []).filter((v) => v !== null).length])));
    }
  }

  private drawStalls(u: uPlot): void {
    if (this.stalls.length === 0) return;
    const { ctx, bbox } = u;
    const xMin = u.scales.x?.min ?? 0;
    const xMax = u.scales.x?.max ?? 0;
    ctx.save();
    ctx.fillStyle = CHART_PALETTE.stall;
    for (const s of this.stalls) {
      const start = Math.max(s.startS, xMin);
      const end = Math.min(s.endS ?? xMax, xMax);
      if (end <= start) continue;
      const left = u.valToPos(start, 'x', true);
      const right = u.valToPos(end, 'x', true);
      ctx.fillRect(left, bbox.top, Math.max(1, right - left), bbox.height);
    }
    ctx.restore();
  }

  private resize(container: HTMLElement): void {
    const width = Math.max(280, container.clientWidth);
    for (const { plot } of this.charts) plot.setSize({ width, height: plot.height });
  }
}

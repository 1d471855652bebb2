// Small, dependency-free SVG charts for benchmark reports: bars with error bars, a throughput/delay scatter,
// and time series. Output is standalone SVG (fonts and colours inline) so it renders the same everywhere.

const WIDTH = 760;
const HEIGHT = 420;
const MARGIN = { top: 48, right: 170, bottom: 64, left: 72 };
const PALETTE = ['#2563eb', '#dc2626', '#16a34a', '#d97706', '#7c3aed', '#0891b2', '#db2777', '#65a30d', '#475569', '#b45309'];

export function colorFor(index: number): string {
  return PALETTE[index % PALETTE.length] as string;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** "Nice" tick values covering [min, max] (about `count` of them). */
export function niceTicks(min: number, max: number, count = 5): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [0, 1];
  if (max === min) max = min + 1;
  const rawStep = (max - min) / count;
  const magnitude = 10 ** Math.floor(Math.log10(rawStep));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= rawStep) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let v = Math.floor(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

function formatTick(value: number): string {
  if (value === 0) return '0';
  const abs = Math.abs(value);
  if (abs >= 1000) return `${(value / 1000).toPrecision(3).replace(/\.?0+$/, '')}k`;
  return Number(value.toPrecision(3)).toString();
}

interface Frame {
  parts: string[];
  x: (v: number) => number;
  y: (v: number) => number;
}

function frame(title: string, xLabel: string, yLabel: string, xDomain: [number, number], yDomain: [number, number], xTicks: number[] | null, reverseX = false): Frame {
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const [x0, x1] = xDomain;
  const [y0, y1] = yDomain;
  const x = (v: number) => {
    const f = (v - x0) / (x1 - x0 || 1);
    return MARGIN.left + (reverseX ? 1 - f : f) * plotW;
  };
  const y = (v: number) => MARGIN.top + (1 - (v - y0) / (y1 - y0 || 1)) * plotH;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="DejaVu Sans, Arial, sans-serif">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`,
    `<text x="${WIDTH / 2}" y="26" text-anchor="middle" font-size="16" font-weight="bold" fill="#111827">${escapeXml(title)}</text>`,
  ];
  for (const t of niceTicks(y0, y1)) {
    if (t < y0 - 1e-12 || t > y1 + 1e-12) continue;
    parts.push(`<line x1="${MARGIN.left}" x2="${MARGIN.left + plotW}" y1="${y(t)}" y2="${y(t)}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${MARGIN.left - 8}" y="${y(t) + 4}" text-anchor="end" font-size="11" fill="#374151">${formatTick(t)}</text>`);
  }
  if (xTicks) {
    for (const t of xTicks) {
      if (t < Math.min(x0, x1) - 1e-12 || t > Math.max(x0, x1) + 1e-12) continue;
      parts.push(`<line x1="${x(t)}" x2="${x(t)}" y1="${MARGIN.top}" y2="${MARGIN.top + plotH}" stroke="#f3f4f6"/>`);
      parts.push(`<text x="${x(t)}" y="${MARGIN.top + plotH + 16}" text-anchor="middle" font-size="11" fill="#374151">${formatTick(t)}</text>`);
    }
  }
  parts.push(`<rect x="${MARGIN.left}" y="${MARGIN.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#9ca3af"/>`);
  parts.push(`<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 16}" text-anchor="middle" font-size="12" fill="#111827">${escapeXml(xLabel)}</text>`);
  parts.push(`<text transform="translate(18 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle" font-size="12" fill="#111827">${escapeXml(yLabel)}</text>`);
  return { parts, x, y };
}

function legend(parts: string[], names: string[], xOffset = 16, colorIndices?: number[]): void {
  names.forEach((name, i) => {
    const y = MARGIN.top + 8 + i * 20;
    const x = WIDTH - MARGIN.right + xOffset;
    parts.push(`<rect x="${x}" y="${y - 9}" width="12" height="12" fill="${colorFor(colorIndices?.[i] ?? i)}"/>`);
    parts.push(`<text x="${x + 18}" y="${y + 1}" font-size="12" fill="#111827">${escapeXml(name)}</text>`);
  });
}

export interface Bar {
  label: string;
  value: number;
  error?: number;
}

/** Vertical bars with optional ± error whiskers (e.g. mean ± 95% CI). Non-finite values are drawn as "n/a". */
export function barChart(title: string, yLabel: string, bars: readonly Bar[]): string {
  const finiteTops = bars.map((b) => b.value + (b.error ?? 0)).filter(Number.isFinite);
  const yMax = Math.max(1e-9, ...finiteTops) * 1.15;
  const f = frame(title, '', yLabel, [0, bars.length], [0, yMax], null);
  const slot = (WIDTH - MARGIN.left - MARGIN.right) / Math.max(1, bars.length);
  bars.forEach((bar, i) => {
    const cx = MARGIN.left + slot * (i + 0.5);
    const w = Math.min(56, slot * 0.6);
    if (Number.isFinite(bar.value)) {
      f.parts.push(`<rect x="${cx - w / 2}" y="${f.y(bar.value)}" width="${w}" height="${f.y(0) - f.y(bar.value)}" fill="${colorFor(i)}" opacity="0.85"/>`);
      if (bar.error !== undefined && Number.isFinite(bar.error) && bar.error > 0) {
        const lo = f.y(Math.max(0, bar.value - bar.error));
        const hi = f.y(bar.value + bar.error);
        f.parts.push(`<path d="M${cx} ${lo}V${hi}M${cx - 6} ${lo}H${cx + 6}M${cx - 6} ${hi}H${cx + 6}" stroke="#111827" stroke-width="1.5"/>`);
      }
      f.parts.push(`<text x="${cx}" y="${f.y(bar.value + (bar.error ?? 0)) - 6}" text-anchor="middle" font-size="11" fill="#111827">${formatTick(bar.value)}</text>`);
    } else {
      f.parts.push(`<text x="${cx}" y="${f.y(0) - 8}" text-anchor="middle" font-size="11" fill="#6b7280">n/a</text>`);
    }
    f.parts.push(`<text transform="translate(${cx} ${f.y(0) + 14}) rotate(25)" font-size="11" fill="#111827">${escapeXml(bar.label)}</text>`);
  });
  f.parts.push('</svg>');
  return f.parts.join('\n');
}

export interface ScatterPoint {
  label: string;
  x: number;
  y: number;
  xError?: number;
  yError?: number;
}

/** One point per scheme; `reverseX` draws lower delay to the right as Pantheon's plots do. */
export function scatterChart(title: string, xLabel: string, yLabel: string, points: readonly ScatterPoint[], reverseX: boolean): string {
  const usable = points.filter((p) => Number.isFinite(p.x) && Number.isFinite(p.y));
  const xs = usable.map((p) => p.x);
  const ys = usable.map((p) => p.y);
  const xMax = Math.max(1e-9, ...xs) * 1.1;
  const yMax = Math.max(1e-9, ...ys) * 1.15;
  const f = frame(title, xLabel, yLabel, [0, xMax], [0, yMax], niceTicks(0, xMax), reverseX);
  points.forEach((p, i) => {
    if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) return;
    const cx = f.x(p.x);
    const cy = f.y(p.y);
    if (p.xError) f.parts.push(`<path d="M${f.x(Math.max(0, p.x - p.xError))} ${cy}H${f.x(p.x + p.xError)}" stroke="${colorFor(i)}" stroke-width="1.5"/>`);
    if (p.yError) f.parts.push(`<path d="M${cx} ${f.y(Math.max(0, p.y - p.yError))}V${f.y(p.y + p.yError)}" stroke="${colorFor(i)}" stroke-width="1.5"/>`);
    f.parts.push(`<circle cx="${cx}" cy="${cy}" r="6" fill="${colorFor(i)}"/>`);
  });
  legend(f.parts, points.map((p) => p.label));
  f.parts.push('</svg>');
  return f.parts.join('\n');
}

export interface Series {
  name: string;
  points: ReadonlyArray<readonly [number, number]>;
  /** Secondary series are drawn dashed and scaled to the right-hand axis. */
  axis?: 'left' | 'right';
  /** Palette index; defaults to the series' position, so charts that omit a series can keep colours stable. */
  colorIndex?: number;
}

/** Time series on a shared x axis (seconds); up to two y axes. */
export function timeSeriesChart(title: string, yLabel: string, rightLabel: string | null, series: readonly Series[]): string {
  const all = series.flatMap((s) => s.points);
  const xMax = Math.max(1, ...all.map(([t]) => t).filter(Number.isFinite));
  const left = series.filter((s) => (s.axis ?? 'left') === 'left').flatMap((s) => s.points.map(([, v]) => v));
  const right = series.filter((s) => s.axis === 'right').flatMap((s) => s.points.map(([, v]) => v));
  const leftMax = Math.max(1e-9, ...left.filter(Number.isFinite)) * 1.1;
  const rightMax = Math.max(1e-9, ...right.filter(Number.isFinite)) * 1.1;
  const f = frame(title, 'time (s)', yLabel, [0, xMax], [0, leftMax], niceTicks(0, xMax, 8));
  if (rightLabel && right.length > 0) {
    const plotRight = WIDTH - MARGIN.right;
    for (const t of niceTicks(0, rightMax)) {
      if (t > rightMax) continue;
      const yy = f.y((t / rightMax) * leftMax);
      f.parts.push(`<text x="${plotRight + 6}" y="${yy + 4}" font-size="11" fill="#6b7280">${formatTick(t)}</text>`);
    }
    f.parts.push(`<text transform="translate(${WIDTH - 8} ${HEIGHT / 2}) rotate(90)" text-anchor="middle" font-size="12" fill="#6b7280">${escapeXml(rightLabel)}</text>`);
  }
  series.forEach((s, i) => {
    const scale = s.axis === 'right' ? leftMax / rightMax : 1;
    const d = s.points
      .filter(([t, v]) => Number.isFinite(t) && Number.isFinite(v))
      .map(([t, v], j) => `${j === 0 ? 'M' : 'L'}${f.x(t).toFixed(1)} ${f.y(v * scale).toFixed(1)}`)
      .join('');
    if (d) f.parts.push(`<path d="${d}" fill="none" stroke="${colorFor(s.colorIndex ?? i)}" stroke-width="1.8"${s.axis === 'right' ? ' stroke-dasharray="5 3"' : ''}/>`);
  });
  legend(f.parts, series.map((s) => s.name), rightLabel && right.length > 0 ? 40 : 16, series.map((s, i) => s.colorIndex ?? i));
  f.parts.push('</svg>');
  return f.parts.join('\n');
}

// A small dependency-free SVG line chart: several series over one x axis, optional log x, legend.
export interface ChartSeries {
  name: string;
  points: Array<[number, number]>;
  dashed?: boolean;
}

export interface ChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: ChartSeries[];
  logX?: boolean;
  yMin?: number;
  yMax?: number;
}

const palette = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#17becf'];

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function niceTicks(min: number, max: number, count: number): number[] {
  const span = max - min || 1;
  const rough = span / count;
  const power = Math.pow(10, Math.floor(Math.log10(rough)));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => span / s <= count) ?? 10 * power;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

function formatTick(v: number): string {
  return Math.abs(v) >= 1000 || (Math.abs(v) < 0.01 && v !== 0) ? v.toExponential(0) : String(Number(v.toPrecision(4)));
}

export function renderChart(spec: ChartSpec): string {
  const width = 720;
  const height = 440;
  const left = 70;
  const right = 170;
  const top = 40;
  const bottom = 60;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const finite = spec.series.flatMap((s) => s.points).filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
  const xs = finite.map(([x]) => x);
  const ys = finite.map(([, y]) => y);
  const tx = (x: number): number => (spec.logX ? Math.log10(Math.max(x, 1e-12)) : x);
  let xMin = xs.length ? Math.min(...xs.map(tx)) : 0;
  let xMax = xs.length ? Math.max(...xs.map(tx)) : 1;
  if (xMin === xMax) xMax = xMin + 1;
  const yMin = spec.yMin ?? Math.min(0, ...ys);
  let yMax = spec.yMax ?? (ys.length ? Math.max(...ys) * 1.05 : 1);
  if (yMax <= yMin) yMax = yMin + 1;
  const px = (x: number): number => left + ((tx(x) - xMin) / (xMax - xMin)) * plotW;
  const py = (y: number): number => top + plotH - ((Math.min(Math.max(y, yMin), yMax) - yMin) / (yMax - yMin)) * plotH;
  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${width}" height="${height}" fill="white"/>`);
  parts.push(`<text x="${width / 2 - right / 2}" y="22" text-anchor="middle" font-size="15">${escapeXml(spec.title)}</text>`);
  const xTicks = spec.logX
    ? xs.filter((v, i, all) => all.indexOf(v) === i).sort((a, b) => a - b)
    : niceTicks(xMin, xMax, 8);
  for (const t of xTicks) {
    const x = px(t);
    parts.push(`<line x1="${x}" y1="${top}" x2="${x}" y2="${top + plotH}" stroke="#eee"/>`);
    parts.push(`<text x="${x}" y="${top + plotH + 18}" text-anchor="middle">${formatTick(t)}</text>`);
  }
  for (const t of niceTicks(yMin, yMax, 6)) {
    const y = py(t);
    parts.push(`<line x1="${left}" y1="${y}" x2="${left + plotW}" y2="${y}" stroke="#eee"/>`);
    parts.push(`<text x="${left - 8}" y="${y + 4}" text-anchor="end">${formatTick(t)}</text>`);
  }
  parts.push(`<rect x="${left}" y="${top}" width="${plotW}" height="${plotH}" fill="none" stroke="#333"/>`);
  parts.push(`<text x="${left + plotW / 2}" y="${height - 18}" text-anchor="middle">${escapeXml(spec.xLabel)}</text>`);
  parts.push(`<text transform="translate(18 ${top + plotH / 2}) rotate(-90)" text-anchor="middle">${escapeXml(spec.yLabel)}</text>`);
  spec.series.forEach((series, index) => {
    const color = palette[index % palette.length] ?? '#000';
    const points = series.points.filter(([x, y]) => Number.isFinite(x) && Number.isFinite(y));
    if (points.length > 0) {
      const d = points.map(([x, y], i) => `${i ? 'L' : 'M'}${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ');
      parts.push(`<path d="${d}" fill="none" stroke="${color}" stroke-width="2"${series.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
      if (points.length <= 40) {
        for (const [x, y] of points) parts.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${color}"/>`);
      }
    }
    const ly = top + 10 + index * 20;
    parts.push(`<line x1="${left + plotW + 12}" y1="${ly}" x2="${left + plotW + 36}" y2="${ly}" stroke="${color}" stroke-width="2"${series.dashed ? ' stroke-dasharray="6 4"' : ''}/>`);
    parts.push(`<text x="${left + plotW + 42}" y="${ly + 4}">${escapeXml(series.name)}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n') + '\n';
}

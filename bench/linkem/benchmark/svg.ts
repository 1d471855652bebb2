// A minimal SVG line chart (no dependencies): offered vs delivered packet rate.
export interface Series {
  label: string;
  color: string;
  points: [number, number][];
}

export function lineChartSvg(title: string, xLabel: string, yLabel: string, series: Series[]): string {
  const width = 640;
  const height = 400;
  const margin = { left: 70, right: 20, top: 40, bottom: 50 };
  const all = series.flatMap((s) => s.points);
  const xMax = Math.max(1, ...all.map((p) => p[0]));
  const yMax = Math.max(1, ...all.map((p) => p[1]));
  const x = (v: number): number => margin.left + (v / xMax) * (width - margin.left - margin.right);
  const y = (v: number): number => height - margin.bottom - (v / yMax) * (height - margin.top - margin.bottom);
  const ticks = [0, 0.25, 0.5, 0.75, 1];
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2}" y="20" text-anchor="middle" font-size="14">${title}</text>`,
    `<text x="${width / 2}" y="${height - 10}" text-anchor="middle">${xLabel}</text>`,
    `<text x="15" y="${height / 2}" text-anchor="middle" transform="rotate(-90 15 ${height / 2})">${yLabel}</text>`,
  ];
  for (const t of ticks) {
    parts.push(`<line x1="${margin.left}" x2="${width - margin.right}" y1="${y(t * yMax)}" y2="${y(t * yMax)}" stroke="#ddd"/>`);
    parts.push(`<text x="${margin.left - 5}" y="${y(t * yMax) + 4}" text-anchor="end">${Math.round(t * yMax)}</text>`);
    parts.push(`<text x="${x(t * xMax)}" y="${height - margin.bottom + 15}" text-anchor="middle">${Math.round(t * xMax)}</text>`);
  }
  series.forEach((s, i) => {
    const d = s.points.map((p, j) => `${j === 0 ? 'M' : 'L'}${x(p[0]).toFixed(1)},${y(p[1]).toFixed(1)}`).join(' ');
    parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
    for (const p of s.points) parts.push(`<circle cx="${x(p[0]).toFixed(1)}" cy="${y(p[1]).toFixed(1)}" r="3" fill="${s.color}"/>`);
    parts.push(`<text x="${margin.left + 10}" y="${margin.top + 15 * (i + 1)}" fill="${s.color}">${s.label}</text>`);
  });
  parts.push('</svg>');
  return parts.join('\n');
}

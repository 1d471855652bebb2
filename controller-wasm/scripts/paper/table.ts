// Fixed-width text tables for the terminal, and CSV for files.
export type Cell = string | number | null;

export function formatCell(value: Cell, digits = 1): string {
  if (value === null || (typeof value === 'number' && !Number.isFinite(value))) return '-';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : value.toFixed(digits);
  return value;
}

export function renderTable(headers: string[], rows: Cell[][], digits = 1): string {
  const text = rows.map((row) => row.map((cell) => formatCell(cell, digits)));
  const widths = headers.map((h, i) => Math.max(h.length, ...text.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => c.padStart(widths[i] ?? 0)).join('  ');
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...text.map(line)].join('\n');
}

export function toCsv(headers: string[], rows: Cell[][]): string {
  const quote = (cell: Cell): string => {
    if (cell === null) return '';
    const s = String(cell);
    return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [headers, ...rows].map((row) => row.map(quote).join(',')).join('\n') + '\n';
}

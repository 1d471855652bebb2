// mahimahi packet-delivery traces (same rules as the C loader, checked early so a bad
// trace is reported before any namespace exists): one non-negative integer millisecond
// timestamp per line, non-decreasing, no blank lines, last timestamp > 0.
import { readFileSync } from 'node:fs';

export const OPPORTUNITY_BYTES = 1504;

export class TraceError extends Error {}

export function parseTrace(text: string, name = 'trace'): number[] {
  const lines = text.split('\n');
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop(); // final newline
  if (lines.length === 0) throw new TraceError(`${name}: empty`);
  const timesMs: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    if (line === '') throw new TraceError(`${name} line ${i + 1}: blank line`);
    if (!/^[0-9]{1,15}$/.test(line)) {
      throw new TraceError(`${name} line ${i + 1}: not a non-negative integer millisecond timestamp: ${JSON.stringify(line.slice(0, 40))}`);
    }
    const t = Number(line);
    const previous = timesMs[timesMs.length - 1];
    if (previous !== undefined && t < previous) throw new TraceError(`${name} line ${i + 1}: timestamp decreases (${previous} then ${t})`);
    timesMs.push(t);
  }
  if (timesMs[timesMs.length - 1] === 0) throw new TraceError(`${name}: last timestamp must be > 0 (the trace loops shifted by it)`);
  return timesMs;
}

export function loadTrace(path: string): number[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new TraceError(`trace ${path}: ${(e as Error).message}`);
  }
  return parseTrace(text, `trace ${path}`);
}

/** Delivery opportunities whose time (ms from the link's start, trace looping) lies in [fromMs, toMs). */
export function opportunitiesBetween(timesMs: readonly number[], fromMs: number, toMs: number): number {
  const periodMs = timesMs[timesMs.length - 1] ?? 0;
  if (periodMs <= 0 || toMs <= fromMs) return 0;
  const countBefore = (tMs: number): number => {
    // opportunities strictly before tMs
    if (tMs <= 0) return 0;
    // Loop k holds k·period + t_i with t_i in [0, period]: loops before `loops` lie wholly
    // before tMs, loop `loops` partly, later loops not at all.
    const loops = Math.max(0, Math.ceil(tMs / periodMs) - 1);
    const rest = tMs - loops * periodMs;
    let lo = 0;
    let hi = timesMs.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((timesMs[mid] ?? 0) < rest) lo = mid + 1;
      else hi = mid;
    }
    return loops * timesMs.length + lo;
  };
  return countBefore(toMs) - countBefore(fromMs);
}

/** Mean capacity of a trace in bit/s. */
export function traceMeanRateBps(timesMs: readonly number[]): number {
  const periodMs = timesMs[timesMs.length - 1] ?? 0;
  return periodMs > 0 ? (timesMs.length * OPPORTUNITY_BYTES * 8 * 1000) / periodMs : 0;
}

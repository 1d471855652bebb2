// mahimahi packet-delivery traces, read by the rules every reader in the repository shares (netpath/README.md,
// "Trace format"; the C reader is netpath/trace_format.c, and both are held to netpath/test-vectors/traces/).
// Checked here too so a bad trace is reported before any namespace exists.
// No Node imports here, so the browser (the controller playground) parses traces with the same code.
/** Bytes a link may send at one delivery opportunity (one trace line), as mahimahi's mm-link. */
export const OPPORTUNITY_BYTES = 1504;
/** Largest timestamp: mahimahi reads each line into an int. */
export const TRACE_MAX_MS = 2147483647;
/** Largest number of timestamps; a longer file is a mistake, not a trace. */
export const TRACE_MAX_OPPORTUNITIES = 100_000_000;

export class TraceError extends Error {}

/** Timestamps (ms) of `text`; `name` labels errors, which read "NAME:LINE: reason" or "NAME: reason". */
export function parseTrace(text: string, name = 'trace'): number[] {
  if (text.length === 0) throw new TraceError(`${name}: empty file`);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop(); // the final newline ends the last line, it starts none
  const timesMs: number[] = [];
  for (let i = 0; i < lines.length; i++) {
    const at = `${name}:${i + 1}`;
    const line = (lines[i] ?? '').replace(/\r$/, '').replace(/^[ \t]+|[ \t]+$/g, '');
    if (line === '' || line.startsWith('#')) continue; // blank and comment lines carry nothing
    if (!/^[0-9]+$/.test(line)) throw new TraceError(`${at}: expected a non-negative integer millisecond timestamp`);
    const t = Number(line);
    if (t > TRACE_MAX_MS) throw new TraceError(`${at}: timestamp exceeds the maximum of ${TRACE_MAX_MS} ms`);
    const previous = timesMs[timesMs.length - 1];
    if (previous !== undefined && t < previous) throw new TraceError(`${at}: timestamp decreases (${t} ms after ${previous} ms)`);
    if (timesMs.length === TRACE_MAX_OPPORTUNITIES) throw new TraceError(`${at}: more than ${TRACE_MAX_OPPORTUNITIES} timestamps`);
    timesMs.push(t);
  }
  if (timesMs.length === 0) throw new TraceError(`${name}: no timestamps (only blank or comment lines)`);
  if (timesMs[timesMs.length - 1] === 0) {
    throw new TraceError(`${name}: last timestamp is 0 (the trace repeats shifted by it, so it must be > 0)`);
  }
  return timesMs;
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

/** A window of the link's time, in ms from its start, [fromMs, toMs). */
export interface TraceWindow {
  fromMs: number;
  toMs: number;
}

/**
 * A trace of a constant rate for `lengthMs` with no delivery opportunity inside each `outage` window: the link's
 * capacity is zero there and packets wait in (or overflow) the queue, as on a radio link that blacks out. The rate is
 * spread over milliseconds as a constant `--down-mbps` link spreads it (one 1504-byte opportunity per 12032/R µs).
 */
export function rateTraceWithOutages(rateMbps: number, lengthMs: number, outages: readonly TraceWindow[] = []): string {
  if (!(rateMbps > 0) || !Number.isInteger(lengthMs) || lengthMs < 1) throw new TraceError(`rate ${rateMbps} Mbit/s over ${lengthMs} ms: expected a positive rate and whole ms ≥ 1`);
  const perMs = (rateMbps * 1e6) / (OPPORTUNITY_BYTES * 8 * 1000);
  const lines: string[] = [];
  for (let ms = 1; ms <= lengthMs; ms += 1) {
    if (outages.some((w) => ms >= w.fromMs && ms < w.toMs)) continue;
    const count = Math.floor(ms * perMs) - Math.floor((ms - 1) * perMs);
    for (let i = 0; i < count; i += 1) lines.push(String(ms));
  }
  // The trace loops shifted by its last time: end on the last millisecond so the period is exactly lengthMs.
  if (lines.at(-1) !== String(lengthMs)) lines.push(String(lengthMs));
  return `${lines.join('\n')}\n`;
}

// Writes a session's telemetry lines to a subscriber's stream (PROTOCOL.md §2.5), bounded: a reader that
// does not keep up loses the oldest unwritten lines instead of growing memory. A subscriber that draws charts asks
// for at most one line per `interval_ms`: a line per monitor interval is ~700 B every ~50 ms, ~100 kbit/s on the
// same link as the media it describes.
import { DELIVERY_STREAM, TELEMETRY_INTERVAL_QUERY_KEY, U48_MAX, requestQueryValues, type RequestFrame } from '@pcc-stream/protocol';
import type { MiTelemetry } from '../telemetry/mi-telemetry.ts';
import type { RequestStream } from './request-stream.ts';

const MAX_QUEUED_LINES = 1000;

/** The longest interval a subscriber may ask for. */
export const MAX_TELEMETRY_INTERVAL_MS = 60_000;

/** The line interval a telemetry request path asks for (0: every line), or why it is refused. */
export function telemetryIntervalMs(path: string): { ok: true; intervalMs: number } | { ok: false; reason: string } {
  const values = requestQueryValues(path, TELEMETRY_INTERVAL_QUERY_KEY);
  if (values.length === 0) return { ok: true, intervalMs: 0 };
  const raw = values[0]!;
  const intervalMs = Number(raw);
  if (values.length > 1 || !/^[0-9]{1,6}$/.test(raw) || intervalMs > MAX_TELEMETRY_INTERVAL_MS) {
    return { ok: false, reason: `${TELEMETRY_INTERVAL_QUERY_KEY} must appear once, as a whole number of ms from 0 to ${MAX_TELEMETRY_INTERVAL_MS}` };
  }
  return { ok: true, intervalMs };
}

/** Timers as the throttle uses them (tests pass their own). */
export interface ThrottleTimers {
  nowMs(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: ThrottleTimers = {
  nowMs: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/**
 * Passes on at most one line per `intervalMs`, the newest: a line offered sooner after the last one passed waits,
 * replacing any line already waiting, until the interval has gone by. 0 passes every line at once. Each line is a
 * whole record (cumulative counters, the latest rates), so the one passed on stands for those it replaced.
 */
export class LineThrottle {
  private lastPassedMs = -Infinity;
  private waiting: string | null = null;
  private timer: unknown = null;

  constructor(private readonly intervalMs: number, private readonly pass: (line: string) => void, private readonly timers: ThrottleTimers = realTimers) {}

  offer(line: string): void {
    const now = this.timers.nowMs();
    if (this.waiting === null && now - this.lastPassedMs >= this.intervalMs) {
      this.lastPassedMs = now;
      this.pass(line);
      return;
    }
    this.waiting = line;
    this.timer ??= this.timers.setTimeout(this.passWaiting, this.lastPassedMs + this.intervalMs - now);
  }

  private readonly passWaiting = (): void => {
    this.timer = null;
    const line = this.waiting;
    this.waiting = null;
    if (line === null) return;
    this.lastPassedMs = this.timers.nowMs();
    this.pass(line);
  };

  /** Drops a waiting line. */
  close(): void {
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    this.waiting = null;
  }
}

export async function serveTelemetryFeed(telemetry: MiTelemetry, request: RequestFrame, stream: RequestStream): Promise<void> {
  const interval = telemetryIntervalMs(request.path);
  if (!interval.ok) {
    await stream.write({
      type: 'response', requestId: request.requestId, status: 400, delivery: DELIVERY_STREAM, totalSize: 0,
      bodyOffset: 0, bodyLength: 0, contentType: 'text/plain', reason: interval.reason,
    });
    await stream.finish();
    return;
  }
  const ok = await stream.write({
    type: 'response', requestId: request.requestId, status: 200, delivery: DELIVERY_STREAM, totalSize: U48_MAX,
    bodyOffset: 0, bodyLength: U48_MAX, contentType: 'application/x-ndjson', reason: '',
  });
  if (!ok) return;
  const encoder = new TextEncoder();
  const queue: string[] = [];
  let writing = false;
  let open = true;
  const pump = async (): Promise<void> => {
    if (writing) return;
    writing = true;
    while (open && queue.length > 0) {
      const batch = queue.splice(0, queue.length).join('');
      if (!(await stream.writeRaw(encoder.encode(batch)))) open = false;
    }
    writing = false;
  };
  const throttle = new LineThrottle(interval.intervalMs, (line) => {
    queue.push(line);
    if (queue.length > MAX_QUEUED_LINES) queue.splice(0, queue.length - MAX_QUEUED_LINES);
    void pump();
  });
  const unsubscribe = telemetry.subscribe((line) => throttle.offer(line));
  await stream.untilCancelled();
  open = false;
  unsubscribe();
  throttle.close();
  await stream.finish();
}

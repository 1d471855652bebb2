// Maps one line of the server's telemetry feed (JSONL, one object per monitor interval; PROTOCOL.md) to the three
// quantities the charts draw. Unknown or missing fields give null rather than an error: the feed may grow.
import type { TelemetryPoint } from './worker-messages.ts';

function pick(obj: Record<string, unknown>, keys: string[]): number | null {
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === 'number' && Number.isFinite(v)) return v;
  }
  return null;
}

export function telemetryPointFrom(value: unknown, receivedAtMs: number): TelemetryPoint | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const obj = value as Record<string, unknown>;
  return {
    receivedAtMs,
    // Datagram sessions report the controller's pacing rate; quic-stream sessions report quinn's statistics.
    sendRateBps: pick(obj, ['rate_bps', 'pacing_rate_bps', 'send_rate_bps', 'delivery_rate_bps', 'throughput_bps']),
    rttUs: pick(obj, ['srtt_us', 'rtt_us', 'latest_rtt_us']),
    lossRate: pick(obj, ['loss_rate']),
    raw: obj,
  };
}

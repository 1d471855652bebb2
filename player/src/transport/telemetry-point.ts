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
    sendRateBps: pick(obj, ['sendRateBps', 'rateBps', 'pacingRateBps', 'send_rate_bps', 'rate_bps']),
    rttUs: pick(obj, ['rttUs', 'srttUs', 'avgRttUs', 'rtt_us', 'srtt_us']),
    lossRate: pick(obj, ['lossRate', 'loss_rate', 'loss']),
    raw: obj,
  };
}

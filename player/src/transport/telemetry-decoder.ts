// Maps lines of the server's telemetry feed (JSONL, PROTOCOL.md §2.5) to the quantities the charts draw. Datagram
// sessions report the controller's pacing rate and loss rate per monitor interval; quic-stream sessions report
// quinn's cumulative counters every 100 ms, from which rate and loss follow as differences. Unknown or missing
// fields give null rather than an error: the feed may grow.
import type { TelemetryPoint } from './worker-messages.ts';

function num(obj: Record<string, unknown>, key: string): number | null {
  const v = obj[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : null;
}

export class TelemetryDecoder {
  private previous: { tMs: number; txBytes: number; lostBytes: number | null } | null = null;

  decode(value: unknown, receivedAtMs: number): TelemetryPoint | null {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
    const obj = value as Record<string, unknown>;
    let sendRateBps = num(obj, 'rate_bps');
    let lossRate = num(obj, 'loss_rate');
    const tMs = num(obj, 't_ms');
    const txBytes = num(obj, 'udp_tx_bytes');
    const lostBytes = num(obj, 'lost_bytes');
    if (tMs !== null && txBytes !== null) {
      const prev = this.previous;
      if (prev && tMs > prev.tMs && txBytes >= prev.txBytes) {
        const sentDelta = txBytes - prev.txBytes;
        sendRateBps ??= (sentDelta * 8) / ((tMs - prev.tMs) / 1000);
        if (lossRate === null && lostBytes !== null && prev.lostBytes !== null && sentDelta > 0) {
          lossRate = Math.max(0, Math.min(1, (lostBytes - prev.lostBytes) / sentDelta));
        }
      }
      this.previous = { tMs, txBytes, lostBytes };
    }
    return { receivedAtMs, sendRateBps, rttUs: num(obj, 'srtt_us') ?? num(obj, 'latest_rtt_us'), lossRate, raw: obj };
  }
}

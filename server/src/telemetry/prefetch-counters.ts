// The player's early requests in one session (marked `pcc-prefetch=1`, PROTOCOL.md §2.6): how many were served, how
// many the player cancelled and the body bytes sent for those (the waste the origin paid for), how many the session's
// end interrupted and the bytes sent for those (never counted complete), for /status and every telemetry line
// (PROTOCOL.md §2.5).
import type { RequestOutcome } from '../session/transport-handler.ts';

export interface PrefetchFields {
  prefetch_requests: number;
  prefetch_cancelled: number;
  prefetch_cancelled_bytes_sent: number;
  prefetch_interrupted: number;
  prefetch_interrupted_bytes_sent: number;
}

export class PrefetchCounters {
  requests = 0;
  cancelled = 0;
  cancelledBytesSent = 0;
  interrupted = 0;
  interruptedBytesSent = 0;

  /** One early request ended: completed, or cancelled / interrupted after `bodyBytesSent` body bytes (retransmissions included). */
  record(outcome: RequestOutcome, bodyBytesSent: number): void {
    this.requests++;
    if (outcome === 'cancelled') {
      this.cancelled++;
      this.cancelledBytesSent += bodyBytesSent;
    } else if (outcome === 'interrupted') {
      this.interrupted++;
      this.interruptedBytesSent += bodyBytesSent;
    }
  }

  fields(): PrefetchFields {
    return {
      prefetch_requests: this.requests, prefetch_cancelled: this.cancelled, prefetch_cancelled_bytes_sent: this.cancelledBytesSent,
      prefetch_interrupted: this.interrupted, prefetch_interrupted_bytes_sent: this.interruptedBytesSent,
    };
  }

  /** Telemetry lines carry the fields once the session made an early request (none for sessions without the aid). */
  telemetryFields(): PrefetchFields | Record<string, never> {
    return this.requests === 0 ? {} : this.fields();
  }
}

/** Sums counts (the origin's totals over its QUIC sessions and kernel-TCP connections, for /status). */
export function sumPrefetchFields(parts: readonly PrefetchFields[]): PrefetchFields {
  const sum: PrefetchFields = {
    prefetch_requests: 0, prefetch_cancelled: 0, prefetch_cancelled_bytes_sent: 0, prefetch_interrupted: 0, prefetch_interrupted_bytes_sent: 0,
  };
  for (const p of parts) for (const k of Object.keys(sum) as Array<keyof PrefetchFields>) sum[k] += p[k];
  return sum;
}

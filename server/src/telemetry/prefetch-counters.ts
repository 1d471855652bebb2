// The player's early requests in one session (marked `pcc-prefetch=1`, PROTOCOL.md §2.6): how many were served, how
// many the player cancelled and the body bytes sent for those (the waste the origin paid for), for /status and every
// telemetry line (PROTOCOL.md §2.5).

export interface PrefetchFields {
  prefetch_requests: number;
  prefetch_cancelled: number;
  prefetch_cancelled_bytes_sent: number;
}

export class PrefetchCounters {
  requests = 0;
  cancelled = 0;
  cancelledBytesSent = 0;

  /** One early request ended: completed, or cancelled after `bodyBytesSent` body bytes (retransmissions included). */
  record(outcome: 'complete' | 'cancelled', bodyBytesSent: number): void {
    this.requests++;
    if (outcome === 'cancelled') {
      this.cancelled++;
      this.cancelledBytesSent += bodyBytesSent;
    }
  }

  fields(): PrefetchFields {
    return { prefetch_requests: this.requests, prefetch_cancelled: this.cancelled, prefetch_cancelled_bytes_sent: this.cancelledBytesSent };
  }

  /** Telemetry lines carry the fields once the session made an early request (none for sessions without the aid). */
  telemetryFields(): PrefetchFields | Record<string, never> {
    return this.requests === 0 ? {} : this.fields();
  }
}

/** Sums counts (the origin's totals over its QUIC sessions and kernel-TCP connections, for /status). */
export function sumPrefetchFields(parts: readonly PrefetchFields[]): PrefetchFields {
  const sum: PrefetchFields = { prefetch_requests: 0, prefetch_cancelled: 0, prefetch_cancelled_bytes_sent: 0 };
  for (const p of parts) {
    sum.prefetch_requests += p.prefetch_requests;
    sum.prefetch_cancelled += p.prefetch_cancelled;
    sum.prefetch_cancelled_bytes_sent += p.prefetch_cancelled_bytes_sent;
  }
  return sum;
}

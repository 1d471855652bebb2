// When the WebTransport worker tells the page how far a response body has come: at most once per interval, so a body
// arriving in thousands of datagrams is not as many messages, except for the first bytes and the completion, which go
// at once. The first bytes are the transfer's first byte for the page (the request gap it reports, the first piece
// dash.js's throughput trace counts). The empty report that goes with the RESPONSE frame (the response head) must not
// hold them back for an interval: when the rate is low, datagrams come 20-45 ms apart, and the first bytes were then
// reported at the first datagram at least one interval after the head, 25-50 ms after they had arrived.

/** Least time between two progress reports of one body (ms), but for its first bytes and its completion. */
export const PROGRESS_INTERVAL_MS = 25;

export class ProgressPacer {
  private lastReportMs = -Infinity;
  private bytesReported = false;

  /** Whether a report of `filledBytes` (complete or not) is due at `nowMs`; a due report counts as made. */
  due(nowMs: number, filledBytes: number, complete: boolean): boolean {
    const firstBytes = filledBytes > 0 && !this.bytesReported;
    if (!complete && !firstBytes && nowMs - this.lastReportMs < PROGRESS_INTERVAL_MS) return false;
    this.lastReportMs = nowMs;
    if (filledBytes > 0) this.bytesReported = true;
    return true;
  }
}

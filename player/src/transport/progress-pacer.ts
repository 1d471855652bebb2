// When the WebTransport worker tells the page how far a response body has come, and what it reports as the response
// head. At most one report per interval, so a body arriving in thousands of datagrams is not as many messages, except
// for the first bytes and the completion, which go at once.
//
// The response head (the zero-byte report dash.js's HTTPLoader takes as the end of the request's latency, its first
// trace entry, which ThroughputModel does not count) goes out with the first body bytes, not with the RESPONSE frame.
// Over HTTP the head and the body's first bytes arrive together, so dash.js's latency is the time to first byte and
// its download time starts there. Over WebTransport the RESPONSE frame comes on the request stream at once, while the
// body's datagrams wait for the sender's rate and queue: a head reported with the frame handed dash.js that wait as
// download time (bench/published/2026-11-25/webtransport-ttfb: 64 ms frame, 426 ms first byte, a 1746 kbit/s sample
// for a path at 5330). The first bytes themselves are never held back for an interval either: at a low rate datagrams
// come 20-45 ms apart, and they were reported 25-50 ms late.

/** Least time between two progress reports of one body (ms), but for its first bytes and its completion. */
export const PROGRESS_INTERVAL_MS = 25;

export class ProgressPacer {
  private lastReportMs = -Infinity;
  private bytesReported = false;

  /**
   * The reports due at `nowMs` for a body with `filledBytes` in (complete or not), as the `loaded` byte counts to post
   * in order: none, the bytes, or on the first bytes the head (0) and then the bytes. An empty body that completed is
   * its head alone. Due reports count as made.
   */
  reports(nowMs: number, filledBytes: number, complete: boolean): number[] {
    if (filledBytes === 0 && !complete) return [];
    const firstBytes = filledBytes > 0 && !this.bytesReported;
    if (!complete && !firstBytes && nowMs - this.lastReportMs < PROGRESS_INTERVAL_MS) return [];
    this.lastReportMs = nowMs;
    if (filledBytes === 0) return [0];
    this.bytesReported = true;
    return firstBytes ? [0, filledBytes] : [filledBytes];
  }
}

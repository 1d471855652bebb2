// Probe timeouts for one session (RFC 9002 §6.2): when the tracker's probe timer fires, the oldest unacknowledged
// data is queued again and a few packets may go out beyond cwnd and the peer's window, so a sender blocked by
// them still probes. A probe timeout is not a loss: the controller hears nothing of it.
import type { SentPacket, SentPacketTracker } from '@pcc-stream/protocol';

/** Packets allowed beyond the limits per probe timeout: RFC 9002 §6.2.4's "one or two"; two, so one lost probe does not cost another timeout. */
export const PROBE_CREDIT_PACKETS = 2;

export class ProbeTimeouts {
  private timeoutsSeen = 0;
  private credit = 0;

  /**
   * Runs the tracker's timers at `nowUs`. Probe data goes to `requeue` (to be resent first) and grants the
   * credit; returns the packets the time threshold declared lost, which the caller reports as losses.
   */
  run(tracker: SentPacketTracker, nowUs: number, requeue: (probe: SentPacket) => void): SentPacket[] {
    const timeout = tracker.onTimeout(nowUs);
    // A timeout that found every outstanding packet probed already still grants the credit.
    if (timeout.probes.length > 0 || tracker.probeTimeouts > this.timeoutsSeen) {
      this.timeoutsSeen = tracker.probeTimeouts;
      for (const p of timeout.probes) requeue(p);
      this.credit = PROBE_CREDIT_PACKETS;
    }
    return timeout.lost;
  }

  /** Packets that may still go out beyond cwnd and the peer's window. */
  get creditPackets(): number {
    return this.credit;
  }

  spend(): void {
    if (this.credit > 0) this.credit--;
  }
}

// The receiver's ACK policy as a host runs it (PROTOCOL.md §4.1): after each batch of received
// datagrams, and when the host's timer fires, it says whether to send an ACK now and when the host's one delayed-ACK
// timer must fire next, in microseconds. Pure logic over a DatagramReceiver (which decides when an ACK is due: every
// `ackEveryPackets`, `maxAckDelayUs` after an unacknowledged receipt, at once on reordering, duplicates or a reopened
// window); the host owns the clock and the timer. The browser worker and the Node client both run it, so they ack alike.
import type { DatagramReceiver } from './datagram-receiver.ts';

export interface AckStep {
  /** The ACK datagram to send now, or null. */
  ack: Uint8Array | null;
  /** Arm the host's timer (replacing any armed one) to fire at this time, µs on the receiver's clock; null = leave the
   *  timer as it is (none needed, or the armed one fires no later than the next ACK is due). */
  armTimerAtUs: number | null;
}

export class AckScheduler {
  /** When the host's timer is armed to fire (µs), null when it is not armed. */
  private armedAtUs: number | null = null;

  constructor(private readonly receiver: DatagramReceiver) {}

  /**
   * After the host handled received datagrams (and took what they completed) at `nowUs`. `bodyCompleted` forces a
   * tail ACK: nothing follows a body's last packets to trigger one, and a timer that a busy thread fires late would
   * hold the sender's probe timeout and RTT samples hostage (PROTOCOL.md §5).
   */
  onReceived(nowUs: number, bodyCompleted = false): AckStep {
    return this.step(nowUs, bodyCompleted);
  }

  /** The host's timer fired at `nowUs` (possibly early: a timer clamps to whole milliseconds; then it is re-armed). */
  onTimer(nowUs: number): AckStep {
    this.armedAtUs = null;
    return this.step(nowUs, false);
  }

  /** When the armed timer fires (µs), or null. */
  get timerDueUs(): number | null {
    return this.armedAtUs;
  }

  private step(nowUs: number, force: boolean): AckStep {
    const ack = this.receiver.poll(nowUs, force);
    const dueUs = this.receiver.ackDueAtUs();
    // Move the timer earlier when the next ACK is due before it; a timer that fires before anything is due costs one
    // poll, so it is never cancelled or moved later.
    if (dueUs === null || (this.armedAtUs !== null && this.armedAtUs <= dueUs)) return { ack, armTimerAtUs: null };
    this.armedAtUs = dueUs;
    return { ack, armTimerAtUs: dueUs };
  }
}

/** The delay to give a millisecond timer (setTimeout) to fire at `dueUs`: fractional, never negative. */
export function timerDelayMs(dueUs: number, nowUs: number): number {
  return Math.max(0, (dueUs - nowUs) / 1000);
}

// Pacing for one session when the QUIC addon's pacer sends (the origin's --pacer addon): each packet gets a departure
// time on a schedule at the controller's rate, and the sender hands the addon everything due within a short
// look-ahead (PACER_LOOKAHEAD_US); the addon's own thread sends each at its time (server/native/src/pacer.rs). A send
// turn late by less than the look-ahead less a refill then delays no departure: on a 2-core machine the event loop is
// descheduled for ms at a time, and turns late by 4–5 ms at p99 cost the loop-paced sender 11–15 % of its targets
// (bench/published/2026-11-25/pacing-catchup-spread). Pure, like token-bucket.ts: time (µs) and rate are passed in.
import { BURST_DURATION_US } from './token-bucket.ts';

const US_PER_S = 1e6;

/** The pacer modes the origin accepts (--pacer): loop = the send loop's own turns pace (token-bucket.ts); addon = the addon's pacer. */
export const PACERS = ['loop', 'addon'] as const;
export type Pacer = (typeof PACERS)[number];
/** The origin's default (--pacer): the addon's pacer; a DatagramSender given no pacer paces on its own turns. */
export const DEFAULT_PACER: Pacer = 'addon';

/**
 * How far ahead of now departures are handed to the addon, µs. A new rate (a controller's next MI, ≈ 1 RTT) applies
 * to packets scheduled after it: within this much time. A turn late by up to PACER_LOOKAHEAD_US − PACER_REFILL_US
 * leaves the addon's queue non-empty; a later one leaves it dry for the rest, which is the sending time the addon
 * arm loses (the session's `stall_descheduled_ms`). 6 ms covers the send turns' p99 lateness on a busy 2-core
 * machine (4–5 ms) at the cost of a rate change reaching the wire up to 6 ms late, a fifth of a 30-ms MI.
 */
export const PACER_LOOKAHEAD_US = 6000;
/** A sender that filled the look-ahead wakes once this much of it has left (one turn per ms, as the loop's). */
export const PACER_REFILL_US = 1000;

export class DepartureSchedule {
  /** When the next packet is due (µs). */
  private nextDueUs: number;

  /** `catchUpUs`: at most this much time at the rate is sent at once after an idle, window-held or very late sender. */
  constructor(nowUs: number, readonly catchUpUs = BURST_DURATION_US, readonly lookaheadUs = PACER_LOOKAHEAD_US) {
    this.nextDueUs = nowUs;
  }

  /** Starts a turn at `nowUs`: a schedule that fell behind now keeps at most `catchUpUs` of it (a burst, as the bucket's cap). */
  startTurn(nowUs: number): void {
    this.nextDueUs = Math.max(this.nextDueUs, nowUs - this.catchUpUs);
  }

  /** Whether the next packet is due within the look-ahead. */
  allows(nowUs: number): boolean {
    return this.nextDueUs <= nowUs + this.lookaheadUs;
  }

  /** The next packet's due time (µs, possibly before now: a catch-up); the one after it follows `bytes` at the rate later. */
  take(bytes: number, rateBytesPerSec: number): number {
    const dueUs = this.nextDueUs;
    this.nextDueUs += (bytes * US_PER_S) / rateBytesPerSec;
    return dueUs;
  }

  /** Gives back the last `bytes` taken at `rateBytesPerSec` (a packet the addon did not take). */
  refund(bytes: number, rateBytesPerSec: number): void {
    this.nextDueUs -= (bytes * US_PER_S) / rateBytesPerSec;
  }

  /** How long (µs, ≥ 1) a sender that filled the look-ahead may wait: until PACER_REFILL_US of it has gone. */
  waitUs(nowUs: number): number {
    return Math.max(1, Math.ceil(this.nextDueUs - this.lookaheadUs + PACER_REFILL_US - nowUs));
  }
}

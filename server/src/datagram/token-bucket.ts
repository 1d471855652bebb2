// Pacing for one session: a token bucket filled at the controller's rate and holding at most one burst.
// Pure: the caller passes time (µs) and the rate on every call; nothing reads a clock.
//
// Credit beyond the burst is lost when the sender was idle or blocked (by cwnd, the peer's window, QUIC's
// buffer), but when it was only waiting for tokens (the event loop ran late) part of it is kept as debt and
// repaid a little above the rate: bursts stay capped and the average rate holds on a busy machine. Debt is owed
// only at the rate it was incurred at: a new rate (a PCC controller's next monitor interval) forgives it, so
// credit a late turn lost in one MI is not sent in the next at up to 25 % above that MI's own rate.

const US_PER_S = 1e6;

/** A burst is at least this many packets: below it a packet-sized bucket would pace each packet alone. */
export const MIN_BURST_PACKETS = 2;
/**
 * …and otherwise this much time at the rate, by default (the origin's --pacing-burst-us): the send loop sleeps
 * precisely below a timer's 1 ms, and each turn is a sleep, an event-loop turn and a hand-over to QUIC that wakes its
 * thread, so a shorter burst costs CPU per datagram (issue 17, a 2-core machine).
 */
export const BURST_DURATION_US = 1000;
/** The burst durations the origin accepts: below 100 µs a sleep's own wake-up (tens of µs) is most of the wait. */
export const MIN_BURST_DURATION_US = 100;
export const MAX_BURST_DURATION_US = 2000;
/** Lost credit kept as debt, at most this much time at the rate: covers an event-loop stall, not idleness. */
export const MAX_DEBT_DURATION_US = 50_000;
/** Debt is repaid at this fraction of the newly accrued credit, i.e. at ≤ 25 % above the rate. */
export const DEBT_REPAY_FRACTION = 0.25;
/**
 * A sender waiting for tokens sleeps until the bucket is this close to full: a quarter of a burst (this fraction of its
 * duration), so at high rates a turn sends three quarters of a burst (each turn is a sleep, an event-loop turn and a hand-over to QUIC that wakes
 * its thread: the CPU per datagram on a busy 2-core machine, issue 17) and a turn up to this late, about the send
 * loop's median lateness there, still loses no credit (later ones keep it as debt); low rates sleep on timers.
 */
export const WAKE_BEFORE_FULL_FRACTION = 0.25;

/** Whether `us` is a burst duration the origin accepts (an integer in [MIN_BURST_DURATION_US, MAX_BURST_DURATION_US]). */
export function validBurstDurationUs(us: number): boolean {
  return Number.isInteger(us) && us >= MIN_BURST_DURATION_US && us <= MAX_BURST_DURATION_US;
}

/** The bucket's size: max(MIN_BURST_PACKETS packets, `burstDurationUs` of the rate). */
export function burstBytes(rateBytesPerSec: number, packetBytes: number, burstDurationUs = BURST_DURATION_US): number {
  return Math.max(MIN_BURST_PACKETS * packetBytes, (rateBytesPerSec * burstDurationUs) / US_PER_S);
}

export class TokenBucket {
  private tokens = 0;
  /** Debt in bytes at debtRateBytesPerSec. */
  private debt = 0;
  /** The rate the debt was incurred at (B/s). */
  private debtRateBytesPerSec = 0;
  private lastRefillUs: number;
  /** Credit beyond the cap that accrued while the sender waited for tokens (what late turns lost before any repayment). */
  lateCreditBytes = 0;
  /** Credit added back by repaying debt. lateCreditBytes − repaidBytes − debtBytes is what was forfeited. */
  repaidBytes = 0;

  /** `burstDurationUs`: the burst bound's time at the rate (burstBytes), and what the wake-up is a quarter of. */
  constructor(nowUs: number, readonly burstDurationUs = BURST_DURATION_US) {
    if (!validBurstDurationUs(burstDurationUs)) {
      throw new RangeError(`burst duration must be an integer from ${MIN_BURST_DURATION_US} to ${MAX_BURST_DURATION_US} µs, got ${burstDurationUs}`);
    }
    this.lastRefillUs = nowUs;
  }

  /** The bucket's size at `rateBytesPerSec` (burstBytes at this bucket's burst duration). */
  capBytes(rateBytesPerSec: number, packetBytes: number): number {
    return burstBytes(rateBytesPerSec, packetBytes, this.burstDurationUs);
  }

  get tokensBytes(): number {
    return this.tokens;
  }

  /** What is owed, in bytes at the latest refill's rate. */
  get debtBytes(): number {
    return this.debt;
  }

  /**
   * Adds the credit accrued since the last refill at `rateBytesPerSec`, capped at `capBytes`. `waitedForTokens`:
   * the sender's last turn stopped for lack of tokens, so credit beyond the cap was lost to lateness and is
   * kept as debt (up to MAX_DEBT_DURATION_US of the rate); otherwise any debt is forgiven. It is also forgiven
   * when the rate changed: repaid at a new rate, it would make an MI's send rate what the controller did not choose
   * (a rate controller measures each MI at the rate it sent; thesis §4.4).
   */
  refill(nowUs: number, rateBytesPerSec: number, capBytes: number, waitedForTokens: boolean): void {
    const elapsedUs = nowUs - this.lastRefillUs;
    const accrued = (elapsedUs * rateBytesPerSec) / US_PER_S;
    this.lastRefillUs = nowUs;
    if (rateBytesPerSec !== this.debtRateBytesPerSec) {
      this.debt = 0;
      this.debtRateBytesPerSec = rateBytesPerSec;
    }
    const repaid = Math.min(this.debt, DEBT_REPAY_FRACTION * accrued);
    this.debt -= repaid;
    this.repaidBytes += repaid;
    this.tokens += accrued + repaid;
    if (this.tokens > capBytes) {
      if (waitedForTokens) {
        this.lateCreditBytes += this.tokens - capBytes;
        const maxDebt = rateBytesPerSec / (US_PER_S / MAX_DEBT_DURATION_US);
        this.debt = Math.min(maxDebt, this.debt + this.tokens - capBytes);
      } else {
        this.debt = 0;
      }
      this.tokens = capBytes;
    }
  }

  /** Whether a packet of `bytes` may go now. */
  allows(bytes: number): boolean {
    return this.tokens >= bytes;
  }

  take(bytes: number): void {
    this.tokens -= bytes;
  }

  /** Gives back what was taken for a packet that was not sent after all. */
  refund(bytes: number): void {
    this.tokens += bytes;
  }

  /**
   * How long (µs, ≥ 1) a sender that ran out of tokens may wait: until one packet's worth has accrued, or
   * later while the bucket still has a quarter of a burst (WAKE_BEFORE_FULL_FRACTION) of room before it fills (bursts stay within the bucket;
   * fewer, fuller turns cost less CPU, and low rates sleep on a timer instead of spinning).
   */
  waitUs(packetBytes: number, rateBytesPerSec: number, capBytes: number): number {
    const onePacketUs = ((packetBytes - this.tokens) * US_PER_S) / rateBytesPerSec;
    const bucketFullUs = ((capBytes - this.tokens) * US_PER_S) / rateBytesPerSec;
    const wakeBeforeFullUs = WAKE_BEFORE_FULL_FRACTION * this.burstDurationUs;
    return Math.max(1, Math.ceil(Math.max(onePacketUs, bucketFullUs - wakeBeforeFullUs)));
  }
}

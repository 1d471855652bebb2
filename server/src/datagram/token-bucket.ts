// Pacing for one session: a token bucket filled at the controller's rate and holding at most one burst.
// Pure: the caller passes time (µs) and the rate on every call; nothing reads a clock.
//
// Credit beyond the burst is lost when the sender was idle or blocked (by cwnd, the peer's window, QUIC's
// buffer), but when it was only waiting for tokens (the event loop ran late) part of it is kept as debt and
// repaid a little above the rate: bursts stay capped and the average rate holds on a busy machine. Debt is owed
// only at the rate it was incurred at: a new rate (a PCC controller's next monitor interval) forgives it, so
// credit a late turn lost in one MI is not sent in the next at up to 25 % above that MI's own rate.
// That is the 'burst' catch-up (the default). The 'spread' catch-up (--pacing-catchup spread) keeps the lost credit
// as time at the rate across rate changes (repaid at whatever rate is current, so the controller's rates are carried
// out in full over the MIs that follow) and repays it spread thin, ≤ 10 % above the rate: at a rate ≤ 90 % of a
// bottleneck's the catch-up then builds no queue there (issue 17: a late turn's catch-up at 25 % above the rate is
// linkem's real queue in the MIs vivace's latency term charges).

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

/** How a late turn's lost credit is made up (the origin's --pacing-catchup). */
export const PACING_CATCHUPS = ['burst', 'spread'] as const;
export type PacingCatchUp = (typeof PACING_CATCHUPS)[number];
export const DEFAULT_PACING_CATCHUP: PacingCatchUp = 'burst';
/** The 'spread' catch-up repays lost time at this fraction of the time elapsed, i.e. at ≤ 10 % above the rate. */
export const SPREAD_REPAY_FRACTION = 0.1;

/** Whether `s` names a catch-up the origin accepts. */
export function isPacingCatchUp(s: string): s is PacingCatchUp {
  return (PACING_CATCHUPS as readonly string[]).includes(s);
}

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
  /** 'burst': debt in bytes at debtRateBytesPerSec. */
  private debt = 0;
  /** The rate the debt was incurred at (B/s). */
  private debtRateBytesPerSec = 0;
  /** 'spread': debt as time (µs) at whatever rate is current. */
  private debtUs = 0;
  private lastRateBytesPerSec = 0;
  private lastRefillUs: number;
  /** Credit beyond the cap that accrued while the sender waited for tokens (what late turns lost before any repayment). */
  lateCreditBytes = 0;
  /**
   * Credit added back by repaying debt. lateCreditBytes − repaidBytes − debtBytes is what was forfeited ('spread' owes
   * time: debt carried into a lower rate is owed in fewer bytes, and the difference counts as forfeited).
   */
  repaidBytes = 0;

  /**
   * `burstDurationUs`: the burst bound's time at the rate (burstBytes), and what the wake-up is a quarter of.
   * `catchUp`: how credit lost to a late turn is made up ('burst' or 'spread', above).
   */
  constructor(nowUs: number, readonly burstDurationUs = BURST_DURATION_US, readonly catchUp: PacingCatchUp = DEFAULT_PACING_CATCHUP) {
    if (!validBurstDurationUs(burstDurationUs)) {
      throw new RangeError(`burst duration must be an integer from ${MIN_BURST_DURATION_US} to ${MAX_BURST_DURATION_US} µs, got ${burstDurationUs}`);
    }
    if (!isPacingCatchUp(catchUp)) throw new RangeError(`pacing catch-up must be one of ${PACING_CATCHUPS.join(', ')}, got ${String(catchUp)}`);
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
    return this.catchUp === 'spread' ? (this.debtUs * this.lastRateBytesPerSec) / US_PER_S : this.debt;
  }

  /**
   * Adds the credit accrued since the last refill at `rateBytesPerSec`, capped at `capBytes`. `waitedForTokens`:
   * the sender's last turn stopped for lack of tokens, so credit beyond the cap was lost to lateness and is
   * kept as debt (up to MAX_DEBT_DURATION_US of the rate); otherwise any debt is forgiven. 'burst' also forgives it
   * when the rate changed: repaid at a new rate, it would make an MI's send rate what the controller did not choose
   * (a rate controller measures each MI at the rate it sent; thesis §4.4). 'spread' keeps it (refillSpread).
   */
  refill(nowUs: number, rateBytesPerSec: number, capBytes: number, waitedForTokens: boolean): void {
    const elapsedUs = nowUs - this.lastRefillUs;
    const accrued = (elapsedUs * rateBytesPerSec) / US_PER_S;
    this.lastRefillUs = nowUs;
    this.lastRateBytesPerSec = rateBytesPerSec;
    if (this.catchUp === 'spread') {
      this.refillSpread(elapsedUs, accrued, rateBytesPerSec, capBytes, waitedForTokens);
      return;
    }
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

  /**
   * The 'spread' catch-up: debt is time at the rate, kept across rate changes and repaid at ≤ SPREAD_REPAY_FRACTION
   * of the elapsed time, so a late turn's loss is made up over the turns (and MIs) after it, never in one burst.
   */
  private refillSpread(elapsedUs: number, accrued: number, rateBytesPerSec: number, capBytes: number, waitedForTokens: boolean): void {
    // A sender that ran out of data (a request cancelled or done), or was held by its window, owes nothing.
    if (!waitedForTokens) this.debtUs = 0;
    const repaidUs = Math.min(this.debtUs, SPREAD_REPAY_FRACTION * elapsedUs);
    this.debtUs -= repaidUs;
    const repaid = (repaidUs * rateBytesPerSec) / US_PER_S;
    this.repaidBytes += repaid;
    this.tokens += accrued + repaid;
    if (this.tokens <= capBytes) return;
    if (waitedForTokens) {
      this.lateCreditBytes += this.tokens - capBytes;
      this.debtUs = Math.min(MAX_DEBT_DURATION_US, this.debtUs + ((this.tokens - capBytes) * US_PER_S) / rateBytesPerSec);
    }
    this.tokens = capBytes;
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

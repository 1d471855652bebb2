// Sender-side packet accounting for one session (PROTOCOL.md §4, §7): packet number allocation with
// unpredictable skips (optimistic-ACK defence, RFC 9000 §21.4), ACK processing, loss detection with packet and
// time thresholds (RFC 9002 §6.1) and a probe timeout (§6.2). Pure: the caller supplies time and randomness.
// A probe timeout declares nothing lost (RFC 9002 §6.2): a late ACK (a busy browser worker, a tail packet waiting
// for the delayed-ACK timer) is not a drop, and reporting it as one gave the rate controller false loss signals.
import { fail, ok, type Result } from '../errors.ts';
import type { AckDatagram } from '../wire/ack-datagram.ts';
import { RttEstimator } from './rtt-estimator.ts';

const SKIP_MEMORY_PACKETS = 1 << 16;
// Enough for the losses of a few RTTs; an ACK for anything older is not counted as spurious.
const RECENTLY_LOST_MEMORY = 64;

export interface SentPacket {
  packetNumber: number;
  sentTimeUs: number;
  /** Datagram size, header included (what counts against cwnd and the receive window). */
  bytes: number;
  requestId: number;
  offset: number;
  length: number;
  retransmission: boolean;
  state: 'in-flight' | 'acked' | 'lost';
  /** Its data was already resent as a probe (it stays in flight until acked or declared lost). */
  probed?: boolean;
}

export interface TimeoutOutcome {
  /** Declared lost by the time threshold: report to the rate controller and resend. */
  lost: SentPacket[];
  /** Oldest unacknowledged packets whose data should be resent as probes; NOT losses (RFC 9002 §6.2). */
  probes: SentPacket[];
}

export interface AckOutcome {
  newlyAcked: SentPacket[];
  lost: SentPacket[];
  /** Adjusted RTT sample from this ACK's largest packet if it was newly acked, else null. */
  rttSampleUs: number | null;
}

export interface TrackerOptions {
  /** Uniform in [0, 1). Use a cryptographic source in production: the skips must be unguessable. */
  random: () => number;
  /** Average packets between skipped numbers (default 128). */
  meanSkipIntervalPackets?: number;
  /** Largest ack delay the receiver may claim (µs); also part of the probe timeout (default 5 ms). */
  maxAckDelayUs?: number;
  packetThreshold?: number;
  timeThreshold?: number;
  granularityUs?: number;
  /** Packets whose data is resent per probe timeout (default 2). */
  probePackets?: number;
}

export class SentPacketTracker {
  readonly rtt: RttEstimator;
  private readonly random: () => number;
  private readonly skipProbability: number;
  private readonly maxAckDelayUs: number;
  private readonly packetThreshold: number;
  private readonly timeThreshold: number;
  private readonly granularityUs: number;
  private readonly probePackets: number;

  /** Unresolved-or-recent packets in packet-number order; entries before `head` are gone. */
  private queue: SentPacket[] = [];
  private head = 0;
  /** Skipped packet numbers still within the tracked window, ascending. */
  private skipped: number[] = [];
  private nextNumber = 0;
  private largestSentNumber = -1;
  private largestAckedNumber = -1;
  private lastSentTimeUs = 0;
  private lossTimeUs: number | null = null;
  private ptoCount = 0;
  /** Numbers of the last RECENTLY_LOST_MEMORY packets declared lost, ascending (spurious-loss accounting only). */
  private recentlyLost: number[] = [];

  bytesInFlight = 0;
  packetsInFlight = 0;
  packetsSent = 0;
  packetsAcked = 0;
  packetsLost = 0;
  skippedNumbers = 0;
  /**
   * Packets offered to onPacketSent at or below the largest number already recorded, so not recorded. The caller
   * broke the allocation order (a bug: the number already reads as skipped, and the peer's ACK of it as optimistic;
   * the packet is never declared lost, so its data is never resent). The origin closes the session at the first.
   */
  outOfOrderSends = 0;
  /** Losses by cause: packet threshold, time threshold. */
  lostByPacketThreshold = 0;
  lostByTimeThreshold = 0;
  /** Probe timeouts that fired, and packets whose data they resent. */
  probeTimeouts = 0;
  packetsProbed = 0;
  /** Packets declared lost that the receiver acknowledged afterwards (RFC 9002 §6.1 spurious losses). */
  spuriousLosses = 0;

  constructor(options: TrackerOptions) {
    this.random = options.random;
    this.skipProbability = 1 / Math.max(2, options.meanSkipIntervalPackets ?? 128);
    this.maxAckDelayUs = options.maxAckDelayUs ?? 5000;
    this.packetThreshold = options.packetThreshold ?? 3;
    this.timeThreshold = options.timeThreshold ?? 9 / 8;
    this.granularityUs = options.granularityUs ?? 1000;
    this.probePackets = options.probePackets ?? 2;
    this.rtt = new RttEstimator(this.maxAckDelayUs);
  }

  /** Allocates the next packet number; now and then one number is skipped and remembered. */
  allocatePacketNumber(): number {
    if (this.random() < this.skipProbability) {
      this.skipped.push(this.nextNumber);
      this.skippedNumbers++;
      this.nextNumber++;
    }
    return this.nextNumber++;
  }

  /** The largest number the next allocatePacketNumber() can return (it skips at most one number). */
  get nextPacketNumberBound(): number {
    return this.nextNumber + 1;
  }

  /**
   * Records a packet as sent; returns false, counting it in outOfOrderSends, for one numbered at or below the largest
   * already recorded. Numbers must be recorded in allocation order; an allocated number that is never recorded (the
   * datagram could not be sent) is treated like a skipped one, and so is one recorded late: tracking it would put
   * the queue out of number order and take largestSent back. A caller that did send a refused packet must treat
   * false as fatal for the session: nothing would ever report that packet acknowledged or lost.
   */
  onPacketSent(packet: Omit<SentPacket, 'state'>): boolean {
    if (packet.packetNumber <= this.largestSentNumber) {
      this.outOfOrderSends++;
      return false;
    }
    for (let pn = this.largestSentNumber + 1; pn < packet.packetNumber; pn++) {
      if (!this.isSkipped(pn)) this.insertSkipped(pn);
    }
    const p = packet as SentPacket;
    p.state = 'in-flight';
    this.queue.push(p);
    this.largestSentNumber = packet.packetNumber;
    this.lastSentTimeUs = packet.sentTimeUs;
    this.bytesInFlight += packet.bytes;
    this.packetsInFlight++;
    this.packetsSent++;
    return true;
  }

  private insertSkipped(pn: number): void {
    let i = this.skipped.length;
    while (i > 0 && this.skipped[i - 1]! > pn) i--;
    this.skipped.splice(i, 0, pn);
  }

  private firstSkippedAtOrAbove(pn: number): number | undefined {
    let lo = 0;
    let hi = this.skipped.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.skipped[mid]! < pn) lo = mid + 1;
      else hi = mid;
    }
    return this.skipped[lo];
  }

  private isSkipped(pn: number): boolean {
    for (let i = this.skipped.length - 1; i >= 0; i--) {
      const s = this.skipped[i]!;
      if (s === pn) return true;
      if (s < pn) return false;
    }
    return false;
  }

  get largestSent(): number {
    return this.largestSentNumber;
  }

  get largestAcked(): number {
    return this.largestAckedNumber;
  }

  /** Index in `queue` of the first entry with packetNumber ≥ pn. */
  private lowerBound(pn: number): number {
    let lo = this.head;
    let hi = this.queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.queue[mid]!.packetNumber < pn) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /**
   * Applies an ACK. An ACK for a number never sent or deliberately skipped is an error the caller must treat
   * as fatal for the session (nothing is applied in that case).
   */
  onAck(ack: AckDatagram, nowUs: number, receivedAtUs: number = nowUs): Result<AckOutcome> {
    const largest = ack.ranges[0]!.largest;
    if (largest > this.largestSentNumber) {
      return fail('ack-of-unsent', `ACK for packet ${largest}, but the largest sent is ${this.largestSentNumber}`);
    }
    let previousSmallest = Infinity;
    for (const r of ack.ranges) {
      if (r.smallest < 0 || r.smallest > r.largest || r.largest >= previousSmallest - 1) return fail('bad-ack-range', 'ACK ranges not descending and separated');
      previousSmallest = r.smallest;
    }
    for (const r of ack.ranges) {
      const s = this.firstSkippedAtOrAbove(r.smallest);
      if (s !== undefined && s <= r.largest) return fail('optimistic-ack', `ACK covers packet ${s}, which was never sent`);
    }

    const newlyAcked: SentPacket[] = [];
    let largestNewly: SentPacket | null = null;
    for (const r of ack.ranges) {
      for (let i = this.lowerBound(r.smallest); i < this.queue.length; i++) {
        const p = this.queue[i]!;
        if (p.packetNumber > r.largest) break;
        if (p.state !== 'in-flight') continue;
        p.state = 'acked';
        this.bytesInFlight -= p.bytes;
        this.packetsInFlight--;
        this.packetsAcked++;
        newlyAcked.push(p);
        if (largestNewly === null || p.packetNumber > largestNewly.packetNumber) largestNewly = p;
      }
    }
    this.countSpuriousLosses(ack);
    if (ack.ranges.length > 1) newlyAcked.sort((a, b) => a.packetNumber - b.packetNumber); // ascending for the caller

    let rttSampleUs: number | null = null;
    if (largestNewly !== null && largestNewly.packetNumber === largest) {
      // The ACK's arrival, not its processing, ends the sample (never before the packet was sent).
      rttSampleUs = this.rtt.update(Math.max(0, Math.min(nowUs, receivedAtUs) - largestNewly.sentTimeUs), ack.ackDelayUs);
    }
    if (largest > this.largestAckedNumber) this.largestAckedNumber = largest;
    if (newlyAcked.length > 0) this.ptoCount = 0;
    const lost = this.detectLosses(nowUs);
    this.trim();
    return ok({ newlyAcked, lost, rttSampleUs });
  }

  private lossDelayUs(): number {
    const base = this.rtt.samples === 0 ? 0 : Math.max(this.rtt.smoothedUs, this.rtt.latestUs);
    return Math.max(this.timeThreshold * base, this.granularityUs);
  }

  /** RFC 9002 §6.1: lost when `packetThreshold` newer packets were acked, or sent more than the loss delay ago. */
  private detectLosses(nowUs: number): SentPacket[] {
    const lost: SentPacket[] = [];
    this.lossTimeUs = null;
    if (this.largestAckedNumber < 0) return lost;
    const lossDelay = this.lossDelayUs();
    const lostSentBeforeUs = nowUs - lossDelay;
    for (let i = this.head; i < this.queue.length; i++) {
      const p = this.queue[i]!;
      if (p.packetNumber > this.largestAckedNumber) break;
      if (p.state !== 'in-flight') continue;
      const byPackets = this.largestAckedNumber - p.packetNumber >= this.packetThreshold;
      if (byPackets || p.sentTimeUs <= lostSentBeforeUs) {
        if (byPackets) this.lostByPacketThreshold++;
        else this.lostByTimeThreshold++;
        this.markLost(p);
        lost.push(p);
      } else {
        // Later packets were sent later and are closer to the largest acked: none of them is lost yet.
        this.lossTimeUs = p.sentTimeUs + lossDelay;
        break;
      }
    }
    return lost;
  }

  /**
   * Removes acknowledged numbers from the recently-lost list, counting each as a spurious loss once. One merge walk
   * (the list ascending, the ranges descending as onAck checked), in place: every ACK comes here, and testing each
   * lost number against every range with a new list per ACK cost the origin ~2 µs per datagram at 100 Mbit/s.
   */
  private countSpuriousLosses(ack: AckDatagram): void {
    const lost = this.recentlyLost;
    let kept = 0;
    let r = ack.ranges.length - 1; // the lowest range
    for (let i = 0; i < lost.length; i++) {
      const pn = lost[i]!;
      while (r >= 0 && ack.ranges[r]!.largest < pn) r--;
      if (r >= 0 && pn >= ack.ranges[r]!.smallest) this.spuriousLosses++;
      else lost[kept++] = pn;
    }
    lost.length = kept;
  }

  private markLost(p: SentPacket): void {
    this.recentlyLost.push(p.packetNumber);
    if (this.recentlyLost.length > RECENTLY_LOST_MEMORY) this.recentlyLost.shift();
    p.state = 'lost';
    this.bytesInFlight -= p.bytes;
    this.packetsInFlight--;
    this.packetsLost++;
  }

  /** Drops resolved packets from the front, and skipped numbers that can no longer be acknowledged. */
  private trim(): void {
    while (this.head < this.queue.length && this.queue[this.head]!.state !== 'in-flight') this.head++;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    // Skipped numbers are remembered for the last SKIP_MEMORY_PACKETS numbers (≈ 512 entries) even when
    // everything around them is resolved: no honest receiver ever acknowledges one.
    const oldestInFlight = this.head < this.queue.length ? this.queue[this.head]!.packetNumber : this.largestSentNumber + 1;
    const oldest = Math.min(oldestInFlight, this.largestSentNumber - SKIP_MEMORY_PACKETS);
    let drop = 0;
    while (drop < this.skipped.length && this.skipped[drop]! < oldest) drop++;
    if (drop > 0) this.skipped.splice(0, drop);
  }

  private ptoDurationUs(): number {
    const srtt = this.rtt.samples === 0 ? 100_000 : this.rtt.smoothedUs;
    const variance = this.rtt.samples === 0 ? 50_000 : this.rtt.varianceUs;
    return (srtt + Math.max(4 * variance, this.granularityUs) + this.maxAckDelayUs) * 2 ** Math.min(this.ptoCount, 10);
  }

  /** The next time `onTimeout` has work (loss by time threshold, or probe timeout), or null. */
  nextTimeoutUs(): number | null {
    if (this.lossTimeUs !== null) return this.lossTimeUs;
    if (this.packetsInFlight === 0) return null;
    return this.lastSentTimeUs + this.ptoDurationUs();
  }

  /**
   * Handles an expired timer: packets lost by the time threshold, or, on a probe timeout, the oldest
   * unacknowledged packets not yet probed, whose data the caller resends under new numbers. Probed packets stay
   * in flight: only an ACK of something newer (packet/time threshold) declares them lost (RFC 9002 §6.2).
   */
  onTimeout(nowUs: number): TimeoutOutcome {
    const deadline = this.nextTimeoutUs();
    if (deadline === null || nowUs < deadline) return { lost: [], probes: [] };
    if (this.lossTimeUs !== null) {
      const lost = this.detectLosses(nowUs);
      this.trim();
      return { lost, probes: [] };
    }
    const probes: SentPacket[] = [];
    for (let i = this.head; i < this.queue.length && probes.length < this.probePackets; i++) {
      const p = this.queue[i]!;
      if (p.state !== 'in-flight' || p.probed === true) continue;
      p.probed = true;
      probes.push(p);
    }
    this.packetsProbed += probes.length;
    this.probeTimeouts++;
    this.ptoCount++;
    return { lost: [], probes };
  }

  /** Packets still tracked (memory bound check). */
  get trackedPackets(): number {
    return this.queue.length - this.head;
  }
}

// Receiver-side acknowledgement state (PROTOCOL.md §4): remembers received packet numbers as ranges and decides
// when an ACK is due: after `ackEveryPackets` new packets, after `maxAckDelayUs`, or at once when a packet
// arrives out of order (a gap speeds up the sender's loss detection, as in RFC 9000 §13.2.1).
import { MAX_ACK_RANGES } from '../constants.ts';
import { RangeSet } from '../range-set.ts';
import { encodeAckDatagram, type PacketRange } from '../wire/ack-datagram.ts';

export interface AckPolicy {
  ackEveryPackets: number;
  maxAckDelayUs: number;
  maxRanges: number;
}

/** Most packets received before an ACK goes out. */
export const ACK_EVERY_PACKETS = 4;
/** The delayed-ACK time of our receivers, well inside PROTOCOL.md §4's 2 ms: tail packets (the last 1-3 of a body,
 *  before the every-4 rule fires) wait for it, host timers run late under load, and an ACK later than the sender's
 *  probe timeout makes it declare arrived packets lost (a false loss signal for the controller). */
export const MAX_ACK_DELAY_US = 500;

export const DEFAULT_ACK_POLICY: AckPolicy = { ackEveryPackets: ACK_EVERY_PACKETS, maxAckDelayUs: MAX_ACK_DELAY_US, maxRanges: MAX_ACK_RANGES };

export class AckBuilder {
  private readonly policy: AckPolicy;
  private readonly received = new RangeSet();
  private largest = -1;
  private largestRecvTimeUs = 0;
  private unackedPackets = 0;
  private firstUnackedTimeUs = 0;
  private immediate = false;
  duplicates = 0;
  acksBuilt = 0;

  constructor(policy: Partial<AckPolicy> = {}) {
    this.policy = { ...DEFAULT_ACK_POLICY, ...policy };
    if (!(this.policy.ackEveryPackets >= 1) || !(this.policy.maxAckDelayUs >= 0)) throw new RangeError('bad ack policy');
    this.policy.maxRanges = Math.max(1, Math.min(MAX_ACK_RANGES, Math.floor(this.policy.maxRanges)));
  }

  /** Records a received packet; returns false for a duplicate. */
  onPacket(packetNumber: number, nowUs: number): boolean {
    if (this.received.has(packetNumber)) {
      this.duplicates++;
      // A duplicate suggests our ACK was lost: answer promptly.
      this.markPending(nowUs);
      this.immediate = true;
      return false;
    }
    if (this.largest >= 0 && packetNumber !== this.largest + 1) this.immediate = true;
    this.received.add(packetNumber, packetNumber + 1);
    // Old gaps are never filled (retransmissions use new numbers): keep only the ranges an ACK can carry.
    this.received.keepHighest(this.policy.maxRanges);
    if (packetNumber > this.largest) {
      this.largest = packetNumber;
      this.largestRecvTimeUs = nowUs;
    }
    this.markPending(nowUs);
    if (this.unackedPackets >= this.policy.ackEveryPackets) this.immediate = true;
    return true;
  }

  private markPending(nowUs: number): void {
    if (this.unackedPackets === 0) this.firstUnackedTimeUs = nowUs;
    this.unackedPackets++;
  }

  /** Asks for an ACK as soon as possible (e.g. a window update), if anything was ever received. */
  requestImmediateAck(nowUs: number): void {
    if (this.largest < 0) return;
    if (this.unackedPackets === 0) {
      this.unackedPackets = 1;
      this.firstUnackedTimeUs = nowUs;
    }
    this.immediate = true;
  }

  /** When the next ACK is due (µs, same clock as onPacket), or null when nothing awaits acknowledgement. */
  ackDueAtUs(): number | null {
    if (this.unackedPackets === 0) return null;
    return this.immediate ? this.firstUnackedTimeUs : this.firstUnackedTimeUs + this.policy.maxAckDelayUs;
  }

  /** Builds an ACK datagram if one is due at `nowUs` (or `force`), else null. */
  poll(nowUs: number, windowBytes: number, force = false): Uint8Array | null {
    const due = this.ackDueAtUs();
    if (this.largest < 0 || (!force && (due === null || due > nowUs))) return null;
    const ranges: PacketRange[] = this.received
      .highestIntervals(this.policy.maxRanges)
      .map((iv) => ({ smallest: iv.start, largest: iv.end - 1 }));
    const ackDelayUs = Math.max(0, Math.min(0xffff_ffff, Math.round(nowUs - this.largestRecvTimeUs)));
    this.unackedPackets = 0;
    this.immediate = false;
    this.acksBuilt++;
    return encodeAckDatagram({
      ranges,
      ackDelayUs,
      largestRecvTimeUs: Math.max(0, Math.round(this.largestRecvTimeUs)),
      windowBytes: Math.max(0, Math.min(0xffff_ffff, Math.floor(windowBytes))),
    });
  }

  get largestReceived(): number {
    return this.largest;
  }
}

// Ack validation and flood defence for one session (PROTOCOL.md §3, §7): the only datagram a client may send
// is a well-formed ACK, within the session's ACK budget, acknowledging only numbers the server sent (the
// tracker's skipped numbers catch optimistic ACKs, RFC 9000 §21.4). A rejection names the close code and why;
// all state is per session, so one hostile peer costs only its own session.
import {
  CLOSE_OPTIMISTIC_ACK, CLOSE_PROTOCOL_VIOLATION, DATAGRAM_TYPE_ACK, decodeAckDatagram,
  type AckDatagram, type AckOutcome, type SentPacketTracker,
} from '@pcc-stream/protocol';

const US_PER_S = 1e6;
/** ACKs allowed on top of the budget below: window updates before and around the first DATA. */
export const ACK_BUDGET_BASE_ACKS = 64;
/** ACKs allowed per DATA packet sent: an honest receiver acks each packet at most once. */
export const ACK_BUDGET_PER_PACKET = 1;
/** ACKs allowed per second of the session's life on top: window updates and ack-delay timers. */
export const ACK_BUDGET_PER_S = 1000;

export type AckRejectionKind =
  | 'not-ack' // empty, or a type other than ACK (DATA is server → client only)
  | 'malformed' // an ACK that does not decode
  | 'flood' // more ACKs than the budget allows
  | 'bad-ack-range' // forged ranges: overlapping, not descending
  | 'ack-of-unsent' // out of window: a number above the largest sent
  | 'optimistic-ack'; // a number the sender skipped on purpose

export interface AckRejection {
  kind: AckRejectionKind;
  /** The session close code (PROTOCOL.md §1.3). */
  closeCode: number;
  reason: string;
}

export type AckCheck = { ok: true; ack: AckDatagram; outcome: AckOutcome } | { ok: false; rejection: AckRejection };

function reject(kind: AckRejectionKind, reason: string): AckCheck {
  const closeCode = kind === 'optimistic-ack' || kind === 'ack-of-unsent' ? CLOSE_OPTIMISTIC_ACK : CLOSE_PROTOCOL_VIOLATION;
  return { ok: false, rejection: { kind, closeCode, reason } };
}

export class AckGuard {
  /** Well-formed ACKs received, the flooding ones included. */
  acksReceived = 0;
  /** Sum of the ack delays those ACKs reported (µs), for the mean in stats. */
  ackDelaySumUs = 0;

  constructor(private readonly startUs: number) {}

  /** The most ACKs a session that has sent `packetsSent` packets may have sent by `nowUs`. */
  budget(packetsSent: number, nowUs: number): number {
    return packetsSent * ACK_BUDGET_PER_PACKET + ACK_BUDGET_BASE_ACKS + ((nowUs - this.startUs) / US_PER_S) * ACK_BUDGET_PER_S;
  }

  /**
   * Checks one datagram from the client and, if it is an acceptable ACK, applies it to `tracker` (which
   * applies nothing when it finds the ACK invalid). `receivedAtUs` ends RTT samples (see SentPacketTracker).
   */
  check(datagram: Uint8Array, tracker: SentPacketTracker, nowUs: number, receivedAtUs: number): AckCheck {
    if (datagram.byteLength === 0 || datagram[0] !== DATAGRAM_TYPE_ACK) {
      const type = datagram.byteLength === 0 ? 'empty' : '0x' + datagram[0]!.toString(16);
      return reject('not-ack', `datagram of type ${type} from the client; only ACK is allowed`);
    }
    const decoded = decodeAckDatagram(datagram);
    if (!decoded.ok) return reject('malformed', `malformed ACK: ${decoded.error.message}`);
    this.acksReceived++;
    if (this.acksReceived > this.budget(tracker.packetsSent, nowUs)) {
      return reject('flood', `ACK flood: ${this.acksReceived} ACKs for ${tracker.packetsSent} packets`);
    }
    this.ackDelaySumUs += decoded.value.ackDelayUs;
    const outcome = tracker.onAck(decoded.value, nowUs, receivedAtUs);
    if (!outcome.ok) {
      const code = outcome.error.code;
      const kind = code === 'optimistic-ack' || code === 'ack-of-unsent' ? code : 'bad-ack-range';
      return reject(kind, outcome.error.message);
    }
    return { ok: true, ack: decoded.value, outcome: outcome.value };
  }
}

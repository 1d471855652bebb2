// Ack validation for one session (PROTOCOL.md §3, §7): the only datagram a client may send is a well-formed ACK,
// acknowledging only numbers the server sent (the tracker's skipped numbers catch optimistic ACKs, RFC 9000 §21.4).
// A rejection names the close code and why; all state is per session, so one hostile peer costs only its own
// session. How many datagrams a client may send, and of which type, the QUIC addon checks before they get here
// (session/client-datagram-limits.ts).
import {
  CLOSE_OPTIMISTIC_ACK, CLOSE_PROTOCOL_VIOLATION, DATAGRAM_TYPE_ACK, decodeAckDatagram,
  type AckDatagram, type AckOutcome, type SentPacketTracker,
} from '@pcc-stream/protocol';

export type AckRejectionKind =
  | 'not-ack' // empty, or a type other than ACK (DATA is server → client only)
  | 'malformed' // an ACK that does not decode
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
  /** Well-formed ACKs received, the hostile ones included. */
  acksReceived = 0;
  /** Sum of the ack delays those ACKs reported (µs), for the mean in stats. */
  ackDelaySumUs = 0;

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

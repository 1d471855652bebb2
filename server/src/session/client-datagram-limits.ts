// What a client may send as datagrams (PROTOCOL.md §7), enforced by the QUIC addon as each datagram arrives, before
// any reaches this process's event loop: a datagram session's client sends ACKs only, within a budget; a quic-stream
// session's none. A client over it loses its session (code 1) with a reason, and costs nothing more.
import { CLOSE_PROTOCOL_VIOLATION, DATAGRAM_TYPE_ACK } from '@pcc-stream/protocol';
import type { InboundDatagramLimits } from '@pcc-stream/quic';

/** A receiver acknowledges each DATA datagram at most once (PROTOCOL.md §4): one datagram earned per datagram sent. */
export const CLIENT_DATAGRAMS_PER_SENT = 1;
/** Datagrams a client may send before it has earned any: window updates before and around the first DATA. */
export const DEFAULT_CLIENT_DATAGRAM_BURST = 64;
/** Datagrams per second of a session's life on top: window updates and ack-delay timers. */
export const DEFAULT_CLIENT_DATAGRAMS_PER_S = 1000;

export interface ClientDatagramBudget {
  /** Datagrams allowed before any is earned (--client-datagram-burst). */
  burst: number;
  /** Datagrams earned per second of the session's life (--client-datagrams-per-s). */
  perS: number;
}

export const DEFAULT_CLIENT_DATAGRAM_BUDGET: ClientDatagramBudget = { burst: DEFAULT_CLIENT_DATAGRAM_BURST, perS: DEFAULT_CLIENT_DATAGRAMS_PER_S };

/** A datagram session's client: ACKs only, at most burst + one per datagram sent + perS per second. */
export function ackOnlyLimits(budget: ClientDatagramBudget): InboundDatagramLimits {
  return {
    base: budget.burst, perSent: CLIENT_DATAGRAMS_PER_SENT, perSecond: budget.perS, allowedTypes: [DATAGRAM_TYPE_ACK],
    closeCode: CLOSE_PROTOCOL_VIOLATION,
  };
}

/** A quic-stream session's client has no use for datagrams: the first one means a confused or hostile client. */
export const NO_DATAGRAMS: InboundDatagramLimits = { base: 0, perSent: 0, perSecond: 0, allowedTypes: [], closeCode: CLOSE_PROTOCOL_VIOLATION };
